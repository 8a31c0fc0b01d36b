"""Whether the person turned Claude Code's auto-memory off, as the client decides it.

With auto-memory off, Claude Code 2.1.330 gives the model neither MEMORY.md nor any word on
memory (checked with the real client). A SessionStart hook that then hands the model pulled
index lines and asks it to save team memories would undo that choice: the hook still syncs
the files and still tells the person, but gives the model nothing.

The client's rule (read from its code): `CLAUDE_CODE_DISABLE_AUTO_MEMORY` set to a true word
turns it off, to a false word forces it on; `CLAUDE_CODE_SIMPLE` turns it off; otherwise the
merged settings' `autoMemoryEnabled` decides (default on). The settings read here are the
person's (`<claude>/settings.json`) and the session directory's `.claude/settings.json` and
`.claude/settings.local.json`, the later the stronger; administrator-managed settings are not.
Imports the standard library and `memsync.model.claudesettings` only (the hook's lean path).
"""

from __future__ import annotations

import os
from pathlib import Path

from memsync.model.claudesettings import MAX_SETTINGS_BYTES, read_settings, settings_files

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
    if os.environ.get("CLAUDE_CODE_SIMPLE", "").strip().lower() in TRUE_WORDS:
        return True
    enabled = True
    for path in settings_files(session_dir, claude_dir):
        data = read_settings(path, say=False)
        value = data.get("autoMemoryEnabled") if data is not None else None
        if isinstance(value, bool):  # any other value leaves the weaker file's word
            enabled = value
    return not enabled
