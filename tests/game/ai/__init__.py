"""Tests of rummisolve.game.ai: the AI levels."""
