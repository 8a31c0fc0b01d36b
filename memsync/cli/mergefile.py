"""`merge-file`: the git merge driver."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from memsync.cli import render


def InputFile(help: str) -> Any:
    """A file argument that must exist: a missing one is a usage error naming it."""
    return typer.Argument(help=help, exists=True, dir_okay=False, readable=True)


def merge_file(
    base: Annotated[Path, InputFile(help="The common ancestor's version (git's %O).")],
    ours: Annotated[Path, InputFile(help="Our version; receives the result (%A).")],
    theirs: Annotated[Path, InputFile(help="Their version (%B).")],
    path: Annotated[
        str | None, typer.Option("--path", help="The file's path in the repository (%P).")
    ] = None,
    marker_size: Annotated[
        int,
        typer.Option(
            "--marker-size",
            help="Conflict-marker size (%L), for files that are not memories.",
        ),
    ] = 7,
) -> None:
    """Git merge driver: merge a memory or MEMORY.md into OURS, without conflict markers.

    A file that is not a memory (CONTRIBUTING.md, .github/*.md) is merged as
    git merges text: conflicts are marked and the exit status is 1, so git
    stops the merge. Two memories added under one name also exit 1: the
    second, `name-2.md`, must be staged by hand.
    """
    from memsync.errors import ExitCode
    from memsync.team.mergedriver import run_merge_driver

    result = run_merge_driver(base, ours, theirs, path, marker_size=marker_size)
    for message in result.messages():
        render.line(message, stderr=True)
    if not result.finished:
        raise typer.Exit(int(ExitCode.NEEDS_USER))
