"""Whether the person turned Claude Code's auto-memory off, as the client decides it.

With auto-memory off, Claude Code 2.1.330 gives the model neither MEMORY.md nor any word on
memory (checked with the real client). A SessionStart hook that then hands the model pulled
index lines and asks it to save team memories would undo that choice: the hook still syncs
the files and still tells the person, but gives the model nothing.

The client's rule (read from its code, checked with 2.1.330): `CLAUDE_CODE_DISABLE_AUTO_MEMORY`
set to a true word turns it off, to a false word forces it on; `CLAUDE_CODE_SIMPLE` turns it
off, and so does `CLAUDE_CODE_REMOTE` unless `CLAUDE_CODE_REMOTE_MEMORY_DIR` or
`CLAUDE_COWORK_MEMORY_PATH_OVERRIDE` gives remote memory a folder; otherwise the merged
settings' `autoMemoryEnabled` decides (default on), the administrator's managed settings
beating the person's and the project's (model/claudesettings.py `memory_settings`).
Imports the standard library and `memsync.model.claudesettings` only (the hook's lean path).
"""

from __future__ import annotations

import os
from pathlib import Path

from memsync.model.claudesettings import ENABLED_KEY, MAX_SETTINGS_BYTES, memory_settings

__all__ = ["MAX_SETTINGS_BYTES", "auto_memory_off"]

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


def auto_memory_off(session_dir: Path, claude_dir: Path) -> bool:
    """True when Claude Code runs without auto-memory in SESSION_DIR (the hook's `cwd`)."""
    switch = os.environ.get("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "").strip().lower()
    if switch in TRUE_WORDS:
        return True
    if switch in FALSE_WORDS and switch:
        return False
    if _true("CLAUDE_CODE_SIMPLE"):
        return True
    if _true("CLAUDE_CODE_REMOTE") and not (
        os.environ.get("CLAUDE_CODE_REMOTE_MEMORY_DIR")
        or os.environ.get("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE")
    ):
        return True  # a cloud session with nowhere to keep memory
    return memory_settings(session_dir, claude_dir, say=False).get(ENABLED_KEY) is False


def _true(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in TRUE_WORDS
