"""A memory folder on disk: which files are memories, and when each line and file was written.

Dating follows SPEC section 5: git blame where the file is in git, else the frontmatter's
date fields, else the file's modification time.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from memsync import git
from memsync.consolidate.dedupe import Fingerprint, fingerprint
from memsync.consolidate.evidence import named_date, stated_dates
from memsync.consolidate.indexfit import IndexMemory
from memsync.errors import UsageError
from memsync.fsutil.reads import read_regular
from memsync.fsutil.scan import memory_names
from memsync.model.limits import (
    ARCHIVE_DIR,
    EARLIEST_STAMP_DAY,
    INDEX_NAME,
    MAX_MEMORY_BYTES,
    TEAM_DIR,
)
from memsync.model.memory import Memory, parse_memory
from memsync.model.safety import Scope

# Frontmatter fields that say when a memory was written, most specific first.
DATE_FIELDS = (
    *("updated", "last_updated", "updated_at", "modified", "last_modified", "date"),
    *("created", "created_at"),
)


@dataclass
class MemoryFile:
    """What a plan keeps of one memory file: its facts and fingerprint, not its text.

    A store can hold 100,000 memories; keeping each one's parsed text around makes every
    step slower as the heap grows, so text is read again only for the few that need it."""

    path: str
    digest: bytes  # of the bytes on disk
    mtime: float
    commit_time: int | None  # author time of the newest commit touching it, if clean
    type: str | None
    type_valid: bool
    name: str | None
    description: str | None
    written: tuple[date, str] | None  # frontmatter date and the field it came from
    problem: bool  # frontmatter missing or unusable
    fields: int
    fingerprint: Fingerprint
    new_raw: bytes | None = None  # the planned content, when the plan changes the file
    stamp: float | None = None  # `metadata.modified` to the second: the client's write time

    @classmethod
    def of(cls, memory: Memory, digest: bytes, mtime: float, commit_time: int | None) -> MemoryFile:
        """The record of MEMORY (as the plan has it now) for a file with DIGEST on disk."""
        record = cls(
            memory.path,
            digest,
            mtime,
            commit_time,
            None,
            False,
            None,
            None,
            None,
            False,
            0,
            Fingerprint(None),
        )
        record.update(memory)
        return record

    def update(self, memory: Memory) -> None:
        """Take the facts of MEMORY, the planned new version of this file."""
        self.type, self.type_valid = memory.type, memory.type_is_valid
        self.name, self.description = memory.name, memory.description
        self.written = frontmatter_date(memory)
        self.stamp = _stamp_time(memory)
        self.problem, self.fields = memory.problem is not None, len(memory.fields)
        self.fingerprint = fingerprint(memory.body, memory.type if memory.type_is_valid else None)

    def load(self, root: Path) -> Memory:
        """The memory as the plan has it: planned content, else the file on disk."""
        raw = self.new_raw if self.new_raw is not None else read_regular(root / self.path)
        return parse_memory(raw, self.path)


def memory_folders(path: Path, *, all_projects: bool) -> list[Path]:
    """The memory folders to consolidate: PATH itself, or every project folder of a store."""
    if not path.is_dir():
        raise UsageError(f"{path} is not a directory", hint="Pass a memory folder or a store.")
    folders = [path]
    if all_projects:
        from memsync.model.safety import one_project_store

        children = sorted(path.iterdir())
        projects = [
            c
            for c in children
            if c.is_dir() and not c.is_symlink() and not c.name.startswith(".")
            if c.name not in (ARCHIVE_DIR, TEAM_DIR)
            and memory_names(c, "team")  # bounded: rglob recursed a level per folder
        ]
        # `check`'s rule: memories at the root and no project folder's index make the store
        # one project's (`--subdir .` before its first MEMORY.md), not a store of none.
        top = [c.name for c in children if c.is_file()]
        if not one_project_store(
            top + [f"{p.name}/{INDEX_NAME}" for p in projects if (p / INDEX_NAME).is_file()]
        ):
            folders = projects
    units: list[Path] = []
    for folder in folders:
        units.append(folder)
        team = folder / TEAM_DIR
        if team.is_dir() and not team.is_symlink():
            units.append(team)
    return units


# How a file or sub-folder consolidation could not read is skipped (`FolderPlan.unreadable`).
UNREADABLE = "cannot read it"


def unreadable(error: OSError) -> str:
    """Why a path is skipped that ERROR kept from being read, and its fix."""
    return f"{UNREADABLE} ({error.strerror or error}): fix its permissions, then run again"


def read_file(path: str) -> tuple[bytes, str | None]:
    """(the bytes of PATH, None), or (b"", why) when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return handle.read(), None
    except OSError as exc:
        return b"", unreadable(exc)


