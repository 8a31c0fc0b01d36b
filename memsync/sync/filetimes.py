"""The modification time a memory gets when memsync writes it into a live directory.

Claude Code ranks recalled memories by file modification time and tells the model a file
over a day old is "N days old", so a pulled file must carry when it was written, never when
it was pulled: its frontmatter's `metadata.modified` (the client stamps it on every write;
a top-level `modified` when there is no nested one), else the author time of the commit that
last changed it (memsync dates a commit by the edit it carries). Read with a scan of the
frontmatter's lines, not a YAML parser: this runs at every session start.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from memsync.model.limits import EARLIEST_STAMP_DAY

# How far into a file the frontmatter may reach (the client reads the same 30 lines).
_SCAN_LINES = 60
_KEY = re.compile(r"^(?P<indent>[ \t]*)modified:[ \t]*(?P<value>.*?)[ \t]*$")
_TOP_KEY = re.compile(r"^[^\s#][^:]*:")


def _timestamp(value: str) -> float | None:
    """Unix time of a YAML timestamp or date (`2026-03-04T10:12:44.120Z`, `2026-03-04`)."""
    from datetime import datetime, timezone  # only when a stamped file is written

    value = value.split(" #", 1)[0].strip().strip("'\"").strip()
    if not value:
        return None
    text = value.replace("Z", "+00:00").replace("z", "+00:00")
    if " " in text and "T" not in text:
        text = text.replace(" ", "T", 1).replace(" ", "")
    try:
        # Python before 3.11 takes at most 6 fraction digits and no lone `+HH`.
        if "." in text:
            head, _, rest = text.partition(".")
            digits = re.match(r"\d*", rest)
            frac = digits.group(0) if digits else ""
            text = f"{head}.{(frac + '000000')[:6]}{rest[len(frac) :]}"
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    if parsed.date() < EARLIEST_STAMP_DAY:
        return None  # a placeholder: a pull dated `0001-01-01` 1901-12-13, the 32-bit floor
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)  # YAML: no zone means UTC
    return parsed.timestamp()


def stamped_time(data: bytes) -> float | None:
    """When DATA says it was modified: `metadata.modified`, else a top-level `modified`."""
    if not data.startswith((b"---\n", b"---\r\n", b"\xef\xbb\xbf---")):
        return None
    lines = data[:16_384].decode("utf-8", "replace").splitlines()[1:_SCAN_LINES]
    nested: float | None = None
    top: float | None = None
    block = ""
    for line in lines:
        if line.rstrip() in ("---", "..."):
            break
        if _TOP_KEY.match(line):
            block = line.split(":", 1)[0].strip()
        match = _KEY.match(line)
        if match is None:
            continue
        if not match.group("indent"):
            top = _timestamp(match.group("value"))
        elif block == "metadata":
            nested = _timestamp(match.group("value"))
    else:
        return None  # no closing fence: not frontmatter the client would read
    return nested if nested is not None else top


class WriteTimes:
    """The modification time for each file written from one commit of a store."""

    def __init__(self, clone_dir: Path, commit: str | None, prefix: str) -> None:
        self._clone = clone_dir
        self._commit = commit
        self._prefix = prefix
        self._authored: dict[str, int] | None = None
        self._now = time.time()

    def __call__(self, path: str, data: bytes) -> float | None:
        """PATH's time, at most now (a clock ahead elsewhere must not date it in the future)."""
        when = stamped_time(data)
        if when is None:
            when = self._author_time(path)
        return None if when is None else min(when, self._now)

    def _author_time(self, path: str) -> float | None:
        if self._commit is None:
            return None
        if self._authored is None:
            from memsync.git import path_times

            # One walk of the history answers every unstamped file of this write.
            self._authored = path_times(self._clone, self._commit, self._prefix, author_dates=True)
        found = self._authored.get(path)
        return float(found) if found else None
