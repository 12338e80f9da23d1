# Remove dangling edges: an edge (a property with a skos:notation in the
# vocabulary graph, or a raw-label predicate) whose subject is not a typed node
# of the paper graph, or whose object is neither a typed node of the paper graph
# nor a CANON_ hub (cg:CanonicalNode) of any graph. Runs after the extraction's
# dangling-name resolution has had its chance; an edge still dangling then has
# no endpoint to keep. Its edge annotation is removed by sync_edge_annotations.
# The endpoint checks run on the edge triples only (fragment edge_triples).
# Bind ?graph (the paper graph) and ?vocabulary (the profile vocabulary graph).
PREFIX cg:   <https://w3id.org/claimgraph/ontology/v1#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>

DELETE { GRAPH ?graph { ?subject ?edge ?object } }
WHERE {
  {{edge_triples(?subject, ?edge, ?object)}}
  FILTER(NOT EXISTS { GRAPH ?graph { ?subject a ?subjectType } }
         || (NOT EXISTS { GRAPH ?graph { ?object a ?objectType } }
             && NOT EXISTS { GRAPH ?hubs { ?object a cg:CanonicalNode } }))
}
