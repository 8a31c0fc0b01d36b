"""Running under Claude Code's SessionStart/SessionEnd hooks: stdin JSON, time limits, brevity."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from memsync.sync import notices
from memsync.sync.hookcontext import (  # noqa: F401 - the hook's model context, used here
    TEAM_GUIDANCE,
    pull_sections,
    short_names,
    team_section,
)
from memsync.sync.hookinput import hook_project_dir, read_hook_input
from memsync.sync.hooklines import (  # noqa: F401 - person_lines: read from here too
    person_lines,
    person_notices,
    problem_lines,
)
from memsync.sync.hookoutput import HookOutput
from memsync.sync.hookwatch import begin, emit, set_fallback, start_watchdog, stderr_line

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any

    from memsync.config import Config
    from memsync.sync.binding import Binding
    from memsync.sync.noticetype import Notice
    from memsync.sync.report import StoreReport

    # `push --review --hook`: (project, scopes, message) -> (store reports, pull requests).
    ReviewPush = Callable[
        [Path, tuple[str, ...], str | None], tuple[Sequence[StoreReport], Sequence[Any]]
    ]


def _start_fetches(config: Config, project: Path, scopes: tuple[str, ...]) -> list[Binding]:
    """Start every store's fetch before the sync engine is even imported: at session start
    the network round trip then overlaps the imports (the engine collects each fetch)."""
    from memsync.git.remote import start_fetch
    from memsync.model.safety import SCOPES
    from memsync.sync.binding import resolve_bindings

    _, bindings = resolve_bindings(config, project, tuple(s for s in SCOPES if s in scopes))
    for binding in bindings:
        start_fetch(binding.clone_dir)
    from memsync.sync.early import remember

    remember([b.clone_dir for b in bindings], config.settings.pull_timeout)
    return bindings


def run_hook(
    command: str,
    project: Path,
    scopes: tuple[str, ...],
    *,
    message: str | None = None,
    review: ReviewPush | None = None,
) -> None:
    """Run pull or push as a Claude Code hook: never raises, never blocks past the limit.

    REVIEW, given by the caller for `push --review --hook`, pushes for review instead (the
    team layer owns that flow; sync does not import it)."""
    from memsync.errors import MemsyncError, ProjectNotConfiguredError

    begin()
    pulls: tuple[Any, ...] = ()
    event = "SessionStart" if command == "pull" else "SessionEnd"
    output = prepared = HookOutput(event)  # PREPARED: what is known before any wait
    key: str | None = None
    carried: list[Notice] = []  # what the last session end said (`sync.notices`)
    reports: list[StoreReport] = []
    try:
        from memsync.config import load_config

        config = load_config()
        settings = config.settings
        limit = settings.pull_timeout if command == "pull" else settings.push_timeout
        # Armed before stdin is read: even a caller that never closes stdin is let go.
        start_watchdog(limit + 2, f"memsync {command}")
        from memsync.sync.deadline import Deadline

        deadline = Deadline.after(limit)  # one limit for the quick look and the engine
        given = read_hook_input()
        project = hook_project_dir(given, project)
        # `claude --continue`/`--resume`: the transcript already holds the first start's context.
        resumed = given.get("source") == "resume"
        from memsync.model.paths import claude_config_dir
        from memsync.sync.automemory import auto_memory_off

        # Auto-memory off: the client shows the model no memory, and neither does the hook.
        silent = command == "pull" and auto_memory_off(project, claude_config_dir())
        bindings = _start_fetches(config, project, scopes)
        if command == "pull":
            import contextlib

            from memsync.sync.indexkeep import remember_loaded_index

            for binding in bindings:  # the client loads the private index only
                if binding.scope == "private":
                    with contextlib.suppress(OSError):  # never worth failing a pull
                        remember_loaded_index(binding)
        key = bindings[0].project_key if bindings else None
        if command == "pull" and key is not None:
            # What the last session end said: Claude Code showed the person none of it.
            carried = notices.take(key)
            output = prepared = output.with_person(*notices.said_at_end(carried))
        set_fallback(output, "local edits are kept; the next run sends them")
        if command == "pull" and review is None:
            import memsync.check.redaction  # noqa: F401 - before the fetches are waited for
            from memsync.sync.quickpull import quick_pull

            # What the session needs even when the remote never answers: the watchdog
            # prints it rather than nothing.
            for binding in bindings:
                if binding.scope == "team" and not resumed and not silent:
                    output = output.with_section(team_section(binding.live_dir))
            set_fallback(output, "the remote did not answer; this session has the memory here")
            # Nothing new anywhere (the usual session start): no engine to import.
            if quick_pull(bindings, settings, deadline)[0]:
                if carried:  # every store is clean: no state the end told is still true
                    clean = [binding.scope for binding in bindings]
                    again = notices.unsettled(carried, (), clean)
                    person = (*notices.said_at_end(again), *output.person[len(carried) :])
                    output = replace(output, person=person)
                emit(output)
                return
            prepared, output = output, HookOutput(event)  # made again from what was pulled
        if review is not None:
            pushed_reports, pushed_pulls = review(project, scopes, message)
            pulls = tuple(pushed_pulls)
            reports = list(pushed_reports)
        else:
            from memsync.sync.engine import RunOptions, sync_project

            options = RunOptions(message)
            reports = sync_project(
                project,
                scopes,
                command,
                hook=True,
                options=options,
                config=config,
                deadline=deadline,
            )
            if command == "push":
                _forget_loaded(bindings)
    except ProjectNotConfiguredError:
        return  # The SessionStart hook runs in every project; most are not memsync's.
    except MemsyncError as error:
        stderr_line(f"memsync: {error.message}")
        hint = f" ({error.hint})" if error.hint else ""
        _answer(command, key, prepared.with_person(f"memsync: {error.message}{hint}"))
        return
    except Exception as error:  # a hook must never block or break a session
        from memsync.errors import os_error

        # Disk full, read-only, denied: the same words the command line gives, naming the file.
        known = os_error(error) if isinstance(error, OSError) else None
        if known is not None:
            hint = f" ({known.hint})" if known.hint else ""
            stderr_line(f"memsync: {known.message}")
            _answer(
                command, key, prepared.with_person(f"memsync: {command}: {known.message}{hint}")
            )
            return
        stderr_line(f"memsync: {command} failed: {error!r}")
        failed = f"memsync: {command} failed: {error!r}; run `memsync {command}`"
        _answer(command, key, prepared.with_person(failed))
        return
    if command == "pull" and not silent:
        for section in pull_sections(reports, resumed=resumed):
            output = output.with_section(section)
    told = person_notices(reports)
    said = [notice.text for notice in told]
    # Not what this start says too, nor a state its runs found gone.
    again = [n for n in notices.unsettled(carried, reports) if n.text not in said]
    output = output.with_person(*notices.said_at_end(again), *said)
    for pull in pulls:
        if pull.hook_line:  # the team layer's words: sync does not import it
            output = output.with_person(pull.hook_line)
    for problem in problem_lines(reports):
        stderr_line(problem)
    _answer(command, key, output, told, reports)


def _answer(
    command: str,
    key: str | None,
    output: HookOutput,
    told: Sequence[Notice] = (),
    reports: Sequence[StoreReport] = (),
) -> None:
    """Give OUTPUT; a session end's lines are kept for the next start, as Claude Code shows
    the person nothing a SessionEnd hook says (`memsync.sync.notices`). TOLD types the lines
    REPORTS gave; any other (a failed run, a pull request) is an event."""
    if command == "push" and key is not None:
        from memsync.sync.noticetype import Notice

        typed = {notice.text: notice for notice in told}
        said = [typed.get(line, Notice(line)) for line in output.person]
        notices.keep(key, said, reports)
    emit(output)


def refuse_hook_command(argv: Sequence[str], problem: str) -> None:
    """Answer a hook whose command line does not parse (a hand-edited hook, or one a newer
    memsync wrote): exit 0 all the same, the problem on stderr and to the person."""
    command = " ".join(("memsync", *argv))
    problem = problem.rstrip(".")
    event = "SessionStart" if argv[:1] == ["pull"] else "SessionEnd"
    stderr_line(f"memsync: the hook `{command}` was not understood: {problem}")
    said = (
        f"memsync: the hook `{command}` was not understood ({problem}); nothing was synced. "
        "Fix that command in Claude Code's settings, or remove its entry and run "
        "`memsync hooks install`."
    )
    emit(HookOutput(event).with_person(said))


def _forget_loaded(bindings: Any) -> None:
    """The session ended and its edits are committed: its loaded index is no longer needed
    (a later start, while another session runs, keeps what both were shown)."""
    import contextlib

    from memsync.sync.indexkeep import forget_loaded_index

    for binding in bindings:
        if binding.scope == "private":
            with contextlib.suppress(OSError):
                forget_loaded_index(binding)