def folder_scope(root: Path, checkout: str | None = None) -> Scope:
    """Team for a folder in a team store's CHECKOUT or Claude Code's `team/`, else private."""
    return "team" if checkout == "team" or root.name == TEAM_DIR else "private"


def scan_folder(
    root: Path, scope: Scope | None = None
) -> tuple[list[tuple[str, str, float]], list[str], list[str]]:
    """(memory files as (relative path, full path, mtime), other .md files links may point
    to, skipped files) under ROOT; one directory read and one stat per file."""
    from memsync.model.safety import (
        REPOSITORY_FILES,
        is_client_owned,
        is_memory_file,
        printable_path,
        unsafe_path_reason,
    )

    is_repo_root = (root / ".git").exists()
    scope = scope or folder_scope(root)
    memories: list[tuple[str, str, float]] = []
    others: list[str] = []
    skipped: list[str] = []
    pending = [(str(root), "")]
    while pending:
        directory, prefix = pending.pop()
        try:
            with os.scandir(directory) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            if not prefix:
                raise  # the folder itself: nothing to consolidate (the caller says why)
            # Skipped as a whole, and a line into it is no dangling line (`rebuild_index`).
            skipped.append(f"{prefix}: {unreadable(exc)}")
            others.append(prefix)
            continue
        for entry in entries:
            name, rel = entry.name, prefix + entry.name
            if name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                if (prefix or name not in (ARCHIVE_DIR, TEAM_DIR)) and not is_client_owned(
                    rel + "/", scope
                ):
                    pending.append((entry.path, rel + "/"))
                continue
            if not is_memory_file(rel, scope):
                continue
            unsafe = unsafe_path_reason(rel)
            if unsafe is not None:  # `new\nline.md` would break an index line: sync skips it too
                skipped.append(f"{printable_path(rel)}: {unsafe}")
                others.append(rel)  # there, so a line to it is no dangling line
            elif name == INDEX_NAME or (is_repo_root and not prefix and name in REPOSITORY_FILES):
                others.append(rel)
            elif entry.is_symlink():
                skipped.append(f"{rel}: a symlink")
            elif not entry.is_file(follow_symlinks=False):
                skipped.append(f"{rel}: not a regular file")  # a FIFO would hang a read
            else:
                stat = entry.stat(follow_symlinks=False)
                if stat.st_size > MAX_MEMORY_BYTES:
                    skipped.append(f"{rel}: over {MAX_MEMORY_BYTES:,} bytes")
                    others.append(rel)
                else:
                    memories.append((rel, entry.path, stat.st_mtime))
    memories.sort()
    return memories, others, skipped


def index_memory(memory: Memory, updated: tuple[float, ...]) -> IndexMemory:
    """MEMORY as the index sees it."""
    return IndexMemory(memory.path, memory.name, memory.description, memory.type, updated)


def git_times(root: Path) -> tuple[Path | None, str, dict[str, int]]:
    """(repository, ROOT's path in it, last author time of each clean tracked file under ROOT)."""
    from memsync.model.paths import find_git_root

    found = find_git_root(root)
    if found is None:
        return None, "", {}
    repo = found[0]
    prefix = root.resolve().relative_to(repo.resolve()).as_posix()
    prefix = "" if prefix == "." else prefix
    times = git.path_times(repo, "HEAD", prefix, author_dates=True)
    lead = f"{prefix}/" if prefix else ""
    for dirty in git.work_tree_changes(repo, prefix):
        times.pop(dirty[len(lead) :] if dirty.startswith(lead) else dirty, None)
    return repo, prefix, times


def frontmatter_date(memory: Memory) -> tuple[date, str] | None:
    """When the frontmatter says the memory was last written: `metadata.modified` (the client's
    stamp), else the first of the top-level DATE_FIELDS; with the field's name."""
    nested = memory.fields.get("metadata")
    if isinstance(nested, dict):
        found = _as_date(nested.get("modified"))
        if found is not None:
            return found, "metadata.modified"
    for key in DATE_FIELDS:
        found = _as_date(memory.fields.get(key))
        if found is not None:
            return found, key
    return None


def _stamp_time(memory: Memory) -> float | None:
    """MEMORY's `metadata.modified` as a unix time, when it is a timestamp with a zone."""
    nested = memory.fields.get("metadata")
    value = nested.get("modified") if isinstance(nested, dict) else None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    if not isinstance(value, datetime) or value.tzinfo is None:
        return None
    try:
        return None if value.date() < EARLIEST_STAMP_DAY else value.timestamp()
    except (ValueError, OverflowError, OSError):
        return None


