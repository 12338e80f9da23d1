# Clamp every cg:confidence (of nodes and of edge annotations) into [0, 1] and
# round it to 3 decimals, as an xsd:decimal in canonical form: 1.7 -> 1,
# -0.2 -> 0, "0.3"^^xsd:string -> 0.3, 0.12345 -> 0.123, 1.0 -> 1.
# A value that is not a number at all ("high") cannot be repaired without
# inventing one: it is left for the shapes to report.
# acts-on: cg:confidence
# Bind ?graph (the paper graph).
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>

DELETE { GRAPH ?graph { ?node cg:confidence ?value } }
INSERT { GRAPH ?graph { ?node cg:confidence ?clamped } }
WHERE {
  GRAPH ?graph { ?node cg:confidence ?value }
  BIND(xsd:decimal(?value) AS ?number)
  BIND(ROUND(IF(?number < 0, 0.0, IF(?number > 1, 1.0, ?number)) * 1000) / 1000 AS ?clamped)
  FILTER(!sameTerm(?clamped, ?value))
}
