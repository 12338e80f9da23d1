"""The command line: parses arguments and renders results; nothing else."""
