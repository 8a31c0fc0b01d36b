"""MEMORY.md merged both ways round, so a test sees the one result the merge promises."""

from __future__ import annotations

from memsync.merge.index import merge_index
from memsync.merge.memory import FileMerge


def index_both_ways(base: str, ours: str, theirs: str, **kwargs: object) -> FileMerge:
    """OURS (older) and THEIRS (newer) merged, then swapped: same content, same decisions."""
    one = merge_index(
        base.encode(), ours.encode(), theirs.encode(), ours_time=1, theirs_time=2, **kwargs
    )  # type: ignore[arg-type]
    two = merge_index(
        base.encode(), theirs.encode(), ours.encode(), ours_time=2, theirs_time=1, **kwargs
    )  # type: ignore[arg-type]
    assert one.content == two.content and set(one.decisions) == set(two.decisions)
    return one
