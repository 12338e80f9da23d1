# Drop duplicate edges. An edge is a triple, so two copies of one edge are one
# triple already (the materializer and the merges above collapse them by RDF
# set semantics). What stays duplicated is the edge's record: after aliases are
# canonicalized or nodes merged, several cg:EdgeAnnotation resources can
# describe the same (subject, predicate, object). They are folded into the one
# with the smallest IRI, which keeps every provenance (prov:wasDerivedFrom) and
# the highest confidence; sync_edge_annotations then gives it its derived IRI.
# acts-on: cg:EdgeAnnotation
# Bind ?graph (the paper graph).
PREFIX cg:   <https://w3id.org/claimgraph/ontology/v1#>
PREFIX rdf:  <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX prov: <http://www.w3.org/ns/prov#>

INSERT { GRAPH ?graph { ?survivor ?property ?value } }
WHERE {
  {
    SELECT ?duplicate (IRI(MIN(STR(?other))) AS ?survivor) WHERE {
      GRAPH ?graph {
        ?duplicate a cg:EdgeAnnotation ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o .
        ?other a cg:EdgeAnnotation ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o .
      }
    } GROUP BY ?duplicate
  }
  FILTER(?duplicate != ?survivor)
  GRAPH ?graph { ?duplicate ?property ?value }
  FILTER(?property IN (cg:confidence, prov:wasDerivedFrom))
} ;

DELETE { GRAPH ?graph { ?duplicate ?property ?value } }
WHERE {
  {
    SELECT ?duplicate (IRI(MIN(STR(?other))) AS ?survivor) WHERE {
      GRAPH ?graph {
        ?duplicate a cg:EdgeAnnotation ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o .
        ?other a cg:EdgeAnnotation ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o .
      }
    } GROUP BY ?duplicate
  }
  FILTER(?duplicate != ?survivor)
  GRAPH ?graph { ?duplicate ?property ?value }
} ;

DELETE { GRAPH ?graph { ?annotation cg:confidence ?lower } }
WHERE {
  GRAPH ?graph { ?annotation a cg:EdgeAnnotation ; cg:confidence ?lower, ?higher }
  FILTER(?higher > ?lower || (?higher = ?lower && STR(?higher) < STR(?lower)))
}
