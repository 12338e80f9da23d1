# Add the members one canonicalization request links to a CANON_ hub to its
# cg:memberCount (0 for a hub created in the same request). Incremental, so the
# cost per paper does not grow with the hubs' sizes; `claimgraph reindex`
# recounts every hub from the store (recount-hub-members.ru).
# Bind ?hub, ?added (xsd:integer) and ?canonical (the canonical graph).
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>

DELETE { GRAPH ?canonical { ?hub cg:memberCount ?old } }
INSERT { GRAPH ?canonical { ?hub cg:memberCount ?count } }
WHERE {
  OPTIONAL { GRAPH ?canonical { ?hub cg:memberCount ?old } }
  BIND(COALESCE(?old, 0) + ?added AS ?count)
}
