"""Where an unexpected error's traceback goes: a log file the person can attach to a report."""

from __future__ import annotations

import contextlib
import os
import time
import traceback
from collections.abc import Sequence
from pathlib import Path


def _log_dirs() -> list[Path]:
    from tempfile import gettempdir

    from memsync.config import data_dir

    dirs = []
    with contextlib.suppress(Exception):
        dirs.append(data_dir() / "logs")
    # A full disk or a read-only data dir must not hide the traceback: try the temp dir too.
    # gettempdir raises when it can write nowhere (a file size limit): the crash report
    # must not end in a second traceback.
    with contextlib.suppress(Exception):
        dirs.append(Path(gettempdir()))
    return dirs


def write_crash_log(exc: BaseException, argv: Sequence[str]) -> Path | None:
    """Write EXC's traceback with the command line and versions; None when nowhere works."""
    import platform

    from memsync import __version__

    stamp = time.strftime("%Y%m%d-%H%M%S")
    text = (
        f"memsync {__version__} on Python {platform.python_version()} ({platform.platform()})\n"
        f"command: {' '.join(argv)}\n\n"
        + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    )
    for directory in _log_dirs():
        path = directory / f"memsync-crash-{stamp}-{os.getpid()}.log"
        try:
            directory.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError:
            continue
        return path
    return None
