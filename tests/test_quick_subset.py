"""The quick subset (``-m "not slow"``): every line of tests/slow.txt names a test that exists, so a
renamed slow test cannot slip back into the quick subset unnoticed."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import slow_tests

ROOT = Path(__file__).resolve().parents[1]


def test_every_listed_slow_test_exists():
    missing = []
    for entry in sorted(slow_tests()):
        path, _, name = entry.partition("::")
        file = ROOT / path
        if not file.is_file() or not re.search(rf"^def {re.escape(name)}\(", file.read_text(encoding="utf-8"), re.M):
            missing.append(entry)
    assert not missing, f"tests/slow.txt names tests that do not exist: {missing}"


def test_the_list_is_sorted_and_has_no_duplicates():
    entries = [line for line in (ROOT / "tests" / "slow.txt").read_text().splitlines() if line and line[0] != "#"]
    assert entries == sorted(set(entries))
