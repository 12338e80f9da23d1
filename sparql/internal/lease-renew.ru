# Push a held claim's expiry time forward. A claim already withdrawn (taken over by another
# writer after it expired) stays withdrawn: the WHERE finds nothing and nothing is written.
# Bind ?locks, ?claim, ?expiresP and ?expires (the new time).
DELETE { GRAPH ?locks { ?claim ?expiresP ?old } }
INSERT { GRAPH ?locks { ?claim ?expiresP ?expires } }
WHERE { GRAPH ?locks { ?claim ?expiresP ?old } }
