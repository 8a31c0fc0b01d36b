"""Claude Code's settings files, as the client reads them for memory (CLAUDE-CODE.md 1).

The files memsync reads, weakest first: the person's `<claude>/settings.json`, then the
session directory's `.claude/settings.json` and `.claude/settings.local.json`, then the
administrator's managed settings: `managed-settings.json` and the `*.json` drop-ins of
`managed-settings.d/` (by name) in MANAGED_SETTINGS_DIR, which beat every other file (all
seen with 2.1.330 in `-p` sessions). `--settings` flags are not read. A file that is not
JSON is skipped, as the client skips it, and memsync names it once on stderr: the hooks
must not fail, and no command should stop over a file Claude Code itself shrugs off.
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
ENABLED_KEY = "autoMemoryEnabled"
# The type the client's schema gives each memory key. A person's or project's file that gives
# one another type (null too) is dropped whole by the client; a managed file loses that key.
KEY_TYPES: dict[str, type] = {MEMORY_DIRECTORY_KEY: str, ENABLED_KEY: bool}
_KEY_TYPE_NAMES = {str: "a string", bool: "true or false"}

# The client's fixed folder (it has no environment variable that moves it); tests point this
# module constant elsewhere, never at the real /etc.
MANAGED_SETTINGS_DIR = Path(
    {
        "darwin": "/Library/Application Support/ClaudeCode",
        "win32": "C:\\Program Files\\ClaudeCode",
    }.get(sys.platform, "/etc/claude-code")
)
MANAGED_FILE = "managed-settings.json"
MANAGED_DROP_INS = "managed-settings.d"

_NAMED: set[Path] = set()  # the malformed files already named on stderr by this process


def settings_files(session_dir: Path, claude_dir: Path) -> tuple[Path, ...]:
    """The settings files the client merges for a session in SESSION_DIR, weakest first."""
    return (
        claude_dir / "settings.json",
        session_dir / ".claude" / "settings.json",
        session_dir / ".claude" / "settings.local.json",
    )


def managed_settings_files() -> tuple[Path, ...]:
    """The administrator's settings files, weakest first: the managed file, then the drop-ins."""
    drop_ins = MANAGED_SETTINGS_DIR / MANAGED_DROP_INS
    try:
        with os.scandir(drop_ins) as entries:
            names = [
                entry.name
                for entry in entries
                if entry.name.endswith(".json")
                and not entry.name.startswith(".")
                and (entry.is_symlink() or entry.is_file())
            ]
    except OSError:
        names = []
    # JavaScript's sort compares UTF-16 code units; big-endian UTF-16 bytes sort the same way.
    names.sort(key=lambda name: name.encode("utf-16-be", errors="surrogatepass"))
    return (MANAGED_SETTINGS_DIR / MANAGED_FILE, *(drop_ins / name for name in names))


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
        if path.parent in (MANAGED_SETTINGS_DIR, MANAGED_SETTINGS_DIR / MANAGED_DROP_INS):
            then = "`claude -p` stops over it (fix or remove it)"
        else:
            then = "Claude Code ignores it too (fix it for its memory settings to count)"
        print(
            f"memsync: ignoring Claude Code settings file {path}: it {what}; {then}",
            file=sys.stderr,
        )


def memory_settings(session_dir: Path, claude_dir: Path, *, say: bool) -> dict[str, object]:
    """The memory keys (KEY_TYPES) the client takes for a session in SESSION_DIR."""
    merged: dict[str, object] = {}
    for path in settings_files(session_dir, claude_dir):
        data = read_settings(path, say=say)
        if data is None:
            continue
        wrong = [
            key
            for key, kind in KEY_TYPES.items()
            if key in data and not isinstance(data[key], kind)
        ]
        if wrong:
            key = wrong[0]
            shown = json.dumps(data[key])[:80]
            _malformed(path, f"sets {key} to {shown}, not {_KEY_TYPE_NAMES[KEY_TYPES[key]]}", say)
            continue
        merged.update((key, data[key]) for key in KEY_TYPES if key in data)
    for path in managed_settings_files():
        data = read_settings(path, say=say)
        if data is not None:
            # An administrator's file loses only the key of the wrong type (seen with 2.1.330).
            merged.update(
                (key, data[key])
                for key, kind in KEY_TYPES.items()
                if isinstance(data.get(key), kind)
            )
    return merged


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
    value = memory_settings(session_dir, claude_dir, say=True).get(MEMORY_DIRECTORY_KEY)
    return client_memory_path(value, expand_home=True)
