"""Git objects: blobs, trees and commits read and written with plumbing (bare clones)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from memsync.git.ids import ZERO_SHA, blob_sha
from memsync.git.run import run_git

__all__ = ["ZERO_SHA", "Identity", "ModeOid", "TreeEntry", "blob_sha", "list_tree", "read_blobs"]
__all__ += ["identity", "object_kinds", "write_commit"]
ModeOid = tuple[str, str]  # (mode, object id)


@dataclass(frozen=True)
class TreeEntry:
    """One blob (or other object) in a commit's tree."""

    mode: str
    kind: str
    sha: str
    path: str


@dataclass(frozen=True)
class Identity:
    """A git author/committer identity."""

    name: str
    email: str


def list_tree(
    repo: Path, commit: str, prefix: str = "", paths: Sequence[str] = ()
) -> dict[str, TreeEntry]:
    """Every entry below PREFIX in COMMIT's tree, by path relative to PREFIX (or just PATHS)."""
    args = ["ls-tree", "-r", "-z", "--full-tree", commit]
    if prefix:
        args += ["--", prefix.rstrip("/") + "/"]
    elif paths:
        args += ["--", *paths]
    result = run_git(args, cwd=repo)
    entries: dict[str, TreeEntry] = {}
    strip = len(prefix.rstrip("/")) + 1 if prefix else 0
    for record in result.stdout.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, sha = meta.decode().split(" ")
        path = raw_path.decode("utf-8", errors="surrogateescape")[strip:]
        entries[path] = TreeEntry(mode, kind, sha, path)
    return entries


def read_blobs(repo: Path, shas: Sequence[str]) -> dict[str, bytes]:
    """Contents of many blobs through one `git cat-file --batch`."""
    wanted = list(dict.fromkeys(shas))
    if not wanted:
        return {}
    result = run_git(
        ["cat-file", "--batch"], cwd=repo, input_data="".join(f"{s}\n" for s in wanted).encode()
    )
    out: dict[str, bytes] = {}
    data = result.stdout
    pos = 0
    for sha in wanted:
        header_end = data.index(b"\n", pos)
        header = data[pos:header_end].split()
        if len(header) < 3 or header[1] == b"missing":
            pos = header_end + 1
            continue
        size = int(header[2])
        out[sha] = data[header_end + 1 : header_end + 1 + size]
        pos = header_end + 1 + size + 1
    return out


def write_blob(repo: Path, data: bytes) -> str:
    """Store DATA as a blob of REPO (one `git hash-object -w`); its id."""
    return run_git(["hash-object", "-w", "--stdin"], cwd=repo, input_data=data).text.strip()


def _fast_import_path(path: str) -> str:
    if any(c in path for c in '"\n\\') or path.startswith('"'):
        escaped = path.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    return path


def write_commit(
    repo: Path,
    *,
    parents: Sequence[str],
    changes: Mapping[str, bytes | None],
    message: str,
    author: Identity,
    when: int,
    authored: int | None = None,
    entries: Mapping[str, ModeOid] | None = None,
    modes: Mapping[str, str] | None = None,
) -> str:
    """A commit on PARENTS[0] applying CHANGES (path -> new bytes, or None to delete).

    WHEN is the committer date (the sync); AUTHORED, when given, the author date (when the
    edit was made), so `git blame` tells when each line was written (SPEC section 4).
    ENTRIES put objects the repository already has at their paths (mode, id); MODES give
    a new content another mode than 100644. One `git fast-import` writes blobs, trees and
    the commit, reading only the trees of the folders it touches.
    """
    staging = f"refs/memsync/staging-{os.getpid()}"
    stamp = f"{author.name} <{author.email}>"
    authored = when if authored is None else authored
    ident, author_ident = f"{stamp} {_raw_date(when)}", f"{stamp} {_raw_date(authored)}"
    msg = message.encode("utf-8")
    head = f"commit {staging}\nmark :1\nauthor {author_ident}\ncommitter {ident}\n"
    chunks: list[bytes] = [f"{head}data {len(msg)}\n".encode() + msg + b"\n"]
    if parents:
        chunks.append(f"from {parents[0]}\n".encode())
        chunks.extend(f"merge {p}\n".encode() for p in parents[1:])
    modes = modes or {}
    for path in sorted(changes):
        data = changes[path]
        quoted = _fast_import_path(path).encode("utf-8", errors="surrogateescape")
        if data is None:
            chunks.append(b"D " + quoted + b"\n")
        else:
            chunks.append(f"M {modes.get(path, '100644')} inline ".encode() + quoted + b"\n")
            chunks.append(b"data %d\n" % len(data) + data + b"\n")
    for path, (mode, oid) in sorted((entries or {}).items()):
        name = _fast_import_path(path).encode("utf-8", errors="surrogateescape")
        chunks.append(f"M {mode} {oid} ".encode() + name + b"\n")
    chunks.append(b"\nget-mark :1\ndone\n")
    result = run_git(
        ["fast-import", "--quiet", "--done", "--force", "--date-format=raw"],
        cwd=repo,
        input_data=b"".join(chunks),
    )
    sha = result.text.strip().splitlines()[-1]
    run_git(["update-ref", "-d", staging], cwd=repo, check=False)
    return sha


def _raw_date(when: int) -> str:
    """WHEN as git's raw date in this machine's time zone at that moment (`1700000000 -0800`).

    `git blame` dates a line by its author's local day: stamped `+0000`, an evening edit in
    America was counted as written the next day.
    """
    offset = time.localtime(when).tm_gmtoff // 60
    sign = "-" if offset < 0 else "+"
    return f"{when} {sign}{abs(offset) // 60:02d}{abs(offset) % 60:02d}"


def identity(repo: Path, hostname: str) -> Identity:
    """The user's git identity, or `memsync <memsync@HOST>` when none is configured."""
    name = run_git(["config", "user.name"], cwd=repo, check=False).text.strip()
    email = run_git(["config", "user.email"], cwd=repo, check=False).text.strip()
    if name and email:
        return Identity(name, email)
    return Identity(name or "memsync", email or f"memsync@{hostname}")


def object_kinds(repo: Path, shas: list[str]) -> dict[str, str]:
    """Sha -> object type (`blob`, `tree`, …) of each of SHAS that exists (one cat-file)."""
    if not shas:
        return {}
    stdin = "".join(f"{s}\n" for s in dict.fromkeys(shas)).encode()
    out = run_git(["cat-file", "--batch-check"], cwd=repo, input_data=stdin).stdout
    kinds: dict[str, str] = {}
    for line in out.decode().splitlines():
        parts = line.split()
        if len(parts) >= 2:
            kinds[parts[0]] = parts[1]
    return kinds


def blob_ids(repo: Path, names: Sequence[str]) -> dict[str, str]:
    """Name -> blob id of each of NAMES (`commit:path`) that names a blob (one cat-file)."""
    wanted = list(dict.fromkeys(names))
    if not wanted:
        return {}
    stdin = "".join(f"{name}\n" for name in wanted).encode()
    args = ["cat-file", "--batch-check=%(objectname) %(objecttype)"]
    out = run_git(args, cwd=repo, input_data=stdin).stdout.decode().splitlines()
    found: dict[str, str] = {}
    for name, line in zip(wanted, out, strict=False):
        parts = line.split()
        if len(parts) == 2 and parts[1] == "blob":
            found[name] = parts[0]
    return found
