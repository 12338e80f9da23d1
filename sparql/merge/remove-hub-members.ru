# Before a paper graph is replaced (re-ingest), take its members out of the
# cg:memberCount of the CANON_ hubs it mentions, so that linking the new graph
# counts them once. Runs in the same request as the replacement. The paper's
# mentions are read first (a subquery), so the cost follows the paper, not the
# number of hubs.
# Bind ?graph (the paper graph about to be replaced) and ?canonical.
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>

DELETE { GRAPH ?canonical { ?hub cg:memberCount ?old } }
INSERT { GRAPH ?canonical { ?hub cg:memberCount ?count } }
WHERE {
  {
    SELECT ?hub (COUNT(DISTINCT ?member) AS ?leaving)
    WHERE { GRAPH ?graph { ?member cg:mentions ?hub } }
    GROUP BY ?hub
  }
  GRAPH ?canonical { ?hub cg:memberCount ?old }
  BIND(IF(?old > ?leaving, ?old - ?leaving, 0) AS ?count)
}
