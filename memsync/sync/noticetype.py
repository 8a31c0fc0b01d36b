"""One line a session end said to the person, typed: an EVENT or a STATE (`sync.notices`).

An EVENT (a merge decision, a secret, a pull request, a note) is told at the next session
start once, always. A STATE (a folder memsync could not use, a file not synced, a held lock,
an unreachable remote) is told only while no later run of its store found it gone: told
after it was fixed, it sends the person to fix what is fixed, or to delete a lock another
run holds now. `sync.hooklines` types each line it says; `sync.notices` stores them. Only a
run that has something to keep or to tell imports this (a dataclass costs the session start
a millisecond). Imports the standard library only.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.sync.report import StoreReport

# What a STATE is, so what tells it is gone (an EVENT has none: "").
# The store's run stopped or left something out (an unusable folder, a git error, a push
# the remote refused, an unreachable remote, files skipped or not written): gone once a
# later run of the store finishes (a problem still there, it says again in its own words),
# and, when the run left commits unpushed, once none are (a pull sends nothing).
RUN = "run"
# The store's lock was held: any later run of the store took it, or says who holds it now.
LOCK = "lock"
# Files a check held back: gone as RUN, or once none of them is in the memory folder.
FILES = "files"
_STATES = (RUN, LOCK, FILES)


@dataclass(frozen=True)
class Notice:
    """One line a session end said to the person, and what would make it no longer true."""

    text: str
    scope: str = ""
    state: str = ""  # "": an EVENT, told once; else RUN, LOCK or FILES
    paths: tuple[str, ...] = ()  # FILES: the files, relative to LIVE_DIR
    live_dir: str = ""
    unsent: bool = False  # RUN: the run left commits the remote does not have


def gone(notice: Notice, reports: Mapping[str, StoreReport], clean: Collection[str]) -> bool:
    """Whether a run since (REPORTS by scope; CLEAN: scopes found with nothing to do) found
    NOTICE's state gone. An event is never gone: it is told once."""
    if not notice.state:
        return False
    if notice.scope in clean:
        return True
    if notice.state == FILES and notice.live_dir:
        folder = Path(notice.live_dir)
        if not any(os.path.lexists(folder / name) for name in notice.paths):
            return True
    report = reports.get(notice.scope)
    if report is None:
        return False  # no run of that store since: nothing says it changed
    if notice.state == LOCK:
        return True
    return report.error is None and not (notice.unsent and report.ahead)


def stored(notice: Notice) -> dict[str, object]:
    """NOTICE as `sync.notices` stores it (a JSON object): its text, and what is not the
    default."""
    fields: dict[str, object] = {"text": notice.text}
    for name, value, default in (
        ("scope", notice.scope, ""),
        ("state", notice.state, ""),
        ("paths", list(notice.paths), []),
        ("live_dir", notice.live_dir, ""),
        ("unsent", notice.unsent, False),
    ):
        if value != default:
            fields[name] = value
    return fields


def parsed(line: str) -> Notice:
    """A stored line: a notice, or the plain text an older memsync kept (an EVENT, as then)."""
    if not line.startswith("{"):
        return Notice(line)
    import json

    try:
        data = json.loads(line)
        text = data["text"]
        paths = data.get("paths", [])
        fields = (data.get("scope", ""), data.get("state", ""), data.get("live_dir", ""))
        unsent = data.get("unsent", False)
    except (ValueError, KeyError, TypeError, AttributeError):
        return Notice(line)
    if not isinstance(paths, list) or not isinstance(unsent, bool):
        return Notice(line)
    if not text or not all(isinstance(value, str) for value in (text, *fields, *paths)):
        return Notice(line)
    scope, state, live_dir = fields
    # A state this version does not know (a newer memsync's) is told, as an event is.
    state = state if state in _STATES else ""
    return Notice(text, scope, state, tuple(paths), live_dir, unsent)
