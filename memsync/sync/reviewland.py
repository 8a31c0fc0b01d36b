"""Whether the default branch took in what a review push sent (see sync/reviewed).

A commit of the default branch took a review in when it holds every file the review changed
as sent, or with most of its changed body lines (a reviewer edited the rest), or when it is
the merge commit that brought what was sent into the default branch, or what was sent itself
when the default branch fast-forwarded to it (`git merge --ff-only`). A review that landed
and was then undone (the squash or the merge reverted, a file of it deleted again) shows in
the default branch's tip: its files are back as they were before the review.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from memsync import git

_CANDIDATES = 50  # newest commits of the default branch looked at for one review

Change = tuple[git.ModeOid | None, git.ModeOid | None]  # (before, as sent); None: absent


@dataclass(frozen=True)
class Landing:
    """Where a review landed: COMMIT took its CHANGES in; None when this machine's branch
    has that commit already, or the review changed nothing of its own."""

    commit: str | None
    changes: dict[str, Change] = field(default_factory=dict)


MERGED = Landing(None)


def landing(
    repo: Path, sent: str, remote: str, local: str, squash: bool = True, *, fork: str | None = None
) -> Landing | None:
    """The oldest commit of REMOTE that holds what SENT changed, MERGED when LOCAL has it
    already, or None. Without SQUASH only a merge commit is looked for: in a fast-forward
    REMOTE's history has all of LOCAL's commits, so no squash brought one of them. FORK is
    the default branch as fetched when SENT was sent (None: not recorded)."""
    if git.is_ancestor(repo, sent, remote):
        return _merged(repo, sent, remote, local, fork)
    if not squash:
        return None
    fork = git.merge_base(repo, sent, remote)
    changes = git.tree_changes(repo, fork, sent).changes
    if not changes:
        return MERGED  # nothing of its own: nothing to land
    paths = sorted(changes)
    before = {p: old[1] if old else None for p, (old, _) in changes.items()}
    after = {p: new[1] if new else None for p, (_, new) in changes.items()}
    candidates = git.commits_touching(repo, remote, [sent], paths, _CANDIDATES)
    ids = git.blob_ids(repo, [f"{c}:{p}" for c in candidates for p in paths])
    texts: dict[str, bytes] = {}
    for commit in candidates:
        there = {p: ids.get(f"{commit}:{p}") for p in paths}
        unknown = [s for p in paths for s in (before[p], after[p], there[p]) if s]
        texts.update(git.read_blobs(repo, [s for s in unknown if s not in texts]))
        if _holds(before, after, there, texts):
            pulled = git.is_ancestor(repo, commit, local)
            return MERGED if pulled else Landing(commit, dict(changes))
    return None


def _merged(repo: Path, sent: str, remote: str, local: str, fork: str | None) -> Landing:
    """The merge commit of REMOTE that brought SENT into the default branch, with what SENT
    changed against that branch; MERGED when LOCAL has it. No merge commit: a fast-forward."""
    rows = git.descendants(repo, sent, remote)
    path = {row[0] for row in rows} | {sent}
    # The first parent not on the path from SENT: the default branch it was merged into.
    merges = [row[:2] for row in rows if row[1] not in path]
    if not merges:
        return _fast_forwarded(repo, sent, rows, local, fork)
    if git.is_ancestor(repo, merges[-1][0], local):
        return MERGED
    commit, mainline = merges[-1]  # the oldest: newest first
    changes = git.tree_changes(repo, git.merge_base(repo, sent, mainline), sent).changes
    return Landing(commit, dict(changes)) if changes else MERGED


def _fast_forwarded(
    repo: Path, sent: str, rows: list[list[str]], local: str, fork: str | None
) -> Landing:
    """SENT itself on the default branch's first-parent line (ROWS: what descends from it,
    each first parent on that path): SENT took the review in, with what it changed against
    FORK. MERGED when nothing came after it, or LOCAL has the commit after it on that line
    (LOCAL always has SENT: only a commit after it says this machine pulled the landing), or
    no FORK was recorded (what the review changed is not known)."""
    first = {row[0]: row[1] for row in rows}
    after = rows[0][0] if rows else None  # REMOTE: follow first parents down to SENT
    while after is not None and first[after] != sent:
        after = first[after]
    if after is None or fork is None or git.is_ancestor(repo, after, local):
        return MERGED
    changes = git.tree_changes(repo, fork, sent).changes
    return Landing(sent, dict(changes)) if changes else MERGED


def undone(repo: Path, landed: Landing, remote: str) -> dict[str, git.ModeOid | None]:
    """The files of LANDED that REMOTE holds as before the review again (the squash or merge
    commit reverted, a file deleted again): path -> its version before the review (None:
    absent). Not a file the landing itself held as before (a reviewer took it out of the pull
    request merged with a merge commit): that is the reviewer's change, not undone."""
    paths = sorted(landed.changes)
    tips = [f"{commit}:{p}" for commit in (remote, landed.commit) for p in paths]
    ids = git.blob_ids(repo, tips)
    back: dict[str, git.ModeOid | None] = {}
    for path in paths:
        old, _ = landed.changes[path]
        before = old[1] if old else None
        there = ids.get(f"{landed.commit}:{path}")
        if ids.get(f"{remote}:{path}") == before and there != before:
            back[path] = old
    return back


def _holds(
    before: dict[str, str | None],
    after: dict[str, str | None],
    there: dict[str, str | None],
    texts: dict[str, bytes],
) -> bool:
    """Whether a tree with the blobs THERE took in the change BEFORE -> AFTER: no file of it
    holds another version than as sent or mostly as sent (its body lines): every file of the
    review, not one or some of them."""
    for path, sent in after.items():
        if there[path] == sent:
            continue
        if there[path] == before[path] or sent is None or there[path] is None:
            # Not taken. Read as "the reviewer undid it", the file of a second review still
            # open (its branch holds the first one's changes too) or a teammate's commit
            # touching one file of the review made what was sent the common version, and the
            # author's change to this file was reverted on their own branch (a memory deleted).
            return False
        if _share(*(texts.get(s or "", b"") for s in (before[path], sent, there[path]))) <= 0.5:
            return False
    return True


def _lines(data: bytes) -> Counter[str]:
    """The non-blank lines of a memory's body. Not its frontmatter: a teammate's memory of the
    same name, type and description shares most of those with any short memory sent."""
    from memsync.model.memory import split_frontmatter

    _, body, _ = split_frontmatter(data.decode("utf-8", "replace").replace("\r\n", "\n"))
    return Counter(line for line in body.splitlines() if line.strip())


def _share(before: bytes, sent: bytes, there: bytes) -> float:
    """Of the lines the change BEFORE -> SENT added or removed, the share THERE shows so."""
    old, new, seen = _lines(before), _lines(sent), _lines(there)
    added, removed = new - old, old - new
    total = sum(added.values()) + sum(removed.values())
    if not total:
        return 0.0
    kept = sum(((seen - old) & added).values()) + sum(((old - seen) & removed).values())
    return kept / total
