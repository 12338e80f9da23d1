# Release: lift one verdict that keeps ?node apart from ?other, `?node ?verdict
# ?other` (cg:heldApartFrom: an unmerge; cg:judgedDifferentFrom: a judge's
# DIFFERENT), with its statement (the judge and the paper), so that a later
# `claimgraph canonicalize --force` may place the node again. Paper graphs are
# not touched. Bind ?node, ?verdict, ?other and ?canonical.
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

DELETE { GRAPH ?canonical { ?statement ?p ?o } }
WHERE { GRAPH ?canonical { ?statement rdf:subject ?node ; rdf:predicate ?verdict ; rdf:object ?other ; ?p ?o } } ;

DELETE { GRAPH ?canonical { ?node ?verdict ?other } }
WHERE { GRAPH ?canonical { ?node ?verdict ?other } }
