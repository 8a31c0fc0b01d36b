"""The command line: parse options, call the core, render with rich. Nothing else lives here."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from memsync import __version__
from memsync.errors import MemsyncError

if TYPE_CHECKING:
    from memsync.sync.engine import StoreReport

app = typer.Typer(
    name="memsync",
    help="Keep Claude Code's memory in git: across machines, shared by a team, reviewed.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

ProjectOption = Annotated[
    Path,
    typer.Option(
        "--project", help="A directory inside the project (default: here).", file_okay=False
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _working(what: str) -> Any:
    """A spinner on a terminal while network and merge work runs; nothing when piped."""
    import contextlib

    console = _console(stderr=True)
    return console.status(what) if console.is_terminal else contextlib.nullcontext()


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
        typer.Option(
            "--version", callback=_version_callback, is_eager=True, help="Show the version."
        ),
    ] = False,
) -> None:
    """memsync: Claude Code memory in git."""


# --- sync: init, pull, push, sync, status, diff, log, promote ---

ScopeOption = Annotated[
    str, typer.Option("--scope", help="private, team or all.", case_sensitive=False)
]
HookOption = Annotated[
    bool, typer.Option("--hook", help="Claude Code hook mode: stdin JSON, time limit, exit 0.")
]


def _scopes(scope: str) -> tuple[str, ...]:
    from memsync.errors import UsageError

    scope = scope.lower()
    if scope == "all":
        return ("private", "team")
    if scope in ("private", "team"):
        return (scope,)
    raise UsageError(f"--scope must be private, team or all, not {scope!r}")


def _run_sync_command(
    command: str,
    project: Path,
    scope: str,
    hook: bool,
    as_json: bool,
    *,
    message: str | None = None,
    review: bool = False,
) -> None:
    from memsync.sync.engine import RunOptions, exit_code, sync_project

    pushed: Any = None
    if not hook:
        if review:
            from memsync.team.reviewflow import push_for_review

            with _working(f"memsync: {command} for review"):
                pushed = push_for_review(project, _scopes(scope), message=message)
            reports = list(pushed.reports)
        else:
            with _working(f"memsync: {command}"):
                reports = sync_project(
                    project, _scopes(scope), command, options=RunOptions(message)
                )
        if as_json:
            _print_json([_report_data(r, pushed) for r in reports])
        else:
            _render_reports(command, reports)
            _render_pulls(pushed)
        raise typer.Exit(exit_code(reports))
    from memsync.sync.hookmode import run_hook

    run_hook(
        command,
        project,
        _scopes(scope),
        message=message,
        review=_hook_review_push if review else None,
    )
    raise typer.Exit(0)


def _hook_review_push(
    project: Path, scopes: tuple[str, ...], message: str | None
) -> tuple[Sequence[StoreReport], Sequence[Any]]:
    """`push --review --hook`: the team layer's review flow, run inside the hook's limits."""
    from memsync.team.reviewflow import push_for_review

    pushed = push_for_review(project, scopes, message=message, hook=True)
    return pushed.reports, pushed.pulls


def _report_data(report: Any, pushed: Any = None) -> dict[str, Any]:
    import dataclasses

    data = dataclasses.asdict(report)
    data["blocked"] = [p.describe() for p in report.blocked]
    data["warnings"] = [p.describe() for p in report.warnings]
    for pull in pushed.pulls if pushed else ():
        if report.scope == "team" and pull.store == report.store:
            data["pull_request"] = dataclasses.asdict(pull)
    return data


def _render_pulls(pushed: Any) -> None:
    """Where the review pull request is, or why there is none."""
    if pushed is None:
        return
    out, err = _console(), _console(stderr=True)
    for pull in pushed.pulls:
        result = pull.result
        if result is None:
            out.print(f"review: {pull.note}", markup=False)
            continue
        noun = "memory" if pull.changes == 1 else "memories"
        out.print(
            f"review: pushed {pull.branch} ({pull.changes} {noun} changed against {pull.base})",
            markup=False,
        )
        for warning in result.warnings:
            err.print(f"warning: {warning}", markup=False)
        if result.method == "url":
            out.print(f"review: open the pull request at {result.url}", markup=False)
        elif result.url:
            verb = "opened" if result.created else "updated"
            out.print(f"review: pull request {verb}: {result.url}", markup=False)


# A pull that brings a thousand memories should not print a thousand lines.
MAX_LISTED = 20


def _render_reports(command: str, reports: list[Any]) -> None:
    from memsync.sync import hookmode

    out = _console()
    for report in reports:
        parts = []
        if report.committed:
            parts.append(f"committed {len(report.committed)}")
        if report.updated:
            parts.append(f"updated {len(report.updated)}")
        if report.deleted:
            parts.append(f"deleted {len(report.deleted)}")
        if report.pushed:
            tries = "" if report.push_attempts <= 1 else f" after {report.push_attempts} tries"
            parts.append(f"pushed{tries}")
        status = ", ".join(parts) or "up to date"
        out.print(f"[bold]{report.scope}[/] ({report.store}): {status}")
        changed = [("~", p) for p in report.updated] + [("-", p) for p in report.deleted]
        for sign, path in changed[:MAX_LISTED]:
            out.print(f"  {sign} {path}", markup=False)
        if len(changed) > MAX_LISTED:
            more = len(changed) - MAX_LISTED
            out.print(f"  … and {more} more (`memsync log` lists them)", markup=False)
        for path in report.kept_local:
            out.print(f"  ! {path}: kept your local version (synced next run)", markup=False)
        for decision in report.decisions:
            out.print(f"  merge: {decision}", markup=False)
        for problem in report.warnings:
            out.print(f"  warning: {problem.describe()}", markup=False)
    err = _console(stderr=True)
    for line in hookmode.problem_lines(reports):
        err.print(line, markup=False)


@app.command(rich_help_panel="Sync")
def init(
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
) -> None:
    """Configure this project's stores, clone them and do a first sync."""
    from memsync.sync.engine import exit_code
    from memsync.team.initialize import default_private_remote, run_init

    with _working("memsync: cloning and syncing"):
        result = run_init(project, private_url=private, team_url=team, subdir=subdir)
    out = _console()
    plan = result.plan
    out.print(f"[bold]project[/] {plan.location.root} [dim](key {plan.location.key})[/]")
    out.print(f"memory   {plan.location.memory_dir}", markup=False)
    embedded = plan.private.url == str(default_private_remote())
    note = " (the embedded default: add a remote with --private URL)" if embedded else ""
    out.print(f"private  {plan.private.url}{note}", markup=False)
    out.print(
        f"team     {plan.team.url if plan.team else 'none (add one with --team URL)'}", markup=False
    )
    if result.scaffolded:
        out.print(
            f"scaffolded the empty team repository: {', '.join(result.scaffolded)}", markup=False
        )
    out.print(f"config   {result.config_file}", markup=False)
    reports = list(result.reports)
    _render_reports("init", reports)
    if hooks:
        from memsync.team.claudehooks import apply, plan_install, user_settings_path

        change = plan_install(user_settings_path())
        if change.changed:
            apply(change)
        out.print(
            f"hooks    SessionStart/SessionEnd installed in {change.settings_path}", markup=False
        )
    else:
        out.print("hooks    not installed; run `memsync hooks install` to add them", markup=False)
    raise typer.Exit(exit_code(reports))


