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


def error_for(
    result: GitResult, cwd: Path, *, network: bool = False
) -> GitError | RemoteUnavailableError:
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


# --- store plumbing ---
# memsync keeps each store as a bare clone and builds commits with plumbing, so a clone
# can never be left mid-merge, with a dirty work tree or with staged changes.

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


def init_bare(repo: Path, url: str, branch: str = "main") -> None:
    """Create a bare clone skeleton of URL whose fetches keep remote-tracking refs."""
    repo.mkdir(parents=True, exist_ok=True)
    run_git(["init", "-q", "--bare", str(repo)], cwd=repo)
    run_git(["symbolic-ref", "HEAD", f"refs/heads/{branch}"], cwd=repo)
    run_git(["config", "remote.origin.url", url], cwd=repo)
    run_git(["config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"], cwd=repo)


def create_bare_remote(path: Path, branch: str = "main") -> None:
    """Create an empty bare repository to serve as a local remote."""
    path.mkdir(parents=True, exist_ok=True)
    run_git(["init", "-q", "--bare", str(path)], cwd=path)
    run_git(["symbolic-ref", "HEAD", f"refs/heads/{branch}"], cwd=path)


def set_remote_url(repo: Path, url: str) -> None:
    """Point the clone's origin at URL."""
    run_git(["config", "remote.origin.url", url], cwd=repo)


def remote_default_branch(repo: Path, timeout: float | None) -> str | None:
    """The remote's default branch (None for an empty remote)."""
    result = run_git(
        ["ls-remote", "--symref", "origin", "HEAD"], cwd=repo, timeout=timeout, network=True
    )
    for line in result.text.splitlines():
        if line.startswith("ref: ") and line.endswith("\tHEAD"):
            return line[len("ref: refs/heads/") : -len("\tHEAD")]
    return None


_FETCH: tuple[str, ...] = ("-c", "protocol.version=0", "fetch", "-q", "--prune", "--no-tags")
_FETCH += ("--no-auto-maintenance",)


def fetch(repo: Path, timeout: float | None) -> None:
    """Fetch every branch of origin into refs/remotes/origin/."""
    # Protocol v0: the server sends its refs right away, so a fetch that finds nothing new
    # costs one round trip instead of v2's two (capabilities, then ls-refs). Every session
    # start pays for it, and memory repositories have few refs to advertise.
    run_git(
        [*_FETCH, "origin"],
        cwd=repo,
        timeout=timeout,
        network=True,
    )


def maintain(repo: Path) -> None:
    """Let git repack when it thinks it should (`maintenance run --auto`), never failing."""
    run_git(["maintenance", "run", "--auto", "--quiet"], cwd=repo, check=False)


# How a server says a concurrent push moved the branch while ours was in flight.
_LOST_RACE = ("cannot lock ref", "but expected", "failed to update ref", "incorrect old value")


def push(repo: Path, branch: str, timeout: float | None) -> bool:
    """Push BRANCH (never forced); False when the remote has moved on (rejected)."""
    result = run_git(
        ["push", "-q", "--porcelain", "origin", f"refs/heads/{branch}:refs/heads/{branch}"],
        cwd=repo,
        timeout=timeout,
        network=True,
        check=False,
    )
    if result.ok:
        return True
    text = (result.text + result.stderr).lower()
    if "[rejected]" in text or "non-fast-forward" in text or "fetch first" in text:
        return False
    if any(sign in text for sign in _LOST_RACE):
        # Another push landed between the server's ref advertisement and our ref update.
        return False
    if "[remote rejected]" in text:
        reason = result.stderr.strip() or result.text.strip()
        raise GitError(
            f"the remote refused the push of {branch}: {reason}",
            hint="A server-side hook or branch protection said no; use `memsync push --review`.",
        )
    raise error_for(result, repo, network=True)


def push_ref(repo: Path, local: str, remote_ref: str, timeout: float | None) -> None:
    """Push commit LOCAL to REMOTE_REF, allowing only fast-forwards."""
    run_git(
        ["push", "-q", "origin", f"{local}:{remote_ref}"], cwd=repo, timeout=timeout, network=True
    )


def _is_sha(text: str) -> bool:
    return len(text) == 40 and all(c in "0123456789abcdef" for c in text)


def _files_backend(repo: Path) -> bool:
    # Reading refs from files is only right for the classic `files` ref store.
    return (repo / "refs").is_dir() and not (repo / "reftable").exists()


