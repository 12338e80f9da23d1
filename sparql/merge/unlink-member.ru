# Unmerge: take one node out of one CANON_ node (a merge or a hub attachment).
# The member's link and its annotation go, cg:memberCount goes down by one, the
# hub forgets the member's paper when no other member comes from it, the node is
# marked `?member cg:heldApartFrom ?hub`, the mark reified with the member's text
# (cg:text) and paper: later canonicalization runs leave the node unattached while
# its text is that text, a re-ingest of the unchanged paper included, until
# `claimgraph release` lifts the mark. remove-empty-hubs.ru follows
# in the same request (once for all the links undone): a hub left with no member
# goes. Paper graphs are not touched.
# Bind ?member, ?hub and ?canonical.
PREFIX cg:   <https://w3id.org/claimgraph/ontology/v1#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX rdf:  <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>

DELETE { GRAPH ?canonical { ?hub cg:memberCount ?old } }
INSERT { GRAPH ?canonical { ?hub cg:memberCount ?count } }
WHERE {
  GRAPH ?canonical { ?member cg:mentions|skos:exactMatch ?hub . ?hub cg:memberCount ?old }
  BIND(IF(?old > 1, ?old - 1, 0) AS ?count)
} ;

INSERT { GRAPH ?canonical { ?member cg:heldApartFrom ?hub } }
WHERE { GRAPH ?canonical { ?member cg:mentions|skos:exactMatch ?hub } } ;

INSERT {
  GRAPH ?canonical {
    ?statement a rdf:Statement ; rdf:subject ?member ; rdf:predicate cg:heldApartFrom ; rdf:object ?hub ;
               cg:text ?text ; prov:wasDerivedFrom ?paper .
  }
}
WHERE {
  GRAPH ?canonical {
    ?member cg:mentions|skos:exactMatch ?hub .
    ?annotation a cg:EdgeAnnotation ; rdf:subject ?member ; rdf:object ?hub ; prov:wasDerivedFrom ?paper .
  }
  GRAPH ?paper { ?member cg:text ?text }
  BIND({{statement_iri(?canonical, ?member, cg:heldApartFrom, ?hub)}} AS ?statement)
} ;

DELETE { GRAPH ?canonical { ?hub prov:wasDerivedFrom ?paper } }
WHERE {
  GRAPH ?canonical {
    ?annotation a cg:EdgeAnnotation ; rdf:subject ?member ; rdf:object ?hub ; prov:wasDerivedFrom ?paper .
    FILTER NOT EXISTS {
      ?other a cg:EdgeAnnotation ; rdf:object ?hub ; prov:wasDerivedFrom ?paper .
      FILTER(?other != ?annotation)
    }
  }
} ;

DELETE { GRAPH ?canonical { ?member ?link ?hub . ?annotation ?p ?o } }
WHERE {
  GRAPH ?canonical {
    ?annotation a cg:EdgeAnnotation ; rdf:subject ?member ; rdf:predicate ?link ; rdf:object ?hub ; ?p ?o .
  }
}
