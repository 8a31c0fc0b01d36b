"""Which memories a `git merge` deletes, as its merge driver can tell: the index's driver run
drops their entries, as memsync's own merge does, instead of leaving lines that link nowhere.

Git hands a driver three blobs and a path, nothing of the trees. During `git merge` (and the
merge of `git pull`) merge-ort has not yet written MERGE_HEAD, nor touched the work tree or
the index: both still show our side. What names the other side is the environment
`git merge` sets for its own labels, `GITHEAD_<commit>=<name>`. Rebase, cherry-pick and am
set none, and neither does an inner merge of merge bases (its blobs are not the two tips'):
there the driver cannot tell, and says nothing is gone.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from pathlib import Path

from memsync import git
from memsync.errors import MemsyncError

_PREFIX = "GITHEAD_"


def other_head(env: Mapping[str, str]) -> str | None:
    """The one commit `git merge` names in ENV as the other side (None: none, or several)."""
    heads = [k[len(_PREFIX) :] for k in env if k.startswith(_PREFIX)]
    if len(heads) != 1 or not heads[0] or any(c not in "0123456789abcdef" for c in heads[0]):
        return None
    return heads[0]


def merge_deletes(
    root: Path, name: str, ours: bytes, theirs: bytes, env: Mapping[str, str] | None = None
) -> frozenset[str]:
    """Repository paths below NAME's folder that the running `git merge` in ROOT deletes.

    OURS and THEIRS (the blobs git gave the driver for NAME) must be NAME's blobs at HEAD and
    at the other head, or this is not the merge of the two tips: then nothing is known.
    """
    other = other_head(os.environ if env is None else env)
    if other is None:
        return frozenset()
    try:
        return _deleted(root, name, git.blob_sha(ours), git.blob_sha(theirs), other)
    except MemsyncError:  # git could not answer (a GIT_DIR set elsewhere, say): tell nothing
        return frozenset()


def _deleted(root: Path, name: str, ours: str, theirs: str, other: str) -> frozenset[str]:
    ids = git.blob_ids(root, [f"HEAD:{name}", f"{other}:{name}"])
    if (ids.get(f"HEAD:{name}"), ids.get(f"{other}:{name}")) != (ours, theirs):
        return frozenset()
    bases = git.merge_bases(root, "HEAD", other)
    if len(bases) != 1:  # none, or several: merge-ort merges them into a base of its own
        return frozenset()
    folder = posixpath.dirname(name)
    base, mine, theirs_tree = (
        git.list_tree(root, commit, folder) for commit in (bases[0], "HEAD", other)
    )
    gone: set[str] = set()
    for path, entry in base.items():
        sides = [None if t.get(path) is None else t[path].sha for t in (mine, theirs_tree)]
        # Git deletes a file one side deleted and the other left as it was (or deleted too);
        # deleted against changed, it stops the merge and keeps the changed file.
        if None in sides and set(sides) <= {None, entry.sha}:
            gone.add(posixpath.join(folder, path))
    return frozenset(gone)
