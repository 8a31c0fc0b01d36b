"""What a hook run says to Claude Code: context for the model, problems for the person.

Claude Code reads a SessionStart hook's JSON from stdout: `hookSpecificOutput.additionalContext`
reaches the model (above 10,000 characters the client saves it to a file and shows only a
2 KB preview, so it is fitted under that), `systemMessage` is shown to the person. Anyone
with something to say adds a `Section` (model) or a line (person) to a `HookOutput`;
`render` fits and serialises it.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, replace

from memsync.model.textcodec import js_length

# Claude Code shows the model only a preview of hook output longer than this (CLAUDE-CODE.md §2),
# counted as JavaScript does: UTF-16 code units (checked with 2.1.330: 10,000 units are shown
# whole, 10,001 are saved to a file; 5,000 emoji fit, 5,001 do not).
CONTEXT_LIMIT = 10_000
# Index lines are meant to stay under 150 characters; a longer one is cut, not dropped.
MAX_LINE = 300
MAX_NAME = 120
# The person reads systemMessage at every session start: past this, one line says how many more.
MAX_PERSON_LINES = 12


def quote_name(name: str) -> str:
    """A file name as inert data for the model: double-quoted, escaped, bounded."""
    shown = name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
    out: list[str] = []
    for char in shown:
        if char in '"\\':
            out.append("\\" + char)
        elif unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            # Newlines, bidi overrides and invisible characters could forge a line that
            # reads as an instruction; show them as escapes instead.
            code = ord(char)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def clean_line(line: str) -> str:
    """One line of memory text for the context: no control characters, bounded length."""
    kept = "".join(
        " " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in line.rstrip()
    )
    return kept if len(kept) <= MAX_LINE else kept[: MAX_LINE - 1] + "…"


@dataclass(frozen=True)
class Section:
    """A block of model context: a heading, its lines, and the file holding all of them."""

    heading: str
    lines: tuple[str, ...] = ()
    # Absolute path the model can Read for the lines that did not fit.
    full_text_in: str | None = None
    # Positions of the lines to show before the others when not all fit: what a pull changed
    # matters more than the lines around it.
    first: frozenset[int] = frozenset()

    def more_line(self, hidden: int) -> str:
        """The line that stands in for HIDDEN lines that did not fit."""
        noun = "line" if hidden == 1 else "lines"
        where = f": Read {self.full_text_in}" if self.full_text_in else ""
        return f"({hidden} more {noun} not shown{where})"


@dataclass(frozen=True)
class HookOutput:
    """Everything one hook run reports, gathered from every part of the run."""

    event: str
    sections: tuple[Section, ...] = ()
    person: tuple[str, ...] = ()

    def with_section(self, section: Section) -> HookOutput:
        """This output with one more block of model context."""
        return replace(self, sections=(*self.sections, section))

    def with_person(self, *lines: str) -> HookOutput:
        """This output with more lines for the person (each one problem and its fix)."""
        return replace(self, person=self.person + tuple(line for line in lines if line))

    def context(self, limit: int = CONTEXT_LIMIT) -> str:
        """The sections as one text of at most LIMIT characters."""
        return fit_sections(self.sections, limit)

    def system_message(self) -> str:
        """The person's lines, one problem each; the rest counted."""
        from memsync.check.printable import printable

        # Claude Code shows this in the terminal: controls in a file name must not act there.
        lines = list(dict.fromkeys(printable(line) for line in self.person))
        if len(lines) > MAX_PERSON_LINES:
            hidden = len(lines) - MAX_PERSON_LINES + 1
            lines = [
                *lines[: MAX_PERSON_LINES - 1],
                f"memsync: {hidden} more: run `memsync status`",
            ]
        return "\n".join(lines)

    def render(self) -> str | None:
        """Claude Code's hook JSON, or None when there is nothing to say."""
        data: dict[str, object] = {}
        context = self.context()
        if context and self.event == "SessionStart":
            data["hookSpecificOutput"] = {"hookEventName": self.event, "additionalContext": context}
        message = self.system_message()
        if message:
            data["systemMessage"] = message
        return json.dumps(data, ensure_ascii=False) if data else None


def _cut(text: str, limit: int) -> str:
    """TEXT shortened to at most LIMIT UTF-16 units, ending in an ellipsis."""
    if js_length(text) <= limit:
        return text
    kept: list[str] = []
    units = 0
    for char in text:
        width = 2 if ord(char) > 0xFFFF else 1
        if units + width > limit - 1:
            break
        kept.append(char)
        units += width
    return "".join(kept) + "…"


def _block(heading: str, lines: list[str]) -> str:
    return "\n".join([heading, *lines])


def fit_sections(sections: tuple[Section, ...], limit: int) -> str:
    """Join SECTIONS in order; lines that do not fit give way to a line naming the file."""
    full = "\n\n".join(_block(s.heading, list(s.lines)) for s in sections)
    if js_length(full) <= limit:
        return full
    # Every heading stays; room is kept for each section's worst-case stand-in line, then
    # lines fill what is left in order (the first sections say what changed: they matter most).
    fixed = sum(js_length(s.heading) for s in sections) + 2 * max(len(sections) - 1, 0)
    reserve = sum(js_length(s.more_line(len(s.lines))) + 1 for s in sections if s.lines)
    room = limit - fixed - reserve
    picked: list[set[int]] = [set() for _ in sections]
    # Each section's `first` lines come before any other line, wherever they stand.
    for chosen, section in zip(picked, sections, strict=True):
        for n in sorted(i for i in section.first if 0 <= i < len(section.lines)):
            cost = js_length(section.lines[n]) + 1
            if cost > room:
                break
            chosen.add(n)
            room -= cost
    for chosen, section in zip(picked, sections, strict=True):
        for n, line in enumerate(section.lines):
            if n in chosen:
                continue
            cost = js_length(line) + 1
            if cost > room:
                break
            chosen.add(n)
            room -= cost
    blocks: list[str] = []
    for chosen, section in zip(picked, sections, strict=True):
        shown = [line for n, line in enumerate(section.lines) if n in chosen]
        hidden = len(section.lines) - len(shown)
        if hidden:
            shown.append(section.more_line(hidden))
        blocks.append(_block(section.heading, shown))
    # Only headings longer than the whole limit need the cut (a pathological path).
    return _cut("\n\n".join(blocks), limit)
