# Before a paper graph is replaced (re-ingest), take the paper's nodes out of the
# canonical graph in the same request: the CANON_ hubs' cg:memberCount goes down
# by the paper's members, its links (cg:mentions / skos:exactMatch) and their
# annotations go, each hub forgets the paper in its provenance, and a judge's
# DIFFERENT verdicts about its nodes go (their
# texts may change), each with its statement naming the judge (matched by
# rdf:subject, rdf:predicate and rdf:object: computing its IRI made a slow
# join). remove-empty-hubs.ru follows in the same request: hubs left with no
# member go. Linking the new graph then counts its members once, and no count
# ever drifts below 1. Hold-apart marks (an unmerge) stay: each names the node and
# the text it was about, and keeps holding while the re-ingested node has that text
# (sparql/internal/canonical-nodes.rq).
# A link belongs to the paper its annotation's prov:wasDerivedFrom names.
# Bind ?graph (the paper graph about to be replaced) and ?canonical.
PREFIX cg:   <https://w3id.org/claimgraph/ontology/v1#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX rdf:  <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

DELETE { GRAPH ?canonical { ?hub cg:memberCount ?old } }
INSERT { GRAPH ?canonical { ?hub cg:memberCount ?count } }
WHERE {
  {
    SELECT ?hub (COUNT(DISTINCT ?member) AS ?leaving)
    WHERE {
      GRAPH ?canonical {
        ?annotation a cg:EdgeAnnotation ; prov:wasDerivedFrom ?graph ; rdf:subject ?member ; rdf:object ?hub .
        ?hub a cg:CanonicalNode .
      }
    }
    GROUP BY ?hub
  }
  GRAPH ?canonical { ?hub cg:memberCount ?old }
  BIND(IF(?old > ?leaving, ?old - ?leaving, 0) AS ?count)
} ;

DELETE { GRAPH ?canonical { ?member ?link ?hub . ?annotation ?p ?o } }
WHERE {
  GRAPH ?canonical {
    ?annotation a cg:EdgeAnnotation ; prov:wasDerivedFrom ?graph ;
                rdf:subject ?member ; rdf:predicate ?link ; rdf:object ?hub ; ?p ?o .
  }
} ;

DELETE { GRAPH ?canonical { ?hub prov:wasDerivedFrom ?graph } }
WHERE { GRAPH ?canonical { ?hub a cg:CanonicalNode ; prov:wasDerivedFrom ?graph } } ;

DELETE { GRAPH ?canonical { ?statement ?p ?o } }
WHERE {
  GRAPH ?canonical { ?node cg:judgedDifferentFrom ?other }
  FILTER(STRSTARTS(STR(?node), CONCAT(STR(?graph), "/")) || STRSTARTS(STR(?other), CONCAT(STR(?graph), "/")))
  GRAPH ?canonical { ?statement rdf:subject ?node ; rdf:predicate cg:judgedDifferentFrom ; rdf:object ?other ; ?p ?o }
} ;

DELETE { GRAPH ?canonical { ?node cg:judgedDifferentFrom ?other } }
WHERE {
  GRAPH ?canonical { ?node cg:judgedDifferentFrom ?other }
  FILTER(STRSTARTS(STR(?node), CONCAT(STR(?graph), "/")) || STRSTARTS(STR(?other), CONCAT(STR(?graph), "/")))
}
