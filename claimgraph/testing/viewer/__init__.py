"""Test and documentation tools for the browser viewer: a generated corpus store and the screenshots of each view."""
