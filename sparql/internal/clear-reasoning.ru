# Remove a paper's reasoning content from one of its graphs (?target: the paper
# graph or its raw graph) before a new response is stored in the same request:
# reasoning nodes and edge annotations with everything they state, untyped
# subjects under the paper's node namespace (?nodes, a string prefix: edges
# from ids a response never declared, kept in the raw graph), and the paper's
# parser branch and residual labels. The document structure stays. The prefix
# test runs on the graph's distinct subjects, not on each of its triples (an
# ARCHE paper graph: 2.7 ms against 7.4 ms).
# No PREFIX: the code runs this update twice in one request (paper graph and
# raw graph), and a prologue may only open a request.
# Bind ?target, ?paper (the paper graph) and ?nodes.
DELETE { GRAPH ?target { ?subject ?property ?value } }
WHERE {
  GRAPH ?target { ?subject a ?type ; ?property ?value }
  FILTER(?type IN (<https://w3id.org/claimgraph/ontology/v1#ReasoningNode>, <https://w3id.org/claimgraph/ontology/v1#EdgeAnnotation>))
} ;

DELETE { GRAPH ?target { ?subject ?property ?value } }
WHERE {
  { SELECT DISTINCT ?subject WHERE { GRAPH ?target { ?subject ?anyProperty ?anyValue } } }
  FILTER(STRSTARTS(STR(?subject), ?nodes))
  FILTER NOT EXISTS { GRAPH ?target { ?subject a ?anyType } }
  GRAPH ?target { ?subject ?property ?value }
} ;

DELETE { GRAPH ?target { ?paper ?property ?value } }
WHERE {
  GRAPH ?target { ?paper ?property ?value }
  FILTER(?property IN (<https://w3id.org/claimgraph/ontology/v1#parserBranch>, <https://w3id.org/claimgraph/ontology/v1#residual>))
}
