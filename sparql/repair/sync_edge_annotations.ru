# Keep edge annotations in sync with their edges. An annotation whose edge
# (rdf:subject rdf:predicate rdf:object) is no longer in the graph is deleted
# (its edge was a self-loop, dangling, ...). An annotation whose IRI is not the
# one derived from its edge is renamed to it: <GRAPH/stmt/HASH> with HASH the
# first 16 hex digits of SHA-256 over graph, subject, predicate and "<object>"
# joined by U+001F, exactly as claimgraph.rdf.iris.IriScheme.statement and the
# annotation_sync rule compute it.
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
  BIND(IRI(CONCAT(STR(?graph), "/stmt/",
       SUBSTR(SHA256(CONCAT(STR(?graph), "\u001F", STR(?s), "\u001F", STR(?p), "\u001F<", STR(?o), ">")), 1, 16))) AS ?derived)
  FILTER(?annotation != ?derived)
}
