"""Subcommands of the ``rummisolve`` CLI, one module each."""
