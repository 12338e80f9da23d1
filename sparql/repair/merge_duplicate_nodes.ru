# Merge duplicate nodes inside one paper: nodes of the same extracted class
# (cg:extractedClass true in the vocabulary graph) whose texts are equal after
# lower-casing and collapsing white space. The survivor is chosen by a fixed
# rule (the duplicate_merges fragment): the most specific source anchor
# (viewpoint, then cited reference, then sentence), then the node the response
# stated first (cg:statedOrder), then the smallest IRI; the audit records, per
# merge, which step decided (merge_duplicate_nodes.rq lists the merges). In order:
#   0. the merges are computed once and marked (?duplicate cg:mergeTarget ?survivor);
#   1. the survivor receives the duplicate's multi-valued statements only:
#      provenance (prov:wasDerivedFrom), sentences (cg:inSentence), mentions,
#      earlier merges (cg:mergedFrom) and outgoing edges; every single-valued
#      statement (type, text, passage, source tuple, confidence, arg0/arg1,
#      roles and root marks, stated order) stays the survivor's own, so a graph
#      valid before the merge stays valid;
#   2. the survivor records the merge: survivor cg:mergedFrom duplicate;
#   3. every statement pointing at the duplicate (incoming edges, the
#      rdf:subject / rdf:object of edge annotations) points at the survivor;
#   4. the duplicate's own statements (its mark with them) are deleted.
# Copies linked to each other (an edge, or a chain of reasoning edges) are not
# merged (see the fragment): the merge would turn the link into a loop.
# Bind ?graph (the paper graph) and ?vocabulary (the profile vocabulary graph).
PREFIX cg:   <https://w3id.org/claimgraph/ontology/v1#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>

INSERT { GRAPH ?graph { ?duplicate cg:mergeTarget ?survivor } }
WHERE { {{duplicate_merges(?graph, ?vocabulary)}} } ;

INSERT { GRAPH ?graph { ?survivor cg:mergedFrom ?duplicate } }
WHERE { GRAPH ?graph { ?duplicate cg:mergeTarget ?survivor } } ;

INSERT { GRAPH ?graph { ?survivor ?property ?value } }
WHERE {
  GRAPH ?graph { ?duplicate cg:mergeTarget ?survivor ; ?property ?value }
  FILTER(?property IN (prov:wasDerivedFrom, cg:inSentence, cg:mentions, cg:mergedFrom) || {{is_edge_predicate(?property)}})
} ;

DELETE { GRAPH ?graph { ?subject ?property ?duplicate } }
INSERT { GRAPH ?graph { ?subject ?property ?survivor } }
WHERE {
  GRAPH ?graph { ?duplicate cg:mergeTarget ?survivor . ?subject ?property ?duplicate }
  FILTER(?property != cg:mergedFrom)
} ;

DELETE { GRAPH ?graph { ?duplicate ?property ?value } }
WHERE {
  GRAPH ?graph { ?duplicate cg:mergeTarget ?survivor ; ?property ?value }
}
