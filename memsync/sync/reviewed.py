"""Review branches that landed on the default branch by a squash or a rebase merge.

`push --review` sends the team store to a review branch; the local branch stays where it
was. A pull request merged with a merge commit makes the commits sent ancestors of the
default branch, so the next pull merges over them. "Squash and merge" and "Rebase and merge"
write new commits instead: merged over the old fork point, the reviewer's edits looked like
a teammate's concurrent change and came back undone ("kept both"), and the author's later
correction of a line sat beside the line it corrected.

So every review push records what it sent (`refs/memsync/reviews/<branch>`). When the
default branch has a commit holding that change set (sync/reviewland), that commit took the
review in, and what this machine had sent is the common version of both sides: the
reviewer's edits win where the author changed nothing since, the author's later edits win
where the reviewer changed nothing, and what was sent is not proposed again. A file of the
review the default branch has undone again before this machine pulled the landing (the squash
or the merge commit reverted) keeps the old fork point's version as the common one: the
author's version stays, as a memory changed here and deleted there does. A merge commit makes
the local branch an ancestor of the default branch: that pull would be a fast-forward, so a
fast-forward looks at the records too, when there are any (no git process when there are not).

Every pull with new commits looks at each record, so a record is dropped once it is done
with: the local branch holds the commit that took it in (a merge commit, a squash: and with
it every record that one's commit sent already held) or it changed nothing; its
review branch is gone from the remote (as last fetched) and nothing took it in (closed
unmerged); or what it sent is older than `KEEP_DAYS`. Git alone tells all of it: no GitHub
call at pull time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from memsync import git
from memsync.sync.binding import Binding
from memsync.sync.reviewland import Landing, landing, undone

RECORDS = "refs/memsync/reviews/"
# Beside each record: the default branch as fetched when it was sent, what a review the default
# branch fast-forwarded to changed (no merge commit or squash to measure it against).
FORKS = "refs/memsync/review-forks/"
# A pull request left open longer is rare; if one still lands by a squash, the old fork point
# is the common version (a reviewer's edit may be kept beside the line it changed, no loss).
KEEP_DAYS = 90


@dataclass(frozen=True)
class Landed:
    """The commit to merge over, and the store paths of a landed review the default branch
    undid again (kept as this machine has them), with the blob each had as sent (SENT)."""

    base: str | None
    kept: tuple[str, ...] = ()
    sent: tuple[tuple[str, str], ...] = ()


def record_sent(repo: Path, branch: str, commit: str, fork: str | None) -> None:
    """Remember COMMIT as what the review branch BRANCH holds of this machine's, sent when
    the default branch was at FORK."""
    for ref, new in ((RECORDS + branch, commit), (FORKS + branch, fork)):
        (old,) = git.resolve_refs(repo, ref)
        if new is not None and old != new:
            git.update_ref(repo, ref, new, old or git.ZERO_SHA, "memsync: sent for review")


def _drop(repo: Path, ref: str, sent: str, fork: str | None) -> None:
    """Delete the record REF (at SENT) and its fork ref (at FORK, when there is one)."""
    git.delete_ref(repo, ref, sent)
    if fork is not None:
        git.delete_ref(repo, FORKS + ref.removeprefix(RECORDS), fork)


def landed_base(binding: Binding, local: str, remote: str) -> Landed:
    """What to merge LOCAL and REMOTE over: their merge base or, when REMOTE took in a review
    LOCAL sent by a squash or a rebase, what LOCAL had sent; for a review REMOTE undid after
    it landed (by any merge), the version before it."""
    repo = binding.clone_dir
    base = git.merge_base(repo, local, remote)
    # A fast-forward may bring a review's merge commit and its revert: only records tell.
    forward = base == local
    if base == remote or (forward and not git.any_ref_under(repo, RECORDS)):
        return Landed(base)
    records = git.refs_under(repo, RECORDS)
    names = [ref.removeprefix(RECORDS) for ref in records]
    tracking = git.resolve_refs(repo, *(f"refs/remotes/origin/{name}" for name in names))
    branches = dict(zip(records, tracking, strict=True))
    forks = dict(zip(records, git.resolve_refs(repo, *(FORKS + n for n in names)), strict=True))
    oldest = time.time() - KEEP_DAYS * 86400
    kept: dict[str, str] = {}
    absorbed: list[str] = []
    chosen: Landing | None = None
    for ref, (sent, when) in records.items():
        fork = forks[ref]
        found = None
        if when >= oldest:
            found = landing(repo, sent, remote, local, not forward, fork=fork)
        if found is None:
            if when >= oldest and branches[ref] is not None:
                kept[ref] = sent  # still under review (or closed, its branch kept)
            else:
                _drop(repo, ref, sent, fork)  # closed unmerged, or too old to land now
        elif found.commit is None:
            _drop(repo, ref, sent, fork)  # merged in already: the merge base says it all
            absorbed.append(sent)
        else:
            kept[ref] = sent
            candidate = git.merge_base(repo, local, sent)
            if candidate and (base is None or git.is_ancestor(repo, base, candidate)):
                base, chosen = candidate, found
            elif chosen is None and not forward:  # criss-cross: base stays, undone is told
                chosen = found
    for ref, sent in kept.items():  # superseded: a later review holding it is merged in
        if any(git.is_ancestor(repo, sent, later) for later in absorbed if later != sent):
            _drop(repo, ref, sent, forks[ref])
    if chosen is None or base is None:
        return Landed(base)
    back = undone(repo, chosen, remote)
    if not back:
        return Landed(base)
    as_sent = tuple((p, new[1]) for p in sorted(back) if (new := chosen.changes[p][1]))
    return Landed(_common_before(repo, base, back), tuple(sorted(back)), as_sent)


def _common_before(repo: Path, base: str, back: dict[str, git.ModeOid | None]) -> str:
    """BASE with the files of BACK as they were before the review: the common version for a
    review the default branch undid, so this machine's versions read as its own edits."""
    from memsync.sync.binding import hostname

    return git.write_commit(
        repo,
        parents=[base],
        changes={path: None for path, old in back.items() if old is None},
        entries={path: old for path, old in back.items() if old is not None},
        message="memsync: common version of a review undone after it landed\n",
        author=git.identity(repo, hostname()),
        when=int(time.time()),
    )


def undone_lines(binding: Binding, landed: Landed) -> tuple[str, ...]:
    """A report line for each file of LANDED's review the default branch undid: kept here."""
    from memsync.merge.memory import MergeDecision
    from memsync.sync.storemerge import describe

    detail = (
        "the default branch undid your reviewed change after merging it; kept yours, "
        "`memsync push --review` proposes it again"
    )
    return tuple(
        describe(MergeDecision(path, "delete-modify", None, None, None, detail), binding.prefix)
        for path in landed.kept
    )
