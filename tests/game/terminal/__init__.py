"""Tests of rummisolve.game.terminal: the human at a scripted terminal."""
