"""A held-back memory's index line stays local with it.

Validation keeps a failing memory out of every commit (SPEC section 4), and the scan keeps
out a file it will not read (a case twin of a store file, not UTF-8, too large, a symlink):
both are held back the same way here. A held-back memory's line in
`MEMORY.md` must stay out too: pushed alone it would link to a file the store does not
have, an error in `memsync check` on every other machine and in the team's CI. So the
index is committed without the lines of held-back memories the store lacks, and the live
index keeps them: when the store's index is the live one minus those lines, the live file
is left exactly as it is; otherwise (the remote changed the index too) they are appended.
The manifest records the committed index, so the live one stays a local edit and its lines
go out with their memory once it passes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from posixpath import dirname

from memsync.model.index import link_paths, parse_index, render_index
from memsync.model.limits import INDEX_NAME

# Per index path, the live lines kept out of its commit.
HeldLines = Mapping[str, tuple[str, ...]]


def _names(index_path: str, link: str) -> tuple[str, ...]:
    """The files LINK in INDEX_PATH may name, read as `check` reads it (`model.index`)."""
    return link_paths(link, dirname(index_path))


def hold_back(
    allowed: Mapping[str, bytes | None], blocked: Collection[str], stored: Collection[str]
) -> tuple[dict[str, bytes | None], dict[str, tuple[str, ...]]]:
    """ALLOWED with the index lines that link to BLOCKED files (failing validation, or skipped
    by the scan) the store lacks (STORED) removed."""
    missing = {path for path in blocked if path not in stored}
    result = dict(allowed)
    held: dict[str, tuple[str, ...]] = {}
    if not missing:
        return result, {}
    for path, data in allowed.items():
        if data is None or path.rsplit("/", 1)[-1] != INDEX_NAME:
            continue
        index = parse_index(data)
        keep = [
            line
            for line in index.lines
            if line.entry is None or not missing.intersection(_names(path, line.entry.target))
        ]
        if len(keep) != len(index.lines):
            held[path] = tuple(line.text for line in index.lines if line not in keep)
            result[path] = render_index(replace(index, lines=tuple(keep)))
    return result, held


def with_held_lines(
    files: Mapping[str, bytes], live: Mapping[str, bytes], held: HeldLines
) -> Mapping[str, bytes]:
    """The files to write into the live directory, each index with its held lines back."""
    if not held:
        return files
    result = dict(files)
    for path, lines in held.items():
        stored, current = files.get(path), live.get(path)
        if stored is None or current is None:
            continue
        present = {name for e in parse_index(stored).entries for name in _names(path, e.target)}
        wanted = [
            text
            for text in lines
            if _link(text) and not present.intersection(_names(path, _link(text)))
        ]
        if not wanted:
            continue
        without = parse_index(current)
        kept = tuple(line for line in without.lines if line.text not in wanted)
        if render_index(replace(without, lines=kept)) == stored:
            result[path] = current  # only the held lines differ: leave the live file as it is
            continue
        index = parse_index(stored)
        body = list(index.lines)
        while body and not body[-1].text.strip():
            body.pop()
        extra = tuple(line for line in without.lines if line.text in wanted)
        result[path] = render_index(replace(index, lines=(*body, *extra)))
    return result


def _link(text: str) -> str:
    from memsync.model.index import parse_entry

    entry = parse_entry(text)
    return entry.target if entry is not None else ""


def committed_shas(
    manifest: Mapping[str, str], files: Mapping[str, bytes], held: HeldLines
) -> Mapping[str, str]:
    """MANIFEST recording each held index as committed: the live one stays a local edit."""
    from memsync.git import blob_sha

    if not held:
        return manifest
    result = dict(manifest)
    for path in held:
        if path in files and path in result:
            result[path] = blob_sha(files[path])
    return result


def without_held_edits(
    edits: Mapping[str, bytes | None], blocked: Collection[str], synced: Mapping[str, str]
) -> dict[str, bytes | None]:
    """EDITS without the index edits that are only held-back lines (SYNCED: path -> blob sha
    as last synced), so `status` does not list as pending what push will not send."""
    from memsync.git import blob_sha

    if not blocked:
        return dict(edits)
    stripped, held = hold_back(edits, blocked, synced)
    return {
        path: data
        for path, data in edits.items()
        if path not in held or blob_sha(stripped[path] or b"") != synced.get(path)
    }
