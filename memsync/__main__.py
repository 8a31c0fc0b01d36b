"""`python -m memsync` and the `memsync` command: a lean path for Claude Code hooks."""

from __future__ import annotations

import sys
import types


class _Deferred(types.ModuleType):
    """A stand-in in `sys.modules` that imports the real module on first attribute use."""

    def __getattr__(self, attr: str) -> object:
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        real = __import__(self.__name__)
        # Modules that imported the stand-in keep it: give it the real module's contents.
        self.__dict__.update(real.__dict__)
        return getattr(real, attr)


def defer_import(name: str) -> None:
    """Let `import NAME` succeed without loading NAME until one of its attributes is used."""
    if name not in sys.modules:
        sys.modules[name] = _Deferred(name)


def main(argv: list[str] | None = None) -> None:
    """Run memsync; `pull --hook`/`push --hook` and a piped `check` skip the CLI framework."""
    args = sys.argv[1:] if argv is None else argv
    try:
        _main(args)
    except KeyboardInterrupt:
        # Ctrl-C can land anywhere, an import or a wait on a thread included, before any
        # command's own handler: a hook still never fails the session, and no traceback.
        hook = "--hook" in args
        sys.stderr.write(
            "memsync: interrupted" + ("; the next run finishes the work\n" if hook else "\n")
        )
        raise SystemExit(0 if hook else 130) from None


def _main(args: list[str]) -> None:
    if args == ["--version"]:
        from memsync import __version__

        sys.stdout.write(f"memsync {__version__}\n")
        raise SystemExit(0)
    # dataclasses imports inspect (with ast, dis and tokenize: an eighth of a hook run's
    # instructions) only to describe a class without a docstring; ours all have one. Whatever
    # else needs it (typer, on a command's first use of a signature) loads it then.
    defer_import("inspect")
    # Only a hook run needs the hook module; every other command goes straight to the CLI.
    if "--hook" in args:
        import gc

        # A hook run is short and bounded by its watchdog: the cyclic garbage collector would
        # only rescan the modules being imported (about a tenth of its CPU).
        gc.disable()
        if args[:1] == ["pull"]:
            from memsync.sync.early import start_remembered

            start_remembered()  # the network round trip overlaps the imports below
        from memsync.sync.hookinput import parse_hook_argv
        from memsync.sync.hookmode import run_hook

        hook = parse_hook_argv(args)
        if hook is not None:
            command, project, scopes = hook
            run_hook(command, project, scopes)
            raise SystemExit(0)
        gc.enable()
    if args[:1] == ["check"] and not sys.stdout.isatty():
        from memsync.cli.leancheck import parse_check_argv, run

        parsed = parse_check_argv(args[1:])
        if parsed is not None:
            run(parsed)
    if args[:1] == ["status"] and not sys.stdout.isatty():
        from memsync.cli import leanstatus

        wanted = leanstatus.parse_status_argv(args[1:])
        if wanted is not None:
            leanstatus.run(wanted)
    from memsync.cli.app import main as cli_main

    cli_main(args)


if __name__ == "__main__":
    main()
