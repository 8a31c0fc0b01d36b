"""`promote`, `scaffold`, `review`: sharing memory with a team."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from memsync.cli import render
from memsync.cli.options import DryRunOption, JsonOption, ProjectOption, ReportFormat, StoreScope
from memsync.errors import ExitCode


def promote(
    file: Annotated[str, typer.Argument(help="The private memory file to share.")],
    project: ProjectOption = Path("."),
) -> None:
    """Move a private memory into the team store (checked by the team rules first)."""
    from memsync.sync.report import exit_code
    from memsync.team.promote import promote as promote_memory

    with render.working("memsync: promoting"):
        result = promote_memory(project, file)
    render.line(f"promoted {result.source} -> {result.target}")
    reports = list(result.reports)
    render.report_lines("push", reports)
    raise typer.Exit(exit_code(reports))


def scaffold(
    directory: Annotated[Path, typer.Argument(help="Working tree of the team repository.")],
    dry_run: DryRunOption = False,
    update: Annotated[
        bool,
        typer.Option(
            "--update",
            help="Refresh files written by an earlier scaffold to this memsync's templates, "
            "keeping local edits (three-way merge against the recorded template).",
        ),
    ] = False,
    memsync_spec: Annotated[
        str | None,
        typer.Option(
            "--memsync-spec",
            "--memsync-requirement",
            help="What the workflows and the pre-commit hook pip-install (default: the "
            'recorded one, else this memsync, e.g. "memsync==<version>").',
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Write the team-repository scaffold: workflows, pre-commit, .gitattributes, Dependabot."""
    import dataclasses

    from memsync.team.scaffold import scaffold as write_scaffold

    result = write_scaffold(directory, memsync_spec=memsync_spec, dry_run=dry_run, update=update)
    if as_json:
        data = dataclasses.asdict(result)
        data["files"] = [{**f, "path": f["path"].as_posix()} for f in data["files"]]
        render.print_json(data)
        _stop_for_hand_merges(result.conflicts, dry_run)
        return
    for item in result.files:
        # A dry run says what would happen: "would write", not "would wrote".
        action = f"would {_WOULD.get(item.action, item.action)}" if dry_run else item.action
        render.line(
            f"{action:<8} {item.path.as_posix()}" + (f" ({item.note})" if item.note else "")
        )
    render.line(f"memsync spec: {result.memsync_spec}")
    for warning in result.warnings:
        render.line(("warning:", "yellow"), f" {warning}", stderr=True)
    _stop_for_hand_merges(result.conflicts, dry_run)


def _stop_for_hand_merges(conflicts: tuple[Path, ...], dry_run: bool) -> None:
    """A hand merge left to do needs the user (SPEC 7): exit 1, so that a script's
    `scaffold --update && git add -A && git commit` stops before committing half of it."""
    if not conflicts or dry_run:
        return  # a dry run wrote nothing: its "would conflict" lines are the answer
    count = len(conflicts)
    files = "; ".join(
        f"{p.as_posix()} (the new template is {p.as_posix()}.memsync-new)" for p in conflicts
    )
    noun, fix = ("file needs", "merge it, delete the .memsync-new file")
    if count > 1:
        noun, fix = ("files need", "merge each, delete its .memsync-new file")
    render.line(f"memsync: {count} {noun} a hand merge: {files}; {fix}, then commit", stderr=True)
    raise typer.Exit(int(ExitCode.NEEDS_USER))


_WOULD = {
    "wrote": "write",
    "kept": "keep",
    "appended": "append",
    "updated": "update",
    "merged": "merge",
    "deleted": "leave out",
    "current": "keep",
}


def review(
    path: Annotated[
        Path,
        typer.Argument(help="A checkout or bare clone of a memory store.", file_okay=False),
    ] = Path("."),
    base: Annotated[
        str | None,
        typer.Option("--base", help="Compare with (default: merge-base of HEAD and origin/HEAD)."),
    ] = None,
    head: Annotated[str | None, typer.Option("--head", help="The changes (default: HEAD).")] = None,
    output_format: Annotated[
        ReportFormat, typer.Option("--format", help="Output format.", case_sensitive=False)
    ] = ReportFormat.markdown,
    scope: Annotated[
        StoreScope | None,
        typer.Option(
            "--scope",
            help="Rules of this store scope for the checks (default: as `memsync check`).",
            case_sensitive=False,
            show_default=False,
        ),
    ] = None,
) -> None:
    """Semantic summary of the memory changes between two refs (for a pull request body)."""
    from memsync.team.review import review_refs
    from memsync.team.reviewrender import render_markdown, review_data

    result = review_refs(path, base, head, scope=scope.value if scope else None)
    if output_format is ReportFormat.json:
        render.print_json(review_data(result))
    else:
        # Plain stdout: the Markdown goes to a PR body or $GITHUB_STEP_SUMMARY as it is.
        render.write(render_markdown(result))
