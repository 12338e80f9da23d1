# Remove the typed residual labels recorded on a paper, before the gate writes
# the new ones in the same request. Bind ?graph to the paper graph.
PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#>

DELETE { GRAPH ?graph { ?graph cg:residual ?label } }
WHERE { GRAPH ?graph { ?graph cg:residual ?label } }
