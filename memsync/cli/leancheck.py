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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from memsync.cli import render
from memsync.cli.guard import guarded
from memsync.errors import ExitCode

if TYPE_CHECKING:
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


def parse_check_argv(args: list[str]) -> CheckArgs | None:
    """ARGS after `check`, or None when the typer command must read them."""
    values: dict[str, str] = {}
    path: str | None = None
    all_projects = False
    pending: str | None = None
    for arg in args:
        if pending is not None:
            values[pending], pending = arg, None
            continue
        name, equals, value = arg.partition("=")
        if name in _VALUED and arg.startswith("--"):
            if equals:
                values[name] = value
            else:
                pending = name
        elif arg == "--all":
            all_projects = True
        elif arg.startswith("-") or arg == "" or path is not None:
            return None  # help, an unknown option, `--`, `-`, an empty or second PATH
        else:
            path = arg
    if pending is not None:
        return None  # an option without its value: click says so
    fmt = values.get("--format", "text").lower()
    scope = values["--scope"].lower() if "--scope" in values else None
    project = values.get("--project", ".")
    if fmt not in FORMATS or (scope is not None and scope not in SCOPES) or not project:
        return None
    if Path(project).is_file():
        return None  # `--project` names a file: click's message, not ours
    return CheckArgs(None if path is None else Path(path), fmt, scope, all_projects, Path(project))


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
