# Merge duplicate nodes inside one paper: nodes of the same extracted class
# (cg:extractedClass true in the vocabulary graph) whose texts are equal after
# lower-casing and collapsing white space. The survivor is the node with the
# smallest IRI (a fixed rule, so re-running gives the same graph). In order:
#   1. the survivor receives the duplicate's other statements (provenance
#      prov:wasDerivedFrom, mentions, outgoing edges); single-valued ones
#      (type, text, confidence, source tuple, arg0/arg1, root flags, stated
#      role) stay the survivor's own;
#   2. every statement pointing at the duplicate (incoming edges, the
#      rdf:subject / rdf:object of edge annotations) points at the survivor;
#   3. the duplicate's own statements are deleted.
# An edge between two duplicates becomes a self-loop, which drop_self_loops removes.
# Bind ?graph (the paper graph) and ?vocabulary (the profile vocabulary graph).
PREFIX cg:  <https://w3id.org/claimgraph/ontology/v1#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>

INSERT { GRAPH ?graph { ?survivor ?property ?value } }
WHERE {
  {
    SELECT ?duplicate ?survivor WHERE {
      {
        SELECT ?type ?key (MIN(STR(?node)) AS ?first) WHERE {
          GRAPH ?vocabulary { ?type cg:extractedClass true }
          GRAPH ?graph { ?node a ?type ; cg:text ?text }
          BIND(LCASE(REPLACE(REPLACE(STR(?text), "\\s+", " "), "^ | $", "")) AS ?key)
        } GROUP BY ?type ?key
      }
      GRAPH ?graph { ?duplicate a ?type ; cg:text ?duplicateText }
      FILTER(LCASE(REPLACE(REPLACE(STR(?duplicateText), "\\s+", " "), "^ | $", "")) = ?key && STR(?duplicate) != ?first)
      BIND(IRI(?first) AS ?survivor)
    }
  }
  GRAPH ?graph { ?duplicate ?property ?value }
  FILTER(?property NOT IN (rdf:type, cg:text, cg:confidence, cg:sourceSentence, cg:sourceReference, cg:sourceViewpoint,
                           cg:arg0, cg:arg1, cg:isRoot, cg:isScaffolding, cg:statedRole))
} ;

DELETE { GRAPH ?graph { ?subject ?property ?duplicate } }
INSERT { GRAPH ?graph { ?subject ?property ?survivor } }
WHERE {
  {
    SELECT ?duplicate ?survivor WHERE {
      {
        SELECT ?type ?key (MIN(STR(?node)) AS ?first) WHERE {
          GRAPH ?vocabulary { ?type cg:extractedClass true }
          GRAPH ?graph { ?node a ?type ; cg:text ?text }
          BIND(LCASE(REPLACE(REPLACE(STR(?text), "\\s+", " "), "^ | $", "")) AS ?key)
        } GROUP BY ?type ?key
      }
      GRAPH ?graph { ?duplicate a ?type ; cg:text ?duplicateText }
      FILTER(LCASE(REPLACE(REPLACE(STR(?duplicateText), "\\s+", " "), "^ | $", "")) = ?key && STR(?duplicate) != ?first)
      BIND(IRI(?first) AS ?survivor)
    }
  }
  GRAPH ?graph { ?subject ?property ?duplicate }
} ;

DELETE { GRAPH ?graph { ?duplicate ?property ?value } }
WHERE {
  {
    SELECT ?duplicate WHERE {
      {
        SELECT ?type ?key (MIN(STR(?node)) AS ?first) WHERE {
          GRAPH ?vocabulary { ?type cg:extractedClass true }
          GRAPH ?graph { ?node a ?type ; cg:text ?text }
          BIND(LCASE(REPLACE(REPLACE(STR(?text), "\\s+", " "), "^ | $", "")) AS ?key)
        } GROUP BY ?type ?key
      }
      GRAPH ?graph { ?duplicate a ?type ; cg:text ?duplicateText }
      FILTER(LCASE(REPLACE(REPLACE(STR(?duplicateText), "\\s+", " "), "^ | $", "")) = ?key && STR(?duplicate) != ?first)
    }
  }
  GRAPH ?graph { ?duplicate ?property ?value }
}
