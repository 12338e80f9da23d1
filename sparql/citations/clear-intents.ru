# Remove the citation intents stored in one paper graph (bind ?graph): every
# CiTO statement from a sentence to a reference (the plain cg:cites stays).
PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#>
DELETE { GRAPH ?graph { ?sentence ?intent ?reference } }
WHERE {
  GRAPH ?graph { ?sentence a cg:Sentence ; ?intent ?reference . ?reference a cg:Reference }
  FILTER(STRSTARTS(STR(?intent), "http://purl.org/spar/cito/"))
}
