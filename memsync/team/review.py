"""`memsync review`: the memory changes between two commits, for a pull request or a CI summary.

Both trees are listed with one `git ls-tree` each and every blob the review needs (the
changed memories, and the indexes and memories of the folders they live in, which the
checks read) comes through one `git cat-file --batch`: with resolving the refs, a review
runs about eight git processes however many memories changed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsync import git
from memsync.errors import UsageError
from memsync.model.index import IndexSize, measure_index, parse_index
from memsync.model.memory import parse_memory
from memsync.model.semdiff import FieldChange, MemoryChange, body_diff, diff_memories
from memsync.team.reviewtree import (
    ATTRIBUTES,
    CheckNote,
    Layout,
    check_folders,
    is_memory_path,
)

if TYPE_CHECKING:
    from memsync.check.secrets import SecretFinding

# Where `--base` is not given: the merge-base of HEAD with the first of these that exists.
DEFAULT_BRANCH_REFS = (
    "refs/remotes/origin/HEAD",
    "refs/remotes/origin/main",
    "refs/heads/main",
    "refs/remotes/origin/master",
    "refs/heads/master",
)
_REGULAR_MODES = ("100644", "100755")


@dataclass(frozen=True)
class IndexReview:
    """One project folder's MEMORY.md before and after, measured as Claude Code loads it."""

    folder: str
    path: str
    before: IndexSize | None
    after: IndexSize | None
    entries_added: tuple[str, ...] = ()
    entries_removed: tuple[str, ...] = ()
    line_diff: tuple[str, ...] = ()  # the index's lines, as a unified diff


@dataclass(frozen=True)
class Review:
    """The semantic summary of the memory changes from BASE to HEAD."""

    base: str | None
    head: str
    base_label: str
    head_label: str
    scope: str
    changes: tuple[MemoryChange, ...]
    indexes: tuple[IndexReview, ...]
    secrets: tuple[SecretFinding, ...]
    findings: tuple[CheckNote, ...]
    other_files: tuple[str, ...] = ()
    # Memories whose body diff is not shown because a version of them holds a possible secret.
    hidden_bodies: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        """How many memories were added, removed, renamed and changed."""
        out = {"added": 0, "removed": 0, "renamed": 0, "changed": 0}
        for change in self.changes:
            out[change.status] += 1
        return out


@dataclass(frozen=True)
class Range:
    """The two commits a review compares, and how to name them."""

    base: str
    head: str
    base_label: str
    head_label: str


def resolve_range(repo: Path, base: str | None = None, head: str | None = None) -> Range:
    """Commits to compare: merge-base(BASE or the default branch, HEAD) and HEAD."""
    if not git.is_repository(repo):
        raise UsageError(
            f"{repo} is not a git repository",
            hint="Run `memsync review` in a checkout (or bare clone) of a memory store.",
        )
    head_label = head or "HEAD"
    head_sha = _commit(repo, head_label, "--head")
    if base is not None:
        base_sha, base_label = _commit(repo, base, "--base"), base
    else:
        base_sha, base_label = _default_branch(repo)
    # Like a pull request's diff: what HEAD brings since it forked from BASE.
    fork = git.merge_base(repo, base_sha, head_sha)
    if fork is not None and fork != base_sha:
        base_label = f"merge-base of {base_label} and {head_label}"
    return Range(fork or base_sha, head_sha, base_label, head_label)


def _commit(repo: Path, ref: str, option: str) -> str:
    (sha,) = git.resolve_refs(repo, ref)
    if sha is None:
        raise UsageError(
            f"{option} {ref}: no such commit in {repo}",
            hint="Fetch it first (`git fetch origin REF`); in GitHub Actions check out with "
            "fetch-depth: 0.",
        )
    return sha


def _default_branch(repo: Path) -> tuple[str, str]:
    for ref in DEFAULT_BRANCH_REFS:
        (sha,) = git.resolve_refs(repo, ref)
        if sha is not None:
            return sha, ref.removeprefix("refs/remotes/").removeprefix("refs/heads/")
    raise UsageError(
        f"cannot tell the default branch of {repo} (no origin/HEAD, origin/main or main)",
        hint="Name the commit to compare with: `memsync review --base REF`.",
    )


def review_refs(
    repo: Path, base: str | None = None, head: str | None = None, *, scope: str | None = None
) -> Review:
    """Review the memory changes HEAD (default `HEAD`) brings over BASE (default branch)."""
    span = resolve_range(repo, base, head)
    return review_commits(
        repo,
        span.base,
        span.head,
        scope=scope,
        base_label=span.base_label,
        head_label=span.head_label,
    )


