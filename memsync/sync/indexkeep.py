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

A line the pull changed (another machine retitled it) that the rewrite put back to the text
the client had loaded cannot be told from a deliberate edit by the index alone. So the hook
keeps the index as the client loaded it (`remember_loaded_index`, before its pull); a line
the edit wrote exactly as loaded, where the pull had changed it, takes the pulled text back.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from pathlib import Path

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.merge.index import IndexEnsure
    from memsync.model.index import Index
    from memsync.sync.binding import Binding
    from memsync.sync.storerun import StoreRun


def dropped_entries(
    base: bytes, edited: bytes, folder: str, live: Mapping[str, bytes]
) -> list[IndexEnsure]:
    """The entries of BASE that EDITED lost (no line of it links to their memories) although
    their memories are still in LIVE."""
    from memsync.merge.index import IndexEnsure, linked_targets
    from memsync.model.index import parse_index

    # A line that still links to the memory in another shape (a numbered list, a bold title,
    # a percent-encoded name) keeps it: putting the entry back would index it twice.
    kept = set(_targets(edited, folder)) | linked_targets(edited, folder)
    lines = parse_index(base).lines
    order = _targets(base, folder)
    found: list[IndexEnsure] = []
    for n, (line, target) in enumerate(zip(lines, order, strict=True)):
        if target is None or target in kept or target not in live:
            continue
        after = tuple(t for t in reversed(order[:n]) if t is not None)
        before = tuple(t for t in order[n + 1 :] if t is not None)
        found.append(IndexEnsure(target, line.text, after, before))
    return found


LOADED_SUFFIX = ".loaded-index"


def loaded_index_file(live_dir: Path) -> Path:
    """Where the index the client loaded at the last session start is kept (beside the
    manifest of LIVE_DIR, in memsync's data directory)."""
    from memsync.config import data_dir
    from memsync.sync.manifest import manifest_path

    return manifest_path(data_dir(), live_dir).with_suffix(LOADED_SUFFIX)


def remember_loaded_index(binding: Binding) -> None:
    """At session start, before the pull: keep MEMORY.md as Claude Code has just loaded it,
    with the version memsync last synced beside it (`.loaded-base`). An index with an edit
    still to commit (a session end that could not push) is kept too: what the session was
    shown is known all the same, and `_unreverted` reads nothing as put back until something
    was synced since (the start's own commit of that edit would otherwise undo it)."""
    from memsync.fsutil.atomic import atomic_write
    from memsync.fsutil.reads import read_regular_or_none
    from memsync.sync.manifest import binding_manifest

    data = read_regular_or_none(binding.live_dir / "MEMORY.md")
    path = loaded_index_file(binding.live_dir)
    if data is None:
        path.unlink(missing_ok=True)
        return
    manifest, _ = binding_manifest(binding)
    synced = (manifest.files.get("MEMORY.md") or "").encode("ascii")
    old = read_regular_or_none(path)
    if old is not None and old != data:
        # A session whose end was not seen may still run on what it loaded: keep what both
        # were shown, as the earlier one saw it (fewer lines "seen": more put back, none lost).
        now = set(_targets(data, ""))
        texts = [
            line.text
            for line, t in zip(_parse(old).lines, _targets(old, ""), strict=True)
            if t is None or t in now
        ]
        data = _only_lines(old, texts)
        synced = read_regular_or_none(_base_file(path)) or synced
    if old != data or read_regular_or_none(_base_file(path)) != synced:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(_base_file(path), synced, durable=False)
        atomic_write(path, data, durable=False)


def _base_file(loaded: Path) -> Path:
    return loaded.with_suffix(".loaded-base")


def forget_loaded_index(binding: Binding) -> None:
    """At session end, after its push committed: the session's loaded index is done with."""
    path = loaded_index_file(binding.live_dir)
    path.unlink(missing_ok=True)
    _base_file(path).unlink(missing_ok=True)


def _listed(paths: list[str]) -> str:
    """PATHS as a note names them: each quoted, comma-separated."""
    return ", ".join(f'"{p}"' for p in paths)


def _parse(raw: bytes) -> Index:
    from memsync.model.index import parse_index

    return parse_index(raw)


def _lines_by_target(raw: bytes, folder: str) -> dict[str, str]:
    from memsync.model.index import parse_index

    found: dict[str, str] = {}
    for line, target in zip(parse_index(raw).lines, _targets(raw, folder), strict=True):
        if target is not None:
            found.setdefault(target, line.text)
    return found


def _seen_targets(run: StoreRun, path: str) -> set[str | None] | None:
    """The memories whose lines the session was shown in PATH, when known: the private
    MEMORY.md as the client loaded it at session start. Claude Code asks the model to "merge
    or drop stale entries" of a full index; only an entry it never saw is put back then."""
    from memsync.fsutil.reads import read_regular_or_none

    if path != "MEMORY.md" or run.binding.scope != "private":
        return None
    loaded = read_regular_or_none(loaded_index_file(run.binding.live_dir))
    return None if loaded is None else set(_targets(loaded, ""))


