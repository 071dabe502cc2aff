"""Tests of rummisolve.referee."""
