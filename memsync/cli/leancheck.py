"""`memsync check` without the CLI framework, for the runs that pay for start-up most.

pre-commit hooks, CI steps and editors run `memsync check` with its output piped, often
once per commit; typer and click cost more to import and build than the check of a few
hundred memories. The command line here is the common one: an optional PATH and the
`--format`, `--scope`, `--all` and `--project` options, as click reads them (either order,
`--opt value` or `--opt=value`, choices in any case, the last repeat wins). Anything else
(`--help`, an unknown or malformed option, a second PATH, output to a terminal, which the
typer command renders with rich) returns None from `parse_check_argv`, and the typer
command runs instead: its messages, help and exit codes stay the only ones. Errors go
through the same handler (`memsync.cli.guard`).
"""

from __future__ import annotations

import sys
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from memsync.cli import render
from memsync.cli.guard import guarded
from memsync.errors import ExitCode

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import NoReturn

    from memsync.check.findings import CheckReport

FORMATS = ("text", "json", "sarif", "github")
SCOPES = ("private", "team")
_VALUED = {"--format": FORMATS, "--scope": SCOPES, "--project": None}


@dataclass(frozen=True)
class CheckArgs:
    """A `memsync check` command line this path runs as the typer command would."""

    path: Path | None = None
    fmt: str = "text"
    scope: str | None = None
    all_projects: bool = False
    project: Path = Path(".")


def parse_options(
    args: list[str], valued: Collection[str], flags: Collection[str]
) -> tuple[dict[str, str], str | None] | None:
    """(option values, the one PATH) of ARGS as click reads them (`--opt value`, `--opt=value`,
    the last repeat wins; a flag's value is "1"), or None for anything this path does not
    read: help, an unknown option, `--`, `-`, an empty or second PATH, a missing value."""
    values: dict[str, str] = {}
    path: str | None = None
    pending: str | None = None
    for arg in args:
        if pending is not None:
            values[pending], pending = arg, None
            continue
        name, equals, value = arg.partition("=")
        if name in valued and arg.startswith("--"):
            if equals:
                values[name] = value
            else:
                pending = name
        elif arg in flags:
            values[arg] = "1"
        elif arg.startswith("-") or arg == "" or path is not None:
            return None
        else:
            path = arg
    if pending is not None or ("--project" in values and _not_a_project(values["--project"])):
        return None  # an option without its value, or click's own message for a bad --project
    return values, path


def _not_a_project(project: str) -> bool:
    return not project or Path(project).is_file()


def parse_check_argv(args: list[str]) -> CheckArgs | None:
    """ARGS after `check`, or None when the typer command must read them."""
    parsed = parse_options(args, _VALUED, ("--all",))
    if parsed is None:
        return None
    values, path = parsed
    fmt = values.get("--format", "text").lower()
    scope = values["--scope"].lower() if "--scope" in values else None
    if fmt not in FORMATS or (scope is not None and scope not in SCOPES):
        return None
    project = Path(values.get("--project", "."))
    return CheckArgs(None if path is None else Path(path), fmt, scope, "--all" in values, project)


def write_report(report: CheckReport, fmt: str) -> int:
    """Write the findings of a check in FMT (not the terminal rendering); its exit code."""
    from memsync.check.findings import render as render_findings

    text = render_findings(report, fmt)
    if fmt in ("json", "sarif"):
        from memsync.check.printable import json_printable

        sys.stdout.write(json_printable(text))
    else:
        render.write(text)
    return int(ExitCode.NEEDS_USER if report.has_errors else ExitCode.OK)


def run(args: CheckArgs) -> NoReturn:
    """Check as `memsync check` does, and exit with its code."""
    code: list[int] = []

    def check() -> None:
        from memsync.check.run import run_check

        report = run_check(
            args.path, scope=args.scope, all_projects=args.all_projects, project=args.project
        )
        code.append(write_report(report, args.fmt))

    guarded(check)
    raise SystemExit(code[0])
