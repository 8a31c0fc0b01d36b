"""What a session end told the person, told again at the next session start.

Claude Code 2.1.330 shows nothing a SessionEnd hook prints unless the hook failed: the
`systemMessage` of `push --hook` (a merge decision, a secret a private store sent, a pull
request to open) would never reach the person. So those lines are also kept, per project,
in one small file under memsync's data dir, and the next `pull --hook` of the project puts
them in its own `systemMessage` and removes the file. Reading it costs the session start one
failed `open` when there is nothing to tell. Imports the standard library and memsync's
config (the data dir) and file-system helpers.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path

from memsync.config import data_dir
from memsync.fsutil.atomic import atomic_write_text
from memsync.fsutil.reads import read_regular

_FOLDER = "notices"
# More would not be shown anyway: a systemMessage counts the lines past its twelfth.
_MOST = 24
_SAID_AT_END = "memsync: at the last session end, "


def _path(project_key: str) -> Path:
    name = "".join(c if c.isalnum() or c in "-_." else "-" for c in project_key).strip(".")
    return data_dir() / _FOLDER / f"{name or 'project'}.txt"


def keep(project_key: str, lines: Sequence[str]) -> None:
    """Add LINES (a session end's `systemMessage`) to what the next start tells; never raises."""
    path = _path(project_key)
    kept = _read(path)
    fresh = [line for line in lines if line and line not in kept]
    if not fresh:
        return
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, "".join(f"{line}\n" for line in (kept + fresh)[-_MOST:]))


def take(project_key: str) -> list[str]:
    """The lines kept for the project, as they were said, and forget them."""
    path = _path(project_key)
    lines = _read(path)
    if lines:
        with contextlib.suppress(OSError):
            os.unlink(path)
    return lines


def said_at_end(lines: Sequence[str]) -> list[str]:
    """LINES (from `take`) told as the last session end's."""
    return [_SAID_AT_END + line.removeprefix("memsync: ") for line in lines]


def _read(path: Path) -> list[str]:
    try:
        text = read_regular(path, limit=64_000).decode("utf-8", errors="replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if line.strip()]
