"""Git objects: blobs, trees and commits read and written with plumbing (bare clones)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from memsync.errors import GitError
from memsync.git.run import run_git

ZERO_SHA = "0" * 40


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


def blob_sha(data: bytes) -> str:
    """The id git gives DATA as a blob, computed without running git."""
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def list_tree(repo: Path, commit: str, prefix: str = "") -> dict[str, TreeEntry]:
    """Every entry below PREFIX in COMMIT's tree, by path relative to PREFIX."""
    args = ["ls-tree", "-r", "-z", "--full-tree", commit]
    if prefix:
        args += ["--", prefix.rstrip("/") + "/"]
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
) -> str:
    """A commit on PARENTS[0] applying CHANGES (path -> new bytes, or None to delete)."""
    staging = f"refs/memsync/staging-{os.getpid()}"
    ident = f"{author.name} <{author.email}> {when} +0000"
    msg = message.encode("utf-8")
    chunks: list[bytes] = [
        f"commit {staging}\nmark :1\nauthor {ident}\ncommitter {ident}\ndata {len(msg)}\n".encode()
        + msg
        + b"\n"
    ]
    if parents:
        chunks.append(f"from {parents[0]}\n".encode())
        chunks.extend(f"merge {p}\n".encode() for p in parents[1:])
    for path in sorted(changes):
        data = changes[path]
        quoted = _fast_import_path(path).encode("utf-8", errors="surrogateescape")
        if data is None:
            chunks.append(b"D " + quoted + b"\n")
        else:
            chunks.append(b"M 100644 inline " + quoted + b"\n" + f"data {len(data)}\n".encode())
            chunks.append(data + b"\n")
    chunks.append(b"\nget-mark :1\ndone\n")
    result = run_git(
        ["fast-import", "--quiet", "--done", "--force", "--date-format=raw"],
        cwd=repo,
        input_data=b"".join(chunks),
    )
    sha = result.text.strip().splitlines()[-1]
    run_git(["update-ref", "-d", staging], cwd=repo, check=False)
    return sha


def identity(repo: Path, hostname: str) -> Identity:
    """The user's git identity, or `memsync <memsync@HOST>` when none is configured."""
    name = run_git(["config", "user.name"], cwd=repo, check=False).text.strip()
    email = run_git(["config", "user.email"], cwd=repo, check=False).text.strip()
    if name and email:
        return Identity(name, email)
    return Identity(name or "memsync", email or f"memsync@{hostname}")


ModeOid = tuple[str, str]  # (mode, object id)


def tree_entries(repo: Path, tree_ish: str | None) -> dict[str, ModeOid]:
    """Every file of a tree (recursively): path -> (mode, object id). None: the empty tree."""
    if tree_ish is None:
        return {}
    out = run_git(["ls-tree", "-r", "-z", "--full-tree", tree_ish], cwd=repo).stdout
    entries: dict[str, ModeOid] = {}
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, path = record.partition(b"\t")
        mode, _kind, oid = meta.decode().split(" ")
        entries[path.decode("utf-8", "surrogateescape")] = (mode, oid)
    return entries


def write_blobs(repo: Path, contents: Sequence[bytes]) -> list[str]:
    """Store contents as blobs through one `git fast-import` (one pack, no temp files); ids."""
    if not contents:
        return []
    parts = [b"blob\nmark :%d\ndata %d\n%b\n" % (i + 1, len(d), d) for i, d in enumerate(contents)]
    parts += [b"get-mark :%d\n" % (i + 1) for i in range(len(contents))]
    out = run_git(["fast-import", "--quiet"], cwd=repo, input_data=b"".join(parts)).text
    oids = out.split()
    if len(oids) != len(contents):
        raise GitError(f"git fast-import stored {len(oids)} of {len(contents)} blobs in {repo}")
    return oids


def write_tree(repo: Path, start: str, changes: Mapping[str, ModeOid | None]) -> str:
    """The id of START's tree with CHANGES applied (None deletes), built in a throwaway index."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="memsync-index-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        run_git(["read-tree", start], cwd=repo, env=env)
        null = "0" * len(start)  # START is an object id: same length as any id in this repo
        records = [
            f"0 {null}\t{path}\0" if entry is None else f"{entry[0]} {entry[1]}\t{path}\0"
            for path, entry in changes.items()
        ]
        if records:
            data = "".join(records).encode("utf-8", "surrogateescape")
            run_git(["update-index", "-z", "--index-info"], cwd=repo, input_data=data, env=env)
        return run_git(["write-tree"], cwd=repo, env=env).text.strip()


def commit_tree(
    repo: Path, tree: str, parents: Sequence[str], message: str, env: Mapping[str, str] | None
) -> str:
    """Create a commit object (no ref moves); the user's identity, else a memsync fallback."""
    args = ["commit-tree", tree]
    for parent in parents:
        args += ["-p", parent]
    extra = dict(env or {})
    if not run_git(["var", "GIT_COMMITTER_IDENT"], cwd=repo, check=False, env=extra).ok:
        import socket

        email = f"memsync@{socket.gethostname() or 'localhost'}"
        for role in ("AUTHOR", "COMMITTER"):
            extra.setdefault(f"GIT_{role}_NAME", "memsync")
            extra.setdefault(f"GIT_{role}_EMAIL", email)
    args += ["-F", "-"]
    return run_git(args, cwd=repo, input_data=message.encode(), env=extra).text.strip()
