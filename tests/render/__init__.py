"""Tests of rummisolve.render."""
