"""`memsync status` without the CLI framework, when its output is piped.

Scripts, prompts and status bars run `memsync status` (often `--json` or `--exit-code`) and
read its output; importing and building typer and click was two fifths of such a run. The
command line here is `--project DIR`, `--scope private|team|all`, `--json`, `--exit-code` and
`--github` or `--no-github` (not both), read as click reads them
(`memsync.cli.leancheck.parse_options`); anything else, or output to a terminal (rendered with
rich), returns None and the typer command runs instead. Both show the status through
`memsync.cli.statusview`, and errors go through the same handler.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memsync.cli.guard import guarded
from memsync.cli.leancheck import parse_options
from memsync.model.safety import SCOPES as STORE_SCOPES

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import NoReturn

# `--scope` as SyncScope reads it (cli/options.py, which imports typer): one store, or all.
SCOPES: dict[str, tuple[str, ...]] = {**{s: (s,) for s in STORE_SCOPES}, "all": STORE_SCOPES}


@dataclass(frozen=True)
class StatusArgs:
    """A `memsync status` command line this path runs as the typer command would."""

    project: Path = Path(".")
    scope: str = "all"
    as_json: bool = False
    exit_code: bool = False
    github: bool = True


def parse_status_argv(args: list[str]) -> StatusArgs | None:
    """ARGS after `status`, or None when the typer command must read them."""
    flags = ("--json", "--exit-code", "--github", "--no-github")
    parsed = parse_options(args, ("--project", "--scope"), flags)
    if parsed is None or parsed[1] is not None:
        return None  # `status` takes no PATH
    values = parsed[0]
    if "--github" in values and "--no-github" in values:
        return None  # the last one wins: which is last is click's to read
    scope = values.get("--scope", "all").lower()
    if scope not in SCOPES:
        return None
    project = Path(values.get("--project", "."))
    github = "--no-github" not in values
    return StatusArgs(project, scope, "--json" in values, "--exit-code" in values, github)


def run(args: StatusArgs) -> NoReturn:
    """Show the status as `memsync status` does, and exit with its code."""
    code: list[int] = []

    def status() -> None:
        from memsync.cli.statusview import show_status

        scopes = SCOPES[args.scope]
        code.append(
            show_status(
                args.project,
                scopes,
                args.scope,
                as_json=args.as_json,
                exit_code=args.exit_code,
                github=args.github,
            )
        )

    guarded(status)
    raise SystemExit(code[0])
