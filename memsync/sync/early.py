"""Session start's fetches, started before the hook imports the rest of itself.

The round trip to the remotes is the longest wait of a session start. Which clones to fetch
is known only once the config is read and the project's stores are resolved, which takes
most of the hook's imports; so the hook remembers, per working directory, the clones it
fetched (one small file under memsync's data dir), and the next session starts those
fetches first (`git.remote.start_fetch`; quickpull or the engine collects them as usual).
A remembered clone must lie under the data dir, where memsync keeps its clones; one this run
does not bind (a store removed, a project moved) is waited for and its outcome dropped, so
no fetch outlives the hook and no ref lock is left behind.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from memsync.config import data_dir
from memsync.fsutil.reads import read_regular
from memsync.git.remote import drop_fetches, start_fetch

_RECORDS = "early-fetch"
# What the session read at its start: (working directory, the clones remembered for it).
_REMEMBERED: list[tuple[str, tuple[str, ...]]] = []


def _record(cwd: str) -> Path:
    # Readable and unique enough; the file's first line says whose it is.
    name = "".join(c if c.isalnum() else "-" for c in cwd).strip("-")[-160:] or "root"
    return data_dir() / _RECORDS / name


def start_remembered(cwd: str | None = None) -> None:
    """Start the fetches the last session in CWD (default: here) made; never raises."""
    try:
        cwd = cwd or os.getcwd()
        lines = read_regular(_record(cwd)).decode("utf-8").splitlines()
    except (OSError, UnicodeError, ValueError):
        return
    if not lines or lines[0] != cwd:
        return  # another directory's record under the same name
    clones = tuple(lines[1:])
    _REMEMBERED.append((cwd, clones))
    root = data_dir()
    for clone in clones:
        path = Path(clone)
        if path.is_absolute() and path.is_relative_to(root) and ".." not in path.parts:
            start_fetch(path)


def remember(clones: Sequence[Path], timeout: float | None) -> None:
    """Keep CLONES, the ones this session binds, for the next one; drop the early fetches of
    any other clone. Never raises: a record that cannot be written is only a slower start."""
    drop_fetches(keep=set(clones), timeout=timeout)
    try:
        cwd, before = _REMEMBERED[-1] if _REMEMBERED else (os.getcwd(), None)
        now = tuple(str(c) for c in clones)
        if now == before:
            return
        from memsync.fsutil.atomic import atomic_write_text

        record = _record(cwd)
        record.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(record, "\n".join([cwd, *now]) + "\n", durable=False)
    except (OSError, UnicodeError, ValueError):
        return
