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

An index the review changed is held by its lines, not as a whole (other lines of it are the
author's later edits): the record keeps the index as sent, and a plain push sends the index
merged over that version with the remote's (the team's version of the review's lines wins,
an edit of one of them since waits too, her other lines go out). Such a hold is named only
while it keeps a line of its own back (a retitled line; not just the lines of held memories)
and ends when it keeps none.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from memsync import git
from memsync.fsutil.atomic import atomic_write_text
from memsync.model.safety import is_index_path
from memsync.sync.binding import Binding, hostname
from memsync.sync.storerun import StoreRun

HELD = "memsync-held-reviews"
Changes = dict[str, tuple[git.ModeOid | None, git.ModeOid | None]]  # path -> (remote, local)


def _record(binding: Binding) -> dict[str, str | None]:
    """Path -> the held index's blob as sent (None: a memory, held as a whole). A record
    older memsync versions wrote lists memories only; they ignore the index entries."""
    try:
        raw = json.loads((binding.clone_dir / HELD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    held: dict[str, str | None] = {}
    for item in raw if isinstance(raw, list) else ():
        if isinstance(item, str):
            held[item] = None
        elif isinstance(item, dict) and isinstance(item.get("index"), str):
            sent = item.get("sent")
            if isinstance(sent, str):
                held[item["index"]] = sent
    return held


def held_paths(binding: Binding) -> tuple[str, ...]:
    """The repository paths plain pushes hold back (none when unrecorded or unreadable)."""
    return tuple(_record(binding))


def held_here(binding: Binding, local: str | None, remote: str | None) -> tuple[str, ...]:
    """The held memories of BINDING's folder, as reports name them (a store clone may hold
    other projects' folders too), that LOCAL still holds otherwise than REMOTE: one the team
    put back as it is here is held no more, though only the next push prunes the record."""
    held = {path: sent for path, sent in _record(binding).items() if _mine(binding, path)}
    mine = list(held)
    if mine and local is not None and remote is not None:
        repo = binding.clone_dir
        changes = git.tree_changes(repo, remote, local).changes
        mine = [path for path in mine if path in changes]
        missing = [p for p in mine if held[p] is None and changes[p][0] is None]
        own = _indexes(repo, changes, {p: held[p] for p in mine}, missing)[1]
        mine = [path for path in mine if held[path] is None or path in own]
    return tuple(sorted(_shown(binding, path) for path in mine))


def held_in_clone(binding: Binding) -> tuple[str, ...]:
    """Every memory BINDING's clone holds back, this folder's named below it and another
    project's by its repository path: what a push of the whole branch would send."""
    return tuple(sorted(_shown(binding, path) for path in held_paths(binding)))


def _mine(binding: Binding, path: str) -> bool:
    """Whether the repository path PATH is in BINDING's folder."""
    prefix = binding.prefix.rstrip("/")
    return not prefix or path.startswith(prefix + "/")


def hold(binding: Binding, paths: Iterable[str], sent: Mapping[str, str] | None = None) -> None:
    """Hold the files of PATHS (repository paths of a review the default branch undid) back
    from plain pushes, beside any held already: a memory as a whole, an index by the lines
    the review changed (SENT: its blob as sent; an index without one is not held)."""
    held = _record(binding)
    for path in paths:
        if not is_index_path(path):
            held[path] = None
        elif sent and path in sent:
            held[path] = sent[path]
    _save(binding, held)


def release_here(binding: Binding) -> None:
    """Hold nothing of BINDING's folder back any more: its `push --review` proposed them
    again. Another project's folder in the same clone keeps its hold: that review was not
    its author's proposal, and its plain push must still leave them out."""
    _save(binding, {p: s for p, s in _record(binding).items() if not _mine(binding, p)})


def _release_all(binding: Binding) -> None:
    with contextlib.suppress(FileNotFoundError):
        (binding.clone_dir / HELD).unlink()


def _save(binding: Binding, held: Mapping[str, str | None]) -> None:
    entries = [p if held[p] is None else {"index": p, "sent": held[p]} for p in sorted(held)]
    if entries:
        atomic_write_text(binding.clone_dir / HELD, json.dumps(entries) + "\n")
    else:
        _release_all(binding)


def hold_out(run: StoreRun, remote: str | None, local: str) -> str:
    """The commit a plain push sends for LOCAL: LOCAL when nothing held differs from REMOTE,
    REMOTE when nothing else does, else a commit on REMOTE with LOCAL's other changes."""
    binding = run.binding
    held = _record(binding)
    if not held or remote is None:
        return local
    repo = binding.clone_dir
    changes = git.tree_changes(repo, remote, local).changes
    memories = {path for path, sent in held.items() if sent is None and path in changes}
    missing = [path for path in memories if changes[path][0] is None]  # their lines stay too
    indexes = {path: held[path] for path in held if held[path] is not None and path in changes}
    trimmed, own = _indexes(repo, changes, indexes, missing)
    waiting = sorted(memories | own)
    if len(waiting) != len(held):
        # The local branch holds the others as the remote does, or an index keeps no line back.
        _save(binding, {path: held[path] for path in waiting})
    if not waiting:
        return local
    texts, entries = _outgoing(changes, memories, trimmed)
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


def _indexes(
    repo: Path, changes: Changes, held: Mapping[str, str | None], missing: list[str]
) -> tuple[dict[str, bytes | None], set[str]]:
    """The indexes of CHANGES a plain push sends otherwise than the local branch has them:
    (path -> text, the held ones of HELD that keep a line of their own back). Each is merged
    over its version as sent with the remote's (HELD indexes) and loses the lines linking to
    MISSING."""
    from memsync.merge.index import merge_index
    from memsync.sync.holdback import hold_back

    paths = [p for p, (_, new) in changes.items() if new and is_index_path(p)]
    paths = [p for p in paths if missing or held.get(p)]
    shas = [s for p in paths for s in (held.get(p), *(v[1] for v in changes[p] if v)) if s]
    blobs = git.read_blobs(repo, shas)
    texts: dict[str, bytes | None] = {}
    own: set[str] = set()
    for path in paths:
        old, new = changes[path]
        assert new is not None
        local = blobs[new[1]]
        text = hold_back({path: local}, missing, ())[0][path]
        # A sent version git no longer has (history rewritten, then pruned): nothing held.
        if (sent := held.get(path)) and sent in blobs:
            theirs = blobs[old[1]] if old else None
            # The remote's side wins an entry both changed: an edit of a held line waits with
            # it, as an edit of a held memory does.
            merged = merge_index(
                blobs[sent], local, theirs, path=path, ours_time=0, theirs_time=1
            ).content
            held_out = None if merged is None else hold_back({path: merged}, missing, ())[0][path]
            if (held_out or b"") != (text or b""):  # absent or empty: no line kept back
                own.add(path)
                text = held_out
        if text != local:
            texts[path] = text
    return texts, own


def _outgoing(
    changes: Changes, memories: set[str], indexes: Mapping[str, bytes | None]
) -> tuple[dict[str, bytes | None], dict[str, git.ModeOid]]:
    """What goes out of CHANGES: (new texts, entries kept as they are), without MEMORIES and
    with INDEXES' texts in place of the local ones."""
    texts: dict[str, bytes | None] = {}
    entries: dict[str, git.ModeOid] = {}
    for path, (old, new) in changes.items():
        if path in memories:
            continue
        if new is None:
            texts[path] = None
        elif path not in indexes:
            entries[path] = new
        elif (text := indexes[path]) is None:
            if old is not None:
                texts[path] = None
        elif old is None or git.blob_sha(text) != old[1]:
            texts[path] = text
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
