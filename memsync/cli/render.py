"""Everything the command line prints goes through here: escaped for rich and for terminals.

Text from outside memsync (file names, git's messages, memory content) never reaches rich
as markup, so `[/b]` cannot crash a command and `[red]` is printed as written; control
characters and escape sequences are shown escaped (`\\x1b`), so a file name cannot move the
cursor, recolour the terminal or hide text (bidirectional overrides included). That rule,
`printable`, lives in `memsync.check.printable`: hook mode's stderr and `systemMessage` use it too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import nullcontext

from memsync.check.printable import printable

__all__ = [
    "console",
    "line",
    "print_json",
    "printable",
    "report_lines",
    "when",
    "working",
    "write",
]

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any

    from rich.console import Console

    from memsync.sync.report import StoreReport

Segment = str | tuple[str, str]


class Plain:
    """A stream that is not a terminal, nothing forcing colour: rich would print the text as
    it is, so it is written as it is, and rich (a tenth of a second's start-up) never loads."""

    is_terminal = False

    def __init__(self, stderr: bool) -> None:
        self.stderr = stderr

    def write(self, text: str) -> None:
        """TEXT and a line break on the stream."""
        (sys.stderr if self.stderr else sys.stdout).write(text + "\n")


def console(stderr: bool = False) -> Console | Plain:
    """Where to print on stdout (or stderr): a rich console that never guesses highlighting,
    or, piped, the plain stream rich would amount to."""
    return Plain(stderr) if _plain(stderr) else _rich(stderr)


def _plain(stderr: bool) -> bool:
    if "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        return False  # rich's own overrides: let rich decide
    stream = sys.stderr if stderr else sys.stdout
    try:
        return not stream.isatty()
    except ValueError:  # a closed stream: rich's business
        return False


def line(*segments: Segment, stderr: bool = False, target: Console | Plain | None = None) -> None:
    """Print one line from plain segments and (text, style) pairs; no text is markup."""
    out = target or console(stderr)
    pieces = [printable(s if isinstance(s, str) else s[0]) for s in segments]
    if isinstance(out, Plain) and "\t" not in "".join(pieces):
        out.write("".join(pieces))  # what rich prints off a terminal (it expands tabs)
        return
    from rich.text import Text

    text = Text()
    for piece, segment in zip(pieces, segments, strict=True):
        text.append(piece, style=None if isinstance(segment, str) else segment[1])
    if isinstance(out, Plain):
        out = _rich(out.stderr)
    out.print(text)


def _rich(stderr: bool) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True, emoji=False)


def print_json(data: object) -> None:
    """DATA as indented JSON on stdout (JSON escapes control characters itself)."""
    import json

    from memsync.check.printable import json_printable

    sys.stdout.write(json_printable(json.dumps(data, indent=2, ensure_ascii=False, default=str)))
    sys.stdout.write("\n")


def write(text: str) -> None:
    """Report text (Markdown, findings) on stdout as it is, only made printable: no rich."""
    sys.stdout.write(printable(text))


def working(what: str) -> Any:
    """A spinner on a terminal while network and merge work runs; nothing when piped."""
    err = console(stderr=True)
    if isinstance(err, Plain) or not err.is_terminal:
        return nullcontext()
    return err.status(printable(what))


def when(timestamp: float | None) -> str:
    """A local date and time, or "never"."""
    from memsync.sync.outcome import when as local_when

    return local_when(timestamp)


# A pull that brings a thousand memories should not print a thousand lines.
MAX_LISTED = 20


def _listed(items: Sequence[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    yield from items[:MAX_LISTED]
    if len(items) > MAX_LISTED:
        yield "…", f"and {len(items) - MAX_LISTED} more (`memsync log` lists them)"


def report_lines(command: str, reports: Sequence[StoreReport]) -> None:
    """Per store: the one-line outcome, then the files (+ added, ~ changed, - removed)."""
    from memsync.sync.arrived import remote_fix
    from memsync.sync.hooklines import unwritten_lines
    from memsync.sync.outcome import blocked_files, outcome
    from memsync.sync.report import SENT_ELSEWHERE

    out = console()
    for report in reports:
        line((report.scope, "bold"), f" ({report.store}): {outcome(report, command)}", target=out)
        created = set(report.created)
        changed = [("+" if p in created else "~", p) for p in report.updated]
        changed += [("-", p) for p in report.deleted]
        for sign, path in _listed(changed):
            line(f"  {sign} {path}", target=out)
        if report.pushed and report.sent:
            line(f"  pushed: {', '.join(report.sent[:MAX_LISTED])}", target=out)
        if report.pushed and report.sent_elsewhere:
            more = len(report.sent_elsewhere) - MAX_LISTED
            line(
                f"  {SENT_ELSEWHERE}: "
                + ", ".join(report.sent_elsewhere[:MAX_LISTED])
                + (f" and {more} more" if more > 0 else ""),
                target=out,
            )
        for blocked in blocked_files(report):
            line(
                "  ",
                ("blocked", "bold red"),
                f" {blocked.path}:{blocked.line}: {blocked.message} [{blocked.rule}]",
                target=out,
            )
            line(f"    fix: {blocked.fix}", target=out)
        for decision in report.decisions:
            line(f"  merge: {decision}", target=out)
        for note in report.notes:
            line(f"  note: {note}", target=out)
        for problem in report.warnings:
            line(f"  {problem.describe()}", target=out)  # "file:line: warning: …"
        for problem in report.arrived:
            line("  ", ("on the team remote", "bold red"), f" {problem.describe()}", target=out)
            line(f"    fix: {remote_fix(problem)}", target=out)
    err = console(stderr=True)
    for report in reports:
        # The outcome line has the first line of an error; the hint (what to do) goes here.
        if report.error:
            line(f"memsync: {report.scope}: {report.error}", target=err)
        elif report.offline:
            offline = report.offline.rstrip(".")
            line(f"memsync: {report.scope}: {offline}; local work kept", target=err)
        # Synced but refused by the folder (read-only, disk full): which folder, and the fix.
        folder = f"the memory folder {report.live_dir}".rstrip()
        for said in unwritten_lines(report.scope, report.unwritten, folder):
            line(said, target=err)
        for skipped in report.skipped:
            if skipped not in report.unwritten:
                line(
                    f"memsync: {report.scope}: skipped {skipped.path}: {skipped.reason}", target=err
                )