def review_commits(
    repo: Path,
    base: str | None,
    head: str,
    *,
    scope: str | None = None,
    base_label: str | None = None,
    head_label: str | None = None,
) -> Review:
    """Review the memory changes from commit BASE (None: an empty tree) to commit HEAD.

    SCOPE (team or private) decides which checks apply; None reads it from the store.
    """
    before = git.list_tree(repo, base) if base else {}
    after = before if base == head else git.list_tree(repo, head)
    touched = sorted(p for p in set(before) | set(after) if _sha(before, p) != _sha(after, p))
    changed = [p for p in touched if is_memory_path(p) and _regular(before, after, p)]
    others = tuple(p for p in touched if p not in set(changed))
    layout = Layout.of(after or before)
    folders = {layout.folder(p) for p in changed}
    index_paths = sorted(layout.index(f) for f in folders)
    # The checks see whole folders at HEAD: every memory there, not only the changed ones.
    at_head = [
        p
        for p, e in after.items()
        if is_memory_path(p) and e.mode in _REGULAR_MODES and layout.folder(p) in folders
    ]
    extra = [ATTRIBUTES] if scope is None and ATTRIBUTES in after else []
    wanted = [before[p].sha for p in [*changed, *index_paths] if p in before]
    wanted += [after[p].sha for p in [*changed, *index_paths, *at_head, *extra] if p in after]
    blobs = git.read_blobs(repo, wanted)
    old = {p: blobs[before[p].sha] for p in changed if p in before and before[p].sha in blobs}
    new = {p: blobs[after[p].sha] for p in changed if p in after and after[p].sha in blobs}
    if scope is None:
        from memsync.check.scope import store_scope

        scope = store_scope(repo, after, blobs.get(after[ATTRIBUTES].sha) if extra else None)
    secrets = tuple(_secrets(new))
    # Old versions are scanned too: a diff shows removed lines, and those must not leak.
    risky = {f.path for f in secrets} | {f.path for f in _secrets(old)}
    changes = [_with_added_body(c, new) for c in diff_memories(old, new)]
    hidden = tuple(c.path for c in changes if c.body_diff and _touches(c, risky))
    files = {p: blobs[after[p].sha] for p in at_head if after[p].sha in blobs}
    return Review(
        base=base,
        head=head,
        base_label=base_label or base or "empty tree",
        head_label=head_label or head,
        scope=scope,
        changes=tuple(_redacted(c, hidden) for c in changes),
        indexes=tuple(_index_review(p, before, after, blobs, p in risky) for p in index_paths),
        secrets=secrets,
        findings=check_folders(layout, files, set(new), set(old) - set(new), scope),
        other_files=others,
        hidden_bodies=hidden,
    )


HIDDEN = "(hidden: possible secret)"


def _with_added_body(change: MemoryChange, new: Mapping[str, bytes]) -> MemoryChange:
    """An added memory's body as `+` lines, so reviewers read what the team will load."""
    if change.status != "added" or change.path not in new:
        return change
    lines = body_diff("", parse_memory(new[change.path], change.path).body)
    return replace(change, body_diff=lines)


def _touches(change: MemoryChange, risky: set[str]) -> bool:
    return change.path in risky or (change.old_path or "") in risky


def _redacted(change: MemoryChange, hidden: tuple[str, ...]) -> MemoryChange:
    """CHANGE without any value or body line that could show a secret."""
    fields = tuple(FieldChange(f.path, _clean(f.before), _clean(f.after)) for f in change.fields)
    name = _clean(change.name)
    body = () if change.path in hidden else change.body_diff
    return replace(change, name=name, fields=fields, body_diff=body)


def _clean(value: Any) -> Any:
    """VALUE, or a placeholder when the secret scanner finds something in it."""
    from memsync.check.secrets import scan_text

    if value is None:
        return None
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return HIDDEN if scan_text(text) else value


def _sha(entries: Mapping[str, git.TreeEntry], path: str) -> str | None:
    entry = entries.get(path)
    return None if entry is None else entry.mode + entry.sha


def _regular(
    before: Mapping[str, git.TreeEntry], after: Mapping[str, git.TreeEntry], path: str
) -> bool:
    """Only plain files are memories: a symlink or submodule is listed with the other files."""
    return all(m[path].mode in _REGULAR_MODES for m in (before, after) if path in m)


def _index_review(
    path: str,
    before: Mapping[str, git.TreeEntry],
    after: Mapping[str, git.TreeEntry],
    blobs: Mapping[str, bytes],
    risky: bool = False,
) -> IndexReview:
    old = blobs.get(before[path].sha) if path in before else None
    new = blobs.get(after[path].sha) if path in after else None
    old_targets = _targets(old)
    new_targets = _targets(new)
    folder = path.rsplit("/", 1)[0] if "/" in path else "."
    # The lines themselves: a retitled or reworded entry changes no memory, and the team
    # loads it all the same (an index-only review has nothing else to show).
    was, now = (parse_index(data).text() if data else "" for data in (old, new))
    lines = body_diff(was, now) if was != now else ()
    return IndexReview(
        folder=folder,
        path=path,
        before=_measure(old),
        after=_measure(new),
        entries_added=tuple(t for t in new_targets if t not in set(old_targets)),
        entries_removed=tuple(t for t in old_targets if t not in set(new_targets)),
        line_diff=(HIDDEN,) if lines and risky else lines,
    )


def _measure(data: bytes | None) -> IndexSize | None:
    if data is None:
        return None
    return measure_index(parse_index(data).text())


def _targets(data: bytes | None) -> list[str]:
    return [] if data is None else list(dict.fromkeys(parse_index(data).targets))


def _secrets(files: Mapping[str, bytes]) -> Iterable[SecretFinding]:
    """Secrets in the new versions of the changed files (redacted previews only)."""
    from memsync.check.secrets import scan_text

    for path in sorted(files):
        yield from scan_text(files[path].decode("utf-8", errors="replace"), path)
