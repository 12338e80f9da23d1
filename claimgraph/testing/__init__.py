"""Test doubles and corpora for tests and benchmarks: never imported by the CLI."""
