"""Claude Code's settings files, as the client reads them for memory (CLAUDE-CODE.md 1).

The files memsync reads, weakest first: the person's `<claude>/settings.json`, then the
session directory's `.claude/settings.json` and `.claude/settings.local.json` (seen with
2.1.330 in `-p` sessions: the local file beats the project file, which beats the person's).
Administrator-managed settings and `--settings` flags are not read. A file that is not JSON
is skipped, as the client skips it; outside hooks memsync says so as an error instead.
Imports the standard library and `memsync.errors` only (the hook's lean path).
"""

from __future__ import annotations

import json
import os
import stat
import sys
import unicodedata
from pathlib import Path

from memsync.errors import UsageError

MAX_SETTINGS_BYTES = 1_000_000
MEMORY_DIRECTORY_KEY = "autoMemoryDirectory"

# Hook mode: a malformed file is skipped with one stderr line (a hook never fails a session).
_LENIENT: dict[str, bool] = {"on": False}
_WARNED: set[Path] = set()


class ClaudeSettingsError(UsageError):
    """A Claude Code settings file memsync must read is not a JSON object."""


def lenient_settings(on: bool = True) -> None:
    """Hook mode: skip a malformed settings file (one stderr line) rather than fail."""
    _LENIENT["on"] = on
    _WARNED.clear()


def settings_files(session_dir: Path, claude_dir: Path) -> tuple[Path, ...]:
    """The settings files the client merges for a session in SESSION_DIR, weakest first."""
    return (
        claude_dir / "settings.json",
        session_dir / ".claude" / "settings.json",
        session_dir / ".claude" / "settings.local.json",
    )


def read_settings(path: Path, *, strict: bool) -> dict[str, object] | None:
    """The JSON object in PATH; None when absent, or (not STRICT) malformed or unreadable."""
    try:
        # Non-blocking: opening a FIFO for reading would wait for a writer, hanging the hook.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        _malformed(path, f"cannot be read ({exc.strerror or exc})", strict)
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            _malformed(path, "is not a regular file", strict)
            return None
        try:
            raw = handle.read(MAX_SETTINGS_BYTES + 1)
        except OSError as exc:
            _malformed(path, f"cannot be read ({exc.strerror or exc})", strict)
            return None
    if len(raw) > MAX_SETTINGS_BYTES:
        _malformed(path, f"is larger than {MAX_SETTINGS_BYTES} bytes", strict)
        return None
    if not raw.strip():
        return {}  # an empty file is empty settings, to the client as to `memsync hooks`
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        _malformed(path, f"is not valid JSON ({exc})", strict)
        return None
    if not isinstance(data, dict):
        _malformed(path, "does not hold a JSON object", strict)
        return None
    return data


def _malformed(path: Path, what: str, strict: bool) -> None:
    if strict and not _LENIENT["on"]:
        raise ClaudeSettingsError(
            f"Claude Code settings file {path} {what}",
            hint="Fix or remove it: memsync reads it to find the memory folder "
            "(autoMemoryDirectory), and Claude Code ignores a file it cannot parse.",
        )
    if strict and path not in _WARNED:
        _WARNED.add(path)
        print(f"memsync: ignoring {path}: it {what} (as Claude Code does)", file=sys.stderr)


def setting(session_dir: Path, claude_dir: Path, key: str, *, strict: bool = False) -> object:
    """KEY's value in the strongest settings file that sets it (None when none does)."""
    found: object = None
    for path in settings_files(session_dir, claude_dir):
        data = read_settings(path, strict=strict)
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
    value = setting(session_dir, claude_dir, MEMORY_DIRECTORY_KEY, strict=True)
    return client_memory_path(value, expand_home=True)