@app.command(rich_help_panel="Sync")
def pull(
    project: ProjectOption = Path("."),
    scope: ScopeOption = "all",
    hook: HookOption = False,
    as_json: JsonOption = False,
) -> None:
    """Bring remote memory changes into the live memory directories."""
    _run_sync_command("pull", project, scope, hook, as_json)


@app.command(rich_help_panel="Sync")
def push(
    *,
    project: ProjectOption = Path("."),
    scope: ScopeOption = "all",
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
    """Commit local memory edits, merge with the remote, check them and push."""
    _run_sync_command("push", project, scope, hook, as_json, message=message, review=review)


@app.command("sync", rich_help_panel="Sync")
def sync_command(
    project: ProjectOption = Path("."),
    scope: ScopeOption = "all",
    as_json: JsonOption = False,
) -> None:
    """Pull, then push, in one pass."""
    _run_sync_command("push", project, scope, False, as_json)


def _when(timestamp: float | None) -> str:
    import time

    if timestamp is None:
        return "never"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(timestamp))


@app.command(rich_help_panel="Inspect")
def status(
    project: ProjectOption = Path("."),
    scope: ScopeOption = "all",
    as_json: JsonOption = False,
) -> None:
    """Per store: remote, ahead/behind, local edits, last sync, index size, problems."""
    import dataclasses

    from memsync.sync.overview import store_status

    statuses = store_status(project, _scopes(scope))  # type: ignore[arg-type]
    if as_json:
        _print_json([dataclasses.asdict(s) for s in statuses])
        return
    out = _console()
    for st in statuses:
        out.print(f"[bold]{st.scope}[/] store [cyan]{st.store}[/]")
        out.print(f"  remote     {st.remote} ({st.branch}, folder {st.folder})", markup=False)
        sync_state = f"{st.ahead} ahead, {st.behind} behind (as of the last fetch)"
        out.print(f"  commits    {sync_state}", markup=False)
        out.print(f"  local      {len(st.local_edits)} edit(s) not yet committed", markup=False)
        for path in st.local_edits:
            out.print(f"             {path}", markup=False)
        out.print(
            f"  last sync  {_when(st.last_sync)}; last push {_when(st.last_push)}", markup=False
        )
        if st.index is not None:
            out.print(
                f"  index      {st.index.lines}/200 lines, {st.index.chars:,}/25,000 characters",
                markup=False,
            )
        for problem in st.problems:
            out.print(f"  [yellow]problem[/]    {problem}")


