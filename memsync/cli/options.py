"""Options shared by several commands, with their choices spelled out for `--help`."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer


class SyncScope(str, Enum):
    """Which stores a sync command works on."""

    private = "private"
    team = "team"
    all = "all"

    def scopes(self) -> tuple[str, ...]:
        """The store scopes this choice names."""
        return ("private", "team") if self is SyncScope.all else (self.value,)


class StoreScope(str, Enum):
    """One store scope (for rules that differ between private and team)."""

    private = "private"
    team = "team"


class SettingsScope(str, Enum):
    """Which Claude Code settings file the hooks go into."""

    user = "user"
    project = "project"


class CheckFormat(str, Enum):
    """Output formats of `memsync check`."""

    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


class ReportFormat(str, Enum):
    """Output formats of reports (`consolidate`, `review`)."""

    markdown = "markdown"
    json = "json"


class ArchiveTypes(str, Enum):
    """Which memory types consolidation may archive to fit the index."""

    project_reference = "project-reference"
    all = "all"


ProjectOption = Annotated[
    Path,
    typer.Option(
        "--project", help="A directory inside the project (default: here).", file_okay=False
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
ScopeOption = Annotated[
    SyncScope, typer.Option("--scope", help="Which stores.", case_sensitive=False)
]
HookOption = Annotated[
    bool, typer.Option("--hook", help="Claude Code hook mode: stdin JSON, time limit, exit 0.")
]
DryRunOption = Annotated[bool, typer.Option("--dry-run", help="Show the change; write nothing.")]
