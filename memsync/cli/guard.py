"""The one error handler (SPEC section 7): every command runs inside `guarded`.

Exit codes: 0 done; 1 needs you; 2 usage; 3 remote unreachable; 4 locked or unsafe
clone; 70 a bug in memsync (EX_SOFTWARE; the traceback goes to a log file whose path is
printed); 130 interrupted (Ctrl-C). A reader of the output that went away (`memsync status |
head`) ends the run silently with 1, as click does for the typer commands. No expected error
prints a traceback. Nothing here imports typer, so a lean path (`check` or `status` piped,
memsync/cli/leancheck.py, leanstatus.py) maps its errors exactly as the typer application
does.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from memsync.cli import render
from memsync.errors import ExitCode, MemsyncError

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import NoReturn

BROKEN_PIPE = 1  # what click exits with when its reader is gone (`memsync log | head`)


def fail(error: MemsyncError) -> NoReturn:
    """Print an expected error (and what to do) on stderr and exit with its code."""
    err = render.console(stderr=True)
    render.line(("memsync:", "bold red"), f" {error.message}", target=err)
    if error.hint:
        render.line(error.hint, target=err)
    raise SystemExit(int(error.exit_code))


def crash(exc: BaseException) -> NoReturn:
    """An error memsync did not expect: one line, the traceback in a log file, exit 70."""
    from memsync.cli.crashlog import write_crash_log

    log = write_crash_log(exc, sys.argv)
    err = render.console(stderr=True)
    render.line(
        ("memsync:", "bold red"), f" unexpected error: {type(exc).__name__}: {exc}", target=err
    )
    where = f"the traceback is in {log}" if log else "the traceback could not be saved"
    render.line(f"This is a bug in memsync; {where}. Please attach it to a bug report.", target=err)
    raise SystemExit(int(ExitCode.INTERNAL))


def guarded(run: Callable[[], object]) -> None:
    """Call RUN; map every error it raises to the exit codes of SPEC section 7."""
    try:
        run()
    except MemsyncError as error:
        fail(error)
    except KeyboardInterrupt:
        render.line("memsync: interrupted", stderr=True)
        raise SystemExit(int(ExitCode.INTERRUPTED)) from None
    except BrokenPipeError:
        # Nothing left to say to a reader that is gone; what Python would still flush at
        # exit goes nowhere instead of printing a second error.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(BROKEN_PIPE) from None
    except OSError as exc:
        from memsync.errors import os_error

        known = os_error(exc)
        if known is None:
            crash(exc)
        fail(known)
    except Exception as exc:
        crash(exc)
