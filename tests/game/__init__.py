"""Tests of rummisolve.game: the engine, the players, the analysis."""
