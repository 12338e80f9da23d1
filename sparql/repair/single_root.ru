# Peirce: one terminal root, by a fixed rule. A terminal is a reasoning node no
# reasoning edge (and no cg:aggregatedInto edge) leaves; edges run premise ->
# conclusion.
#   1. Two or more terminals: add the storage scaffolding root <GRAPH/scaffold/root>
#      (cg:isScaffolding true, source tuple (0, 0, 0)) and link every terminal
#      to it with cg:aggregatedInto. No reasoning edge, label or conclusion is
#      invented: the evaluation view and `export --format dot --evaluation-view`
#      leave the scaffolding out, and the terminals stay visible there.
#   2. cg:isRoot is derived, not trusted: it is removed from every node that is
#      not terminal (the response's own root marks stay in the raw graph) ...
#   3. ... and set on the single terminal.
# No terminal at all (every node on a cycle) is left alone: residual no_root.
# Bind ?graph (the paper graph).
PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#>

INSERT { GRAPH ?graph {
  ?root a cg:ReasoningNode ;
        cg:text "aggregation root (storage scaffolding, not a conclusion of the paper)" ;
        cg:sourceSentence 0 ; cg:sourceReference 0 ; cg:sourceViewpoint 0 ;
        cg:isScaffolding true .
  ?terminal cg:aggregatedInto ?root .
} }
WHERE {
  {
    SELECT (COUNT(?node) AS ?terminals) WHERE {
      GRAPH ?graph {
        ?node a cg:ReasoningNode .
        FILTER NOT EXISTS { ?node {{reasoning_edge_path}}|cg:aggregatedInto ?next }
      }
    }
  }
  FILTER(?terminals > 1)
  GRAPH ?graph {
    ?terminal a cg:ReasoningNode .
    FILTER NOT EXISTS { ?terminal {{reasoning_edge_path}}|cg:aggregatedInto ?next }
    FILTER NOT EXISTS { ?terminal cg:isScaffolding true }
  }
  BIND(IRI(CONCAT(STR(?graph), "/scaffold/root")) AS ?root)
} ;

DELETE { GRAPH ?graph { ?node cg:isRoot ?flag } }
WHERE {
  GRAPH ?graph {
    ?node cg:isRoot ?flag .
    FILTER EXISTS { ?node {{reasoning_edge_path}}|cg:aggregatedInto ?next }
  }
} ;

INSERT { GRAPH ?graph { ?root cg:isRoot true } }
WHERE {
  {
    SELECT (COUNT(?node) AS ?terminals) (SAMPLE(?node) AS ?root) WHERE {
      GRAPH ?graph {
        ?node a cg:ReasoningNode .
        FILTER NOT EXISTS { ?node {{reasoning_edge_path}}|cg:aggregatedInto ?next }
      }
    }
  }
  FILTER(?terminals = 1)
  FILTER NOT EXISTS { GRAPH ?graph { ?root cg:isRoot true } }
}
