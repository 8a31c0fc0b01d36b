"""An index line the session dropped while its memory stayed is put back before it is committed.

Claude Code reads `MEMORY.md` before the SessionStart hook pulls, and lets the model Write the
whole file without reading it again (checked with 2.1.330: the index it injected counts as
read, even after the pull changed the file and its modification time). A model that rewrites
`MEMORY.md` from what it was shown drops every line the pull brought; pushed, that removal took
the other machine's new memories out of every machine's index: the files stayed, invisible.

An index entry goes with its memory (SPEC section 4: entries of deleted memories go). So an
entry the last synced index had, whose memory is still in the live folder and to which no line
of the edited index links, is kept, after the entry it followed; the person is told.
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
    from memsync.merge.index import IndexEnsure, resolve_target
    from memsync.model.index import parse_index

    def targets(raw: bytes) -> list[str | None]:
        return [
            None if line.entry is None else resolve_target(folder, line.entry.target)
            for line in parse_index(raw).lines
        ]

    kept = set(targets(edited))
    lines = parse_index(base).lines
    order = targets(base)
    found: list[IndexEnsure] = []
    for n, (line, target) in enumerate(zip(lines, order, strict=True)):
        if target is None or target in kept or target not in live:
            continue
        after = tuple(t for t in reversed(order[:n]) if t is not None)
        found.append(IndexEnsure(target, line.text, after))
    return found


def keep_index_entries(
    run: StoreRun, changes: Mapping[str, bytes | None]
) -> dict[str, bytes | None]:
    """CHANGES with every edited index given back the entries of memories still in the live
    folder (the report notes each); the live index is left to the next write from the store."""
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
    for path, data in edited.items():
        base = found.get(run.manifest.files[path])
        if base is None:
            continue
        folder = posixpath.dirname(path)
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
