# Repair the canonical graph from the store (run by `claimgraph reindex`):
# 1. drop each link (and its annotation) whose member no longer appears in the
#    paper graph its annotation names (a paper deleted or edited by hand);
# 2. drop hub provenance naming a paper with no member left in the hub;
# 3. set cg:memberCount of every CANON_ node to the number of distinct nodes
#    linked to it (cg:mentions or skos:exactMatch) in the canonical graph;
# remove-empty-hubs.ru follows in the same request and removes hubs with no member.
# Bind ?canonical (the canonical graph).
PREFIX cg:   <https://w3id.org/claimgraph/ontology/v1#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX rdf:  <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX xsd:  <http://www.w3.org/2001/XMLSchema#>

DELETE { GRAPH ?canonical { ?member ?link ?hub . ?annotation ?p ?o } }
WHERE {
  GRAPH ?canonical {
    ?annotation a cg:EdgeAnnotation ; prov:wasDerivedFrom ?paper ;
                rdf:subject ?member ; rdf:predicate ?link ; rdf:object ?hub ; ?p ?o .
    ?hub a cg:CanonicalNode .
  }
  FILTER NOT EXISTS { GRAPH ?paper { ?member a ?type } }
} ;

DELETE { GRAPH ?canonical { ?hub prov:wasDerivedFrom ?paper } }
WHERE {
  GRAPH ?canonical { ?hub a cg:CanonicalNode ; prov:wasDerivedFrom ?paper }
  FILTER NOT EXISTS { GRAPH ?canonical { ?annotation a cg:EdgeAnnotation ; rdf:object ?hub ; prov:wasDerivedFrom ?paper } }
} ;

DELETE { GRAPH ?canonical { ?hub cg:memberCount ?old } }
INSERT { GRAPH ?canonical { ?hub cg:memberCount ?count } }
WHERE {
  {
    SELECT ?hub (COUNT(DISTINCT ?member) AS ?members)
    WHERE {
      GRAPH ?canonical {
        ?hub a cg:CanonicalNode .
        OPTIONAL { ?member cg:mentions|skos:exactMatch ?hub }
      }
    }
    GROUP BY ?hub
  }
  OPTIONAL { GRAPH ?canonical { ?hub cg:memberCount ?old } }
  BIND(xsd:integer(?members) AS ?count)
}
