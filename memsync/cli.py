"""The command line: parse options, call the core, render with rich. Nothing else lives here."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from memsync import __version__
from memsync.errors import MemsyncError

app = typer.Typer(
    name="memsync",
    help="Keep Claude Code's memory in git: across machines, shared by a team, reviewed.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

ProjectOption = Annotated[
    Path,
    typer.Option("--project", help="A directory inside the project (default: here).", file_okay=False),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _print_json(data: object) -> None:
    import json

    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def _version_callback(value: bool) -> None:
    if value:
        sys.stdout.write(f"memsync {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version_callback, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """memsync: Claude Code memory in git."""


# --- check ---

# --- merge-file ---


@app.command("merge-file")
def merge_file_command(
    base: Annotated[Path, typer.Argument(help="The common ancestor's version (git's %O).")],
    ours: Annotated[Path, typer.Argument(help="Our version; receives the result (%A).")],
    theirs: Annotated[Path, typer.Argument(help="Their version (%B).")],
    path: Annotated[
        str | None, typer.Option("--path", help="The file's path in the repository (%P).")
    ] = None,
    marker_size: Annotated[
        int, typer.Option("--marker-size", help="Accepted for git (%L); no markers are written.")
    ] = 7,
) -> None:
    """Git merge driver: merge a memory or MEMORY.md into OURS, without conflict markers."""
    from memsync.mergedriver import run_merge_driver

    del marker_size  # memsync never writes conflict markers
    result = run_merge_driver(base, ours, theirs, path)
    for line in result.messages():
        sys.stderr.write(line + "\n")


# --- sync: init, pull, push, sync, status, diff, log, promote ---

# --- consolidate ---

# --- hooks, scaffold, review ---


def _fail(error: MemsyncError) -> NoReturn:
    console = _console(stderr=True)
    console.print(f"[bold red]memsync:[/] {error.message}", markup=True, highlight=False)
    if error.hint:
        console.print(error.hint, markup=False)
    raise SystemExit(int(error.exit_code))


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app and map expected errors to SPEC exit codes."""
    try:
        app(args=argv, prog_name="memsync")
    except MemsyncError as error:
        _fail(error)
