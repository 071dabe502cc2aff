"""Tests of rummisolve.server: the HTTP service, the game API, its safety, and the pages in Chromium."""
