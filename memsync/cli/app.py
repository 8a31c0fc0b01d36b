"""The typer application, its command groups, and the one error handler (SPEC section 7).

Exit codes: 0 done; 1 needs you; 2 usage; 3 remote unreachable; 4 locked or unsafe
clone; 70 a bug in memsync (EX_SOFTWARE; the traceback goes to a log file whose path is
printed); 130 interrupted (Ctrl-C). No expected error prints a traceback.
"""

from __future__ import annotations

import sys
from typing import Annotated, NoReturn

import typer

from memsync import __version__
from memsync.cli import hooks, mergefile, render, status, sync, team, tidy
from memsync.errors import ExitCode, MemsyncError

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    name="memsync",
    help="Keep Claude Code's memory in git: across machines, shared by a team, reviewed.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings=HELP_OPTIONS,
)


def _version_callback(value: bool) -> None:
    if value:
        sys.stdout.write(f"memsync {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version_callback, is_eager=True, help="Show the version."
        ),
    ] = False,
) -> None:
    """memsync: Claude Code memory in git."""


app.command(rich_help_panel="Sync")(sync.init)
app.command(rich_help_panel="Sync")(sync.pull)
app.command(rich_help_panel="Sync")(sync.push)
app.command("sync", rich_help_panel="Sync")(sync.sync)
app.command(rich_help_panel="Inspect")(status.status)
app.command(rich_help_panel="Inspect")(status.diff)
app.command(rich_help_panel="Inspect")(status.log)
app.command(rich_help_panel="Team")(team.promote)
app.command(rich_help_panel="Team")(team.scaffold)
app.command(rich_help_panel="Team")(team.review)
app.command(rich_help_panel="Check and tidy")(tidy.check)
app.command(rich_help_panel="Check and tidy")(tidy.consolidate)
app.command("merge-file", rich_help_panel="Git integration")(mergefile.merge_file)

hooks_app = typer.Typer(
    help="Claude Code hooks: `memsync pull --hook` at session start, `push --hook` at the end.",
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)
hooks_app.command("install")(hooks.install)
hooks_app.command("uninstall")(hooks.uninstall)
hooks_app.command("status")(hooks.status)
app.add_typer(hooks_app, name="hooks", rich_help_panel="Git integration")


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


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; map every error to the exit codes of SPEC section 7."""
    try:
        app(args=argv, prog_name="memsync")
    except MemsyncError as error:
        fail(error)
    except KeyboardInterrupt:
        render.line("memsync: interrupted", stderr=True)
        raise SystemExit(int(ExitCode.INTERRUPTED)) from None
    except OSError as exc:
        from memsync.errors import os_error

        known = os_error(exc)
        if known is None:
            crash(exc)
        fail(known)
    except Exception as exc:
        crash(exc)
