"""`hooks install|uninstall|status`: memsync's Claude Code hooks in a settings file."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from memsync.cli import render
from memsync.cli.options import DryRunOption, JsonOption, ProjectOption, SettingsScope

SettingsOption = Annotated[
    Path | None,
    typer.Option("--settings", dir_okay=False, help="Settings file (default: chosen by --scope)."),
]
SettingsScopeOption = Annotated[
    SettingsScope,
    typer.Option(
        "--scope",
        help="user: <claude>/settings.json; project: <project>/.claude/settings.local.json.",
        case_sensitive=False,
    ),
]


def _show(change: Any, dry_run: bool, done: str, warnings: tuple[str, ...] = ()) -> None:
    for warning in warnings:
        render.line(("warning:", "yellow"), f" {warning}", stderr=True)
    if dry_run:
        # Plain stdout: a diff must not go through rich markup.
        sys.stdout.write(
            render.printable(change.diff()) or f"{change.settings_path}: nothing to change\n"
        )
        return
    state = done if change.changed else "already up to date"
    render.line(f"memsync hooks {state}: {change.settings_path}")


def install(
    project: ProjectOption = Path("."),
    settings: SettingsOption = None,
    scope: SettingsScopeOption = SettingsScope.user,
    dry_run: DryRunOption = False,
) -> None:
    """Add memsync's SessionStart and SessionEnd hooks, keeping every other setting."""
    from memsync.team.claudehooks import install_hooks, other_scope_files, settings_file

    path = settings_file(scope.value, project, settings)
    result = install_hooks(path, others=other_scope_files(project), dry_run=dry_run)
    _show(result.change, dry_run, "installed", result.warnings)


def uninstall(
    project: ProjectOption = Path("."),
    settings: SettingsOption = None,
    scope: SettingsScopeOption = SettingsScope.user,
    dry_run: DryRunOption = False,
) -> None:
    """Remove memsync's hooks, and nothing else."""
    from memsync.team.claudehooks import apply, plan_uninstall, settings_file

    change = plan_uninstall(settings_file(scope.value, project, settings))
    if not dry_run:
        apply(change)
    _show(change, dry_run, "removed")


def status(
    project: ProjectOption = Path("."),
    settings: SettingsOption = None,
    scope: SettingsScopeOption = SettingsScope.user,
    as_json: JsonOption = False,
) -> None:
    """Per event: installed, missing, or outdated (another memsync, or too short a timeout)."""
    from memsync.team.claudehooks import (
        hook_status,
        other_scope_files,
        scope_warnings,
        settings_file,
    )

    path = settings_file(scope.value, project, settings)
    states = {event: state.value for event, state in hook_status(path).items()}
    warnings = scope_warnings(path, other_scope_files(project))
    if as_json:
        render.print_json({"settings": str(path), "events": states, "warnings": list(warnings)})
        return
    render.line(f"settings {path}")
    for event, state in states.items():
        render.line(f"  {event:<13} {state}")
    for warning in warnings:
        render.line(("warning:", "yellow"), f" {warning}", stderr=True)
