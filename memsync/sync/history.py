"""`memsync log`: the commits of a project's stores that touched its memories, newest first,
with what each merge decided about them."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from memsync import git
from memsync.errors import GitError
from memsync.model.safety import Scope
from memsync.sync import store
from memsync.sync.binding import Binding
from memsync.sync.identity import former_folders
from memsync.sync.overview import bindings_of


@dataclass(frozen=True)
class HistoryEntry:
    """One commit in a store that touched this project's memories."""

    scope: str
    sha: str
    when: int
    author: str
    subject: str
    files: tuple[tuple[str, str], ...]
    decisions: tuple[str, ...] = ()  # what a merge decided: file, field, kept and lost value
    merge: bool = False  # FILES are what it brought in: its changes against its first parent


def history(
    project_dir: Path, scopes: tuple[Scope, ...], file: str | None, limit: int = 50
) -> list[HistoryEntry]:
    """Commits that touched this project's memories (or FILE), newest first."""
    _, bindings = bindings_of(project_dir, scopes)
    entries: list[HistoryEntry] = []
    for binding in bindings:
        if not (binding.clone_dir / "HEAD").is_file():
            continue
        heads = store.heads(binding)
        if heads.local is None:
            continue
        relative = _relative_to_binding(binding, file) if file else None
        if file and relative is None:
            continue
        target = store.store_path(binding, relative) if relative else binding.prefix
        paths = [target] if target else []
        prefixes = [f"{binding.prefix}/" if binding.prefix else ""]
        with contextlib.suppress(GitError):
            # A folder `project move` left: its commits are this project's older history.
            for old in former_folders(binding, heads.local):
                paths.append(f"{old}/{relative}" if relative else old)
                prefixes.append(f"{old}/")
            found = git.log_entries(binding.clone_dir, heads.local, paths, limit, merge_files=True)
            seen = {entry.sha for entry in found}
            for entry in git.decision_entries(binding.clone_dir, heads.local, limit):
                if entry.sha not in seen and any(_concerns(d, target) for d in entry.decisions):
                    found.append(entry)
            for entry in found:
                files = tuple(
                    (s, p.removeprefix(next(x for x in prefixes if p.startswith(x))))
                    for s, p in entry.files
                    if any(p.startswith(x) for x in prefixes)
                )
                decisions = tuple(
                    d.removeprefix(prefixes[0]) for d in entry.decisions if _concerns(d, target)
                )
                if entry.merge and not files and not decisions:
                    continue  # a merge that changed none of these memories here is no change
                entries.append(
                    HistoryEntry(
                        binding.scope,
                        entry.sha,
                        entry.when,
                        entry.author,
                        entry.subject,
                        files,
                        decisions,
                        entry.merge,
                    )
                )
    return sorted(entries, key=lambda e: e.when, reverse=True)[:limit]


def _concerns(decision: str, target: str) -> bool:
    """Whether a decision line (it starts with its file's store path) is about TARGET."""
    return not target or (
        decision.startswith(target) and decision[len(target) : len(target) + 1] in "/ :"
    )


def _relative_to_binding(binding: Binding, file: str) -> str | None:
    """FILE (relative to the memory directory, or a path to it) within the binding's folder."""
    from memsync.model.limits import TEAM_DIR

    candidate = Path(file)
    relpath = candidate.as_posix()
    if candidate.is_absolute() or candidate.exists():
        try:
            relpath = candidate.resolve().relative_to(binding.live_dir.resolve()).as_posix()
        except ValueError:
            return None
        if binding.scope == "team":
            return relpath
    in_team = relpath.startswith(f"{TEAM_DIR}/")
    if binding.scope == "team":
        return relpath.removeprefix(f"{TEAM_DIR}/") if in_team else relpath
    return None if in_team else relpath
