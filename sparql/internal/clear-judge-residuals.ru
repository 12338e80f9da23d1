# Remove the residual labels the judge-feedback repair decides (stage "judge"
# in ontology/residuals.ttl) from a paper, before a judge run writes its own in
# the same request; labels of other stages stay. claimgraph.judge.evaluation
# RESIDUAL_ORDER lists the same four (a test checks they agree).
# Bind ?graph to the paper graph.
PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#>

DELETE { GRAPH ?graph { ?graph cg:residual ?label } }
WHERE {
  GRAPH ?graph { ?graph cg:residual ?label }
  FILTER(STR(?label) IN ("final_judge_failed", "no_reliable_anchor", "metric_regression", "final_gate_failed"))
}
