# Aggressive merge: retire ?old in favour of ?new in every paper graph.
# Bind ?old (the lower-confidence node) and ?new (the survivor).
#
# 1. Each paper graph that describes ?old records the merge (?new cg:mergedFrom ?old);
#    that graph's own description of the node (type, text, confidence, source)
#    then moves to ?new, so it becomes a typed stub of the survivor in the
#    retired node's paper and both papers stay findable from the survivor.
# 2. Edge annotations whose rdf:subject or rdf:object is ?old are rewritten, and
#    their IRI re-derived from (graph, subject, predicate, object) by the
#    statement_iri fragment (the annotation_sync rule checks the same hash).
# 3. Every remaining triple with ?old as subject or object is rewritten.
#    cg:mergedFrom objects name retired IRIs on purpose and are left alone.
# Raw and audit graphs are records of what happened and are not touched.
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

INSERT { GRAPH ?g { ?new cg:mergedFrom ?old } }
WHERE { GRAPH ?g { ?g a cg:Paper . ?old a ?type } } ;

DELETE { GRAPH ?g { ?annotation ?p ?o } }
INSERT { GRAPH ?g { ?rewritten ?p ?o2 } }
WHERE {
  GRAPH ?g {
    ?g a cg:Paper .
    { ?annotation rdf:subject ?old } UNION { ?annotation rdf:object ?old }
    ?annotation a cg:EdgeAnnotation ; rdf:subject ?s ; rdf:predicate ?predicate ; rdf:object ?object .
    FILTER(isIRI(?object))
    ?annotation ?p ?o .
  }
  BIND(IF(sameTerm(?s, ?old), ?new, ?s) AS ?s2)
  BIND(IF(sameTerm(?object, ?old), ?new, ?object) AS ?object2)
  BIND(IF(sameTerm(?o, ?old), ?new, ?o) AS ?o2)
  BIND({{statement_iri(?g, ?s2, ?predicate, ?object2)}}
       AS ?rewritten)
} ;

DELETE { GRAPH ?g { ?old ?p ?o } }
INSERT { GRAPH ?g { ?new ?p ?o2 } }
WHERE {
  GRAPH ?g { ?g a cg:Paper . ?old ?p ?o . }
  BIND(IF(sameTerm(?o, ?old) && ?p != cg:mergedFrom, ?new, ?o) AS ?o2)
} ;

DELETE { GRAPH ?g { ?s ?p ?old } }
INSERT { GRAPH ?g { ?s ?p ?new } }
WHERE {
  GRAPH ?g { ?g a cg:Paper . ?s ?p ?old . }
  FILTER(?p != cg:mergedFrom)
}
