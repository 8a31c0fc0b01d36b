"""`status`, `diff`, `log`: read-only views of a project's stores."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from memsync.cli import render
from memsync.cli.options import JsonOption, ProjectOption, ScopeOption, SyncScope


def status(
    project: ProjectOption = Path("."),
    scope: ScopeOption = SyncScope.all,
    as_json: JsonOption = False,
    exit_code: Annotated[
        bool,
        typer.Option(
            "--exit-code",
            help="Exit 1 when anything is pending (edits, unpushed or unpulled commits, "
            "memories not yet written), held back or failing, like `git diff --exit-code`.",
        ),
    ] = False,
    github: Annotated[
        bool,
        typer.Option(
            "--github/--no-github",
            help="Ask GitHub what became of the pull requests of commits in review (up to 4 s);"
            " --no-github: git alone, no network.",
        ),
    ] = True,
) -> None:
    """Per store: remote, ahead/behind, local edits, held-back files and their fix, index."""
    from memsync.cli.statusview import show_status

    code = show_status(
        project, scope.scopes(), scope.value, as_json=as_json, exit_code=exit_code, github=github
    )
    if code:
        raise typer.Exit(code)


def _render_change(sign: str, change: Any) -> None:
    label = f"{change.name or change.path} [{change.type or 'no type'}]"
    moved = f" (from {change.old_path})" if change.old_path else ""
    mark = {"added": "+", "removed": "-", "deleted": "-"}.get(change.status, "~")
    render.line(f"  {sign} {mark} {change.status:8} {change.path}{moved}  {label}")
    for field in change.fields:
        render.line(f"      {field.path}: {field.before!r} -> {field.after!r}")
    for line in change.body_diff:
        render.line(f"      {line}")


def diff(
    project: ProjectOption = Path("."),
    scope: ScopeOption = SyncScope.all,
    fetch: Annotated[bool, typer.Option("--fetch/--no-fetch", help="Fetch first.")] = True,
    as_json: JsonOption = False,
) -> None:
    """What push would send and what pull would bring, memory by memory."""
    import dataclasses

    from memsync.sync.overview import store_diff

    diffs = store_diff(project, scope.scopes(), fetch=fetch)  # type: ignore[arg-type]
    if as_json:
        render.print_json([dataclasses.asdict(d) for d in diffs])
        return
    for d in diffs:
        render.line((d.scope, "bold"), f" ({d.store})")
        if d.fetch_error:
            render.line("  ", ("not fetched:", "yellow"), f" {d.fetch_error}")
        render.line(f"  push would send {len(d.outgoing)} change(s)")
        for change in d.outgoing:
            _render_change(">", change)
        render.line(f"  pull would bring {len(d.incoming)} change(s)")
        for change in d.incoming:
            _render_change("<", change)


def log(
    file: Annotated[str | None, typer.Argument(help="One memory file (relative path).")] = None,
    project: ProjectOption = Path("."),
    scope: ScopeOption = SyncScope.all,
    limit: Annotated[int, typer.Option("--limit", "-n", help="How many commits.")] = 50,
    as_json: JsonOption = False,
) -> None:
    """History of memory changes: when, who, which memories."""
    import dataclasses

    from memsync.sync.history import history

    entries = history(project, scope.scopes(), file, limit)  # type: ignore[arg-type]
    if as_json:
        render.print_json([dataclasses.asdict(e) for e in entries])
        return
    signs = {"A": "+", "M": "~", "D": "-", "R": "→"}  # R: moved by `project move`
    for entry in entries:
        render.line(
            (entry.sha[:10], "yellow"),
            f" {render.when(entry.when)} ",
            (entry.author, "bold"),
            f" ({entry.scope})",
        )
        render.line(f"    {entry.subject}")
        if entry.merge and entry.files:
            render.line("      brought in by the merge:")
        for status_letter, path in entry.files:
            render.line(f"      {signs.get(status_letter[:1], status_letter)} {path}")
        for decision in entry.decisions:
            render.line(f"      merge: {decision}")
    if not entries and file is not None:
        render.line(f"no recorded change of {file}; `memsync log` without FILE lists every change")
    elif not entries:
        render.line("no memory changes recorded yet")
