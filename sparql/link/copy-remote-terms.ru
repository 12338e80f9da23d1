# Copy the terms of a remote SPARQL endpoint (OWL classes and SKOS concepts
# with their labels, synonyms and deprecation flags) into the ontology graph,
# replacing what it held. <urn:claimgraph:endpoint> is replaced by the
# endpoint's IRI (written by the RDF library) before this runs; the store must
# allow SERVICE calls to it. Bind ?ontology.
PREFIX owl:      <http://www.w3.org/2002/07/owl#>
PREFIX rdfs:     <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos:     <http://www.w3.org/2004/02/skos/core#>
PREFIX oboInOwl: <http://www.geneontology.org/formats/oboInOwl#>
DELETE { GRAPH ?ontology { ?s ?p ?o } } WHERE { GRAPH ?ontology { ?s ?p ?o } } ;
INSERT { GRAPH ?ontology { ?term a ?class ; ?property ?value } }
WHERE {
  SERVICE <urn:claimgraph:endpoint> {
    VALUES ?class { owl:Class skos:Concept }
    VALUES ?property { rdfs:label skos:prefLabel skos:altLabel skos:hiddenLabel oboInOwl:hasExactSynonym
                       oboInOwl:hasRelatedSynonym oboInOwl:hasBroadSynonym oboInOwl:hasNarrowSynonym owl:deprecated }
    ?term a ?class ; ?property ?value .
    FILTER(isIRI(?term) && isLiteral(?value))
  }
}
