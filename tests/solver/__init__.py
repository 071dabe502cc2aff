"""Tests of rummisolve.solver: answers proven and refereed, against brute force and the oracle."""
