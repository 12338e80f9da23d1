# Keep a paper graph as it is now as one of its run graphs (bind ?paper, ?run,
# ?name, ?at): the run graph is emptied, filled inside the store (no round trip
# through the client) with what the paper graph says less the input's structure
# (passages, sentences, references, viewpoints: every run of the paper shares
# it and the paper graph keeps it), then named.
PREFIX cg:   <https://w3id.org/claimgraph/ontology/v1#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX prov: <http://www.w3.org/ns/prov#>
DELETE { GRAPH ?run { ?s ?p ?o } } WHERE { GRAPH ?run { ?s ?p ?o } } ;
INSERT { GRAPH ?run { ?s ?p ?o } } WHERE {
  GRAPH ?paper {
    ?s ?p ?o .
    FILTER NOT EXISTS { ?s a ?structure . VALUES ?structure { cg:Passage cg:Sentence cg:Reference cg:Viewpoint } }
  }
} ;
INSERT { GRAPH ?run { ?run cg:runOf ?paper ; rdfs:label ?name ; prov:generatedAtTime ?at } } WHERE { }
