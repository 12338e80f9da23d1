"""RDF building blocks: namespaces, the instance IRI scheme, SPARQL templates and term binding."""
