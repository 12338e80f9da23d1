# Remove every link of the citations graph that touches one paper, cited or
# citing (run before link-paper.ru recomputes them). Bind ?citations and ?paper.
PREFIX cito: <http://purl.org/spar/cito/>
DELETE { GRAPH ?citations { ?citing cito:cites ?cited } }
WHERE {
  { GRAPH ?citations { ?paper cito:cites ?cited } BIND(?paper AS ?citing) }
  UNION
  { GRAPH ?citations { ?citing cito:cites ?paper } BIND(?paper AS ?cited) }
}