def _render_change(out: Any, sign: str, change: Any) -> None:
    label = f"{change.name or change.path} [{change.type or 'no type'}]"
    moved = f" (from {change.old_path})" if change.old_path else ""
    out.print(f"  {sign} {change.status:8} {change.path}{moved}  {label}", markup=False)
    for field in change.fields:
        out.print(f"      {field.path}: {field.before!r} -> {field.after!r}", markup=False)
    for line in change.body_diff:
        out.print(f"      {line}", markup=False)


@app.command(rich_help_panel="Inspect")
def diff(
    project: ProjectOption = Path("."),
    scope: ScopeOption = "all",
    fetch: Annotated[bool, typer.Option("--fetch/--no-fetch", help="Fetch first.")] = True,
    as_json: JsonOption = False,
) -> None:
    """What push would send and what pull would bring, memory by memory."""
    import dataclasses

    from memsync.sync.overview import store_diff

    diffs = store_diff(project, _scopes(scope), fetch=fetch)  # type: ignore[arg-type]
    if as_json:
        _print_json([dataclasses.asdict(d) for d in diffs])
        return
    out = _console()
    for d in diffs:
        out.print(f"[bold]{d.scope}[/] ({d.store})")
        if d.fetch_error:
            out.print(f"  [yellow]not fetched:[/] {d.fetch_error}")
        out.print(f"  push would send {len(d.outgoing)} change(s)", markup=False)
        for change in d.outgoing:
            _render_change(out, ">", change)
        out.print(f"  pull would bring {len(d.incoming)} change(s)", markup=False)
        for change in d.incoming:
            _render_change(out, "<", change)


