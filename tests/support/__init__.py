"""What several test modules share: strategies, reference definitions, soundness checks (no tests here)."""
