"""The command line (top layer): parse options, call typed core functions, render.

Only this package imports typer and rich; it may import every other memsync package,
none imports it. One module per command group, as pre-commit's `commands/`: `sync`
(init, pull, push, sync), `status` (status, diff, log), `tidy` (check, consolidate),
`team` (promote, scaffold, review), `hooks`, `project` (project move), `mergefile`
(merge-file); `options` holds the shared options. `app` builds the typer application;
`guard` is the one error handler (SPEC section 7, with `crashlog`); `leancheck` and
`leanstatus` run a piped `check` or `status` without typer (`statusview` shows a status for
both paths); `render` is where everything printed is escaped. Nothing is imported
here: `memsync --version` and the hook path (memsync/__main__.py) must stay lean.
"""

from __future__ import annotations


def main(argv: list[str] | None = None) -> None:
    """Run the command line (imports typer only when called)."""
    from memsync.cli.app import main as run

    run(argv)
