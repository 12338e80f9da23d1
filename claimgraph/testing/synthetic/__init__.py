"""A synthetic corpus in the ARCHE JSON format, written by code (no ARCHE text), with a truth file."""
