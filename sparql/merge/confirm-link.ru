# Recheck: a judge answered SAME about a link decided by similarity alone. The
# link stays; its basis becomes cg:judged and cg:judgedBy names the judge.
# Bind ?member, ?hub, ?judge and ?canonical.
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

DELETE { GRAPH ?canonical { ?annotation cg:linkBasis cg:similarity } }
INSERT { GRAPH ?canonical { ?annotation cg:linkBasis cg:judged ; cg:judgedBy ?judge } }
WHERE {
  GRAPH ?canonical { ?annotation a cg:EdgeAnnotation ; rdf:subject ?member ; rdf:object ?hub ; cg:linkBasis cg:similarity }
}
