# Recompute cg:memberCount of the CANON_ hubs that nodes of one paper graph mention:
# the number of distinct nodes, in any graph, with a cg:mentions edge to the hub (only
# paper graphs hold such edges; testing that ?paper is a paper graph would make the
# cost grow with the number of papers).
# Bind ?graph (the paper graph just linked) and ?canonical (the canonical graph).
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>

DELETE { GRAPH ?canonical { ?hub cg:memberCount ?old } }
INSERT { GRAPH ?canonical { ?hub cg:memberCount ?count } }
WHERE {
  {
    SELECT ?hub (COUNT(DISTINCT ?member) AS ?members)
    WHERE {
      { SELECT DISTINCT ?hub WHERE {
          GRAPH ?graph { ?linked cg:mentions ?hub }
          GRAPH ?canonical { ?hub a cg:CanonicalNode }
      } }
      GRAPH ?paper { ?member cg:mentions ?hub }
    }
    GROUP BY ?hub
  }
  OPTIONAL { GRAPH ?canonical { ?hub cg:memberCount ?old } }
  BIND(xsd:integer(?members) AS ?count)
}
