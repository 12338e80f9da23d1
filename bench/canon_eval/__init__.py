"""The canonicalization evaluation set: hand-written pairs and pairs generated from ARCHE (see build.py)."""
