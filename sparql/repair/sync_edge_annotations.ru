# Keep edge annotations in sync with their edges. An annotation whose edge
# (rdf:subject rdf:predicate rdf:object) is no longer in the graph is deleted
# (its edge was a self-loop, dangling, ...). An annotation whose IRI is not the
# one derived from its edge (the statement_iri fragment, which
# claimgraph.rdf.iris.IriScheme.statement and the annotation_sync rule share) is
# renamed to it.
# acts-on: cg:EdgeAnnotation
# Bind ?graph (the paper graph).
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

DELETE { GRAPH ?graph { ?annotation ?property ?value } }
WHERE {
  GRAPH ?graph {
    ?annotation a cg:EdgeAnnotation ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o .
    FILTER NOT EXISTS { ?s ?p ?o }
    ?annotation ?property ?value .
  }
} ;

DELETE { GRAPH ?graph { ?annotation ?property ?value } }
INSERT { GRAPH ?graph { ?derived ?property ?value } }
WHERE {
  GRAPH ?graph {
    ?annotation a cg:EdgeAnnotation ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o .
    ?annotation ?property ?value .
  }
  FILTER(isIRI(?o))
  BIND({{statement_iri(?graph, ?s, ?p, ?o)}} AS ?derived)
  FILTER(?annotation != ?derived)
}
