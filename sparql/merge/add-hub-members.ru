# Add the members one canonicalization request links to a CANON_ hub to its
# cg:memberCount (0 for a hub created in the same request). Incremental, so the
# cost per paper does not grow with the hubs' sizes; `claimgraph reindex`
# recounts every hub from the store (recount-hub-members.ru).
# The stored count comes from an aggregate, which gives one row even when the hub
# has none yet: a WHERE of nothing but an OPTIONAL, its terms all constants, gives
# no row at all on Virtuoso 7.2 (docs/store.md).
# Bind ?hub, ?added (xsd:integer) and ?canonical (the canonical graph).
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>

DELETE { GRAPH ?canonical { ?hub cg:memberCount ?old } }
INSERT { GRAPH ?canonical { ?hub cg:memberCount ?count } }
WHERE {
  { SELECT (MAX(?stored) AS ?old) WHERE { GRAPH ?canonical { ?hub cg:memberCount ?stored } } }
  BIND(COALESCE(?old, 0) + ?added AS ?count)
}
