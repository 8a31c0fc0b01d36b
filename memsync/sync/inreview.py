"""Which commits of a team store wait in review: the review branches (as last fetched) that
hold them and, when `memsync status` could ask GitHub, what became of their pull requests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from memsync import git
from memsync.sync.binding import Binding


@dataclass(frozen=True)
class ReviewPull:
    """GitHub's latest pull request of a review branch, as `memsync status` asked it."""

    branch: str
    number: int
    url: str
    state: str  # "open", "closed" (closed without merging) or "merged"
    closed_on: str | None = None  # YYYY-MM-DD, when closed or merged
    head: str | None = None  # the commit it proposed last


# (the store's remote URL, review branches) -> what GitHub says of them; `()` when it cannot.
AskPulls = Callable[[str, tuple[str, ...]], tuple[ReviewPull, ...]]


def in_review(
    binding: Binding, local: str, remote: str, ahead: int, leave_out: frozenset[str] = frozenset()
) -> tuple[int, tuple[str, ...]]:
    """How many of the AHEAD commits of LOCAL wait on a review branch (but those of LEAVE_OUT),
    and the branches that hold them."""
    from memsync.sync.reviewpush import BRANCH_PREFIX

    where = f"refs/remotes/origin/{BRANCH_PREFIX}/"
    refs = git.review_refs(binding.clone_dir, where, remote)
    refs = [r for r in refs if r.removeprefix("refs/remotes/origin/") not in leave_out]
    if not refs:
        return 0, ()
    unsent = git.count_beyond(binding.clone_dir, local, [remote, *refs])
    if unsent == ahead:
        return 0, ()
    repo = binding.clone_dir
    held = [r for r in refs if git.count_beyond(repo, local, [remote, r]) < ahead]
    names = tuple(r.removeprefix("refs/remotes/origin/") for r in held)
    return ahead - unsent, names


def reviews_of(
    binding: Binding, local: str, remote: str, ahead: int, ask: AskPulls | None
) -> tuple[int, tuple[str, ...], tuple[ReviewPull, ...]]:
    """in_review's count and branches, and what ASK (GitHub) says of those branches: the
    commits of a review closed without merging count as not pushed."""
    count, branches = in_review(binding, local, remote, ahead)
    pulls = ask(binding.store.url, branches) if ask and branches else ()
    closed = frozenset(p.branch for p in pulls if p.state == "closed")
    if not closed:
        return count, branches, pulls
    count, branches = in_review(binding, local, remote, ahead, closed)
    return count, branches, _still_closed(binding, pulls, remote, branches)


def _still_closed(
    binding: Binding, pulls: tuple[ReviewPull, ...], remote: str, branches: tuple[str, ...]
) -> tuple[ReviewPull, ...]:
    """PULLS but the closed ones whose every commit is on REMOTE or on a review branch still
    in review (BRANCHES): a later review proposed them again."""
    origin = "refs/remotes/origin/"
    others = [remote, *(origin + branch for branch in branches)]
    return tuple(
        p
        for p in pulls
        if p.state != "closed" or git.count_beyond(binding.clone_dir, origin + p.branch, others)
    )
