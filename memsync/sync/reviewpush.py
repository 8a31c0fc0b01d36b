"""Where a push goes out: the branch itself, or (`push --review`) a review branch that may
have moved.

The review branch `memsync/<person>/<date>` is shared by every push of that person that day:
another of their machines, or a reviewer's commit on the pull request, may have moved it.
What the branch holds is merged in with the merge engine (which never conflicts), so the
push is a fast-forward and nothing on the branch is lost; the local branch is left as it was.
"""

from __future__ import annotations

from memsync import git
from memsync.errors import UserMessageError
from memsync.sync import store
from memsync.sync.identity import check_folder
from memsync.sync.reviewed import record_sent
from memsync.sync.storerun import StoreRun

# Review branches are `memsync/<person>/<YYYY-MM-DD>`.
BRANCH_PREFIX = "memsync"


def push_to_review(run: StoreRun, local: str, branch: str) -> str | None:
    """Push LOCAL, merged with origin's BRANCH as last fetched, to BRANCH: the commit the
    branch now points at, or None when it moved on again meanwhile (fetch, then try again)."""
    from memsync.sync.storemerge import merge_heads

    binding = run.binding
    repo = binding.clone_dir
    (theirs,) = git.resolve_refs(repo, f"refs/remotes/origin/{branch}")
    fork = store.heads(binding).remote  # the default branch as fetched: what the review is on
    head = local
    decisions: tuple[str, ...] = ()
    if theirs is not None and theirs != local:
        base = git.merge_base(repo, local, theirs)
        if base == local:
            record_sent(repo, branch, theirs, fork)
            return theirs  # the branch already holds every local commit
        if base != theirs:
            check_folder(binding, store.store_files(binding, theirs))  # moved or foreign: stop
            head, decisions = merge_heads(binding, local, theirs, base)
    if not git.push_commit(repo, head, branch, run.network_time()):
        return None
    record_sent(repo, branch, head, fork)  # sync/reviewed: finds a squash, a rebase merge by it
    run.note(decisions=run.report.decisions + decisions)
    return head


def send(run: StoreRun, local: str, branch: str) -> str | None:
    """Push LOCAL to BRANCH, or to the run's review branch: the commit that landed, or None
    when the remote moved on meanwhile (fetch, merge, then try again)."""
    if run.review_branch:
        return push_to_review(run, local, run.review_branch)
    # Not the branch's tip: a commit without files held back for review (sync/heldreview).
    commit = None if local == store.heads(run.binding).local else local
    return local if git.push(run.binding.clone_dir, branch, run.network_time(), commit) else None


def moved_on(run: StoreRun, attempts: int) -> UserMessageError:
    """The push lost the race ATTEMPTS times: what moved, and the command that retries."""
    if run.review_branch:
        return UserMessageError(
            f"the review branch {run.review_branch} moved on {attempts} times while pushing",
            hint="Your commits are kept locally; run `memsync push --review` again.",
        )
    return UserMessageError(
        f"the {run.binding.label} store moved on {attempts} times while pushing",
        hint="Your commits are kept locally; run `memsync push` again.",
    )