@app.command(rich_help_panel="Inspect")
def log(
    file: Annotated[str | None, typer.Argument(help="One memory file (relative path).")] = None,
    project: ProjectOption = Path("."),
    scope: ScopeOption = "all",
    limit: Annotated[int, typer.Option("--limit", "-n", help="How many commits.")] = 50,
    as_json: JsonOption = False,
) -> None:
    """History of memory changes: when, who, which memories."""
    import dataclasses

    from memsync.sync.overview import history

    entries = history(project, _scopes(scope), file, limit)  # type: ignore[arg-type]
    if as_json:
        _print_json([dataclasses.asdict(e) for e in entries])
        return
    out = _console()
    for entry in entries:
        out.print(
            f"[yellow]{entry.sha[:10]}[/] {_when(entry.when)} [bold]{entry.author}[/] "
            f"[dim]({entry.scope})[/]"
        )
        out.print(f"    {entry.subject}", markup=False)
        for status_letter, path in entry.files:
            out.print(f"      {status_letter} {path}", markup=False)
        for decision in entry.decisions:
            out.print(f"      merge: {decision}", markup=False)
    if not entries:
        out.print("no memory changes recorded yet")


@app.command(rich_help_panel="Team")
def promote(
    file: Annotated[str, typer.Argument(help="The private memory file to share.")],
    project: ProjectOption = Path("."),
) -> None:
    """Move a private memory into the team store (never `type: user`, never secrets)."""
    from memsync.sync.engine import exit_code
    from memsync.team.promote import promote as promote_memory

    with _working("memsync: promoting"):
        result = promote_memory(project, file)
    _console().print(f"promoted {result.source} -> {result.target}", markup=False)
    _render_reports("push", list(result.reports))
    raise typer.Exit(exit_code(list(result.reports)))


# --- check ---

CheckPathArgument = Annotated[
    Path | None,
    typer.Argument(
        help="A memory directory, a store checkout or one file (default: this project's "
        "Claude Code memory).",
        show_default=False,
    ),
]


