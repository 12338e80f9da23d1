# Remove self-loops: an edge (a property with a skos:notation in the vocabulary
# graph, or a raw-label predicate) from a node to itself. Its edge annotation
# is removed by sync_edge_annotations.
# acts-on: self-loop
# Bind ?graph (the paper graph) and ?vocabulary (the profile vocabulary graph).
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>

DELETE { GRAPH ?graph { ?node ?edge ?node } }
WHERE {
  GRAPH ?graph { ?node ?edge ?node }
  FILTER({{is_edge_predicate(?edge)}})
}
