"""Running under Claude Code's SessionStart/SessionEnd hooks: stdin JSON, time limits, brevity."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from memsync.sync import notices
from memsync.sync.hookinput import hook_project_dir, read_hook_input
from memsync.sync.hooklines import names as _names
from memsync.sync.hooklines import person_lines, problem_lines
from memsync.sync.hookoutput import HookOutput, Section, clean_line, quote_name
from memsync.sync.hookwatch import begin, emit, set_fallback, start_watchdog, stderr_line

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any

    from memsync.config import Config
    from memsync.sync.binding import Binding
    from memsync.sync.report import StoreReport

    # `push --review --hook`: (project, scopes, message) -> (store reports, pull requests).
    ReviewPush = Callable[
        [Path, tuple[str, ...], str | None], tuple[Sequence[StoreReport], Sequence[Any]]
    ]


def _read_index(path: Path) -> list[str]:
    """The lines of an index file as Claude Code loads it (no frontmatter, no HTML comment
    blocks), read only when it is a regular file within the size limit, never through a
    symlink (SPEC section 2), never blocking on a FIFO."""
    from memsync.fsutil.reads import read_regular_or_none

    data = read_regular_or_none(path)
    if data is None:
        return []
    from memsync.model.loaded import loaded_text

    # What the model is told the index holds is what the client would show it of the file.
    return loaded_text(data.decode("utf-8", "replace")).lstrip("\ufeff").splitlines()


def _team_link(live: Path) -> str | None:
    """Why the team index of LIVE is not read: the folder or its MEMORY.md is a symlink."""
    from memsync.fsutil.reads import contained

    if contained(live.parent, live.name) is None:
        return f"{live} is a symlink; {LINK_FIX} folder"
    if contained(live, "MEMORY.md") is None:
        return f"{live / 'MEMORY.md'} is a symlink; {LINK_FIX} file"
    return None


LINK_FIX = "memsync never reads through a symlink: replace it by a regular"


def _memory_paths(report: StoreReport, paths: Sequence[str]) -> list[str]:
    """The memories among PATHS, by the one memory rule of REPORT's scope: not the indexes."""
    from memsync.model.safety import Scope, is_index_path, is_memory_file

    scope: Scope = "team" if report.scope == "team" else "private"
    return [p for p in paths if is_memory_file(p, scope) and not is_index_path(p)]


def _changed_lines(report: StoreReport, index: list[str]) -> list[str]:
    """Index lines of the memories REPORT wrote, then the changes no index line names."""
    from memsync.model.index import parse_entry

    updated = set(_memory_paths(report, report.updated))
    lines: list[str] = []
    named: set[str] = set()
    for line in index:
        entry = parse_entry(line)
        if entry is not None and entry.target in updated:
            lines.append(clean_line(line))
            named.add(entry.target)
    lines.extend(f"- {quote_name(p)} (no index line)" for p in sorted(updated - named))
    lines.extend(f"- removed: {quote_name(p)}" for p in _memory_paths(report, report.deleted))
    return lines


TEAM_GUIDANCE = (
    "It is shared through git with everyone who works on this project (memsync syncs it at "
    "session start and end); Claude Code does not load it by itself, so its index follows.\n"
    "Save a memory there (a file in that folder plus a line in its MEMORY.md, in the same "
    "format as your own memory) when it is a convention or fact every contributor should "
    "follow: build and test commands, code conventions, decisions and their reasons, where "
    "things are.\n"
    "Never save `user` memories (about one person) or anything secret (tokens, passwords, "
    "keys, personal data) there: those stay in your private memory."
)


def team_section(live: Path, updated: Sequence[str] = (), deleted: Sequence[str] = ()) -> Section:
    """The team folder, when to save there, what this pull changed (the memories UPDATED
    and DELETED), then the team index."""
    index_file = live / "MEMORY.md"
    link = _team_link(live)
    index = [] if link else [clean_line(ln) for ln in _read_index(index_file) if ln.strip()]
    heading = [f"Team memory: {live}", TEAM_GUIDANCE]
    if updated:
        heading.append(f"New or changed by this pull: {_names(updated, most=20)}")
    if deleted:
        heading.append(f"Removed by this pull: {_names(deleted, most=20)}")
    heading.append(f"Team index ({index_file}):")
    empty = f"(team index not shown: {link})" if link else "(no team memories yet)"
    lines = tuple(index or [empty])
    return Section("\n".join(heading), lines, str(index_file))


def pull_sections(reports: Sequence[StoreReport]) -> list[Section]:
    """Model context after a pull: changed index lines, then the team memory."""
    sections: list[Section] = []
    for report in reports:
        if not report.live_dir:
            continue
        live = Path(report.live_dir)
        index_file = live / "MEMORY.md"
        if report.scope == "team":
            updated = _memory_paths(report, report.updated)
            sections.append(team_section(live, updated, _memory_paths(report, report.deleted)))
        elif _memory_paths(report, report.changed_live):
            heading = (
                "memsync brought memory changes from other machines after this session loaded "
                f"MEMORY.md. Index lines of the new or changed memories in {live} "
                "(Read a file for its content):"
            )
            lines = _changed_lines(report, _read_index(index_file))
            sections.append(Section(heading, tuple(lines), str(index_file)))
    return sections


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
    carried: list[str] = []  # what the last session end said (`memsync.sync.notices`)
    try:
        from memsync.config import load_config

        config = load_config()
        settings = config.settings
        limit = settings.pull_timeout if command == "pull" else settings.push_timeout
        # Armed before stdin is read: even a caller that never closes stdin is let go.
        start_watchdog(limit + 2, f"memsync {command}")
        from memsync.sync.deadline import Deadline

        deadline = Deadline.after(limit)  # one limit for the quick look and the engine
        project = hook_project_dir(read_hook_input(), project)
        bindings = _start_fetches(config, project, scopes)
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
                if binding.scope == "team":
                    output = output.with_section(team_section(binding.live_dir))
            set_fallback(output, "the remote did not answer; this session has the memory here")
            # Nothing new anywhere (the usual session start): no engine to import.
            if quick_pull(bindings, settings, deadline)[0]:
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
    if command == "pull":
        for section in pull_sections(reports):
            output = output.with_section(section)
    said = person_lines(reports)
    again = [line for line in carried if line not in said]  # not what this start says too
    output = output.with_person(*notices.said_at_end(again), *said)
    for pull in pulls:
        if pull.hook_line:  # the team layer's words: sync does not import it
            output = output.with_person(pull.hook_line)
    for problem in problem_lines(reports):
        stderr_line(problem)
    _answer(command, key, output)


def _answer(command: str, key: str | None, output: HookOutput) -> None:
    """Give OUTPUT; a session end's lines are kept for the next start, as Claude Code shows
    the person nothing a SessionEnd hook says (`memsync.sync.notices`)."""
    if command == "push" and key is not None:
        notices.keep(key, output.person)
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
