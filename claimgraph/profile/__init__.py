"""Profiles: manifest, ontology lookups (labels, policies, families) and the ShEx schema's constraints."""
