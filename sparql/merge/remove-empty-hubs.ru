# Remove every CANON_ node left with no member (cg:memberCount 0), and the
# judges' cg:judgedDifferentFrom verdicts that name it, so that
# CanonicalNodeShape's memberCount >= 1 holds and no verdict outlives the text it
# was about. Last, the statement naming the judge of each verdict
# (cg:judgedDifferentFrom, cg:heldApartFrom) no longer stated: gone here, or
# with a re-ingested paper in remove-hub-members.ru.
# Appended to each request that can empty a hub: a re-ingest
# (remove-hub-members.ru), an unmerge (unlink-member.ru) and reindex
# (recount-hub-members.ru). Bind ?canonical.
PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

DELETE { GRAPH ?canonical { ?node cg:judgedDifferentFrom ?hub } }
WHERE { GRAPH ?canonical { ?hub a cg:CanonicalNode ; cg:memberCount 0 . ?node cg:judgedDifferentFrom ?hub } } ;

DELETE { GRAPH ?canonical { ?hub ?p ?o } }
WHERE { GRAPH ?canonical { ?hub a cg:CanonicalNode ; cg:memberCount 0 ; ?p ?o } } ;

DELETE { GRAPH ?canonical { ?verdict ?p ?o } }
WHERE {
  GRAPH ?canonical {
    VALUES ?kept { cg:judgedDifferentFrom cg:heldApartFrom }
    ?verdict rdf:predicate ?kept ; rdf:subject ?node ; rdf:object ?other ; ?p ?o .
    FILTER NOT EXISTS { ?node ?kept ?other }
  }
}
