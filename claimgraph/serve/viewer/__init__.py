"""The browser viewer: its static files (``claimgraph/serve/static``) and the JSON API they read (docs/viewer-api.md)."""
