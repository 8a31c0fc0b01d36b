"""Which files are memories and may be synced (SPEC 1, 2): THE one rule, for every command.

`is_memory_file` is the only definition of "this path is memory memsync syncs"; the
directory scan (memsync.fsutil.scan), the git-tree filter below, the sync engine, status,
check, review, consolidation and the merge driver all ask it. Pure: no file access here.
May import memsync.model only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from memsync.model.limits import INDEX_NAME, MAX_FOLDER_DEPTH, MAX_MEMORY_BYTES, TEAM_DIR

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Literal

    Scope = Literal["private", "team"]  # the two kinds of store (SPEC section 2)
else:
    Scope = str  # for annotations only; the config schema checks values against SCOPES
SCOPES: tuple[Scope, ...] = ("private", "team")

MEMORY_SUFFIX = ".md"
# Folders the client keeps at the top of a memory directory for itself (CLAUDE-CODE.md 3).
CLIENT_DIRS = frozenset({"logs", "sessions", "proposals"})
# Files a repository keeps at its root for people, not for Claude: never memories when a
# store is dedicated to one project (`--subdir .`).
REPOSITORY_FILES = frozenset(
    {"README.md", "CONTRIBUTING.md", "CHANGELOG.md", "LICENSE.md", "SECURITY.md"}
    | {"CODE_OF_CONDUCT.md"}
)
# Why a memory named like one of them, in a live folder bound to a repository's root, is held
# back (its index line with it), named on every push and in `status`.
REPOSITORY_FILE_REASON = (
    "the repository's own file name at the root of a `--subdir .` store (never a memory "
    "there): rename the memory (e.g. notes-about-readme.md) and its index line"
)
_DRIVE = re.compile(r"^[A-Za-z]:")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_UNDECODABLE = re.compile("[\udc80-\udcff]")


@dataclass(frozen=True)
class Skipped:
    """A file that is not synced, and why, in words a user understands."""

    path: str
    reason: str


@dataclass(frozen=True)
class TreeScan:
    """The safe files of a tree (relative posix path -> bytes) and the ones skipped."""

    files: Mapping[str, bytes]
    skipped: tuple[Skipped, ...]


# A `type: user` memory is about the person: private, never in a team store (SPEC section 2).
# The one rule for `check` (user-in-team), `consolidate` (never indexed there) and `promote`.
PERSONAL_ADVICE = "memories are personal: keep them in your private memory"


def personal_in_team(memory_type: object, scope: str) -> bool:
    """Whether a memory of MEMORY_TYPE may not be in a store of SCOPE: `user` in a team one."""
    return memory_type == "user" and scope == "team"


def unsafe_path_reason(relpath: str) -> str | None:
    """Why RELPATH may not be written below a memory directory, or None when it may."""
    if not relpath:
        return "empty path"
    if "\x00" in relpath:
        return "NUL in name"
    if "\\" in relpath:
        return "backslash in name"
    if relpath.startswith("/"):
        return "absolute path"
    if _DRIVE.match(relpath):
        return "drive letter in path"
    if _CONTROL.search(relpath):
        return "control character in name"
    if _UNDECODABLE.search(relpath):
        # git gave bytes that are not UTF-8 (decoded with surrogateescape).
        return "name is not valid UTF-8"
    if relpath.count("/") > MAX_FOLDER_DEPTH:
        return too_deep_reason()
    for part in relpath.split("/"):
        if part == "":
            return "empty path component"
        if part == "..":
            return "path contains '..'"
        if part == ".":
            return "path contains '.'"
        # `.GIT` is `.git` on case-insensitive file systems.
        if part.casefold() == ".git":
            return "path contains '.git'"
    return None


def too_deep_reason() -> str:
    """Why a path nested deeper than MAX_FOLDER_DEPTH folders is never synced."""
    return f"nested more than {MAX_FOLDER_DEPTH} folders deep"


def is_client_owned(relpath: str, scope: Scope) -> bool:
    """Whether RELPATH is the client's own (a dot-segment, or its top-level folders).

    `.consolidate-lock`, `.memory-sync*`, `.*.tmp` are dot-names; `x.md.tmp.1a2b3c4d` is not a
    `.md` name; `logs/`, `sessions/`, `proposals/` sit at the top of the memory directory,
    which is the private scope's root (the team scope's root is its `team/` folder).
    """
    parts = relpath.split("/")
    if any(part.startswith(".") for part in parts):
        return True
    return scope == "private" and len(parts) > 1 and parts[0] in CLIENT_DIRS


def is_memory_file(relpath: str, scope: Scope, *, repository_root: bool = False) -> bool:
    """Whether RELPATH (relative to a memory folder of SCOPE) is memory content memsync syncs.

    `*.md` (the index included), not the client's own files, not `team/` in the private
    scope, and, when the folder is a repository's root, not its README.md and the like.
    """
    if not relpath.endswith(MEMORY_SUFFIX) or is_client_owned(relpath, scope):
        return False
    if repository_root and relpath in REPOSITORY_FILES:
        return False
    # `Team/` is `team/` on macOS and Windows: it would land in Claude Code's team directory.
    parts = relpath.split("/", 1)
    return not (scope == "private" and len(parts) > 1 and parts[0].casefold() == TEAM_DIR)


def one_project_store(paths: Iterable[str]) -> bool:
    """Whether a store tree with these PATHS serves one project (`--subdir .`): memories at
    its root, and its own MEMORY.md there or no top-level folder with a MEMORY.md (a project
    folder). A stray `.md` at the root of a store of project folders leaves them projects."""
    paths = list(paths)
    root = [p for p in paths if "/" not in p and is_memory_file(p, "team", repository_root=True)]
    if not root or INDEX_NAME in root:
        return bool(root)
    return not any(p.count("/") == 1 and p.endswith("/" + INDEX_NAME) for p in paths)


def is_index_path(relpath: str) -> bool:
    """Whether RELPATH names a MEMORY.md index (at any depth)."""
    return relpath.rsplit("/", 1)[-1] == INDEX_NAME


def fold_key(relpath: str) -> str:
    """The key under which two names are the same file on a case-insensitive file system."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", relpath).casefold())


