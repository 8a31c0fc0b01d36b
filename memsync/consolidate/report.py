"""The consolidation report: Markdown (a pull-request body) and JSON, listing every change.

Both come in pieces (`markdown_chunks`, `json_chunks`) of about CHUNK_CHARS, cut only
between table rows, list items or JSON elements: the plan of a 100,000-memory store is a
report of 16 MB, and the CLI redacts secrets in each piece as it writes it, where redacting
the whole text at once held several times its size in memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from memsync.consolidate.plan import FolderPlan, Plan
from memsync.model.limits import INDEX_NAME


def summary(plan: Plan) -> str:
    """One sentence: how much the plan changes."""
    merged = sum(len(m.merged) for f in plan.folders for m in f.merges)
    dates = sum(len(f.dates) for f in plan.folders)
    archived = sum(len(f.archives) for f in plan.folders)
    indexes = sum(f.index_changed for f in plan.folders)
    changed = sum(f.changed for f in plan.folders)
    repaired = sum(len(f.repaired) for f in plan.folders)
    if not plan.changed:
        return f"Nothing to consolidate in {_folders(len(plan.folders))}."
    counts = [
        (merged, "duplicate memory merged", "duplicate memories merged"),
        (dates, "relative date made absolute", "relative dates made absolute"),
        (archived, "memory archived", "memories archived"),
        (indexes, "index rebuilt", "indexes rebuilt"),
        (repaired, "memsync file made valid", "memsync files made valid"),
    ]
    parts = [f"{n} {one if n == 1 else many}" for n, one, many in counts if n]
    return f"{', '.join(parts).capitalize()} in {changed} of {_folders(len(plan.folders))}."


def _folders(count: int) -> str:
    return f"{count} memory {'folder' if count == 1 else 'folders'}"


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|") or " "


def _code(text: str) -> str:
    text = " ".join(str(text).split())
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|")


def _fenced(text: str) -> str:
    """TEXT safe inside a fenced block: a line of backticks cannot close the fence."""
    return text.replace("```", "`\u200b``")


CHUNK_CHARS = 65_536


def render_markdown(plan: Plan) -> str:
    """The report as Markdown, readable as a pull-request body."""
    return "".join(markdown_chunks(plan))


def markdown_chunks(plan: Plan) -> Iterator[str]:
    """`render_markdown` in pieces, each cut after a whole line (one merge's superseded lines
    stay together)."""
    title = "memsync consolidation plan (dry run)" if plan.dry_run else "memsync consolidation"

    def lines() -> Iterator[str]:
        yield from (f"# {title}", "", summary(plan), "")
        for folder in plan.folders:
            if folder.changed or folder.problems or folder.skipped:
                yield from _folder_markdown(folder)

    return _grouped(f"{line}\n" for line in lines())


def _grouped(pieces: Iterable[str]) -> Iterator[str]:
    """PIECES joined into chunks of about CHUNK_CHARS, with the text's trailing whitespace
    replaced by one newline (a chunk ends where a piece does, before any whitespace)."""
    buffer: list[str] = []
    size = 0
    for piece in pieces:
        buffer.append(piece)
        size += len(piece)
        if size >= CHUNK_CHARS:
            text = "".join(buffer)
            cut = len(text.rstrip())
            if cut:
                yield text[:cut]
            buffer, size = [text[cut:]], len(text) - cut
    yield "".join(buffer).rstrip() + "\n"


def _folder_markdown(folder: FolderPlan) -> list[str]:
    out = [f"## {_cell(folder.label)}", ""]
    if folder.merges:
        out += ["### Duplicates merged", "", "| kept | merged into it | match | dropped values |"]
        out.append("| --- | --- | --- | --- |")
        for m in folder.merges:
            match = "identical" if m.kind == "exact" else f"near ({m.similarity:.2f})"
            dropped = "; ".join(m.dropped) or "none"
            merged = ", ".join(_code(p) for p in m.merged)
            out.append(f"| {_code(m.survivor)} | {merged} | {match} | {_cell(dropped)} |")
        out.append("")
        out += [f"- {_code(source)} kept as {_code(place)}" for source, place in folder.retired]
        for m in folder.merges:
            if m.superseded:
                out += ["", f"Lines of older versions superseded in {_code(m.survivor)}:", ""]
                # One element: a chunk never cuts between two lines of one memory.
                out.append("\n".join(f"    {line}" for line in m.superseded))
        out.append("")
    if folder.dates:
        out += ["### Relative dates made absolute", ""]
        out += ["| where | before | after | line written | from |", "|---|---|---|---|---|"]
        for d in folder.dates:
            where = _code(f"{d.path}:{d.line}")
            out.append(
                f"| {where} | {_cell(d.old)} | {_cell(d.new)} | {d.written} | {_cell(d.source)} |"
            )
        out.append("")
    if folder.index is not None and folder.index_changed:
        out += _index_markdown(folder)
    if folder.archives:
        out += ["### Archived (out of the index, kept in git)", ""]
        out += ["| memory | type | last updated | moved to |", "| --- | --- | --- | --- |"]
        for a in folder.archives:
            out.append(f"| {_code(a.path)} | {a.type} | {a.updated} | {_code(a.destination)} |")
        out.append("")
    if folder.repaired:
        out += ["### memsync's own files made valid", ""]
        out += [f"- {_cell(item)}" for item in folder.repaired]
        out.append("")
    if folder.problems or folder.skipped:
        out += ["### Needs attention", ""]
        out += [f"- {_cell(p)}" for p in folder.problems]
        out += [f"- skipped {_cell(s)}" for s in folder.skipped]
        out.append("")
    return out


_KEPT_AS_WRITTEN = "kept as written in `archive/index-lines.md`"
_KEPT_UNLESS_SAME = "kept in `archive/index-lines.md` unless the same as the line kept"


def _index_markdown(folder: FolderPlan) -> list[str]:
    rebuild = folder.index
    assert rebuild is not None
    out = [f"### Index (`{INDEX_NAME}`)", ""]
    rows = [
        ("entries added", rebuild.added),
        ("dangling lines removed", rebuild.dangling),
        ("duplicate lines removed", rebuild.duplicates),
        ("lines rewritten", rebuild.rewritten),
        ("long lines shortened", rebuild.shortened),
        ("no room for a line (left in the folder)", rebuild.left_out),
    ]
    for label, paths in rows:
        if paths:
            shown = ", ".join(_code(p) for p in paths[:50])
            more = f" and {len(paths) - 50} more" if len(paths) > 50 else ""
            out.append(f"- {label} ({len(paths)}): {shown}{more}")
    if rebuild.rewrites:
        out += ["", "Lines rewritten (`-` before, `+` after):", "", "```diff"]
        for old, new in rebuild.rewrites:
            out += [f"- {_fenced(old)}", f"+ {_fenced(new)}"]
        out += ["```", ""]
    if rebuild.dangling_lines:
        # A link out of the folder (`../../../plans/x.md`) is never one: it stays as written.
        heading = "Lines whose file is missing"
        out += ["", f"{heading} (kept in `archive/index-lines.md`):", ""]
        out += [f"    {line}" for line in rebuild.dangling_lines]
    if rebuild.merged_lines:
        out += [
            "",
            f"Lines of merged-away memories, now their survivor's ({_KEPT_AS_WRITTEN}):",
            "",
        ]
        out += [f"    {line}" for line in rebuild.merged_lines]
    if rebuild.cut_lines:
        out += ["", f"Long lines before they were shortened ({_KEPT_AS_WRITTEN}):", ""]
        out += [f"    {line}" for line in rebuild.cut_lines]
    if rebuild.crowded_lines:
        out += ["", "Lines given up for a memory's line (kept in `archive/index-lines.md`):", ""]
        out += [f"    {line}" for line in rebuild.crowded_lines]
    if rebuild.duplicate_lines:
        out += ["", f"Duplicate lines removed ({_KEPT_UNLESS_SAME}):", ""]
        out += [f"    {line}" for line in rebuild.duplicate_lines]
        out.append("")
    before, after = rebuild.before, rebuild.after
    out.append(
        f"- size: {before.lines} lines, {before.chars:,} characters → "
        f"{after.lines} lines, {after.chars:,} characters "
        f"(limits {after.line_limit} lines, {after.char_limit:,} characters)"
    )
    out.append("")
    return out


def plan_to_json(plan: Plan) -> dict[str, Any]:
    """The report as JSON-ready data."""
    folders = []
    for f in plan.folders:
        index = None
        if f.index is not None:
            r = f.index
            index = {
                "changed": f.index_changed,
                "added": list(r.added),
                "dangling_removed": list(r.dangling),
                "dangling_lines": list(r.dangling_lines),
                "duplicate_lines": list(r.duplicate_lines),
                "kept_lines": list(r.kept_lines),
                "merged_lines": list(r.merged_lines),
                "cut_lines": list(r.cut_lines),
                "duplicates_removed": list(r.duplicates),
                "rewritten": list(r.rewritten),
                "rewrites": [{"before": old, "after": new} for old, new in r.rewrites],
                "shortened": list(r.shortened),
                "left_out": list(r.left_out),
                "crowded_lines": list(r.crowded_lines),
                "before": {"lines": r.before.lines, "chars": r.before.chars},
                "after": {"lines": r.after.lines, "chars": r.after.chars},
                "fits": r.fits,
            }
        folders.append(
            {
                "folder": f.label,
                "path": str(f.root),
                "changed": f.changed,
                "merges": [
                    {
                        "kind": m.kind,
                        "survivor": m.survivor,
                        "merged": list(m.merged),
                        "similarity": m.similarity,
                        "dropped": list(m.dropped),
                        "superseded": list(m.superseded),
                    }
                    for m in f.merges
                ],
                "dates": [vars(d) for d in f.dates],
                "archives": [vars(a) for a in f.archives],
                "retired": [list(r) for r in f.retired],
                "index": index,
                "writes": sorted(f.writes),
                "moves": [list(m) for m in f.moves],
                "deletes": list(f.deletes),
                "skipped": list(f.skipped),
                "problems": list(f.problems),
                "repaired": list(f.repaired),
            }
        )
    return {
        "dry_run": plan.dry_run,
        "changed": plan.changed,
        "summary": summary(plan),
        "folders": folders,
    }


# Lines of one memory: a secret wrapped over two of them must reach the redaction together.
_WHOLE = frozenset({"superseded", "dropped"})


def json_chunks(plan: Plan) -> Iterator[str]:
    """`json.dumps(plan_to_json(plan), indent=2, ensure_ascii=False)` and a newline, in
    pieces cut only between the elements of an object or a list."""
    return _grouped(_json_pieces(plan_to_json(plan), 0))


def _json_pieces(value: Any, level: int) -> Iterator[str]:
    """VALUE as `json.dumps(..., indent=2)` writes it at nesting LEVEL, element by element."""
    if not isinstance(value, (dict, list)) or not value:
        text = json.dumps(value, indent=2, ensure_ascii=False)
        # Newlines inside JSON strings are escaped: each one here is between elements.
        yield text.replace("\n", "\n" + "  " * level) if level else text
        return
    inner = "\n" + "  " * (level + 1)
    items: Iterable[tuple[str | None, Any]]
    items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    separator = opening
    for key, item in items:
        head = separator + inner
        if key is not None:
            head += json.dumps(key, ensure_ascii=False) + ": "
        if key in _WHOLE:
            yield head + "".join(_json_pieces(item, level + 1))  # one piece
        else:
            yield head
            yield from _json_pieces(item, level + 1)
        separator = ","
    yield "\n" + "  " * level + closing