@app.command(rich_help_panel="Check and tidy")
def check(
    path: CheckPathArgument = None,
    scope: Annotated[
        str | None,
        typer.Option(
            "--scope", help="private or team (default: from the layout).", show_default=False
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
        str, typer.Option("--format", help="text, json, sarif or github.", case_sensitive=False)
    ] = "text",
    project: ProjectOption = Path("."),
) -> None:
    """Validate memories: frontmatter, index limits, secrets, unsafe files. Exit 1 on errors."""
    from memsync.check.findings import FORMATS, render
    from memsync.check.run import run_check
    from memsync.errors import UsageError

    fmt = fmt.lower()
    if fmt not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    report = run_check(path, scope=scope, all_projects=all_projects, project=project)
    if fmt == "text" and sys.stdout.isatty():
        _render_check(report)
    else:
        sys.stdout.write(render(report, fmt))
    raise typer.Exit(1 if report.has_errors else 0)


def _render_check(report: Any) -> None:
    from rich.markup import escape

    from memsync.check.findings import summary_line

    out = _console()
    styles = {"error": "bold red", "warning": "yellow"}
    for f in report.findings:
        out.print(
            f"[bold]{escape(f.path)}[/]:{f.line}: [{styles[f.severity]}]{f.severity}[/] "
            f"{escape(f.message)} [dim]\\[{f.rule}][/]"
        )
    counts = report.counts
    colour = "red" if counts["error"] else "yellow" if counts["warning"] else "green"
    out.print(f"[{colour}]{escape(summary_line(report))}[/] [dim]({escape(report.base)})[/]")


# --- merge-file ---


@app.command("merge-file", rich_help_panel="Git integration")
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
    from memsync.merge.driver import run_merge_driver

    del marker_size  # memsync never writes conflict markers
    result = run_merge_driver(base, ours, theirs, path)
    for line in result.messages():
        sys.stderr.write(line + "\n")


# --- consolidate ---


@app.command("consolidate", rich_help_panel="Check and tidy")
def consolidate_command(
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
        str, typer.Option("--format", help="Report format: markdown or json.", case_sensitive=False)
    ] = "markdown",
    threshold: Annotated[
        float | None,
        typer.Option("--threshold", help="Near-duplicate similarity, 0-1 (default 0.85)."),
    ] = None,
    allow_archive: Annotated[
        str,
        typer.Option(
            "--allow-archive",
            help="Types that may be archived to fit the index: project-reference or all.",
            case_sensitive=False,
        ),
    ] = "project-reference",
    project: ProjectOption = Path("."),
    as_json: JsonOption = False,
) -> None:
    """Merge duplicates, make relative dates absolute, keep the index within Claude's limits."""
    from memsync.consolidate.dedupe import DEFAULT_THRESHOLD
    from memsync.consolidate.engine import Options, apply_plan, make_plan
    from memsync.consolidate.report import plan_to_json, render_markdown
    from memsync.errors import UsageError, UserMessageError

    fmt = "json" if as_json else report_format.lower()
    if fmt not in ("markdown", "json"):
        raise UsageError(f"--format must be markdown or json, not {report_format!r}")
    if threshold is not None and not 0 < threshold <= 1:
        raise UsageError(f"--threshold must be between 0 and 1, not {threshold}")
    if path is None and all_projects:
        # As with `memsync check --all`: the store checkout is the git work tree around here.
        from memsync.model.paths import find_git_root

        found = find_git_root(project)
        if found is None:
            raise UsageError(
                f"--all consolidates every project folder of a store checkout, and "
                f"{project.resolve()} is not inside a git work tree",
                hint="Run it inside a clone of a memory repository, or pass its PATH.",
            )
        path = found[0]
    if path is None:
        from memsync.model.paths import memory_dir_for, project_root

        path = memory_dir_for(project_root(project))
        if not path.is_dir():
            raise UserMessageError(
                f"no memory folder for this project at {path}",
                hint="Pass the folder to consolidate, e.g. `memsync consolidate PATH`.",
            )
    options = Options(threshold or DEFAULT_THRESHOLD, allow_archive.lower())
    with _working("Planning the consolidation…"):
        plan = make_plan(path, all_projects=all_projects, options=options, dry_run=dry_run)

    def render() -> str:
        if fmt == "json":
            import json

            return json.dumps(plan_to_json(plan), indent=2, ensure_ascii=False) + "\n"
        return render_markdown(plan)

    sys.stdout.write(render())
    if plan.changed and not dry_run:
        if not yes:
            if not sys.stdin.isatty():
                if report is not None:
                    report.write_text(render(), encoding="utf-8")
                raise UserMessageError(
                    "consolidation not applied: no terminal to ask on",
                    hint="Pass --yes to apply the plan above, or --dry-run to only show it.",
                )
            if not typer.confirm("Apply these changes?", default=False):
                _console(stderr=True).print("Nothing changed.")
                raise typer.Exit(0)
        with _working("Applying the consolidation…"):
            apply_plan(plan)
        if fmt != "json":
            _console(stderr=True).print("memsync: consolidation applied.")
    if report is not None:
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text(render(), encoding="utf-8")


# --- hooks, scaffold, review ---

hooks_app = typer.Typer(
    help="Claude Code hooks: `memsync pull --hook` at session start, `push --hook` at the end.",
    no_args_is_help=True,
)
app.add_typer(hooks_app, name="hooks", rich_help_panel="Git integration")

SettingsOption = Annotated[
    Path | None,
    typer.Option(
        "--settings", dir_okay=False, help="Settings file to edit (default: chosen by --scope)."
    ),
]
SettingsScopeOption = Annotated[
    str,
    typer.Option(
        "--scope",
        help="user: <claude>/settings.json; project: <project>/.claude/settings.local.json.",
    ),
]
DryRunOption = Annotated[bool, typer.Option("--dry-run", help="Show the diff; write nothing.")]


def _settings_file(settings: Path | None, scope: str, project: Path) -> Path:
    from memsync.model import paths
    from memsync.team import claudehooks as hooks

    if settings is not None:
        return settings
    if scope == "project":
        return hooks.project_settings_path(paths.project_root(project))
    if scope != "user":
        from memsync.errors import UsageError

        raise UsageError(f"--scope must be user or project, not {scope!r}.")
    return hooks.user_settings_path()


