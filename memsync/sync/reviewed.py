"""Review branches that landed on the default branch by a squash or a rebase merge.

`push --review` sends the team store to a review branch; the local branch stays where it
was. A pull request merged with a merge commit makes the commits sent ancestors of the
default branch, so the next pull merges over them. "Squash and merge" and "Rebase and merge"
write new commits instead: merged over the old fork point, the reviewer's edits looked like
a teammate's concurrent change and came back undone ("kept both"), and the author's later
correction of a line sat beside the line it corrected.

So every review push records what it sent (`refs/memsync/reviews/<branch>`). When the
default branch has a commit holding that change set (each file the review changed as sent,
or with most of its changed lines: a reviewer edited it), that commit took the review in, and
what this machine had sent is the common version of both sides: the reviewer's edits win
where the author changed nothing since, the author's later edits win where the reviewer
changed nothing, and what was sent is not proposed again. A record is dropped once the
default branch merged it (a merge commit) or the local branch holds the commit that took
it in.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from memsync import git
from memsync.sync.binding import Binding

RECORDS = "refs/memsync/reviews/"
_CANDIDATES = 50  # newest commits of the default branch looked at for one review
_MERGED = "merged"  # the commit sent is in the default branch's history


def record_sent(repo: Path, branch: str, commit: str) -> None:
    """Remember COMMIT as what the review branch BRANCH holds of this machine's."""
    ref = RECORDS + branch
    (old,) = git.resolve_refs(repo, ref)
    if old != commit:
        git.update_ref(repo, ref, commit, old or git.ZERO_SHA, "memsync: sent for review")


def landed_base(binding: Binding, local: str, remote: str) -> str | None:
    """The commit to merge LOCAL and REMOTE over: their merge base or, when REMOTE took in a
    review LOCAL sent by a squash or a rebase, what LOCAL had sent."""
    repo = binding.clone_dir
    base = git.merge_base(repo, local, remote)
    if base in (local, remote):
        return base
    for ref, sent in git.refs_under(repo, RECORDS).items():
        taken = _landing(repo, sent, remote)
        if taken == _MERGED or (taken is not None and git.is_ancestor(repo, taken, local)):
            git.delete_ref(repo, ref, sent)  # merged in already: the merge base says it all
        elif taken is not None:
            candidate = git.merge_base(repo, local, sent)
            if candidate and (base is None or git.is_ancestor(repo, base, candidate)):
                base = candidate
    return base


def _landing(repo: Path, sent: str, remote: str) -> str | None:
    """The oldest commit of REMOTE that holds what SENT changed ("merged" when REMOTE has SENT
    itself), or None."""
    if git.is_ancestor(repo, sent, remote):
        return _MERGED
    fork = git.merge_base(repo, sent, remote)
    changes = git.tree_changes(repo, fork, sent).changes
    if not changes:
        return _MERGED  # nothing of its own: nothing to land
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
            return commit
    return None


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
