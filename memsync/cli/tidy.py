"""`check` and `consolidate`: validate memories, and tidy them within Claude Code's limits."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from memsync.cli import render
from memsync.cli.leancheck import write_report
from memsync.cli.options import (
    ArchiveTypes,
    CheckFormat,
    JsonOption,
    ProjectOption,
    ReportFormat,
    StoreScope,
)
from memsync.errors import ExitCode

CheckPathArgument = Annotated[
    Path | None,
    typer.Argument(
        help="A memory directory, a store checkout or one file (default: this project's "
        "Claude Code memory).",
        show_default=False,
    ),
]


def check(
    path: CheckPathArgument = None,
    scope: Annotated[
        StoreScope | None,
        typer.Option(
            "--scope",
            help="Rules of this store scope (default: from the layout).",
            show_default=False,
            case_sensitive=False,
        ),
    ] = None,
    all_projects: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Every project folder of a store checkout (default PATH: the git work tree here).",
        ),
    ] = False,
    fmt: Annotated[
        CheckFormat, typer.Option("--format", help="Output format.", case_sensitive=False)
    ] = CheckFormat.text,
    project: ProjectOption = Path("."),
) -> None:
    """Validate memories: frontmatter, index limits, secrets, unsafe files. Exit 1 on errors."""
    from memsync.check.run import run_check

    report = run_check(
        path, scope=scope.value if scope else None, all_projects=all_projects, project=project
    )
    if fmt is CheckFormat.text and sys.stdout.isatty():
        _render_check(report)
        raise typer.Exit(ExitCode.NEEDS_USER if report.has_errors else ExitCode.OK)
    raise typer.Exit(write_report(report, fmt.value))


def _render_check(report: Any) -> None:
    from memsync.check.findings import summary_line

    out = render.console()
    styles = {"error": "bold red", "warning": "yellow"}
    for f in report.findings:
        render.line(
            (f.path, "bold"),
            f":{f.line}: ",
            (f.severity, styles[f.severity]),
            f" {f.message} ",
            (f"[{f.rule}]", "dim"),
            target=out,
        )
    counts = report.counts
    colour = "red" if counts["error"] else "yellow" if counts["warning"] else "green"
    render.line((summary_line(report), colour), (f" ({report.base})", "dim"), target=out)


def _scope(path: Path) -> str | None:
    """The scope of the store checkout PATH is in, by `check`'s rule; None outside git."""
    from memsync.check.run import checkout_scope
    from memsync.errors import MemsyncError
    from memsync.model.paths import find_git_root

    found = find_git_root(path)
    try:
        return None if found is None else checkout_scope(found[0])
    except (MemsyncError, OSError):
        return None  # an unreadable configuration: the folder's own rule (`team/`) holds


def consolidate(
    path: Annotated[
        Path | None,
        typer.Argument(
            help="A memory folder or a store checkout (default: this project's memory folder).",
            file_okay=False,
        ),
    ] = None,
    *,
    all_projects: Annotated[
        bool, typer.Option("--all", help="Every project folder of a store checkout.")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the plan, change nothing.")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Apply without asking.")] = False,
    report: Annotated[
        Path | None,
        typer.Option("--report", help="Also write the report to this file.", dir_okay=False),
    ] = None,
    report_format: Annotated[
        ReportFormat, typer.Option("--format", help="Report format.", case_sensitive=False)
    ] = ReportFormat.markdown,
    threshold: Annotated[
        float | None,
        typer.Option("--threshold", help="Near-duplicate similarity, 0-1 (default 0.85)."),
    ] = None,
    allow_archive: Annotated[
        ArchiveTypes,
        typer.Option(
            "--allow-archive",
            help="Types that may be archived to fit the index (user and feedback only with all).",
            case_sensitive=False,
        ),
    ] = ArchiveTypes.project_reference,
    project: ProjectOption = Path("."),
    as_json: JsonOption = False,
) -> None:
    """Merge duplicates, make relative dates absolute, keep the index within Claude's limits."""
    from memsync.consolidate.dedupe import DEFAULT_THRESHOLD
    from memsync.consolidate.engine import apply_plan, make_plan
    from memsync.consolidate.plan import Options
    from memsync.consolidate.report import json_chunks, markdown_chunks
    from memsync.errors import UsageError, UserMessageError
    from memsync.sync.tidytarget import consolidate_target

    fmt = "json" if as_json else report_format.value
    if threshold is not None and not 0 < threshold <= 1:
        raise UsageError(f"--threshold must be between 0 and 1, not {threshold}")
    target = consolidate_target(path, all_projects, project)
    options = Options(
        threshold or DEFAULT_THRESHOLD, allow_archive.value, target.histories, _scope(target.path)
    )
    with render.working("Planning the consolidation…"):
        plan = make_plan(target.path, all_projects=all_projects, options=options, dry_run=dry_run)
    # The target too: a store checkout's root (`--all`) is read by every later `--all` run.
    inside = _folder_holding(report, [target.path, *(folder.root for folder in plan.folders)])
    if report is not None and inside is not None:
        raise UsageError(
            f"--report {report} is inside {inside}, which is being consolidated",
            hint="Write the report elsewhere: in a memory folder it would replace a memory "
            "(MEMORY.md included) or be synced as one.",
        )

    from memsync.check.printable import json_printable, printable

    def text() -> Iterator[str]:
        # In pieces: a 100,000-memory plan is a 16 MB report, redacted piece by piece; the
        # same for the terminal and for `--report` (the weekly workflow's pull request body).
        chunks = json_chunks(plan) if fmt == "json" else markdown_chunks(plan)
        # Both escape character by character and redact within a piece (see report.py).
        return map(json_printable if fmt == "json" else printable, chunks)

    for chunk in text():
        sys.stdout.write(chunk)
    if plan.changed and not dry_run:
        if not yes:
            if not sys.stdin.isatty():
                if report is not None:
                    _write_report(report, text())
                raise UserMessageError(
                    "consolidation not applied: no terminal to ask on",
                    hint="Pass --yes to apply the plan above, or --dry-run to only show it.",
                )
            if not typer.confirm("Apply these changes?", default=False):
                render.line("Nothing changed.", stderr=True)
                raise typer.Exit(ExitCode.OK)
        with render.working("Applying the consolidation…"):
            apply_plan(plan)
        if fmt != "json":
            render.line("memsync: consolidation applied.", stderr=True)
    if report is not None:
        _write_report(report, text())
    unread = [
        f"{folder.root / item.partition(': ')[0]}"
        for folder in plan.folders
        for item in folder.unreadable
    ]
    if unread:  # a partial result: the rest is consolidated, these need the person (exit 1)
        raise UserMessageError(
            f"consolidated without {len(unread)} path(s) it could not read: " + "; ".join(unread),
            hint="Fix their permissions (`chmod u+rwx` a folder, `chmod u+rw` a file), then run "
            "`memsync consolidate` again.",
        )


def _folder_holding(path: Path | None, folders: list[Path]) -> Path | None:
    """The one of FOLDERS that PATH lies in, if any."""
    if path is None:
        return None
    where = path.resolve()
    return next((f for f in folders if where.is_relative_to(f.resolve())), None)


def _write_report(path: Path, text: Iterable[str]) -> None:
    """Write the report; an OS error names the file (a full disk reports none by itself)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as out:
            out.writelines(text)
    except OSError as exc:
        if exc.filename is None:
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise
