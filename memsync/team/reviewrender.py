"""A review as Markdown (pull request body, `$GITHUB_STEP_SUMMARY`) or as JSON-ready data."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from memsync.model.index import IndexSize
from memsync.model.semdiff import FieldChange, MemoryChange
from memsync.team.review import IndexReview, Review

# GitHub accepts 65,536 characters in a pull request body; a step summary takes far more,
# but one size keeps both readable.
MAX_MARKDOWN_CHARS = 65_000
# Body diffs longer than this fold into <details>.
OPEN_DIFF_LINES = 12
MAX_CELL_CHARS = 120
_BACKTICKS = re.compile(r"`+")


def render_markdown(review: Review, *, limit: int = MAX_MARKDOWN_CHARS, rerun: str = "") -> str:
    """The review as GitHub Markdown, cut at a section boundary to fit LIMIT characters."""
    doc = _Doc(limit, rerun or _rerun_command(review))
    doc.add(_headline(review))
    if review.secrets:
        _secrets_section(doc, review)
    _checks_section(doc, review)
    if review.indexes:
        _index_section(doc, review.indexes)
    if review.changes:
        _changes_section(doc, review.changes, review.hidden_bodies)
        for change in review.changes:
            detail = _detail(change, change.path in review.hidden_bodies)
            if detail:
                doc.add(detail)
    if review.other_files:
        shown = ", ".join(_code(p) for p in review.other_files[:20])
        more = len(review.other_files) - 20
        doc.add(
            f"Other files changed (not memories, not reviewed here): {shown}"
            + (f" and {more} more" if more > 0 else "")
            + "\n"
        )
    return doc.text()


class _Doc:
    """Markdown built from whole units, so a cut never splits a table row or a <details>."""

    def __init__(self, limit: int, rerun: str) -> None:
        self.limit = limit
        self.rerun = rerun
        self.units: list[str] = []
        self.size = 0
        self.dropped = 0

    def add(self, unit: str) -> None:
        if self.dropped or self.size + len(unit) + len(self._note(1)) > self.limit:
            self.dropped += 1
            return
        self.units.append(unit)
        self.size += len(unit)

    def _note(self, dropped: int) -> str:
        return (
            f"\n_Summary cut to fit {self.limit:,} characters: {dropped:,} more part(s) not "
            f"shown. Run `{self.rerun}` for the whole review._\n"
        )

    def text(self) -> str:
        body = "".join(self.units)
        return body + self._note(self.dropped) if self.dropped else body


def _rerun_command(review: Review) -> str:
    base = f" --base {review.base[:12]}" if review.base else ""
    return f"memsync review{base} --head {review.head[:12]}"


def _headline(review: Review) -> str:
    counts = review.counts()
    total = sum(counts.values())
    span = (
        f"`{_short(review.base)}` ({_escape(review.base_label)}) → "
        f"`{_short(review.head)}` ({_escape(review.head_label)})"
    )
    if not total:
        return f"## Memory review\n\nNo memory changes: {span}.\n\n"
    parts = " · ".join(f"{n} {status}" for status, n in counts.items() if n)
    noun = "memory" if total == 1 else "memories"
    return f"## Memory review\n\n**{total} {noun}** changed: {parts}. {span}.\n\n"


def _short(sha: str | None) -> str:
    return sha[:10] if sha else "empty tree"


def _secrets_section(doc: _Doc, review: Review) -> None:
    doc.add(
        f"### ⚠️ Possible secrets ({len(review.secrets)})\n\n"
        "Never merge a credential into team memory: remove it, and rotate it if it is real. "
        "A line that only looks like one can carry `memsync:allow-secret`.\n\n"
        "| file | line | rule | preview |\n| --- | ---: | --- | --- |\n"
    )
    for found in review.secrets:
        doc.add(
            f"| {_code(found.path)} | {found.line} | {_escape(found.rule_id)} "
            f"| {_code(found.preview)} |\n"
        )
    doc.add("\n")


def _checks_section(doc: _Doc, review: Review) -> None:
    if not review.findings:
        doc.add("### Checks\n\nNo problems in the changed files.\n\n")
        return
    errors = sum(1 for f in review.findings if f.severity == "error")
    warnings = len(review.findings) - errors
    doc.add(
        f"### Checks: {errors} error(s), {warnings} warning(s)\n\n"
        "| | file | line | rule | message |\n| --- | --- | ---: | --- | --- |\n"
    )
    for note in review.findings:
        mark = "❌" if note.severity == "error" else "⚠️"
        doc.add(
            f"| {mark} | {_code(note.path)} | {note.line} | {_escape(note.rule)} "
            f"| {_escape(note.message)} |\n"
        )
    doc.add("\n")


def _index_section(doc: _Doc, indexes: tuple[IndexReview, ...]) -> None:
    doc.add(
        "### Index size\n\nClaude Code loads the first 200 lines, then the first 25,000 "
        "characters, of each `MEMORY.md`.\n\n"
        "| folder | lines | characters | entries | |\n| --- | ---: | ---: | ---: | --- |\n"
    )
    for index in indexes:
        before, after = index.before, index.after
        lines = f"{_num(before, 'lines')} → {_num(after, 'lines')} / 200"
        chars = f"{_num(before, 'chars')} → {_num(after, 'chars')} / 25,000"
        entries = f"+{len(index.entries_added)} −{len(index.entries_removed)}"
        doc.add(f"| {_code(index.folder)} | {lines} | {chars} | {entries} | {_verdict(after)} |\n")
    doc.add("\n")
    for index in indexes:
        if index.line_diff:
            diff = _diff_block(index.line_diff)
            doc.add(
                f"<details><summary>{_code(index.path)} lines</summary>\n\n{diff}\n</details>\n\n"
            )


def _num(size: IndexSize | None, attr: str) -> str:
    return "—" if size is None else f"{getattr(size, attr):,}"


def _verdict(size: IndexSize | None) -> str:
    if size is None:
        return "no index"
    if size.fits:
        return "✅ fits"
    return "⚠️ over the limit: Claude Code drops the rest (`memsync consolidate`)"


def _changes_section(doc: _Doc, changes: tuple[MemoryChange, ...], hidden: tuple[str, ...]) -> None:
    doc.add("### Memories\n\n| change | memory | type | file |\n| --- | --- | --- | --- |\n")
    for change in changes:
        where = _code(change.path)
        if change.old_path:
            where = f"{_code(change.old_path)} → {where}"
        what = []
        if change.status == "changed":
            if change.fields:
                what.append(f"{len(change.fields)} field(s)")
            if change.body_diff or change.path in hidden:
                what.append("body")
        extra = f" ({', '.join(what)})" if what else ""
        doc.add(
            f"| {change.status} | {_escape(change.name or '—')} | {_escape(change.type or '—')} "
            f"| {where}{extra} |\n"
        )
    doc.add("\n")


def _detail(change: MemoryChange, body_hidden: bool = False) -> str:
    """Fields and body diff of one memory; empty when there is nothing beyond the table."""
    if not change.fields and not change.body_diff and not body_hidden:
        return ""
    title = f"#### {_code(change.path)}"
    if change.name:
        title += f" — {_escape(change.name)}"
    parts = [title + "\n\n"]
    if change.fields:
        parts.append(_fields_table(change.fields))
    if change.body_diff:
        diff = _diff_block(change.body_diff)
        if len(change.body_diff) > OPEN_DIFF_LINES:
            summary = f"body diff ({len(change.body_diff)} lines)"
            diff = f"<details><summary>{summary}</summary>\n\n{diff}\n</details>\n"
        parts.append(diff + "\n")
    if body_hidden:
        parts.append("_Body not shown: this memory holds a possible secret (see above)._\n\n")
    return "".join(parts)


def _fields_table(fields: tuple[FieldChange, ...]) -> str:
    rows = [f"| {_code(f.path)} | {_value(f.before)} | {_value(f.after)} |\n" for f in fields]
    return "| field | before | after |\n| --- | --- | --- |\n" + "".join(rows) + "\n"


def _value(value: Any) -> str:
    if value is None:
        return "—"
    text = value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
    return _escape(text)


def _escape(text: str) -> str:
    """Text safe inside a table cell: one line, no pipes or HTML, at most MAX_CELL_CHARS."""
    text = " ".join(text.split())
    if len(text) > MAX_CELL_CHARS:
        text = text[: MAX_CELL_CHARS - 1] + "…"
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("|", "\\|")


def _code(text: str) -> str:
    """TEXT as an inline code span, whatever backticks it holds."""
    text = " ".join(text.split()).replace("|", "\\|")
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _diff_block(lines: tuple[str, ...]) -> str:
    """LINES of a unified diff as a fenced `diff` block that no backtick run in them closes."""
    fence = _fence(lines)
    return f"{fence}diff\n" + "\n".join(lines) + f"\n{fence}\n"


def _fence(lines: tuple[str, ...]) -> str:
    longest = max((len(m) for line in lines for m in _BACKTICKS.findall(line)), default=0)
    return "`" * max(3, longest + 1)


# --- JSON ----------------------------------------------------------------------------------


def review_data(review: Review) -> dict[str, Any]:
    """The review as plain data for `--format json` (secrets only as redacted previews)."""
    return {
        "base": review.base,
        "head": review.head,
        "base_label": review.base_label,
        "head_label": review.head_label,
        "scope": review.scope,
        "counts": review.counts(),
        "changes": [dataclasses.asdict(c) for c in review.changes],
        "indexes": [
            {
                "folder": i.folder,
                "path": i.path,
                "before": _size_data(i.before),
                "after": _size_data(i.after),
                "entries_added": list(i.entries_added),
                "entries_removed": list(i.entries_removed),
                "line_diff": list(i.line_diff),
            }
            for i in review.indexes
        ],
        "secrets": [dataclasses.asdict(s) for s in review.secrets],
        "findings": [dataclasses.asdict(f) for f in review.findings],
        "other_files": list(review.other_files),
        "hidden_bodies": list(review.hidden_bodies),
    }


def _size_data(size: IndexSize | None) -> dict[str, Any] | None:
    if size is None:
        return None
    return {**dataclasses.asdict(size), "fits": size.fits}
