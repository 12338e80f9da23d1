# Give a basis to each link of the canonical graph written before claimgraph
# recorded one (run by `claimgraph reindex`): cg:exactText when the member's
# text is its CANON_ node's text, byte for byte; cg:similarity otherwise, which
# is all that can be known now (a link a judge decided then is under-claimed,
# and `canonicalize --recheck` can ask again). Links that have a basis keep it.
# Bind ?canonical.
PREFIX cg:   <https://w3id.org/claimgraph/ontology/v1#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX rdf:  <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

INSERT { GRAPH ?canonical { ?annotation cg:linkBasis ?basis } }
WHERE {
  GRAPH ?canonical {
    ?hub a cg:CanonicalNode ; cg:representativeText ?hubText .
    ?annotation a cg:EdgeAnnotation ; rdf:subject ?member ; rdf:object ?hub ; prov:wasDerivedFrom ?paper .
    OPTIONAL { ?annotation cg:linkBasis ?recorded }
  }
  FILTER(!BOUND(?recorded))
  OPTIONAL { GRAPH ?paper { ?member cg:text ?text } }
  BIND(IF(BOUND(?text) && ?text = ?hubText, cg:exactText, cg:similarity) AS ?basis)
}
