"""Running under Claude Code's SessionStart/SessionEnd hooks: stdin JSON, time limits, brevity."""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from memsync.sync.engine import StoreReport

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


def run_hook(
    command: str,
    project: Path,
    scopes: tuple[str, ...],
    *,
    message: str | None = None,
    review: bool = False,
) -> None:
    """Run pull or push as a Claude Code hook: never raises, never blocks past the limit."""
    from memsync.errors import MemsyncError, ProjectNotConfiguredError

    pulls: tuple[Any, ...] = ()
    try:
        from memsync.config import load_config
        from memsync.sync.engine import RunOptions, sync_project

        config = load_config()
        settings = config.settings
        limit = settings.pull_timeout if command == "pull" else settings.push_timeout
        # Armed before stdin is read: even a caller that never closes stdin is let go.
        start_watchdog(limit + 2, f"memsync {command}")
        project = hook_project_dir(read_hook_input(), project)
        if review:
            from memsync.team.reviewflow import push_for_review

            pushed = push_for_review(project, scopes, message=message, hook=True)
            reports, pulls = list(pushed.reports), tuple(pushed.pulls)
        else:
            options = RunOptions(message)
            reports = sync_project(
                project, scopes, command, hook=True, options=options, config=config
            )
    except ProjectNotConfiguredError:
        return  # The SessionStart hook runs in every project; most are not memsync's.
    except MemsyncError as error:
        sys.stderr.write(f"memsync: {error.message}\n")
        return
    except Exception as error:  # a hook must never block or break a session
        sys.stderr.write(f"memsync: {command} failed: {error!r}\n")
        return
    for line in summary_lines(reports, command):
        sys.stdout.write(line + "\n")
    for pull in pulls:
        if pull.result is not None and pull.result.url:
            sys.stdout.write(f"memsync: review pull request {pull.result.url}\n")
    for line in problem_lines(reports):
        sys.stderr.write(line + "\n")


_FAST_FLAGS = {"--scope", "--project"}


def parse_hook_argv(argv: list[str]) -> tuple[str, Path, tuple[str, ...]] | None:
    """`pull --hook [--scope S] [--project D]` (or push), for the lean entry path; else None."""
    if len(argv) < 2 or argv[0] not in ("pull", "push") or "--hook" not in argv:
        return None
    options = {"--scope": "all", "--project": "."}
    rest = [a for a in argv[1:] if a != "--hook"]
    while rest:
        flag, _, inline = rest.pop(0).partition("=")
        if flag not in _FAST_FLAGS or (not inline and not rest):
            return None  # anything else goes through the full command line parser
        options[flag] = inline or rest.pop(0)
    scope = options["--scope"].lower()
    scopes = {"all": ("private", "team"), "private": ("private",), "team": ("team",)}
    if scope not in scopes:
        return None
    return argv[0], Path(options["--project"]), scopes[scope]
