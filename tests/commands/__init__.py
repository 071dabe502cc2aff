"""Tests of rummisolve.commands: the subcommands, run as a user would."""
