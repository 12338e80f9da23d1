# Canonicalize edge labels. An edge label the materializer could not match to a
# canonical label is stored as a raw-label predicate
# <https://w3id.org/claimgraph/raw-label/NORMALIZED-LABEL>. The profile's alias
# table ([aliases] in profiles/NAME.toml, plus every canonical label itself) is
# loaded into the vocabulary graph as RAW cg:aliasOf PROPERTY; every edge whose
# predicate has an alias is rewritten to the canonical property, and its edge
# annotation's rdf:predicate follows (sync_edge_annotations re-derives its IRI).
# Raw labels without an alias are left alone: the closed_edge_labels rule
# reports them as residual unknown_label.
# acts-on: raw-label
# Bind ?graph (the paper graph) and ?vocabulary (the profile vocabulary graph).
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

DELETE { GRAPH ?graph { ?subject ?raw ?object } }
INSERT { GRAPH ?graph { ?subject ?canonical ?object } }
WHERE {
  GRAPH ?vocabulary { ?raw cg:aliasOf ?canonical }
  GRAPH ?graph { ?subject ?raw ?object }
} ;

DELETE { GRAPH ?graph { ?annotation rdf:predicate ?raw } }
INSERT { GRAPH ?graph { ?annotation rdf:predicate ?canonical } }
WHERE {
  GRAPH ?vocabulary { ?raw cg:aliasOf ?canonical }
  GRAPH ?graph { ?annotation a cg:EdgeAnnotation ; rdf:predicate ?raw }
}
