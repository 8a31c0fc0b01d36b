"""Write raw git objects (any tree, however malformed) straight into a bare repository.

A hostile teammate is not limited to what `git add` accepts: trees may hold `..`, names
with slashes or control characters, symlinks, gitlinks and duplicate names. Objects are
written loose with zlib, so 10,000 files take about a second and no git check runs.
"""

from __future__ import annotations

import hashlib
import os
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.harness.machines import git

FILE, EXEC, LINK, TREE, GITLINK = "100644", "100755", "120000", "40000", "160000"


def write_object(repo: Path, kind: str, data: bytes) -> str:
    """Store one loose object; returns its id."""
    raw = f"{kind} {len(data)}\0".encode() + data
    sha = hashlib.sha1(raw, usedforsecurity=False).hexdigest()
    path = repo / "objects" / sha[:2] / sha[2:]
    if not path.exists():
        path.parent.mkdir(exist_ok=True)
        tmp = path.with_name(f"tmp-{os.getpid()}-{sha[2:]}")
        tmp.write_bytes(zlib.compress(raw, 1))
        os.replace(tmp, path)
    return sha


@dataclass
class Tree:
    """A tree under construction; entries may repeat names or hold any bytes."""

    entries: list[tuple[str, bytes, str | Tree]] = field(default_factory=list)

    def add(
        self, path: str | bytes, data: bytes, mode: str = FILE, repo: Path | None = None
    ) -> None:
        """Add a blob at a slash-separated PATH (subtrees created as needed)."""
        raw = path.encode("utf-8", "surrogateescape") if isinstance(path, str) else path
        *dirs, name = raw.split(b"/")
        node = self
        for part in dirs:
            node = node.subtree(part)
        node.entries.append((mode, name, _Blob(data)))  # type: ignore[arg-type]

    def subtree(self, name: bytes) -> Tree:
        """The subtree NAME, created when missing."""
        for mode, entry_name, obj in self.entries:
            if entry_name == name and mode == TREE and isinstance(obj, Tree):
                return obj
        child = Tree()
        self.entries.append((TREE, name, child))
        return child

    def raw(self, mode: str, name: bytes, obj: str | Tree | bytes) -> None:
        """Add one entry exactly as given (OBJ: an object id, a subtree or blob bytes)."""
        self.entries.append((mode, name, _Blob(obj) if isinstance(obj, bytes) else obj))  # type: ignore[arg-type]

    def write(self, repo: Path) -> str:
        """Write this tree and everything below it; returns the tree id."""
        records = []
        for mode, name, obj in self.entries:
            if isinstance(obj, Tree):
                sha = obj.write(repo)
            elif isinstance(obj, _Blob):
                sha = write_object(repo, "blob", obj.data)
            else:
                sha = obj
            key = name + (b"/" if mode == TREE else b"")
            records.append((key, mode.encode() + b" " + name + b"\0" + bytes.fromhex(sha)))
        records.sort(key=lambda r: r[0])
        return write_object(repo, "tree", b"".join(r[1] for r in records))


@dataclass(frozen=True)
class _Blob:
    data: bytes


def commit(repo: Path, tree: str, parents: list[str], message: str, when: int | None = None) -> str:
    """Write a commit object by the harness teammate."""
    stamp = f"{when or int(time.time())} +0000"
    who = f"Hostile Teammate <teammate@example.invalid> {stamp}"
    lines = [f"tree {tree}", *(f"parent {p}" for p in parents), f"author {who}", f"committer {who}"]
    return write_object(repo, "commit", ("\n".join(lines) + "\n\n" + message + "\n").encode())


def head(repo: Path, branch: str = "main") -> str | None:
    """The commit of BRANCH in REPO, or None."""
    try:
        return git("rev-parse", "--verify", "--quiet", f"refs/heads/{branch}", cwd=repo).strip()
    except RuntimeError:
        return None


def publish(repo: Path, tree: Tree, message: str, *, parent: bool = True) -> str:
    """Commit TREE on top of main (or as a new root) and move main there: a teammate's push."""
    old = head(repo)
    sha = commit(repo, tree.write(repo), [old] if old and parent else [], message)
    git("update-ref", "refs/heads/main", sha, *([old] if old else []), cwd=repo)
    return sha
