"""The one module that runs git: a scrubbed environment, timeouts, actionable errors."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from memsync.errors import GitError, RemoteUnavailableError

DEFAULT_TIMEOUT = 60.0

# Inherited variables that would point git at another repository or change its output.
_SAFE_GIT_VARS = frozenset(
    {"GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS"}
    | {"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"}
    | {"GIT_EXEC_PATH", "GIT_TRACE", "GIT_CURL_VERBOSE", "GIT_SSL_NO_VERIFY", "GIT_SSL_CAINFO"}
)

_UNREACHABLE_HINTS = (
    "could not read from remote repository",
    "could not resolve host",
    "connection refused",
    "connection timed out",
    "operation timed out",
    "network is unreachable",
    "unable to access",
    "does not appear to be a git repository",
    "failed to connect",
    "no route to host",
    "the remote end hung up",
    "connection reset",
    "unable to connect",
    "early eof",
)


@dataclass(frozen=True)
class GitResult:
    """Exit status and output of one git command."""

    args: tuple[str, ...]
    returncode: int
    stdout: bytes
    stderr: str

    @property
    def text(self) -> str:
        """Standard output decoded as UTF-8."""
        return self.stdout.decode("utf-8", errors="replace")

    @property
    def ok(self) -> bool:
        """Whether git exited with status 0."""
        return self.returncode == 0


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for git: no inherited repository overrides, never a prompt."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in _SAFE_GIT_VARS}
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["GCM_INTERACTIVE"] = "never"
    env["LC_ALL"] = "C"
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes -o ConnectTimeout=10")
    if extra:
        env.update(extra)
    return env


def run_git(
    args: Sequence[str],
    *,
    cwd: Path,
    input_data: bytes | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    check: bool = True,
    env: Mapping[str, str] | None = None,
    network: bool = False,
) -> GitResult:
    """Run `git ARGS` in CWD; raise GitError (or RemoteUnavailableError) when it fails."""
    full = ("git", *args)
    try:
        proc = subprocess.run(
            full,
            cwd=cwd,
            input=input_data,
            capture_output=True,
            timeout=timeout,
            env=git_env(env),
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        what = "the remote did not answer" if network else "git did not finish"
        raise RemoteUnavailableError(
            f"git {args[0]}: {what} within {timeout:.0f} s in {cwd}",
            hint="Local state is intact; the next run finishes the work.",
        ) from exc
    except FileNotFoundError as exc:
        raise GitError(
            "git is not installed or not on PATH", hint="Install git 2.30 or newer."
        ) from exc
    result = GitResult(full, proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace"))
    if check and not result.ok:
        raise error_for(result, cwd, network=network)
    return result


def error_for(result: GitResult, cwd: Path, *, network: bool = False) -> GitError | RemoteUnavailableError:
    """Turn a failed git command into an error the user can act on."""
    stderr = result.stderr.strip()
    lowered = stderr.lower()
    command = " ".join(result.args[:3])
    if network and any(hint in lowered for hint in _UNREACHABLE_HINTS):
        first = stderr.splitlines()[-1] if stderr else "no answer"
        return RemoteUnavailableError(
            f"remote unreachable ({command}): {first}",
            hint="Local work is kept; run the command again when the remote is back.",
        )
    return GitError(f"`{command}` failed in {cwd}: {stderr or f'exit {result.returncode}'}")


# --- tree merge plumbing ---

TreeEntry = tuple[str, str]  # (mode, object id)


def resolve_commit(repo: Path, rev: str) -> str:
    """The commit id REV names; GitError when it names none."""
    result = run_git(["rev-parse", "--verify", "-q", f"{rev}^{{commit}}"], cwd=repo, check=False)
    if not result.ok:
        raise GitError(f"{rev!r} is not a commit in {repo}", hint="Check the branch name.")
    return result.text.strip()


def full_ref_name(repo: Path, rev: str) -> str | None:
    """`refs/heads/x` when REV names a branch (HEAD: the checked-out one), else None."""
    if rev == "HEAD":
        head = run_git(["symbolic-ref", "-q", "HEAD"], cwd=repo, check=False)
        return head.text.strip() if head.ok else None
    result = run_git(["rev-parse", "--symbolic-full-name", rev], cwd=repo, check=False)
    name = result.text.strip()
    return name if result.ok and name.startswith("refs/heads/") else None


def merge_base(repo: Path, one: str, two: str) -> str | None:
    """The best common ancestor of two commits, None for unrelated histories."""
    result = run_git(["merge-base", one, two], cwd=repo, check=False)
    if result.returncode == 1:
        return None
    if not result.ok:
        raise error_for(result, repo)
    return result.text.split()[0]


def list_tree(repo: Path, tree_ish: str | None) -> dict[str, TreeEntry]:
    """Every file of a tree (recursively): path -> (mode, object id). None: the empty tree."""
    if tree_ish is None:
        return {}
    out = run_git(["ls-tree", "-r", "-z", "--full-tree", tree_ish], cwd=repo).stdout
    entries: dict[str, TreeEntry] = {}
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, path = record.partition(b"\t")
        mode, _kind, oid = meta.decode().split(" ")
        entries[path.decode("utf-8", "surrogateescape")] = (mode, oid)
    return entries


def renamed_paths(repo: Path, old: str | None, new: str) -> dict[str, str]:
    """Files git sees as renamed between two commits (similarity rename detection): old -> new."""
    if old is None:
        return {}
    args = ["diff-tree", "-r", "-z", "-M", "--diff-filter=R", old, new]
    fields = run_git(args, cwd=repo).stdout.split(b"\0")
    renames: dict[str, str] = {}
    i = 0
    while i + 2 < len(fields):
        if fields[i].startswith(b":"):
            old_path, new_path = fields[i + 1 : i + 3]
            renames[old_path.decode("utf-8", "surrogateescape")] = new_path.decode(
                "utf-8", "surrogateescape"
            )
            i += 3
        else:
            i += 1
    return renames


def read_blobs(repo: Path, oids: Sequence[str]) -> dict[str, bytes]:
    """Contents of many blobs, read through one `git cat-file --batch` process."""
    unique = list(dict.fromkeys(oids))
    if not unique:
        return {}
    request = "".join(f"{oid}\n" for oid in unique).encode()
    out = run_git(["cat-file", "--batch", "--buffer"], cwd=repo, input_data=request).stdout
    blobs: dict[str, bytes] = {}
    pos = 0
    for oid in unique:
        end = out.index(b"\n", pos)
        header = out[pos:end].decode().split(" ")
        if len(header) != 3:
            raise GitError(f"object {oid} is missing from {repo}", hint="Run `git fsck` there.")
        size = int(header[2])
        blobs[oid] = out[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
    return blobs


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


def write_tree(repo: Path, start: str, changes: Mapping[str, TreeEntry | None]) -> str:
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


def update_ref(repo: Path, ref: str, new: str, old: str, message: str) -> None:
    """Move REF to NEW only if it still points at OLD (GitError otherwise)."""
    run_git(["update-ref", "-m", message, ref, new, old], cwd=repo)


def change_times(repo: Path, base: str | None, tip: str) -> dict[str, int]:
    """Per path, the commit time of the newest commit in BASE..TIP touching it (one `git log`)."""
    span = tip if base is None else f"{base}..{tip}"
    args = ["log", "-z", "--no-renames", "--name-only", "--format=%x01%ct", span]
    out = run_git(args, cwd=repo).stdout.decode("utf-8", "surrogateescape")
    times: dict[str, int] = {}
    for chunk in out.split("\x01")[1:]:
        stamp, *names = chunk.split("\0")
        when = int(stamp)
        for i, name in enumerate(names):
            path = name[1:] if i == 0 and name.startswith("\n") else name
            if path and when > times.get(path, -1):
                times[path] = when
    return times


def unfinished_operation(repo: Path) -> str | None:
    """The git operation left half done in REPO (merge, rebase, ...), if any."""
    names = {
        "MERGE_HEAD": "merge",
        "rebase-merge": "rebase",
        "rebase-apply": "rebase",
        "CHERRY_PICK_HEAD": "cherry-pick",
        "REVERT_HEAD": "revert",
    }
    args = ["rev-parse", *(arg for name in names for arg in ("--git-path", name))]
    paths = run_git(args, cwd=repo).text.splitlines()
    for marker, path in zip(names, paths, strict=True):
        if (repo / path).exists():
            return names[marker]
    return None


def tracked_changes(repo: Path) -> list[str]:
    """Tracked paths whose index or work tree differs from HEAD (untracked files ignored)."""
    out = run_git(["status", "--porcelain=v1", "-z", "--untracked-files=no"], cwd=repo).stdout
    return [r[3:].decode("utf-8", "surrogateescape") for r in out.split(b"\0") if len(r) > 3]


def checkout_tree(repo: Path, old: str, new: str) -> None:
    """Move index and work tree from commit OLD to NEW, refusing to overwrite local changes."""
    run_git(["read-tree", "-m", "-u", old, new], cwd=repo)


def reset_tree(repo: Path, commit: str) -> None:
    """Put index and tracked work-tree files back to COMMIT (recovery after a failed update)."""
    run_git(["read-tree", "--reset", "-u", commit], cwd=repo)


def changed_between(repo: Path, old: str, new: str) -> list[str]:
    """Paths whose content or presence differs between two commits."""
    out = run_git(["diff-tree", "-r", "-z", "--no-renames", "--name-only", old, new], cwd=repo)
    return [p.decode("utf-8", "surrogateescape") for p in out.stdout.split(b"\0") if p]
