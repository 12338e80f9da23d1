# Withdraw one lease claim (released, lost, or left by a dead holder). Bind ?locks and ?claim.
DELETE { GRAPH ?locks { ?claim ?p ?o } }
WHERE { GRAPH ?locks { ?claim ?p ?o } }
