"""Running under Claude Code's SessionStart/SessionEnd hooks: stdin JSON, time limits, brevity."""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from memsync.sync import StoreReport

MAX_NAMES = 4


def read_hook_input(stream: TextIO | None = None, wait: float = 0.5) -> dict[str, Any]:
    """The hook's JSON from stdin, or {} when there is none (a TTY, empty or not JSON)."""
    stream = stream or sys.stdin
    try:
        if stream is None or stream.isatty():
            return {}
        if os.name != "nt":
            import select

            # Claude Code writes the JSON and closes stdin; never hang on an idle pipe.
            ready, _, _ = select.select([stream], [], [], wait)
            if not ready:
                return {}
        text = stream.read()
    except (OSError, ValueError):
        return {}
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def hook_project_dir(data: dict[str, Any], fallback: Path) -> Path:
    """The project directory named by the hook's `cwd`, else FALLBACK."""
    cwd = data.get("cwd")
    if isinstance(cwd, str) and cwd and Path(cwd).is_dir():
        return Path(cwd)
    return fallback


def start_watchdog(seconds: float, what: str) -> threading.Timer:
    """Exit 0 after SECONDS whatever is still running, so a session is never blocked."""

    def give_up() -> None:
        sys.stderr.write(
            f"memsync: {what} stopped after {seconds:.0f} s; the next run finishes it\n"
        )
        sys.stderr.flush()
        os._exit(0)

    timer = threading.Timer(seconds, give_up)
    timer.daemon = True
    timer.start()
    return timer


def _names(paths: Sequence[str]) -> str:
    shown = [Path(p).name for p in paths[:MAX_NAMES]]
    more = len(paths) - len(shown)
    return ", ".join(shown) + (f", +{more} more" if more > 0 else "")


def summary_lines(reports: Sequence[StoreReport], verb: str) -> list[str]:
    """A few lines saying what changed, for Claude to read as session context."""
    lines: list[str] = []
    for report in reports:
        changed = [
            p for p in report.changed_live if p.endswith(".md") and Path(p).name != "MEMORY.md"
        ]
        if verb == "pull" and changed:
            noun = "memory" if len(changed) == 1 else "memories"
            lines.append(
                f"memsync: {len(changed)} {report.scope} {noun} updated ({_names(changed)})"
            )
        if verb == "push" and report.pushed and report.committed:
            noun = "memory" if len(report.committed) == 1 else "memories"
            lines.append(f"memsync: pushed {len(report.committed)} {report.scope} {noun}")
    return lines


def problem_lines(reports: Sequence[StoreReport]) -> list[str]:
    """One line per problem, for stderr."""
    lines: list[str] = []
    for report in reports:
        if report.error:
            lines.append(f"memsync: {report.scope}: {report.error.splitlines()[0]}")
        elif report.offline:
            lines.append(f"memsync: {report.scope}: {report.offline} (kept locally)")
        lines.extend(f"memsync: {report.scope}: not synced: {p.describe()}" for p in report.blocked)
        if report.skipped:
            names = _names([skipped.path for skipped in report.skipped])
            lines.append(f"memsync: {report.scope}: skipped {len(report.skipped)} file(s): {names}")
    return lines
