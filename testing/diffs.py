"""Which diff the merge runs under, so merge properties are checked with both."""

from __future__ import annotations

from contextlib import AbstractContextManager
from unittest import mock

from memsync.merge import matching

DIFFS = ("difflib", "anchored")


def using(diff: str) -> AbstractContextManager[object]:
    """Merges inside run with DIFF: difflib's (ordinary memories) or the anchored one.

    The anchored diff runs for large inputs only; a budget of 0 makes every input large.
    """
    return mock.patch.object(matching, "BUDGET", 0 if diff == "anchored" else matching.BUDGET)
