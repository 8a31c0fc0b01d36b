"""A store's bare clone: its health, its files at a commit, and commits memsync writes to it."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memsync import git
from memsync.errors import UnsafeStateError
from memsync.git.refs import operation_in_progress
from memsync.sync.binding import Binding


@dataclass(frozen=True)
class Heads:
    """The local branch and its remote-tracking counterpart."""

    branch: str
    local: str | None
    remote: str | None


def ensure_clone(binding: Binding) -> bool:
    """Create the bare clone if missing; True when it was just created."""
    repo = binding.clone_dir
    if (repo / "HEAD").is_file():
        from memsync.model.paths import origin_from_config_file

        # memsync wrote this config itself: read it rather than start git on every run.
        current = origin_from_config_file(repo / "config")
        if current != binding.store.url:
            git.set_remote_url(repo, binding.store.url)
        return False
    if repo.is_symlink() or (repo.exists() and not (repo.is_dir() and not any(repo.iterdir()))):
        raise UnsafeStateError(
            f"the {binding.label} store clone {repo} is not a git clone memsync made "
            "(a file, or a folder without HEAD)",
            hint=f"Move it away (`mv {repo} {repo}.bak`): the next run clones the store again.",
        )
    # Build next to the final place and rename, so a crash never leaves half a clone.
    tmp = repo.with_name(f"{repo.name}.tmp-{time.time_ns()}")
    git.init_bare(tmp, binding.store.url)
    tmp.rename(repo)
    return True


def check_state(binding: Binding) -> None:
    """Refuse a clone someone left mid-operation; clear lock files of killed git processes."""
    repo = binding.clone_dir
    name = operation_in_progress(repo)
    if name is not None:
        raise UnsafeStateError(
            f"the {binding.label} store clone {repo} is in the middle of a git operation "
            f"({name} exists) that memsync did not start",
            hint=f"Finish or abort it there (e.g. `git -C {repo} merge --abort`), then rerun.",
        )
    if git.symbolic_head(repo) is None:
        raise UnsafeStateError(
            f"the {binding.label} store clone {repo} has a detached HEAD",
            hint=f"Run `git -C {repo} symbolic-ref HEAD refs/heads/main` (or the store's branch).",
        )
    # We hold the store lock, so any git lock file here belongs to a process that died.
    for stale in [repo / "index.lock", repo / "HEAD.lock", repo / "packed-refs.lock"]:
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    refs = repo / "refs"
    if refs.is_dir():
        for stale in refs.rglob("*.lock"):
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()
        # Staging refs of a fast-import killed mid-commit: the objects are unreferenced.
        for stale in (refs / "memsync").glob("staging-*"):
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()


def branch_name(binding: Binding) -> str:
    """The store branch memsync syncs (the remote's default branch, recorded at init)."""
    return git.head_branch(binding.clone_dir)


def adopt_remote_branch(binding: Binding, timeout: float | None) -> str:
    """Point HEAD at the remote's default branch when the clone has no commits yet."""
    repo = binding.clone_dir
    branch = git.remote_default_branch(repo, timeout) or branch_name(binding)
    if not (repo / "refs" / "heads" / branch).exists():
        git.set_head(repo, branch)
    return branch


def heads(binding: Binding) -> Heads:
    """Current commit ids of the local branch and of origin's copy of it."""
    branch = branch_name(binding)
    local, remote = git.resolve_refs(
        binding.clone_dir, f"refs/heads/{branch}", f"refs/remotes/origin/{branch}"
    )
    return Heads(branch, local, remote)


def store_files(binding: Binding, commit: str | None) -> dict[str, git.TreeEntry]:
    """Entries of the binding's folder at COMMIT, by path relative to that folder."""
    if commit is None:
        return {}
    return git.list_tree(binding.clone_dir, commit, binding.prefix)


def is_memory_file(binding: Binding, relpath: str) -> bool:
    """Whether RELPATH (relative to the binding's folder) is memory that this binding syncs."""
    from memsync.model.safety import is_memory_file as rule

    return rule(relpath, binding.scope, repository_root=not binding.prefix)


def needs_verdict(binding: Binding, relpath: str) -> bool:
    """Whether RELPATH is synced or reported as skipped: a memory, or an unsafe `.md` name."""
    from memsync.model.safety import needs_verdict as rule

    return rule(relpath, binding.scope, repository_root=not binding.prefix)


def store_path(binding: Binding, relpath: str) -> str:
    """The path inside the store of a file relative to the binding's folder."""
    return f"{binding.prefix}/{relpath}" if binding.prefix else relpath


def commit_files(
    binding: Binding,
    *,
    parent: str | None,
    changes: Mapping[str, bytes | None],
    message: str,
    author: git.Identity,
    extra_parents: tuple[str, ...] = (),
    authored: int | None = None,
) -> str:
    """Write a commit applying CHANGES (relative to the binding's folder) on PARENT; AUTHORED
    is when the edits were made (the author date), the commit time is now."""
    parents = ([parent] if parent else []) + list(extra_parents)
    return git.write_commit(
        binding.clone_dir,
        parents=parents,
        changes={store_path(binding, path): data for path, data in changes.items()},
        message=message,
        author=author,
        when=int(time.time()),
        authored=authored,
    )


_CLOCK_SLACK = 300.0  # seconds two machines' clocks may disagree by


def write_time(path: Path, data: bytes | None) -> float | None:
    """When the memory at PATH was last edited: its modification time, or its frontmatter's
    `modified` (the client's stamp, `sync.filetimes.stamped_time`) when that is later."""
    from memsync.sync.filetimes import stamped_time

    try:
        when: float | None = path.stat().st_mtime
    except OSError:
        when = None
    stamp = stamped_time(data) if data is not None else None
    if stamp is None or stamp > time.time() + _CLOCK_SLACK:
        return when  # a stamp in the future is a wrong clock, not when the edit was made
    return max(when or 0.0, stamp)


def read_folder(binding: Binding, commit: str | None) -> dict[str, bytes]:
    """Contents of the synced files in the binding's folder at COMMIT."""
    entries = {
        path: entry
        for path, entry in store_files(binding, commit).items()
        if entry.kind == "blob" and is_memory_file(binding, path)
    }
    blobs = git.read_blobs(binding.clone_dir, [e.sha for e in entries.values()])
    return {path: blobs[e.sha] for path, e in entries.items() if e.sha in blobs}


def last_fetch(binding: Binding) -> float | None:
    """When the remote last answered a fetch, or None when that is not known."""
    try:
        return (binding.clone_dir / git.ANSWERED).stat().st_mtime
    except OSError:
        pass
    try:  # a clone made before the stamp: FETCH_HEAD, unless a failed fetch emptied it
        head = (binding.clone_dir / "FETCH_HEAD").stat()
    except OSError:
        return None
    return head.st_mtime if head.st_size else None


# Written when a pull or push could not reach the remote: what git said. A fetch the remote
# answered since (`git.ANSWERED`, newer) makes it stale; `memsync status` reports it until then.
UNREACHED = "memsync-unreached"


def note_unreached(binding: Binding, message: str | None) -> None:
    """Record MESSAGE, why a pull or push could not reach the remote (None: nothing to record)."""
    if message is not None:
        from memsync.fsutil.atomic import atomic_write_text

        with contextlib.suppress(OSError):  # only `memsync status` reads it
            atomic_write_text(binding.clone_dir / UNREACHED, message[:2000], durable=False)


def unreached(binding: Binding) -> tuple[str, float] | None:
    """Why the last pull or push could not reach the remote, and when, unless the remote has
    answered a fetch since."""
    from memsync.fsutil.reads import read_regular

    path = binding.clone_dir / UNREACHED
    try:
        when = path.lstat().st_mtime
        message = read_regular(path, limit=4096).decode("utf-8", "replace")
    except OSError:
        return None
    answered = last_fetch(binding)
    return None if answered is not None and answered >= when else (message.strip(), when)


# Written when a run ran out of time before the remote answered (a slow link, or more to fetch
# than a hook's limit allows: a killed fetch keeps nothing, so every hook would start over):
# how many runs in a row did. A fetch the remote answered since (`git.ANSWERED`) ends the row.
TIMEOUTS = "memsync-timeouts"


def note_timeout(binding: Binding) -> int:
    """Count one more run that ran out of time; how many in a row have, this one included."""
    count = timeouts(binding) + 1
    from memsync.fsutil.atomic import atomic_write_text

    with contextlib.suppress(OSError):  # the count only words a message
        atomic_write_text(binding.clone_dir / TIMEOUTS, f"{count}\n", durable=False)
    return count


def timeouts(binding: Binding) -> int:
    """How many runs in a row ran out of time, unless the remote has answered a fetch since."""
    from memsync.fsutil.reads import read_regular

    path = binding.clone_dir / TIMEOUTS
    try:
        when = path.lstat().st_mtime
        text = read_regular(path, limit=64).decode("ascii", "replace")
    except OSError:
        return 0
    answered = last_fetch(binding)
    if answered is not None and answered >= when:
        return 0
    return int(text.strip()) if text.strip().isdigit() else 0


def by_write_day(
    live_dir: Path, changes: Mapping[str, bytes | None]
) -> list[tuple[int | None, dict[str, bytes | None]]]:
    """CHANGES in commits by the local day each file was edited, oldest first, each dated
    (author date) by its latest edit: an import of memories written over weeks keeps, in
    `git blame`, when each was written. Deletions go with the newest edits."""
    days: dict[tuple[int, int, int], list[tuple[float, str]]] = {}
    undated: list[str] = []
    for path, data in changes.items():
        when = write_time(live_dir / path, data) if data is not None else None
        if when is None:
            undated.append(path)
        else:
            year, month, day = time.localtime(when)[:3]
            days.setdefault((year, month, day), []).append((when, path))
    groups: list[tuple[int | None, dict[str, bytes | None]]] = [
        (int(max(w for w, _ in days[day])), {p: changes[p] for _, p in sorted(days[day])})
        for day in sorted(days)
    ]
    if undated:
        if groups:
            groups[-1][1].update({p: changes[p] for p in sorted(undated)})
        else:
            groups.append((None, {p: changes[p] for p in sorted(undated)}))
    return groups


def merged_elsewhere(binding: Binding, local: str, remote: str) -> tuple[str, ...]:
    """The decisions of merges made on other machines that REMOTE brings (a merge review:
    the machine whose value was lost was never told), as lines of the sync report."""
    prefix = binding.prefix.rstrip("/")
    lines = []
    for entry in reversed(git.decision_entries(binding.clone_dir, f"{local}..{remote}")):
        # storemerge.merge_heads writes `memsync: merge STORE changes on HOST`.
        host = entry.subject.rpartition(" changes on ")[2] or entry.author
        for decision in entry.decisions:
            if prefix and not decision.startswith(f"{prefix}/"):
                continue  # another project's folder in a shared store
            shown = decision[len(prefix) + 1 :] if prefix else decision
            lines.append(f"{shown} (merged on {host})")
    return tuple(lines)
