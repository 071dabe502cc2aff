"""Tests of rummisolve.explain."""
