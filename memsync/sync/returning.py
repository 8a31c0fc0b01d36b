"""A migration's evidence of which side of a memory is older (a store used before, switched
back to): an older version of the new folder never silently replaces the live text.

The record of the store left says which version this machine last synced (the live file,
when unchanged since). The new folder may hold a version that is newer (another machine's
edit: it stands) or older (what this machine left there before it moved away: the live
text wins). Evidence, strongest first: the old clone's branch had that version before
(`behind`); this machine committed that version into the new folder itself (its commits
name its host), so its live folder moved on from it; else the edit times (SPEC section 4:
a commit's author date is when its edit was made): a new-folder version older than the
live file is never taken over it, the two are merged without a base, both kept, reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from memsync import git
from memsync.errors import MemsyncError
from memsync.git import TreeEntry
from memsync.sync.binding import Binding, clone_dir_for_url, hostname
from memsync.sync.manifest import PreviousBinding, hashes

_HISTORY = 200  # newest commits of a clone looked at for the versions a file had


def settled_bases(
    binding: Binding,
    previous: PreviousBinding,
    live: Mapping[str, bytes],
    bases: Mapping[str, str],
    current: Mapping[str, TreeEntry],
) -> dict[str, str]:
    """BASES (the record's versions) with each file the new folder holds in a version this
    machine had before given that version as base (`behind`: the live edits made since
    win), and each whose new-folder version is older than the live file left without a base
    (`older_than_live`: both kept, reported)."""
    times = _EditTimes(binding, live)
    known = behind(binding, previous, bases, current, times)
    settled = {**bases, **known}
    for path in older_than_live(live, settled, current, known, times):
        del settled[path]  # an older version never replaces the live text: both kept
    return settled


def behind(
    binding: Binding,
    previous: PreviousBinding,
    bases: Mapping[str, str],
    current: Mapping[str, TreeEntry],
    times: _EditTimes,
) -> dict[str, str]:
    """Per file of BASES the new folder holds in a version this machine had before: that
    version, its base. The new folder is then behind what is live (a store used before
    and switched back to, unpushed commits its clone kept from then): read with the record's
    version as base, the live file "unchanged since" took the new folder's older version, and
    every edit made since the first switch was undone without a word. Not within one clone
    (a folder moved, a damaged record): its branch holds what the store got since."""
    differ = {p: current[p].sha for p, sha in bases.items() if current[p].sha != sha}
    old = clone_dir_for_url(previous.store_url) if previous.store_url else None
    if not differ or old is None or old == binding.clone_dir:
        return {}
    prefix = "" if previous.subdir in ("", ".") else previous.subdir.strip("/") + "/"
    found = _had(old, prefix, differ, mine_only=False) if (old / "HEAD").is_file() else {}
    left = {p: sha for p, sha in differ.items() if p not in found}
    if left:
        # Without the old clone (deleted, another data directory): this machine's own
        # commits into the new folder, from the time it used that store before. A host name
        # two machines share could lie: a version newer than the live file is not behind it.
        new = binding.prefix.strip("/") + "/" if binding.prefix else ""
        mine = _had(binding.clone_dir, new, left, mine_only=True)
        found.update({p: sha for p, sha in mine.items() if times.older(p) is not False})
    return found


def _had(
    repo: Path, prefix: str, versions: Mapping[str, str], *, mine_only: bool
) -> dict[str, str]:
    """The VERSIONS (per path under PREFIX) that REPO's branch held in its newest commits
    (only those this machine's host made, with MINE_ONLY); {} when git cannot read it."""
    try:
        tip = git.branch_tip(repo)
        if tip is None:
            return {}
        paths = [prefix + p for p in versions]
        commits = git.commits_touching(repo, tip, [], paths, _HISTORY)
        if mine_only:
            commits = [c for c, text in git.commit_messages(repo, commits) if _by_me(text)]
        ids = git.blob_ids(repo, [f"{c}:{prefix}{p}" for c in commits for p in versions])
    except MemsyncError:
        return {}  # a clone git cannot read: the record's versions stand
    held = {(name.split(":", 1)[1], sha) for name, sha in ids.items()}
    return {p: sha for p, sha in versions.items() if (prefix + p, sha) in held}


def _by_me(text: str) -> bool:
    """Whether a commit (`author\\ncommitter\\nmessage`) was made by this machine: memsync
    names the host at the end of its commits' subjects."""
    lines = text.split("\n")
    subject = lines[2] if len(lines) > 2 else ""
    return subject.startswith("memsync") and subject.endswith(f" from {hostname()}")


def older_than_live(
    live: Mapping[str, bytes],
    bases: Mapping[str, str],
    current: Mapping[str, TreeEntry],
    known: Mapping[str, str],
    times: _EditTimes,
) -> set[str]:
    """Files of BASES whose new-folder version would replace the live file (unchanged since
    its base) although its edit is older than the live one (or either time is unknown), with
    no evidence (KNOWN, from `behind`) that it is behind: it may be an old version or another
    machine's concurrent edit, not a later edit of the live one. Merged without a base, both
    are kept."""
    shas = hashes({p: live[p] for p in bases if p in live})
    return {
        p
        for p, sha in bases.items()
        if shas.get(p) == sha
        and current[p].sha != sha
        and p not in known
        and times.older(p) is not False
    }


class _EditTimes:
    """When the new folder's version of each file and the live one were edited (SPEC section
    4: a commit's author date is when its edit was made), read once, when first asked."""

    def __init__(self, binding: Binding, live: Mapping[str, bytes]) -> None:
        self._binding, self._live = binding, live
        self._times: dict[str, int] | None = None

    def older(self, path: str) -> bool | None:
        """Whether the new folder's version of PATH is older than the live file, by more than
        a whole second (author dates have no fraction); None when either time is unknown."""
        from memsync.sync.store import write_time

        if self._times is None:
            self._times = self._read()
        theirs = self._times.get(path)
        data = self._live.get(path)
        ours = write_time(self._binding.live_dir / path, data) if data is not None else None
        if theirs is None or ours is None:
            return None
        return theirs + 1 < ours

    def _read(self) -> dict[str, int]:
        repo = self._binding.clone_dir
        try:
            tip = git.branch_tip(repo)
            if tip is None:
                return {}
            return git.path_times(repo, tip, self._binding.prefix, author_dates=True)
        except MemsyncError:
            return {}  # unknown: no version counts as newer than the live one
