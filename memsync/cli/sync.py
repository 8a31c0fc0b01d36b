"""`init`, `pull`, `push`, `sync`: move memory between this machine and its stores."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from memsync.cli import render
from memsync.cli.options import HookOption, JsonOption, ProjectOption, ScopeOption, SyncScope
from memsync.errors import ExitCode

if TYPE_CHECKING:
    from memsync.sync.report import StoreReport


def run_sync_command(
    command: str,
    project: Path,
    scope: SyncScope,
    hook: bool,
    as_json: bool,
    *,
    message: str | None = None,
    review: bool = False,
) -> None:
    """Run pull or push for the chosen stores, print per store, exit with the ranked code."""
    from memsync.sync.engine import RunOptions, sync_project
    from memsync.sync.report import exit_code

    if hook:
        from memsync.sync.hookmode import run_hook

        review_push = _hook_review_push if review else None
        run_hook(command, project, scope.scopes(), message=message, review=review_push)
        raise typer.Exit(ExitCode.OK)  # a hook never blocks a session
    pushed: Any = None
    if review:
        from memsync.team.reviewflow import push_for_review

        with render.working(f"memsync: {command} for review"):
            pushed = push_for_review(project, scope.scopes(), message=message)
        reports = list(pushed.reports)
    else:
        with render.working(f"memsync: {command}"):
            reports = sync_project(project, scope.scopes(), command, options=RunOptions(message))
    if as_json:
        render.print_json([_report_data(r, command, pushed) for r in reports])
    else:
        render.report_lines(command, reports)
        _render_pulls(pushed)
    raise typer.Exit(exit_code(reports))


def _hook_review_push(
    project: Path, scopes: tuple[str, ...], message: str | None
) -> tuple[Sequence[StoreReport], Sequence[Any]]:
    """`push --review --hook`: the team layer's review flow, run inside the hook's limits."""
    from memsync.team.reviewflow import push_for_review

    pushed = push_for_review(project, scopes, message=message, hook=True)
    return pushed.reports, pushed.pulls


def _report_data(report: Any, command: str, pushed: Any = None) -> dict[str, Any]:
    import dataclasses

    from memsync.sync.outcome import blocked_files, outcome

    data = dataclasses.asdict(report)
    data["summary"] = outcome(report, command)
    data["blocked"] = [dataclasses.asdict(b) for b in blocked_files(report)]
    data["warnings"] = [p.describe() for p in report.warnings]
    for pull in pushed.pulls if pushed else ():
        if report.scope == "team" and pull.store == report.store:
            data["pull_request"] = dataclasses.asdict(pull)
    return data


def _render_pulls(pushed: Any) -> None:
    """Where the review pull request is, or why there is none."""
    if pushed is None:
        return
    for pull in pushed.pulls:
        result = pull.result
        if result is None:
            render.line(f"review: {pull.note}")
            continue
        noun = "memory" if pull.changes == 1 else "memories"
        render.line(
            f"review: pushed {pull.branch} ({pull.changes} {noun} changed against {pull.base})"
        )
        for warning in result.warnings:
            render.line(f"warning: {warning}", stderr=True)
        if result.method == "url":
            render.line(f"review: open the pull request at {result.url}")
        elif result.url:
            verb = "opened" if result.created else "updated"
            render.line(f"review: pull request {verb}: {result.url}")
        for clause in pull.reproposals:
            render.line(f"review: {clause}")


def init(
    *,
    project: ProjectOption = Path("."),
    private: Annotated[
        str | None, typer.Option("--private", help="Private store remote (default: local).")
    ] = None,
    team: Annotated[str | None, typer.Option("--team", help="Team store remote URL.")] = None,
    subdir: Annotated[
        str | None,
        typer.Option("--subdir", help="Folder in the stores (`.` = root of the team repo)."),
    ] = None,
    hooks: Annotated[
        bool, typer.Option("--hooks/--no-hooks", help="Install the Claude Code hooks.")
    ] = True,
    memsync_spec: Annotated[
        str | None,
        typer.Option(
            "--memsync-spec",
            help="What a scaffolded team repository's workflows and pre-commit hook install "
            '(pip requirement; default: this memsync, e.g. "memsync==<version>").',
            show_default=False,
        ),
    ] = None,
) -> None:
    """Configure this project's stores, clone them and do a first sync."""
    from memsync.sync.report import exit_code
    from memsync.team.initialize import default_private_remote, run_init

    with render.working("memsync: cloning and syncing"):
        result = run_init(
            project, private_url=private, team_url=team, subdir=subdir, memsync_spec=memsync_spec
        )
    plan = result.plan
    render.line(("project", "bold"), f" {plan.location.root} (key {plan.location.key})")
    render.line(f"memory   {plan.location.memory_dir}")
    embedded = plan.private.url == str(default_private_remote())
    note = " (the embedded default: add a remote with --private URL)" if embedded else ""
    render.line(f"private  {plan.private.url}{note}")
    render.line(f"team     {plan.team.url if plan.team else 'none (add one with --team URL)'}")
    if result.scaffolded:
        render.line(f"scaffolded the empty team repository: {', '.join(result.scaffolded)}")
    for warning in result.warnings:
        render.line(("warning:", "yellow"), f" {warning}", stderr=True)
    render.line(f"config   {result.config_file}")
    reports = list(result.reports)
    render.report_lines("init", reports)
    if hooks:
        from memsync.team.claudehooks import install_hooks, other_scope_files, user_settings_path

        installed = install_hooks(user_settings_path(), others=other_scope_files(project))
        render.line(
            f"hooks    SessionStart/SessionEnd installed in {installed.change.settings_path}"
        )
        for warning in installed.warnings:
            render.line(("warning:", "yellow"), f" {warning}", stderr=True)
    else:
        render.line("hooks    not installed; run `memsync hooks install` to add them")
    raise typer.Exit(exit_code(reports))


def pull(
    project: ProjectOption = Path("."),
    scope: ScopeOption = SyncScope.all,
    hook: HookOption = False,
    as_json: JsonOption = False,
) -> None:
    """Bring remote memory changes into the live memory directories."""
    run_sync_command("pull", project, scope, hook, as_json)


def push(
    *,
    project: ProjectOption = Path("."),
    scope: ScopeOption = SyncScope.all,
    hook: HookOption = False,
    as_json: JsonOption = False,
    review: Annotated[
        bool,
        typer.Option(
            "--review",
            help="Team store: push to branch memsync/<user>/<date> and open or update its "
            "pull request instead of pushing to the default branch.",
        ),
    ] = False,
    message: Annotated[
        str | None,
        typer.Option("--message", "-m", help="Commit subject (and pull request title)."),
    ] = None,
) -> None:
    """Commit local memory edits, merge with the remote, check them and push.

    Every edit that passes validation is pushed; a file that fails stays in
    the live folder, out of every commit, and is listed with its fix.
    """
    run_sync_command("push", project, scope, hook, as_json, message=message, review=review)


def sync(
    project: ProjectOption = Path("."),
    scope: ScopeOption = SyncScope.all,
    as_json: JsonOption = False,
) -> None:
    """Pull, then push, in one pass."""
    run_sync_command("push", project, scope, False, as_json)
