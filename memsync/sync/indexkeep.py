"""An index line the session dropped while its memory stayed is put back before it is committed.

Claude Code reads `MEMORY.md` before the SessionStart hook pulls, and lets the model Write the
whole file without reading it again (checked with 2.1.330: the index it injected counts as
read, even after the pull changed the file and its modification time). A model that rewrites
`MEMORY.md` from what it was shown drops every line the pull brought; pushed, that removal took
the other machine's new memories out of every machine's index: the files stayed, invisible.

An index entry goes with its memory (SPEC section 4: entries of deleted memories go). So an
entry the last synced index had, whose memory is still in the live folder and to which no line
of the edited index links, is kept, after the entry it followed. The same rewrite brings back
the line of a memory the pull deleted (another machine deleted it): an entry the edit added
whose memory is neither in the live folder nor in the store, which deleted it, is dropped.
The person is told of each.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.merge.index import IndexEnsure
    from memsync.sync.storerun import StoreRun


def dropped_entries(
    base: bytes, edited: bytes, folder: str, live: Mapping[str, bytes]
) -> list[IndexEnsure]:
    """The entries of BASE that EDITED lost although their memories are still in LIVE."""
    from memsync.merge.index import IndexEnsure
    from memsync.model.index import parse_index

    kept = set(_targets(edited, folder))
    lines = parse_index(base).lines
    order = _targets(base, folder)
    found: list[IndexEnsure] = []
    for n, (line, target) in enumerate(zip(lines, order, strict=True)):
        if target is None or target in kept or target not in live:
            continue
        after = tuple(t for t in reversed(order[:n]) if t is not None)
        found.append(IndexEnsure(target, line.text, after))
    return found


def _targets(raw: bytes, folder: str) -> list[str | None]:
    from memsync.merge.index import resolve_target
    from memsync.model.index import parse_index

    return [
        None if line.entry is None else resolve_target(folder, line.entry.target)
        for line in parse_index(raw).lines
    ]


def _deleted_in_store(run: StoreRun, paths: list[str]) -> list[str]:
    """The PATHS (live paths) whose memory a commit of the store deleted."""
    from memsync import git
    from memsync.sync.store import store_path

    by_store = {store_path(run.binding, path): path for path in paths}
    return [by_store[p] for p in git.deleted_paths(run.binding.clone_dir, list(by_store))]


def _without_deleted(
    run: StoreRun, base: bytes, edited: bytes, folder: str
) -> tuple[bytes, list[str]]:
    """EDITED less the entries it added (BASE had none) of memories the store deleted and the
    live folder does not have: the same stale rewrite brings back the line of a memory
    another machine deleted, a link to nothing on every machine."""
    from memsync.model.index import parse_index, render_index

    had = set(_targets(base, folder))
    added = {t for t in _targets(edited, folder) if t is not None and t not in had}
    missing = sorted(t for t in added if t not in run.live and "://" not in t)
    gone = set(_deleted_in_store(run, missing)) if missing else set()
    if not gone:
        return edited, []
    index = parse_index(edited)
    kept = [
        line
        for line, target in zip(index.lines, _targets(edited, folder), strict=True)
        if target not in gone
    ]
    return render_index(index.with_lines(kept)), sorted(gone)


def keep_index_entries(
    run: StoreRun, changes: Mapping[str, bytes | None]
) -> dict[str, bytes | None]:
    """CHANGES with every edited index given back the entries of memories still in the live
    folder, less the entries it added of memories the store deleted (the report notes each);
    the live index is left to the next write from the store."""
    from memsync.model.safety import is_index_path

    edited = {
        p: d
        for p, d in changes.items()
        if d is not None and is_index_path(p) and p in run.manifest.files
    }
    if not edited:
        return dict(changes)
    from memsync import git
    from memsync.merge.index import merge_index

    found = git.read_blobs(run.binding.clone_dir, [run.manifest.files[p] for p in edited])
    result = dict(changes)
    notes: list[str] = []
    for path, written in edited.items():
        base = found.get(run.manifest.files[path])
        if base is None:
            continue
        folder = posixpath.dirname(path)
        data, gone = _without_deleted(run, base, written, folder)
        if gone:
            result[path] = data
            names = ", ".join(f'"{p}"' for p in gone)
            notes.append(
                f"dropped the {path} line(s) of {names}: that memory was deleted, and the line "
                "came back with an index written from before this session's pull"
            )
        ensure = dropped_entries(base, data, folder, run.live)
        if not ensure:
            continue
        merged: bytes | None = data
        for item in ensure:  # one at a time, in the old index's order: each follows the last
            if merged is not None:
                merged = merge_index(merged, merged, merged, path=path, ensure=[item]).content
        if merged is not None:
            result[path] = merged
            names = ", ".join(f'"{e.target}"' for e in ensure)
            notes.append(
                f"kept the {path} line(s) of {names}: the memory is still there, so only its "
                "line was dropped (likely a rewrite of the index from before this session's "
                "pull); delete the memory file to remove it"
            )
    if notes:
        run.note(notes=(*run.report.notes, *notes))
    return result
