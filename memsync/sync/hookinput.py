"""What a hook is given: the arguments of the lean entry path and Claude Code's JSON on stdin.

Imports the standard library only: `memsync.__main__` parses a hook's arguments before it
imports anything else of memsync.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any, TextIO


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
    except (json.JSONDecodeError, RecursionError):  # RecursionError: `[[[[…` nested too deep
        return {}
    return data if isinstance(data, dict) else {}


def hook_project_dir(data: dict[str, Any], fallback: Path) -> Path:
    """The project directory named by the hook's `cwd`, else FALLBACK."""
    cwd = data.get("cwd")
    try:
        if isinstance(cwd, str) and cwd and Path(cwd).is_dir():
            return Path(cwd)
    except (OSError, ValueError):  # a name too long, a NUL byte: no folder there
        pass
    return fallback


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
