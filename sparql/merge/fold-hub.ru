# Fold one CANON_ node into another of the same type and text (healing a split,
# links/splits.py): verdicts naming ?from name ?into, ?from's links and their
# annotations go (the caller writes them again to ?into in the same request), and
# ?from, left with no member, is removed. Paper graphs are not touched.
# Bind ?from, ?into and ?canonical.
PREFIX cg:   <https://w3id.org/claimgraph/ontology/v1#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX rdf:  <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

DELETE { GRAPH ?canonical { ?node ?verdict ?from } }
INSERT { GRAPH ?canonical { ?node ?verdict ?into } }
WHERE {
  GRAPH ?canonical { ?node ?verdict ?from }
  VALUES ?verdict { cg:heldApartFrom cg:judgedDifferentFrom }
} ;

DELETE { GRAPH ?canonical { ?statement rdf:object ?from } }
INSERT { GRAPH ?canonical { ?statement rdf:object ?into } }
WHERE {
  GRAPH ?canonical { ?statement a rdf:Statement ; rdf:predicate ?verdict ; rdf:object ?from }
  VALUES ?verdict { cg:heldApartFrom cg:judgedDifferentFrom }
} ;

DELETE { GRAPH ?canonical { ?member ?link ?from . ?annotation ?p ?o } }
WHERE { GRAPH ?canonical { ?annotation a cg:EdgeAnnotation ; rdf:subject ?member ; rdf:predicate ?link ; rdf:object ?from ; ?p ?o } } ;

DELETE { GRAPH ?canonical { ?from ?p ?o } }
WHERE { GRAPH ?canonical { ?from a cg:CanonicalNode ; ?p ?o } }