def _read_ref_file(repo: Path, ref: str, depth: int = 0) -> str | None:
    try:
        text = (repo / ref).read_text(encoding="utf-8").strip()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        text = ""
    if text.startswith("ref: ") and depth < 5:
        return _read_ref_file(repo, text[len("ref: ") :], depth + 1)
    if _is_sha(text):
        return text
    try:
        packed = (repo / "packed-refs").read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    for line in packed.splitlines():
        sha, _, name = line.partition(" ")
        if name == ref and _is_sha(sha):
            return sha
    return None


def resolve_refs(repo: Path, *refs: str) -> list[str | None]:
    """Commit ids of full REFS (None when missing); read from the ref files, no git process."""
    if _files_backend(repo) and all(r.startswith(("refs/heads/", "refs/remotes/")) for r in refs):
        return [_read_ref_file(repo, ref) for ref in refs]
    out: list[str | None] = []
    for ref in refs:
        single = run_git(
            ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], cwd=repo, check=False
        )
        out.append(single.text.strip() if single.ok else None)
    return out


def symbolic_head(repo: Path) -> str | None:
    """The branch HEAD points to, or None when HEAD is detached."""
    if _files_backend(repo):
        try:
            head = (repo / "HEAD").read_text(encoding="utf-8").strip()
        except OSError:
            head = ""
        if head.startswith("ref: "):
            ref = head[len("ref: ") :]
            return ref.removeprefix("refs/heads/") if ref.startswith("refs/heads/") else None
        if _is_sha(head):
            return None
    result = run_git(["symbolic-ref", "-q", "HEAD"], cwd=repo, check=False)
    ref = result.text.strip()
    return ref.removeprefix("refs/heads/") if result.ok and ref.startswith("refs/heads/") else None


def merge_base(repo: Path, one: str, two: str) -> str | None:
    """The best common ancestor of two commits, None for unrelated histories."""
    result = run_git(["merge-base", one, two], cwd=repo, check=False)
    if result.returncode == 1:
        return None
    if not result.ok:
        raise error_for(result, repo)
    return result.text.split()[0]


def ahead_behind(repo: Path, local: str, upstream: str) -> tuple[int, int]:
    """(commits only in LOCAL, commits only in UPSTREAM)."""
    result = run_git(["rev-list", "--left-right", "--count", f"{local}...{upstream}"], cwd=repo)
    ahead, behind = result.text.split()
    return int(ahead), int(behind)


def count_commits(repo: Path, ref: str) -> int:
    """How many commits REF has."""
    return int(run_git(["rev-list", "--count", ref], cwd=repo).text.strip())


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


def commit_time(repo: Path, commit: str) -> int:
    """Committer time of COMMIT in unix seconds."""
    return int(run_git(["show", "-s", "--format=%ct", commit], cwd=repo).text.strip() or 0)


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
    args = ["log", f"--format=%x00{date}", "--name-only", "--no-renames", "-z", commit]
    if since:
        args.append(f"^{since}")
    if prefix:
        args += ["--", prefix.rstrip("/") + "/"]
    result = run_git(args, cwd=repo, check=False)
    if not result.ok:
        return {}
    strip = len(prefix.rstrip("/")) + 1 if prefix else 0
    times: dict[str, int] = {}
    current = 0
    for raw_token in result.text.split("\0"):
        token = raw_token.strip("\n")
        if not token:
            continue
        if token.isdigit() and len(token) >= 9:
            current = int(token)
            continue
        times.setdefault(token[strip:], current)
    return times


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


def update_branch(repo: Path, branch: str, new: str, old: str | None, message: str) -> None:
    """Move BRANCH from OLD to NEW atomically; fails if someone else moved it meanwhile."""
    run_git(["update-ref", "-m", message, f"refs/heads/{branch}", new, old or ZERO_SHA], cwd=repo)


def identity(repo: Path, hostname: str) -> Identity:
    """The user's git identity, or `memsync <memsync@HOST>` when none is configured."""
    name = run_git(["config", "user.name"], cwd=repo, check=False).text.strip()
    email = run_git(["config", "user.email"], cwd=repo, check=False).text.strip()
    if name and email:
        return Identity(name, email)
    return Identity(name or "memsync", email or f"memsync@{hostname}")


# --- history ---


@dataclass(frozen=True)
class LogEntry:
    """One commit touching memory files."""

    sha: str
    when: int
    author: str
    subject: str
    files: tuple[tuple[str, str], ...]  # (status letter, path)


