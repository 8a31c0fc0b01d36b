"""`python -m memsync` and the `memsync` command: a lean path for Claude Code hooks."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """Run memsync; `pull --hook`/`push --hook` skip the CLI framework to start fast."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:
        from memsync import __version__

        sys.stdout.write(f"memsync {__version__}\n")
        raise SystemExit(0)
    # Only a hook run needs the hook module; every other command goes straight to the CLI.
    hook = None
    if "--hook" in args:
        from memsync.sync.hookmode import parse_hook_argv

        hook = parse_hook_argv(args)
    if hook is not None:
        from memsync.sync.hookmode import run_hook

        command, project, scopes = hook
        run_hook(command, project, scopes)
        raise SystemExit(0)
    from memsync.cli.app import main as cli_main

    cli_main(args)


if __name__ == "__main__":
    main()
