"""Remotes: bare clone set-up, fetch, push and the remote's default branch."""

from __future__ import annotations

from pathlib import Path

from memsync.errors import GitError
from memsync.git.run import error_for, run_git


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