def log_entries(repo: Path, ref: str, paths: Sequence[str], limit: int = 50) -> list[LogEntry]:
    """Commits of REF touching PATHS, newest first, with the files each changed."""
    args = ["log", f"-{limit}", "--format=%x1e%H%x1f%at%x1f%an%x1f%s", "--name-status", "-z", ref]
    result = run_git([*args, "--", *paths] if paths else args, cwd=repo)
    entries: list[LogEntry] = []
    for record in result.text.split("\x1e"):
        if not record.strip("\0\n"):
            continue
        # With -z the header ends in NUL (a newline when the commit lists no file).
        ends = [i for i in (record.find("\0"), record.find("\n")) if i >= 0]
        cut = min(ends, default=len(record))
        header, rest = record[:cut], record[cut + 1 :]
        sha, when, author, subject = header.split("\x1f", 3)
        tokens = [t for t in rest.strip("\n").split("\0") if t]
        files: list[tuple[str, str]] = []
        i = 0
        while i + 1 < len(tokens):
            status = tokens[i].strip()
            # Renames and copies carry two paths: keep the new one.
            step = 3 if status[:1] in ("R", "C") else 2
            files.append((status[:1], tokens[i + step - 1]))
            i += step
        entries.append(LogEntry(sha, int(when), author, subject, tuple(files)))
    return entries


# --- tree merge plumbing ---

ModeOid = tuple[str, str]  # (mode, object id)


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


def update_ref(repo: Path, ref: str, new: str, old: str, message: str) -> None:
    """Move REF to NEW only if it still points at OLD (GitError otherwise)."""
    run_git(["update-ref", "-m", message, ref, new, old], cwd=repo)


def change_times(repo: Path, base: str | None, tip: str) -> dict[str, int]:
    """Per path, the commit time of the newest commit in BASE..TIP touching it (one `git log`)."""
    span = tip if base is None else f"{base}..{tip}"
    args = ["log", "-z", "--no-renames", "--name-only", "--format=%x01%ct", span]
    out = run_git(args, cwd=repo).stdout.decode("utf-8", "surrogateescape")
    times: dict[str, int] = {}
    when: int | None = None
    # Tokens are NUL-separated: `\x01<time>` opens a commit, its first name follows after
    # a newline. A name may hold any other byte, `\x01` included (a teammate's `ctl\x01.md`
    # once made every merge crash), so only whole tokens are taken for times.
    for token in out.split("\0"):
        if token.startswith("\x01") and token[1:].isdigit():
            when = int(token[1:])
            continue
        path = token[1:] if token.startswith("\n") else token
        if when is not None and path and when > times.get(path, -1):
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


# --- consolidation ---


@dataclass(frozen=True)
class BlameLine:
    """When one line of a file was written, as `git blame` sees it."""

    author_time: int  # unix seconds
    author_tz: str  # `+0100`
    committed: bool  # False for lines not committed yet (their time is not meaningful)


def blame_lines(repo: Path, relpath: str) -> list[BlameLine] | None:
    """Author time of every line of the work-tree file RELPATH (one blame); None if untracked."""
    result = run_git(["blame", "--line-porcelain", "--", relpath], cwd=repo, check=False)
    if not result.ok:
        return None
    lines: list[BlameLine] = []
    sha, when, tz = "", 0, "+0000"
    for raw in result.stdout.split(b"\n"):
        if raw.startswith(b"\t"):
            lines.append(BlameLine(when, tz, committed=set(sha) != {"0"}))
        elif raw.startswith(b"author-time "):
            when = int(raw[12:])
        elif raw.startswith(b"author-tz "):
            tz = raw[10:].decode("ascii", "replace")
        elif len(raw) >= 40 and raw[:40].isalnum() and b" " in raw:
            sha = raw[:40].decode("ascii", "replace")
    return lines


def work_tree_changes(repo: Path, prefix: str = "") -> set[str]:
    """Paths (relative to the repository) that differ from HEAD or are untracked."""
    args = ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"]
    if prefix:
        args += ["--", prefix.rstrip("/") + "/"]
    result = run_git(args, cwd=repo, check=False)
    if not result.ok:
        return set()
    return {entry[3:] for entry in result.text.split("\0") if len(entry) > 3}


# --- review ---


def is_repository(path: Path) -> bool:
    """Whether PATH is inside a git repository (a work tree or a bare one)."""
    if not path.is_dir():
        return False
    return run_git(["rev-parse", "--git-dir"], cwd=path, check=False).ok


def config_value(repo: Path, key: str) -> str | None:
    """The value git config gives KEY seen from REPO (local, then global), if set."""
    result = run_git(["config", "--get", key], cwd=repo, check=False)
    value = result.text.strip()
    return value if result.ok and value else None
