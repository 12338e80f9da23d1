"""Federation: loading external RDF and ontologies, and linking nodes to ontology terms with SKOS matches."""
