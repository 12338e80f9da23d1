# A judge's DIFFERENT on `canonicalize --recheck` undoes the link from ?member
# to ?hub as an unmerge does; this names the judge on the hold-apart mark that
# unlink-member.ru then writes: the statement of `?member cg:heldApartFrom
# ?hub` (statement_iri), with cg:judgedBy ?judge and the member's paper. It runs
# first, in the same request, and only while the link is still there (a paper
# re-ingested meanwhile has taken it out, and no mark follows).
# Bind ?member, ?hub, ?judge and ?canonical.
PREFIX cg:   <https://w3id.org/claimgraph/ontology/v1#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX rdf:  <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>

INSERT {
  GRAPH ?canonical {
    ?statement a rdf:Statement ; rdf:subject ?member ; rdf:predicate cg:heldApartFrom ; rdf:object ?hub ;
               cg:judgedBy ?judge ; prov:wasDerivedFrom ?paper .
  }
}
WHERE {
  GRAPH ?canonical {
    ?member cg:mentions|skos:exactMatch ?hub .
    ?annotation a cg:EdgeAnnotation ; rdf:subject ?member ; rdf:object ?hub ; prov:wasDerivedFrom ?paper .
  }
  BIND({{statement_iri(?canonical, ?member, cg:heldApartFrom, ?hub)}} AS ?statement)
}