def _as_date(value: object) -> date | None:
    """A frontmatter value as a local calendar day: a date, a timestamp or an ISO string."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            try:
                day = date.fromisoformat(text[:10])
            except ValueError:
                return None
            return day if day >= EARLIEST_STAMP_DAY else None
    if isinstance(value, datetime):
        if value.date() < EARLIEST_STAMP_DAY:
            return None  # `0001-01-01T00:00:00Z`: a placeholder (and no local day before year 1)
        if value.tzinfo is not None:
            try:
                return local_date(value.timestamp())
            except (ValueError, OverflowError, OSError):
                return None  # a day past year 9999 in local time
        return value.date()
    if isinstance(value, date):
        return value if value >= EARLIEST_STAMP_DAY else None
    return None


def local_date(epoch: float) -> date:
    """The local calendar day of a unix time."""
    return datetime.fromtimestamp(epoch).date()


# What dates a line blamed on a shallow clone's cut commit: nothing, it only bounds it.
SHALLOW_BOUND = "a shallow clone's oldest commit"


def blame_date(line: git.BlameLine) -> date:
    """The day a blamed line was written, in its author's time zone."""
    sign = -1 if line.author_tz.startswith("-") else 1
    digits = line.author_tz.lstrip("+-").zfill(4)
    offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:4])) * sign
    return datetime.fromtimestamp(line.author_time, timezone(offset)).date()


def written_dates(
    path: str,
    mtime: float,
    fallback: tuple[date, str] | None,
    repo: Path | None,
    prefix: str,
    *,
    lines: list[str] | None = None,
    contents: Path | None = None,
    shallow: frozenset[str] = frozenset(),
) -> tuple[Callable[[int], date | None], Callable[[int], str], Callable[[int], date]]:
    """(0-based line -> date written or None when unknown, line -> how that was found, line ->
    the latest it can have been written) for the file PATH.

    Evidence, strongest first (SPEC section 5): a date the line starts with or the dated
    heading it sits under (LINES, the file's text), the date the file's name states (a daily
    log's `2026-03-12.md`; docs/CONSOLIDATION.md), the line's blame author date (CONTENTS: the
    file lives outside REPO, a store clone holding its history), the
    frontmatter's date (FALLBACK: `metadata.modified`), the file's modification time. Where
    there is a store (REPO), an uncommitted line takes the later of the last two. A line blame
    gives a shallow clone's cut commit (SHALLOW) has no known day but one the text states:
    that commit's date only bounds it, and the frontmatter and file times say nothing of it."""
    mtime_day = local_date(mtime)
    blame: list[git.BlameLine] | None = None
    if repo is not None:
        relpath = f"{prefix}/{path}" if prefix else path
        blame = git.blame_lines(repo, relpath, contents, shallow, moved_from=prefix)

    # A stamp in the future is a wrong clock or a typo, not when the memory was written.
    stamp = fallback if fallback is not None and fallback[0] <= date.today() else None
    if repo is not None and stamp is not None and stamp[1] != "metadata.modified":
        stamp = None  # lines to be committed are dated as their commit will be (below)
    pending = (
        (stamp[0], f"frontmatter `{stamp[1]}`")
        if stamp is not None and (repo is None or stamp[0] > mtime_day)
        else (mtime_day, "file modification time")
    )

    def recorded(line: int) -> tuple[date, str]:
        if blame is not None and line < len(blame) and blame[line].committed:
            return blame_date(blame[line]), SHALLOW_BOUND if blame[line].cut else "git blame"
        # With a store, a line not committed yet gets the commit's author date when it is
        # (sync.store.write_time: the later of the file time and `metadata.modified`), so
        # the live folder gives the same date before and after its push.
        return pending

    stated = stated_dates(lines, lambda n: recorded(n)[0]) if lines else None

    def best(line: int) -> tuple[date | None, str]:
        found = stated(line) if stated is not None else None
        if found is not None:
            return found
        day, source = recorded(line)
        named = named_date(path, day)
        if named is not None:
            return named, f"file name `{path.rsplit('/', 1)[-1]}`"
        return (None if source == SHALLOW_BOUND else day), source

    return (lambda line: best(line)[0]), (lambda line: best(line)[1]), (lambda n: recorded(n)[0])


def updated_key(item: MemoryFile) -> tuple[float, ...]:
    """Archive order: newest commit, else frontmatter date, else file time; ties by the others."""
    fm = item.written
    fm_time = datetime.combine(fm[0], datetime.min.time()).timestamp() if fm else item.mtime
    primary = float(item.commit_time) if item.commit_time is not None else float("inf")
    return primary, fm_time, item.mtime