def size_reason(size: int) -> str:
    """The skip reason for a file of SIZE bytes over the limit."""
    return f"over {MAX_MEMORY_BYTES:,} bytes ({size:,})"


def content_reason(data: bytes) -> str | None:
    """Why DATA cannot be synced (too large, not UTF-8), or None when it can."""
    if len(data) > MAX_MEMORY_BYTES:
        return size_reason(len(data))
    return encoding_reason(data)


def encoding_reason(data: bytes) -> str | None:
    """Where DATA stops being UTF-8 (`not valid UTF-8 (line 3, byte 40)`), or None."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return f"not valid UTF-8 (line {line}, byte {exc.start})"
    return None


def undecodable_versions(ours: bytes | None, theirs: bytes | None) -> list[str]:
    """`our version is not valid UTF-8 (line 3, byte 40)` for each of a merge's two versions
    that is not UTF-8 (None: that side has no such file)."""
    return [
        f"{side} version is {why}"
        for side, raw in (("our", ours), ("their", theirs))
        if raw is not None and (why := encoding_reason(raw)) is not None
    ]


def _drop_case_collisions(
    files: dict[str, bytes], skipped: list[Skipped], known: Collection[str] = ()
) -> dict[str, bytes]:
    """Keep one of names that one file system would merge: a KNOWN one (synced before), else
    the lexicographically first."""
    kept: dict[str, bytes] = {}
    first_of: dict[str, str] = {}
    # A twin pushed beside a long-synced name is the newcomer: the known name keeps its file.
    for path in sorted(files, key=lambda p: (p not in known, p)) if known else sorted(files):
        key = fold_key(path)
        first = first_of.get(key)
        if first is None:
            first_of[key] = path
            kept[path] = files[path]
            continue
        same_nfc = unicodedata.normalize("NFC", first) == unicodedata.normalize("NFC", path)
        what = "Unicode normalization" if same_nfc else "case"
        skipped.append(Skipped(path, f"differs only by {what} from {first}"))
    return kept


def printable_path(relpath: str) -> str:
    """RELPATH with bytes that are not UTF-8 shown as `\\xe9`, safe to print and to JSON."""
    if not _UNDECODABLE.search(relpath):
        return relpath
    return relpath.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def finish_scan(
    files: dict[str, bytes], skipped: list[Skipped], known: Collection[str] = ()
) -> TreeScan:
    """The scan of FILES and SKIPPED: case collisions dropped (KNOWN names kept first), skips
    printable and sorted."""
    kept = _drop_case_collisions(files, skipped, known)
    shown = [Skipped(printable_path(s.path), s.reason) for s in skipped]
    return TreeScan(files=kept, skipped=tuple(sorted(shown, key=lambda s: s.path)))


def needs_verdict(relpath: str, scope: Scope, repository_root: bool = False) -> bool:
    """Whether to sync or report RELPATH: a memory, or an unsafe `.md` name (reported)."""
    if not relpath.endswith(MEMORY_SUFFIX):
        return False
    return unsafe_path_reason(relpath) is not None or is_memory_file(
        relpath, scope, repository_root=repository_root
    )


def filter_files(
    files: Mapping[str, bytes],
    scope: Scope,
    *,
    repository_root: bool = False,
    known: Collection[str] = (),
) -> TreeScan:
    """Apply the SPEC 2 rules to content from a git tree (the caller reports symlinks); of two
    names that differ only by case, a KNOWN one (synced before) stays."""
    good: dict[str, bytes] = {}
    skipped: list[Skipped] = []
    for path, data in files.items():
        if not needs_verdict(path, scope, repository_root):
            continue
        reason = unsafe_path_reason(path)
        if reason is None:
            reason = content_reason(data)
        if reason is None:
            good[path] = data
        else:
            skipped.append(Skipped(path, reason))
    return finish_scan(good, skipped, known)
