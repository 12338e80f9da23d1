# Recompute cg:memberCount of every CANON_ hub from the store: the number of
# distinct nodes, in any graph, with a cg:mentions edge to the hub. Run by
# `claimgraph reindex`, which corrects counts left stale by re-ingested papers.
# Bind ?canonical (the canonical graph).
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>

DELETE { GRAPH ?canonical { ?hub cg:memberCount ?old } }
INSERT { GRAPH ?canonical { ?hub cg:memberCount ?count } }
WHERE {
  {
    SELECT ?hub (COUNT(DISTINCT ?member) AS ?members)
    WHERE {
      GRAPH ?canonical { ?hub a cg:CanonicalNode }
      OPTIONAL { GRAPH ?paper { ?member cg:mentions ?hub } }
    }
    GROUP BY ?hub
  }
  OPTIONAL { GRAPH ?canonical { ?hub cg:memberCount ?old } }
  BIND(xsd:integer(?members) AS ?count)
  FILTER(?count > 0)
}
