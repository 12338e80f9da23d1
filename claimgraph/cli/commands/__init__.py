"""One module per group of subcommands; each has ``register(subparsers)`` and sets a handler per command.

Modules import only what building the parser needs; a handler imports the
workflow and the concerns it calls when it runs.
"""
