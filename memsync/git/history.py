"""History: commit times, per-path change times, log entries and blame."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from memsync.git.objects import ModeOid, object_kinds
from memsync.git.run import run_git


def deleted_paths(repo: Path, paths: Sequence[str]) -> list[str]:
    """The PATHS a commit on any ref of REPO deleted (each at most one `git log`)."""
    found: list[str] = []
    for path in paths:
        args = ["log", "--all", "--diff-filter=D", "-1", "--format=%H", "--", path]
        result = run_git(args, cwd=repo, check=False)
        if result.ok and result.text.strip():
            found.append(path)
    return found


def authored_time(repo: Path, commit: str) -> int:
    """Author time of COMMIT in unix seconds: when its edit was made (SPEC section 4)."""
    return int(run_git(["show", "-s", "--format=%at", commit], cwd=repo).text.strip() or 0)


def path_times(
    repo: Path,
    commit: str,
    prefix: str = "",
    since: str | None = None,
    *,
    author_dates: bool = False,
) -> dict[str, int]:
    """Time of the newest commit touching each path (relative to PREFIX); {} without history.

    Commit time by default; AUTHOR_DATES gives when each change's author dated it.
    """
    date = "%at" if author_dates else "%ct"
    args = ["log", f"--format=%x01{date}", "--name-only", "--no-renames", "-z", commit]
    if since:
        args.append(f"^{since}")
    if prefix:
        args += ["--", prefix.rstrip("/") + "/"]
    result = run_git(args, cwd=repo, check=False)
    if not result.ok:
        return {}
    strip = len(prefix.rstrip("/")) + 1 if prefix else 0
    times: dict[str, int] = {}
    for when, path in _timed_names(result.stdout):
        times.setdefault(path[strip:], when)  # newest first: the first time seen wins
    return times


def _timed_names(out: bytes) -> Iterator[tuple[int, str]]:
    """(time, path) for each name in `git log -z --name-only --format=%x01<time>` output.

    The one parser of that output. Tokens are NUL-separated: `\x01<time>` opens a commit,
    its first name follows after a newline. A name may hold any other byte, `\x01` and
    digits included (a teammate's `ctl\x01.md` once made every merge crash), so only whole
    tokens are taken for times.
    """
    when: int | None = None
    for token in out.decode("utf-8", "surrogateescape").split("\0"):
        if token.startswith("\x01") and token[1:].isdigit():
            when = int(token[1:])
            continue
        path = token[1:] if token.startswith("\n") else token
        if when is not None and path:
            yield when, path


DECISION_TRAILER = "Memsync-Decision"
_LOG_FORMAT = (
    "--format=%x1e%H%x1f%P%x1f%at%x1f%an%x1f%s%x1f"
    f"%(trailers:key={DECISION_TRAILER},valueonly,separator=%x1d)"
)


@dataclass(frozen=True)
class LogEntry:
    """One commit touching memory files, with the merge decisions its message records."""

    sha: str
    when: int
    author: str
    subject: str
    files: tuple[tuple[str, str], ...]  # (status letter, path)
    decisions: tuple[str, ...] = ()  # its `Memsync-Decision:` trailers
    merge: bool = False  # more than one parent


def log_entries(
    repo: Path, ref: str, paths: Sequence[str], limit: int = 50, *, merge_files: bool = False
) -> list[LogEntry]:
    """Commits of REF touching PATHS, newest first, with the files each changed; a merge
    lists none (as `git log`), or with MERGE_FILES what it changed against its first parent."""
    args = ["log", f"-{limit}", _LOG_FORMAT, "--name-status", "-z", ref]
    entries = _parse_log(run_git([*args, "--", *paths] if paths else args, cwd=repo).text)
    if not merge_files:
        return entries
    return [
        replace(e, files=_first_parent_files(repo, e.sha, paths)) if e.merge else e for e in entries
    ]


def _first_parent_files(
    repo: Path, merge: str, paths: Sequence[str]
) -> tuple[tuple[str, str], ...]:
    """What MERGE changed within PATHS against its first parent: what it brought in."""
    # `git log --diff-merges=first-parent` says the same, from git 2.31 (memsync asks 2.30).
    args = ["diff-tree", "-r", "-z", "-M", "--name-status", "--no-commit-id", f"{merge}^1", merge]
    out = run_git([*args, "--", *paths] if paths else args, cwd=repo).text
    return _name_status([t for t in out.split("\0") if t])


def decision_entries(repo: Path, ref: str, limit: int = 50) -> list[LogEntry]:
    """Commits of REF that record merge decisions, merges included (a path-limited log
    drops a merge whose result equals one parent, however much it decided)."""
    args = ["log", f"-{limit}", _LOG_FORMAT, "-z", f"--grep=^{DECISION_TRAILER}: ", ref]
    return _parse_log(run_git(args, cwd=repo).text)


def _parse_log(text: str) -> list[LogEntry]:
    entries: list[LogEntry] = []
    for record in text.split("\x1e"):
        if not record.strip("\0\n"):
            continue
        # With -z the header ends in NUL (a newline when the commit lists no file).
        ends = [i for i in (record.find("\0"), record.find("\n")) if i >= 0]
        cut = min(ends, default=len(record))
        header, rest = record[:cut], record[cut + 1 :]
        sha, parents, when, author, subject, trailers = header.split("\x1f", 5)
        files = _name_status([t for t in rest.strip("\n").split("\0") if t])
        decisions = tuple(t.strip() for t in trailers.split("\x1d") if t.strip())
        merge = len(parents.split()) > 1
        entries.append(LogEntry(sha, int(when), author, subject, files, decisions, merge))
    return entries


def _name_status(tokens: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """(status letter, path) pairs of `--name-status -z` output tokens."""
    files: list[tuple[str, str]] = []
    i = 0
    while i + 1 < len(tokens):
        status = tokens[i].strip()
        # Renames and copies carry two paths: keep the new one.
        step = 3 if status[:1] in ("R", "C") else 2
        files.append((status[:1], tokens[i + step - 1]))
        i += step
    return tuple(files)


_EMPTY_TREE = {40: "4b825dc642cb6eb9a060e54bf8d69288fbee4904"}


@dataclass(frozen=True)
class TreeChanges:
    """What one commit changed against another, path by path, as `git diff-tree` sees it.

    No rename detection here: which removed and added files are one file renamed is the
    merge's own rule (`memsync.merge.tree.detect_renames`), the same in and out of a store.
    """

    changes: dict[str, tuple[ModeOid | None, ModeOid | None]]  # path -> (old, new); None: absent


def tree_changes(repo: Path, old: str | None, new: str) -> TreeChanges:
    """The paths that differ between two commits (OLD None: the empty tree)."""
    if old is None:
        hashed = run_git(["hash-object", "-t", "tree", "--stdin"], cwd=repo, input_data=b"")
        old = _EMPTY_TREE.get(len(new)) or hashed.text.strip()
    args = ["diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", old, new]
    fields = run_git(args, cwd=repo).stdout.split(b"\0")
    changes: dict[str, tuple[ModeOid | None, ModeOid | None]] = {}
    for i in range(0, len(fields) - 1, 2):
        if not fields[i].startswith(b":"):
            break
        old_mode, new_mode, old_oid, new_oid, _ = fields[i][1:].decode().split(" ")
        before = None if set(old_oid) == {"0"} else (old_mode, old_oid)
        after = None if set(new_oid) == {"0"} else (new_mode, new_oid)
        changes[fields[i + 1].decode("utf-8", "surrogateescape")] = (before, after)
    return TreeChanges(changes)


def change_times(repo: Path, base: str | None, tip: str) -> dict[str, int]:
    """Per path, when its newest change in BASE..TIP was made (one `git log`): the latest
    author date, which memsync's commits set to the time of the edit (SPEC section 4), not
    the committer date, the sync's, which would let a laptop back online win with old edits."""
    span = tip if base is None else f"{base}..{tip}"
    args = ["log", "-z", "--no-renames", "--name-only", "--format=%x01%at", span]
    times: dict[str, int] = {}
    for when, path in _timed_names(run_git(args, cwd=repo).stdout):
        if when > times.get(path, -1):
            times[path] = when
    return times


def commits_touching(
    repo: Path, tip: str, exclude: Sequence[str], paths: Sequence[str], limit: int
) -> list[str]:
    """The newest LIMIT commits of TIP that none of EXCLUDE has and that change one of PATHS,
    oldest first."""
    args = ["rev-list", f"--max-count={limit}", tip, "--not", *exclude, "--", *paths]
    return run_git(args, cwd=repo).text.split()[::-1]


def descendants(repo: Path, old: str, tip: str) -> list[list[str]]:
    """The commits of TIP that descend from OLD, each with its parents, newest first."""
    args = ["rev-list", "--ancestry-path", "--topo-order", "--parents", f"{old}..{tip}"]
    return [line.split() for line in run_git(args, cwd=repo).text.splitlines()]


def first_parent_commits(repo: Path, tip: str) -> list[str]:
    """TIP's first-parent history, its root first."""
    return run_git(["rev-list", "--first-parent", "--reverse", tip], cwd=repo).text.split()


def root_commit(repo: Path) -> str | None:
    """The root commit of the first-parent history of HEAD (None before the first commit)."""
    # First parent only: a subtree merge brings a second root that is another project's.
    args = ["rev-list", "--max-parents=0", "--first-parent", "HEAD"]
    result = run_git(args, cwd=repo, check=False)
    lines = result.text.split()
    return lines[-1] if result.ok and lines else None


def unpushed_commits(repo: Path, head: str) -> list[str]:
    """The commits HEAD has that no remote-tracking ref of origin has."""
    out = run_git(["rev-list", head, "--not", "--remotes=origin"], cwd=repo).stdout
    return out.decode().split()


def commit_messages(repo: Path, commits: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(sha, `author\\ncommitter\\nmessage`) of each of COMMITS, in one `git log`."""
    args = ["log", "--no-walk=unsorted", "-z", "--format=%H%n%an <%ae>%n%cn <%ce>%n%B", "--stdin"]
    stdin = "".join(f"{c}\n" for c in commits).encode()
    out = run_git(args, cwd=repo, input_data=stdin).stdout.decode("utf-8", "replace")
    for record in out.split("\0"):
        sha, _, message = record.strip("\n").partition("\n")
        if sha:
            yield sha, message


def unpushed_blobs(repo: Path, head: str) -> dict[str, str]:
    """Path -> blob id of every blob pushing HEAD sends (objects origin does not have)."""
    args = ["rev-list", "--objects", "--no-object-names", head, "--not", "--remotes=origin"]
    new = set(run_git(args, cwd=repo).stdout.decode().split())
    args = ["rev-list", "--objects", head, "--not", "--remotes=origin"]
    found: dict[str, str] = {}
    for line in run_git(args, cwd=repo).stdout.decode("utf-8", "replace").splitlines():
        sha, _, path = line.partition(" ")
        if path and sha in new:
            found.setdefault(path, sha)
    kinds = object_kinds(repo, list(found.values()))
    return {p: s for p, s in found.items() if kinds.get(s) == "blob"}


def touched_paths(repo: Path, commits: Sequence[str]) -> set[str]:
    """Every path any of COMMITS changed (against each parent; a root against nothing)."""
    args = ["diff-tree", "--stdin", "-r", "-m", "--root", "--name-only", "-z", "--no-commit-id"]
    stdin = "".join(f"{c}\n" for c in commits).encode()
    out = run_git(args, cwd=repo, input_data=stdin).stdout
    return {p for p in out.decode("utf-8", "surrogateescape").split("\0") if p}
