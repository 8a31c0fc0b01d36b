"""What the git merge driver merges: one file's three versions as git hands them over.

Pure, like the rest of the package: the driver's file handling (reading %O %A %B, writing the
result and the copies) is `memsync.team.mergedriver`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from memsync.merge.memory import FileMerge, is_index_path, merge_file


def merge_for_driver(
    name: str,
    base: bytes,
    ours: bytes,
    theirs: bytes,
    *,
    taken: Callable[[str], bool],
    gone: Collection[str] = (),
) -> FileMerge:
    """Merge the three versions git gives a driver for the file NAME (index or memory).

    Git gives an empty base for files added on both sides, so an empty base counts as none.
    Git gives no commit times to a driver: conflicting fields are settled by content alone.
    TAKEN says whether a path is in use, for the name of a copy kept beside NAME. GONE: the
    memories git's merge deletes, when the driver can tell (an index drops their entries).
    """
    from memsync.merge.index import merge_index

    if is_index_path(name):
        return merge_index(base or None, ours, theirs, path=name, gone=gone)
    return merge_file(name, base or None, ours, theirs, taken=taken)


def copy_entry(index: str, path: str, data: bytes) -> str:
    """The line the index INDEX needs for PATH, a copy the driver wrote beside a memory."""
    import posixpath

    from memsync.merge.treestate import synthesized_line

    return synthesized_line(path, data, posixpath.dirname(index))
