"""The typer application and its command groups; every run goes through the one error
handler, `memsync.cli.guard` (SPEC section 7: exit codes, no traceback for expected errors)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from memsync import __version__
from memsync.cli import hooks, mergefile, project, status, sync, team, tidy
from memsync.cli.guard import guarded

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}

# (name, help panel, function): one table, so a run can build only the command it runs.
_COMMANDS: tuple[tuple[str, str, Callable[..., Any]], ...] = (
    ("init", "Sync", sync.init),
    ("pull", "Sync", sync.pull),
    ("push", "Sync", sync.push),
    ("sync", "Sync", sync.sync),
    ("status", "Inspect", status.status),
    ("diff", "Inspect", status.diff),
    ("log", "Inspect", status.log),
    ("promote", "Team", team.promote),
    ("scaffold", "Team", team.scaffold),
    ("review", "Team", team.review),
    ("check", "Check and tidy", tidy.check),
    ("consolidate", "Check and tidy", tidy.consolidate),
    ("merge-file", "Git integration", mergefile.merge_file),
)
_NAMES = frozenset(name for name, _, _ in _COMMANDS) | {"hooks"}


def _version_callback(value: bool) -> None:
    if value:
        sys.stdout.write(f"memsync {__version__}\n")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version_callback, is_eager=True, help="Show the version."
        ),
    ] = False,
) -> None:
    """memsync: Claude Code memory in git."""


def build_app(only: str | None = None) -> typer.Typer:
    """The typer application: every command, or ONLY the one named (and the root options).

    typer turns each registered function's signature into click parameters on every run;
    a run that builds only its own command skips that work for the other dozen."""
    built = typer.Typer(
        name="memsync",
        help="Keep Claude Code's memory in git: across machines, shared by a team, reviewed.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings=HELP_OPTIONS,
    )
    built.callback()(_root)
    for name, panel, function in _COMMANDS:
        if only in (None, name):
            built.command(name, rich_help_panel=panel)(function)
    if only in (None, "hooks"):
        hooks_app = typer.Typer(
            help="Claude Code hooks: `memsync pull --hook` at session start, `push --hook` at"
            " the end.",
            no_args_is_help=True,
            context_settings=HELP_OPTIONS,
        )
        hooks_app.command("install")(hooks.install)
        hooks_app.command("uninstall")(hooks.uninstall)
        hooks_app.command("status")(hooks.status)
        built.add_typer(hooks_app, name="hooks", rich_help_panel="Git integration")
    return built


app = build_app()

project_app = typer.Typer(
    help="A project's folder in its stores.", no_args_is_help=True, context_settings=HELP_OPTIONS
)
project_app.command("move")(project.move)
app.add_typer(project_app, name="project", rich_help_panel="Sync")


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; map every error to the exit codes of SPEC section 7."""
    args = sys.argv[1:] if argv is None else argv
    target = build_app(args[0]) if args and args[0] in _NAMES else app
    if "--hook" in args and args[:1] in (["pull"], ["push"]):
        guarded(lambda: _hook(target, args))
        return
    guarded(lambda: target(args=argv, prog_name="memsync"))


def _hook(target: typer.Typer, args: list[str]) -> None:
    """A hook's command line: one that does not parse still exits 0 (SPEC section 7)."""
    try:
        target(args=args, prog_name="memsync", standalone_mode=False)
    except typer.TyperException as exc:  # click's usage errors: unknown option, bad value
        from memsync.sync.hookmode import refuse_hook_command

        refuse_hook_command(args, exc.format_message())
