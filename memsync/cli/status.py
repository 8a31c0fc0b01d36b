"""`status`, `diff`, `log`: read-only views of a project's stores."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from memsync.cli import render
from memsync.cli.options import JsonOption, ProjectOption, ScopeOption, SyncScope
from memsync.errors import ExitCode


def status(
    project: ProjectOption = Path("."),
    scope: ScopeOption = SyncScope.all,
    as_json: JsonOption = False,
    exit_code: Annotated[
        bool,
        typer.Option(
            "--exit-code",
            help="Exit 1 when anything is pending (edits, unpushed or unpulled commits), "
            "held back or failing, like `git diff --exit-code`.",
        ),
    ] = False,
) -> None:
    """Per store: remote, ahead/behind, local edits, held-back files and their fix, index."""
    import dataclasses

    from memsync.sync.overview import store_status

    statuses = store_status(project, scope.scopes())  # type: ignore[arg-type]
    if not statuses:  # as `push --scope team` says: never a silent, successful nothing
        from memsync.errors import UsageError

        raise UsageError(
            f"no {scope.value} store is configured for this project",
            hint="Run `memsync init --team URL` to add a team store.",
        )
    if as_json:
        render.print_json(
            [{**dataclasses.asdict(s), "pending": s.pending, "clean": s.clean} for s in statuses]
        )
    else:
        for st in statuses:
            _render_status(st)
    if exit_code and not all(s.clean for s in statuses):
        raise typer.Exit(ExitCode.NEEDS_USER)


def _render_status(st: Any) -> None:
    out = render.console()
    render.line((st.scope, "bold"), " store ", (st.store, "cyan"), target=out)
    render.line(f"  remote     {st.remote} ({st.branch}, folder {st.folder})", target=out)
    sync_state = f"{st.ahead} ahead, {st.behind} behind (as of the last fetch)"
    hint = ""
    if st.ahead:
        hint = "; run `memsync push`"
    elif st.behind:
        hint = "; run `memsync pull`"
    render.line(f"  commits    {sync_state}{hint}", target=out)
    blocked = {b.path for b in st.blocked}
    ready = [p for p in st.local_edits if p not in blocked]
    render.line(f"  local      {len(ready)} edit(s) not yet pushed", target=out)
    for path in ready:
        sign = "+" if path in st.added else "-" if path in st.removed else "~"
        render.line(f"             {sign} {path}", target=out)
    if st.blocked:
        render.line(f"  held back  {len(blocked)} file(s) that push will not send:", target=out)
    for item in st.blocked:
        render.line(
            "             ",
            (f"{item.path}:{item.line}", "bold"),
            f": {item.message} [{item.rule}]",
            target=out,
        )
        render.line(f"               fix: {item.fix}", target=out)
    render.line(
        f"  last sync  {render.when(st.last_sync)}; last push {render.when(st.last_push)}",
        target=out,
    )
    if st.index is not None:
        render.line(
            f"  index      {st.index.lines}/200 lines, {st.index.chars:,}/25,000 characters",
            target=out,
        )
    for problem in st.problems:
        render.line("  ", ("problem", "yellow"), f"    {problem}", target=out)
    if st.clean:
        render.line("  nothing to do", target=out)


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

    from memsync.sync.overview import history

    entries = history(project, scope.scopes(), file, limit)  # type: ignore[arg-type]
    if as_json:
        render.print_json([dataclasses.asdict(e) for e in entries])
        return
    signs = {"A": "+", "M": "~", "D": "-"}
    for entry in entries:
        render.line(
            (entry.sha[:10], "yellow"),
            f" {render.when(entry.when)} ",
            (entry.author, "bold"),
            f" ({entry.scope})",
        )
        render.line(f"    {entry.subject}")
        for status_letter, path in entry.files:
            render.line(f"      {signs.get(status_letter[:1], status_letter)} {path}")
        for decision in entry.decisions:
            render.line(f"      merge: {decision}")
    if not entries and file is not None:
        render.line(f"no recorded change of {file}; `memsync log` without FILE lists every change")
    elif not entries:
        render.line("no memory changes recorded yet")