def _unreverted(run: StoreRun, base: bytes, edited: bytes) -> tuple[bytes, list[str]]:
    """EDITED with each line written back exactly as the client loaded it, where the pull
    since changed it, given the pulled text again (top-level private index only)."""
    from memsync.fsutil.reads import read_regular_or_none
    from memsync.model.index import IndexLine, parse_entry, parse_index, render_index

    path = loaded_index_file(run.binding.live_dir)
    loaded_raw = read_regular_or_none(path)
    kept_over = read_regular_or_none(_base_file(path))
    synced = (run.manifest.files.get("MEMORY.md") or "").encode("ascii")
    if loaded_raw is None or kept_over == synced:
        # Nothing synced since the session start: a line unlike the synced one is an edit
        # that waited to be committed, not a line a pull changed.
        return edited, []
    loaded, pulled = _lines_by_target(loaded_raw, ""), _lines_by_target(base, "")
    index = parse_index(edited)
    lines: list[IndexLine] = []
    reverted: list[str] = []
    for line, target in zip(index.lines, _targets(edited, ""), strict=True):
        new = pulled.get(target) if target is not None else None
        if target is not None and new is not None and loaded.get(target) == line.text != new:
            lines.append(IndexLine(new, parse_entry(new)))
            reverted.append(target)
        else:
            lines.append(line)
    return (render_index(index.with_lines(lines)), reverted) if reverted else (edited, [])


def _settle_loaded(run: StoreRun, base: bytes, targets: set[str]) -> None:
    """The kept loaded index with the lines of TARGETS as BASE has them: a line is given its
    pulled text back once; written as loaded again, it is the person's edit (as the note says),
    not a stale rewrite to undo at every push until the next session start."""
    from memsync.fsutil.atomic import atomic_write
    from memsync.fsutil.reads import read_regular_or_none
    from memsync.model.index import IndexLine, parse_entry, parse_index, render_index

    path = loaded_index_file(run.binding.live_dir)
    loaded_raw = read_regular_or_none(path)
    if loaded_raw is None:
        return
    pulled, index = _lines_by_target(base, ""), parse_index(loaded_raw)
    lines = [
        IndexLine(pulled[t], parse_entry(pulled[t])) if t in targets and t in pulled else line
        for line, t in zip(index.lines, _targets(loaded_raw, ""), strict=True)
    ]
    atomic_write(path, render_index(index.with_lines(lines)), durable=False)


def _only_lines(base: bytes, texts: list[str]) -> bytes:
    from memsync.model.index import IndexLine, parse_entry, parse_index, render_index

    index = parse_index(base)
    return render_index(index.with_lines([IndexLine(t, parse_entry(t)) for t in texts]))


def _targets(raw: bytes, folder: str) -> list[str | None]:
    from memsync.model.index import parse_index, resolve_target

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

    # A deleted index is read as emptied: the entries of memories still there are kept (and
    # the deletion stays one when nothing is): every machine would lose them from its index.
    edited = {
        p: b"" if d is None else d
        for p, d in changes.items()
        if is_index_path(p) and p in run.manifest.files
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
        if path == "MEMORY.md" and run.binding.scope == "private":
            data, reverted = _unreverted(run, base, data)
            if reverted:
                _settle_loaded(run, base, set(reverted))
                result[path] = data
                notes.append(
                    f"kept the pulled {path} line(s) of {_listed(reverted)}: this session "
                    "wrote them back as it had loaded them, before its pull changed them; "
                    "edit the line again to change it"
                )
        if gone:
            result[path] = data
            notes.append(
                f"dropped the {path} line(s) of {_listed(gone)}: that memory was deleted, and "
                "the line came back with an index written from before this session's pull"
            )
        ensure = dropped_entries(base, data, folder, run.live)
        seen = _seen_targets(run, path)
        # What the session was shown and dropped is its choice (a compaction); a deleted
        # index is no compaction.
        if seen is not None and changes[path] is not None:
            ensure = [item for item in ensure if item.target not in seen]
        if not ensure:
            continue
        merged: bytes | None = data
        if changes[path] is None or not data.strip():
            # Deleted or emptied: the kept entries alone, as the old index wrote them (put
            # after an empty file's one empty line, they began with a blank line and had no
            # final newline).
            merged = _only_lines(base, [item.line for item in ensure])
        for item in ensure:  # one at a time, in the old index's order: each follows the last
            if merged is not None:
                merged = merge_index(merged, merged, merged, path=path, ensure=[item]).content
        if merged is not None:
            result[path] = merged
            notes.append(
                f"kept the {path} line(s) of {_listed([e.target for e in ensure])}: the memory "
                "is still there, so only its line was dropped (likely a rewrite of the index "
                "from before this session's pull); delete the memory file to remove it"
            )
    if notes:
        run.note(notes=(*run.report.notes, *notes))
    return result
