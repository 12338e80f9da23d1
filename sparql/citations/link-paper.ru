# Write into the citations graph every link the paper graphs state that touches
# one paper (the fragment stated_citation): the citing paper cito:cites the
# cited paper. Run after unlink-paper.ru. Bind ?citations and ?paper.
PREFIX cg:   <https://w3id.org/claimgraph/ontology/v1#>
PREFIX cito: <http://purl.org/spar/cito/>
PREFIX frbr: <http://purl.org/vocab/frbr/core#>
INSERT { GRAPH ?citations { ?citing cito:cites ?cited } }
WHERE {
  {{stated_citation(?paper, ?citing, ?cited)}}
}
