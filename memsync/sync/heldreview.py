"""Files of a review the default branch undid, held back from a plain push.

When the team reverts a merged review before its author pulled it, her pull keeps her
versions (sync/reviewed) and says `memsync push --review` proposes them again. A plain
`push` (or the session-end hook's) would send them straight back: on a branch not protected
it undoes the team's revert, unsaid. So that pull records the files (`memsync-held-reviews`
in the clone, repository paths). A plain push then sends a commit on the remote's tip with
every other change of the local branch: each held memory as the remote has it, each index
without the lines of held memories the remote lacks. That commit is merged back into the
local branch with the local tree, so nothing changes on this machine. A held file is
released once the local branch holds it as the remote does (deleted, or the team took it
back), and every one of a project's folder once its `push --review` sent them: nothing stays
held for ever.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterable
from pathlib import Path

from memsync import git
from memsync.fsutil.atomic import atomic_write_text
from memsync.model.safety import is_index_path
from memsync.sync.binding import Binding, hostname
from memsync.sync.storerun import StoreRun

HELD = "memsync-held-reviews"


def held_paths(binding: Binding) -> tuple[str, ...]:
    """The repository paths plain pushes hold back (none when unrecorded or unreadable)."""
    try:
        paths = json.loads((binding.clone_dir / HELD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    return tuple(p for p in paths if isinstance(p, str)) if isinstance(paths, list) else ()


def held_here(binding: Binding, local: str | None, remote: str | None) -> tuple[str, ...]:
    """The held memories of BINDING's folder, as reports name them (a store clone may hold
    other projects' folders too), that LOCAL still holds otherwise than REMOTE: one the team
    put back as it is here is held no more, though only the next push prunes the record."""
    mine = [path for path in held_paths(binding) if _mine(binding, path)]
    if mine and local is not None and remote is not None:
        changes = git.tree_changes(binding.clone_dir, remote, local).changes
        mine = [path for path in mine if path in changes]
    return tuple(sorted(_shown(binding, path) for path in mine))


def held_in_clone(binding: Binding) -> tuple[str, ...]:
    """Every memory BINDING's clone holds back, this folder's named below it and another
    project's by its repository path: what a push of the whole branch would send."""
    return tuple(sorted(_shown(binding, path) for path in held_paths(binding)))


def _mine(binding: Binding, path: str) -> bool:
    """Whether the repository path PATH is in BINDING's folder."""
    prefix = binding.prefix.rstrip("/")
    return not prefix or path.startswith(prefix + "/")


def hold(binding: Binding, paths: Iterable[str]) -> None:
    """Hold the memories of PATHS (repository paths of a review the default branch undid)
    back from plain pushes, beside any held already. An index is not held as a whole: a
    push leaves out the lines of held memories the remote lacks, and sends the rest."""
    memories = {path for path in paths if not is_index_path(path)}
    if memories:
        _save(binding, set(held_paths(binding)) | memories)


def release_here(binding: Binding) -> None:
    """Hold nothing of BINDING's folder back any more: its `push --review` proposed them
    again. Another project's folder in the same clone keeps its hold: that review was not
    its author's proposal, and its plain push must still leave them out."""
    _save(binding, [path for path in held_paths(binding) if not _mine(binding, path)])


def _release_all(binding: Binding) -> None:
    with contextlib.suppress(FileNotFoundError):
        (binding.clone_dir / HELD).unlink()


def _save(binding: Binding, paths: Iterable[str]) -> None:
    kept = sorted(paths)
    if kept:
        atomic_write_text(binding.clone_dir / HELD, json.dumps(kept) + "\n")
    else:
        _release_all(binding)


def hold_out(run: StoreRun, remote: str | None, local: str) -> str:
    """The commit a plain push sends for LOCAL: LOCAL when nothing held differs from REMOTE,
    REMOTE when nothing else does, else a commit on REMOTE with LOCAL's other changes."""
    binding = run.binding
    held = held_paths(binding)
    if not held or remote is None:
        return local
    repo = binding.clone_dir
    changes = git.tree_changes(repo, remote, local).changes
    waiting = [path for path in held if path in changes]
    if len(waiting) != len(held):
        _save(binding, waiting)  # the local branch holds the others as the remote does
    if not waiting:
        return local
    memories = set(waiting)
    missing = [path for path in waiting if changes[path][0] is None]  # their lines stay too
    texts, entries = _outgoing(repo, changes, memories, missing)
    shown = ", ".join(_shown(binding, path) for path in sorted(waiting))
    said = (
        f"held back from the push: {shown} (the default branch undid your reviewed change; "
        "kept here, `memsync push --review` proposes it again)"
    )
    notes = run.report.notes  # a push retried after a lost race says it once
    run.note(held_review=tuple(sorted(waiting)), notes=notes + (said,) * (said not in notes))
    if not texts and not entries:
        return remote
    return git.write_commit(
        repo,
        parents=[remote],
        changes=texts,
        entries=entries,
        message=f"memsync({binding.project_key}): local edits from {hostname()}, held back "
        f"for review: {shown}\n",
        author=git.identity(repo, hostname()),
        when=int(time.time()),
    )


def _outgoing(
    repo: Path,
    changes: dict[str, tuple[git.ModeOid | None, git.ModeOid | None]],
    memories: set[str],
    missing: list[str],
) -> tuple[dict[str, bytes | None], dict[str, git.ModeOid]]:
    """What goes out of CHANGES: (new texts, entries kept as they are), without MEMORIES and
    without the index lines linking to MISSING."""
    from memsync.sync.holdback import hold_back

    indexes = [p for p, (_, new) in changes.items() if new and missing and is_index_path(p)]
    blobs = git.read_blobs(repo, [new[1] for p in indexes if (new := changes[p][1])])
    texts: dict[str, bytes | None] = {}
    entries: dict[str, git.ModeOid] = {}
    for path, (old, new) in changes.items():
        if path in memories:
            continue
        if new is None:
            texts[path] = None
        elif path not in indexes:
            entries[path] = new
        else:
            trimmed = hold_back({path: blobs[new[1]]}, missing, ())[0][path]
            if trimmed is not None and (old is None or git.blob_sha(trimmed) != old[1]):
                texts[path] = trimmed
    return texts, entries


def _shown(binding: Binding, path: str) -> str:
    """PATH as the report names it: below the binding's folder."""
    prefix = binding.prefix.rstrip("/")
    return path[len(prefix) + 1 :] if prefix and path.startswith(prefix + "/") else path


def merge_back(run: StoreRun, branch: str, local: str, pushed: str) -> str:
    """Make LOCAL's branch a descendant of PUSHED (what the remote has now) with LOCAL's tree:
    the held files stay here, and the next pull finds nothing to merge."""
    repo = run.binding.clone_dir
    merged = git.write_commit(
        repo,
        parents=[local, pushed],
        changes={},
        message="memsync: merge what was pushed; files held back for review kept here\n",
        author=git.identity(repo, hostname()),
        when=int(time.time()),
    )
    git.update_branch(repo, branch, merged, local, "memsync: held back for review")
    return merged
