"""Claude Code's settings files, as the client reads them for memory (CLAUDE-CODE.md 1).

The files memsync reads, weakest first: the person's `<claude>/settings.json`, then the
session directory's `.claude/settings.json` and `.claude/settings.local.json` (seen with
2.1.330 in `-p` sessions: the local file beats the project file, which beats the person's).
Administrator-managed settings and `--settings` flags are not read. A file that is not JSON
is skipped, as the client skips it, and memsync names it once on stderr: the hooks must
not fail, and no command should stop over a file Claude Code itself shrugs off.
Imports the standard library only (the hook's lean path).
"""

from __future__ import annotations

import json
import os
import stat
import sys
import unicodedata
from pathlib import Path

MAX_SETTINGS_BYTES = 1_000_000
MEMORY_DIRECTORY_KEY = "autoMemoryDirectory"

_NAMED: set[Path] = set()  # the malformed files already named on stderr by this process


def settings_files(session_dir: Path, claude_dir: Path) -> tuple[Path, ...]:
    """The settings files the client merges for a session in SESSION_DIR, weakest first."""
    return (
        claude_dir / "settings.json",
        session_dir / ".claude" / "settings.json",
        session_dir / ".claude" / "settings.local.json",
    )


def read_settings(path: Path, *, say: bool) -> dict[str, object] | None:
    """The JSON object in PATH; None when absent, malformed or unreadable (named once if SAY)."""
    try:
        # Non-blocking: opening a FIFO for reading would wait for a writer, hanging the hook.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        _malformed(path, f"cannot be read ({exc.strerror or exc})", say)
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            _malformed(path, "is not a regular file", say)
            return None
        try:
            raw = handle.read(MAX_SETTINGS_BYTES + 1)
        except OSError as exc:
            _malformed(path, f"cannot be read ({exc.strerror or exc})", say)
            return None
    if len(raw) > MAX_SETTINGS_BYTES:
        _malformed(path, f"is larger than {MAX_SETTINGS_BYTES} bytes", say)
        return None
    if not raw.strip():
        return {}  # an empty file is empty settings, to the client as to `memsync hooks`
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        _malformed(path, f"is not valid JSON ({exc})", say)
        return None
    if not isinstance(data, dict):
        _malformed(path, "does not hold a JSON object", say)
        return None
    return data


def _malformed(path: Path, what: str, say: bool) -> None:
    if say and path not in _NAMED:
        _NAMED.add(path)
        print(
            f"memsync: ignoring Claude Code settings file {path}: it {what}; Claude Code "
            "ignores it too (fix it for its autoMemoryDirectory to count)",
            file=sys.stderr,
        )


def setting(session_dir: Path, claude_dir: Path, key: str, *, say: bool = False) -> object:
    """KEY's value in the strongest settings file that sets it (None when none does)."""
    found: object = None
    for path in settings_files(session_dir, claude_dir):
        data = read_settings(path, say=say)
        if data is not None and data.get(key) is not None:
            found = data[key]
    return found


def client_memory_path(value: object, *, expand_home: bool) -> Path | None:
    """A memory folder setting as the client takes it; None when the client would ignore it."""
    if not isinstance(value, str) or not value:
        return None
    text = value
    if expand_home and text.startswith(("~/", "~\\")):
        rest = text[2:]
        inside = os.path.normpath(rest or ".")
        # `~/`, `~/..` and anything climbing out of the home folder: the client ignores them.
        if inside in (".", "..") or inside.startswith(("../", "..\\")):
            return None
        text = os.path.join(Path.home(), rest)
    if "\x00" in text or not os.path.isabs(text):
        return None  # a relative path (`mem`, `~` alone, `~/x` in the env override)
    normal = os.path.normpath(text).rstrip("/\\")
    if len(normal) < 3:
        return None  # `/`, `/a`: too short to be a memory folder, the client says
    return Path(unicodedata.normalize("NFC", normal))


def configured_memory_dir(session_dir: Path, claude_dir: Path) -> Path | None:
    """The folder `autoMemoryDirectory` names for a session in SESSION_DIR, if any."""
    value = setting(session_dir, claude_dir, MEMORY_DIRECTORY_KEY, say=True)
    return client_memory_path(value, expand_home=True)
