"""`memsync status` shown: one definition for the typer command and the lean path."""

from __future__ import annotations

from pathlib import Path

from memsync.cli import render
from memsync.errors import ExitCode, UsageError

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any


def show_status(
    project: Path,
    scopes: tuple[str, ...],
    scope_name: str,
    *,
    as_json: bool,
    exit_code: bool,
    github: bool = True,
) -> int:
    """Show every store of SCOPES for PROJECT; the exit code (1: pending, with EXIT_CODE).
    GITHUB False (`--no-github`): nothing is asked of GitHub, status says what git can."""
    import dataclasses

    from memsync.sync.overview import store_status

    ask = _ask_github if github else None
    statuses = store_status(project, scopes, ask)  # type: ignore[arg-type]
    if not statuses:  # as `push --scope team` says: never a silent, successful nothing
        raise UsageError(
            f"no {scope_name} store is configured for this project",
            hint="Run `memsync init --team URL` to add a team store.",
        )
    if as_json:
        render.print_json(
            [{**dataclasses.asdict(s), "pending": s.pending, "clean": s.clean} for s in statuses]
        )
    else:
        for st in statuses:
            render_status(st)
    if exit_code and not all(s.clean for s in statuses):
        return int(ExitCode.NEEDS_USER)
    return int(ExitCode.OK)


def _ask_github(remote: str, branches: tuple[str, ...]) -> tuple[Any, ...]:
    """GitHub's pull requests of the review BRANCHES status shows (only when there are some)."""
    from memsync.team.pullstate import pull_states

    return pull_states(remote, branches)


def render_status(st: Any) -> None:
    """One store's status, as lines."""
    out = render.console()
    render.line((st.scope, "bold"), " store ", (st.store, "cyan"), target=out)
    render.line(f"  remote     {st.remote} ({st.branch}, folder {st.folder})", target=out)
    sync_state = f"{st.ahead} ahead, {st.behind} behind (as of the last fetch)"
    hint = ""
    if st.folder_refused:
        pass  # push and pull both refuse the folder: its problem line says what to run
    elif st.ahead > st.in_review:
        reviewed = st.review_branches or st.review_pulls
        hint = "; run `memsync push --review`" if reviewed else "; run `memsync push`"
    elif st.behind:
        hint = "; run `memsync pull`"
    render.line(f"  commits    {sync_state}{hint}", target=out)
    _render_reviews(st, out)
    if st.held_for_review:
        render.line(
            f"  reverted   {', '.join(st.held_for_review)}: the default branch undid your reviewed"
            " change; kept here, left out of plain pushes; `memsync push --review` proposes"
            " them again",
            target=out,
        )
    blocked = {b.path for b in st.blocked}
    ready = [p for p in st.local_edits if p not in blocked]
    render.line(f"  local      {len(ready)} edit(s) not yet pushed", target=out)
    for path in ready:
        sign = "+" if path in st.added else "-" if path in st.removed else "~"
        render.line(f"             {sign} {path}", target=out)
    if st.unwritten:
        count = len(st.unwritten)
        noun = "memory" if count == 1 else "memories"
        render.line(
            f"  unwritten  {count} {noun} not yet written to the memory folder; run `memsync pull`",
            target=out,
        )
    for path in st.unwritten:
        render.line(f"             {path}", target=out)
    if st.blocked:
        render.line(f"  held back  {len(blocked)} file(s) that push will not send:", target=out)
    for item in st.blocked:
        render.line(
            "             ",
            (f"{item.path}:{item.line}", "bold"),
            f": {item.message} [{item.rule}]",
            target=out,
        )
        render.line(f"               fix: {item.fix}", target=out)
    render.line(
        f"  last sync  {render.when(st.last_sync)}; last push {render.when(st.last_push)}",
        target=out,
    )
    if st.index is not None:
        render.line(
            f"  index      {st.index.lines}/200 lines, {st.index.chars:,}/25,000 characters",
            target=out,
        )
    for problem in st.problems:
        render.line("  ", ("problem", "yellow"), f"    {problem}", target=out)
    if st.clean:
        render.line("  nothing to do", target=out)


def _render_reviews(st: Any, out: Any) -> None:
    """The commits in review, and what GitHub said of their pull requests when asked."""
    pulls = {p.branch: p for p in st.review_pulls}
    if st.in_review:
        branches = ", ".join(st.review_branches)
        opened = [pulls[b].url for b in st.review_branches if b in pulls]
        if len(opened) == len(st.review_branches):
            why = f" ({', '.join(opened)})"  # GitHub said which: nothing left to guess
        else:
            why = (
                " (git cannot tell a closed one: if it was closed unmerged, delete its branch"
                " and they count as not pushed)"
            )
        render.line(
            f"  review     {st.in_review} commit(s) in review on {branches}; shared when the"
            f" pull request is merged{why}",
            target=out,
        )
    for pull in st.review_pulls:
        when = f" on {pull.closed_on}" if pull.closed_on else ""
        if pull.state == "closed":
            render.line(
                f"  closed     {pull.branch}: closed without merging{when}:"
                f" {pull.url}; its commits count as not pushed: reopen it on GitHub, or run"
                " `memsync push --review` to propose them again in a new pull request",
                target=out,
            )
        elif pull.state == "merged":
            render.line(
                f"  merged     {pull.branch}: merged{when}: {pull.url};"
                " run `memsync pull` to take it in",
                target=out,
            )
