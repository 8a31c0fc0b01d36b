"""What a session end told the person, told again at the next session start.

Claude Code 2.1.330 shows nothing a SessionEnd hook prints unless the hook failed: the
`systemMessage` of `push --hook` (a merge decision, a secret a private store sent, a pull
request to open) would never reach the person. So those lines are also kept, per project,
in one small file under memsync's data dir, and the next `pull --hook` of the project puts
them in its own `systemMessage` and removes the file. Reading it costs the session start one
failed `open` when there is nothing to tell.

Each line is kept typed (`sync.noticetype`): an EVENT is told once, always; a STATE only
while no run since, of its store, found it gone (the session end's own runs included).
Imports the standard library and memsync's config (the data dir) and file-system helpers.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Collection, Sequence
from pathlib import Path

from memsync.config import data_dir
from memsync.fsutil.atomic import atomic_write_text
from memsync.fsutil.reads import read_regular

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.sync.noticetype import Notice
    from memsync.sync.report import StoreReport

_FOLDER = "notices"
# More would not be shown anyway: a systemMessage counts the lines past its twelfth.
_MOST = 24
_SAID_AT_END = "memsync: at the last session end, "


def _path(project_key: str) -> Path:
    name = "".join(c if c.isalnum() or c in "-_." else "-" for c in project_key).strip(".")
    return data_dir() / _FOLDER / f"{name or 'project'}.txt"


def keep(project_key: str, said: Sequence[Notice], reports: Sequence[StoreReport] = ()) -> None:
    """Add SAID (a session end's `systemMessage`) to what the next start tells, less what
    REPORTS (the end's own runs) found gone; never raises."""
    path = _path(project_key)
    kept = _read(path)
    texts = {notice.text for notice in said}
    fresh = [n for n in unsettled(kept, reports) if n.text not in texts]
    fresh += [notice for notice in said if notice.text]
    if fresh == kept:
        return
    with contextlib.suppress(OSError):
        if not fresh:
            os.unlink(path)
            return
        import json

        path.parent.mkdir(parents=True, exist_ok=True)
        from memsync.sync.noticetype import stored

        atomic_write_text(path, "".join(json.dumps(stored(n)) + "\n" for n in fresh[-_MOST:]))


def take(project_key: str) -> list[Notice]:
    """The notices kept for the project, as they were said, and forget them."""
    path = _path(project_key)
    notices = _read(path)
    if notices:
        with contextlib.suppress(OSError):
            os.unlink(path)
    return notices


def unsettled(
    notices: Sequence[Notice], reports: Sequence[StoreReport], clean: Collection[str] = ()
) -> list[Notice]:
    """NOTICES less the STATEs a later run found gone: REPORTS are its stores' runs, CLEAN
    the scopes it found with nothing to do (the quick session start: nothing is wrong)."""
    if not notices:
        return []
    from memsync.sync.noticetype import gone

    by_scope = {report.scope: report for report in reports}
    return [notice for notice in notices if not gone(notice, by_scope, clean)]


def said_at_end(notices: Sequence[Notice]) -> list[str]:
    """NOTICES (from `take`) told as the last session end's."""
    return [_SAID_AT_END + notice.text.removeprefix("memsync: ") for notice in notices]


def _read(path: Path) -> list[Notice]:
    try:
        text = read_regular(path, limit=64_000).decode("utf-8", errors="replace")
    except OSError:
        return []
    from memsync.sync.noticetype import parsed

    return [parsed(line) for line in text.splitlines() if line.strip()]
