# Remove every CANON_ node left with no member (cg:memberCount 0), and the
# judges' cg:judgedDifferentFrom verdicts that name it with their statements,
# so that CanonicalNodeShape's memberCount >= 1 holds and no verdict outlives
# the text it was about. Hold-apart marks naming it stay: they keep its former
# members' texts apart. Appended to each request that can empty a hub: a
# re-ingest (remove-hub-members.ru), an unmerge (unlink-member.ru) and reindex
# (recount-hub-members.ru). Bind ?canonical.
PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

DELETE { GRAPH ?canonical { ?statement ?p ?o } }
WHERE {
  GRAPH ?canonical { ?hub a cg:CanonicalNode ; cg:memberCount 0 . ?node cg:judgedDifferentFrom ?hub }
  GRAPH ?canonical { ?statement rdf:subject ?node ; rdf:predicate cg:judgedDifferentFrom ; rdf:object ?hub ; ?p ?o }
} ;

DELETE { GRAPH ?canonical { ?node cg:judgedDifferentFrom ?hub } }
WHERE { GRAPH ?canonical { ?hub a cg:CanonicalNode ; cg:memberCount 0 . ?node cg:judgedDifferentFrom ?hub } } ;

DELETE { GRAPH ?canonical { ?hub ?p ?o } }
WHERE { GRAPH ?canonical { ?hub a cg:CanonicalNode ; cg:memberCount 0 ; ?p ?o } }
