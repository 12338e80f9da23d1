# Peirce: reverse a graph written conclusion -> premise, by a fixed rule. When
# the response marks exactly one node as root (cg:markedRoot), that node has no
# incoming reasoning edge and at least two outgoing ones, and it is the only
# reasoning node without an incoming edge, the whole graph reads backwards
# into a single root: every Peircean edge between reasoning nodes is reversed
# (its label kept) and each edge annotation follows its edge. In any other
# case nothing changes: a root mark on a premise is not re-oriented (that
# would choose between the mark and the edges), the peirce_root_orientation
# rule reports it as residual root_orientation.
# Runs before sync_edge_annotations, which renames the annotations it moved.
# acts-on: cg:markedRoot
# Bind ?graph (the paper graph) and ?vocabulary (the profile vocabulary graph).
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

DELETE { GRAPH ?graph { ?premise ?edge ?conclusion } }
INSERT { GRAPH ?graph { ?conclusion ?edge ?premise } }
WHERE {
  {
    SELECT (COUNT(?marked) AS ?marks) (SAMPLE(?marked) AS ?root) WHERE {
      GRAPH ?graph { ?marked a cg:ReasoningNode ; cg:markedRoot true }
    }
  }
  FILTER(?marks = 1)
  {
    SELECT (COUNT(?start) AS ?sources) (SAMPLE(?start) AS ?source) WHERE {
      GRAPH ?graph {
        ?start a cg:ReasoningNode .
        FILTER NOT EXISTS { ?start cg:isScaffolding true }
        FILTER NOT EXISTS { ?any {{reasoning_edge_path}} ?start }
      }
    }
  }
  FILTER(?sources = 1 && ?source = ?root)
  {
    SELECT ?leaving (COUNT(?next) AS ?outgoing) WHERE {
      GRAPH ?graph { ?leaving {{reasoning_edge_path}} ?next }
    } GROUP BY ?leaving
  }
  FILTER(?leaving = ?root && ?outgoing >= 2)
  GRAPH ?graph { ?premise ?edge ?conclusion . ?premise a cg:ReasoningNode . ?conclusion a cg:ReasoningNode }
  FILTER({{is_reasoning_edge(?edge)}})
} ;

DELETE { GRAPH ?graph { ?annotation rdf:subject ?s ; rdf:object ?o } }
INSERT { GRAPH ?graph { ?annotation rdf:subject ?o ; rdf:object ?s } }
WHERE {
  GRAPH ?graph {
    ?annotation a cg:EdgeAnnotation ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o .
    ?o ?p ?s .
    FILTER NOT EXISTS { ?s ?p ?o }
  }
  FILTER({{is_reasoning_edge(?p)}})
}