def _apply_hook_change(change: Any, dry_run: bool, done: str) -> None:
    from memsync.team.claudehooks import apply

    if dry_run:
        # Plain stdout: a diff must not go through rich markup.
        sys.stdout.write(change.diff() or f"{change.settings_path}: nothing to change\n")
        return
    apply(change)
    state = done if change.changed else "already up to date"
    _console().print(f"memsync hooks {state}: {change.settings_path}", markup=False)


@hooks_app.command("install")
def hooks_install(
    project: ProjectOption = Path("."),
    settings: SettingsOption = None,
    scope: SettingsScopeOption = "user",
    dry_run: DryRunOption = False,
) -> None:
    """Add memsync's SessionStart and SessionEnd hooks, keeping every other setting."""
    from memsync.team.claudehooks import plan_install

    _apply_hook_change(plan_install(_settings_file(settings, scope, project)), dry_run, "installed")


@hooks_app.command("uninstall")
def hooks_uninstall(
    project: ProjectOption = Path("."),
    settings: SettingsOption = None,
    scope: SettingsScopeOption = "user",
    dry_run: DryRunOption = False,
) -> None:
    """Remove memsync's hooks, and nothing else."""
    from memsync.team.claudehooks import plan_uninstall

    _apply_hook_change(plan_uninstall(_settings_file(settings, scope, project)), dry_run, "removed")


@hooks_app.command("status")
def hooks_status(
    project: ProjectOption = Path("."),
    settings: SettingsOption = None,
    scope: SettingsScopeOption = "user",
    as_json: JsonOption = False,
) -> None:
    """Per event: installed, missing, or outdated (an entry pointing at another memsync)."""
    from memsync.team.claudehooks import hook_status

    path = _settings_file(settings, scope, project)
    states = {event: state.value for event, state in hook_status(path).items()}
    if as_json:
        _print_json({"settings": str(path), "events": states})
        return
    out = _console()
    out.print(f"settings {path}", markup=False)
    for event, state in states.items():
        out.print(f"  {event:<13} {state}", markup=False)


@app.command("scaffold", rich_help_panel="Team")
def scaffold_command(
    directory: Annotated[Path, typer.Argument(help="Working tree of the team repository.")],
    dry_run: DryRunOption = False,
    requirement: Annotated[
        str | None,
        typer.Option(
            "--memsync-requirement",
            help='What the workflows pip-install (default "memsync==<this version>").',
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Write the team-repository scaffold (workflows, .gitattributes, README); never overwrites."""
    from memsync.team.scaffold import scaffold

    result = scaffold(directory, memsync_requirement=requirement, dry_run=dry_run)
    if as_json:
        _print_json(
            {
                "written": [p.as_posix() for p in result.written],
                "skipped": [p.as_posix() for p in result.skipped],
            }
        )
        return
    out = _console()
    verb = "would write" if dry_run else "wrote"
    for path in result.written:
        out.print(f"{verb} {path.as_posix()}", markup=False)
    for path in result.skipped:
        out.print(f"kept   {path.as_posix()} (exists)", markup=False)


@app.command("review", rich_help_panel="Team")
def review_command(
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
        str, typer.Option("--format", help="markdown or json.", case_sensitive=False)
    ] = "markdown",
    scope: Annotated[
        str | None,
        typer.Option(
            "--scope", help="team or private, for the checks (default: as `memsync check`)."
        ),
    ] = None,
) -> None:
    """Semantic summary of the memory changes between two refs (for a pull request body)."""
    from memsync.errors import UsageError
    from memsync.team.review import review_refs
    from memsync.team.reviewrender import render_markdown, review_data

    output_format = output_format.lower()
    if output_format not in ("markdown", "json"):
        raise UsageError(f"--format must be markdown or json, not {output_format!r}")
    scope = scope.lower() if scope else None
    if scope not in (None, "team", "private"):
        raise UsageError(f"--scope must be team or private, not {scope!r}")
    review = review_refs(path, base, head, scope=scope)
    if output_format == "json":
        _print_json(review_data(review))
    else:
        # Plain stdout: the Markdown goes to a PR body or $GITHUB_STEP_SUMMARY as it is.
        sys.stdout.write(render_markdown(review))


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
