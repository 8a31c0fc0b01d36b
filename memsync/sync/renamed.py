"""The remote's default branch was renamed (master -> main): follow it, never re-create the old.

After a fetch (`--prune`) that left no `origin/<branch>` for a clone that has commits on
that branch, memsync asks the remote what its HEAD names (`git ls-remote --symref origin
HEAD`, through the git boundary). When that is another branch, the clone follows it: the
local branch's commits move to a local branch of the new name (the engine then merges the
remote's new branch into them as on any pull, so commits not yet pushed go out there), and
HEAD names the new branch from then on. A push never re-creates the branch the team
renamed away, where teammates who joined later would never look. Costs one round trip,
only when the tracked branch is gone from the remote.

A remote whose HEAD names another branch while the tracked one still exists is not followed,
as a git clone keeps its branch when the remote's HEAD moves (newer git only warns): someone
may merely have repointed HEAD, and the old branch is where the teammates still sync. The
person is told, at most once a day (the same round trip, stamped in the clone), what to do
to move: delete the old branch on the remote once everyone has, and memsync follows.
"""

from __future__ import annotations

import contextlib
import time

from memsync import git
from memsync.errors import UserMessageError
from memsync.sync import store
from memsync.sync.binding import Binding


def follow_default_branch(binding: Binding, timeout: float | None) -> tuple[str, ...]:
    """Switch the clone to the remote's new default branch when the tracked one is gone."""
    heads = store.heads(binding)
    if heads.local is not None and heads.remote is not None:
        return _head_moved(binding, heads.branch, timeout)
    if heads.local is None:
        return ()
    repo = binding.clone_dir
    new = git.remote_default_branch(repo, timeout)
    if new is None or new == heads.branch:
        return ()  # an emptied remote, or the branch deleted but still HEAD: push restores it
    (existing,) = git.resolve_refs(repo, f"refs/heads/{new}")
    if existing is not None and existing != heads.local:
        raise UserMessageError(
            f"the {binding.label} remote's default branch is now {new}, but this clone's "
            f"{heads.branch} and {new} both have commits; memsync will not push to "
            f"{heads.branch}, which the remote no longer has",
            hint=f"Merge them by hand in {repo} (`git merge {heads.branch}` on {new}), then rerun.",
        )
    if existing is None:
        git.update_branch(repo, new, heads.local, None, f"memsync: follow {new}")
    git.set_head(repo, new)
    return (
        f"the {binding.label} remote's default branch is now {new} (was {heads.branch}, "
        f"which the remote no longer has): memsync follows {new}, and its commits not yet "
        f"pushed go there; {heads.branch} is never re-created",
    )


# Touched each time the remote's HEAD was asked about while the tracked branch still exists.
HEAD_ASKED = "memsync-head-asked"
ASK_EVERY = 86_400.0  # seconds: a round trip a day at most, never at a quiet session start


def _head_moved(binding: Binding, branch: str, timeout: float | None) -> tuple[str, ...]:
    """What to say when the remote's HEAD names another branch than BRANCH, which the remote
    still has: memsync keeps syncing BRANCH (see the module's docstring). Best effort."""
    stamp = binding.clone_dir / HEAD_ASKED
    with contextlib.suppress(OSError):
        if time.time() - stamp.stat().st_mtime < ASK_EVERY:
            return ()
    from memsync.errors import MemsyncError

    try:  # never the whole time left: this only informs
        new = git.remote_default_branch(binding.clone_dir, min(timeout or 5.0, 5.0))
        stamp.touch()
    except (MemsyncError, OSError):
        return ()
    if new is None or new == branch:
        return ()
    return (
        f"the {binding.label} remote's default branch is now {new}, but memsync keeps syncing "
        f"{branch}, which the remote still has (as a git clone keeps its branch); to move, "
        f"merge {branch} into {new} and delete {branch} on the remote (`git push origin "
        f"--delete {branch}`) once everyone has synced: memsync then follows {new}, taking "
        "along any commits not yet pushed",
    )
