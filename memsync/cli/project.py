"""`memsync project move NEW`: rename a project's folder in its stores."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from memsync.cli import render
from memsync.cli.options import ProjectOption, ScopeOption, SyncScope


def move(
    new: Annotated[str, typer.Argument(help="The project's new folder name in its stores.")],
    *,
    project: ProjectOption = Path("."),
    scope: ScopeOption = SyncScope.all,
) -> None:
    """Rename the project's folder in its stores; other machines are told how to follow."""
    from memsync.sync.relocate import move_project

    with render.working("memsync: moving the project's folder"):
        moved = move_project(project, new, scope.scopes())  # type: ignore[arg-type]
    for item in moved:
        render.line(item.describe())
