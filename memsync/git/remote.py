"""Remotes: bare clone set-up, fetch, push and the remote's default branch."""

from __future__ import annotations

import contextlib
from collections.abc import Collection
from pathlib import Path

from memsync.errors import GitError, RemoteTimeoutError, RemoteUnavailableError
from memsync.git.refs import set_head, symbolic_head
from memsync.git.run import GitResult, error_for, git_env, run_git
from memsync.git.spawn import Background, start_git


def init_bare(repo: Path, url: str, branch: str = "main") -> None:
    """Create a bare clone skeleton of URL whose fetches keep remote-tracking refs."""
    repo.mkdir(parents=True, exist_ok=True)
    run_git(["init", "-q", "--bare", str(repo)], cwd=repo)
    set_head(repo, branch)
    run_git(["config", "remote.origin.url", url], cwd=repo)
    run_git(["config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"], cwd=repo)


def create_bare_remote(path: Path, branch: str = "main") -> None:
    """Create an empty bare repository to serve as a local remote."""
    path.mkdir(parents=True, exist_ok=True)
    run_git(["init", "-q", "--bare", str(path)], cwd=path)
    set_head(path, branch)


def set_remote_url(repo: Path, url: str) -> None:
    """Point the clone's origin at URL."""
    run_git(["config", "remote.origin.url", url], cwd=repo)


def remote_default_branch(repo: Path, timeout: float | None) -> str | None:
    """The remote's default branch (None when it names none git can learn)."""
    return default_branch_of(ls_remote_head(repo, "origin", timeout)) or _empty_remote_head(
        repo, timeout
    )


def _empty_remote_head(repo: Path, timeout: float | None) -> str | None:
    """The branch an empty remote's HEAD names, learnt the way `git clone` learns it.

    git 2.39's `ls-remote` says nothing of an empty repository's HEAD, while clone asks for it
    (protocol v2's unborn HEAD, over file://, git:// and https alike). Without it a store made
    with a plain `git init --bare` (HEAD: `master` unless configured) got memsync's `main`
    beside it, and a plain `git clone` of it then found nothing to check out.
    """
    import tempfile

    from memsync.model.paths import origin_from_config_file

    url = origin_from_config_file(repo / "config")
    if not url or run_git(["ls-remote", "origin"], cwd=repo, timeout=timeout, network=True).text:
        return None  # a remote with branches names its HEAD itself, or its HEAD dangles
    with tempfile.TemporaryDirectory(prefix="memsync-head-") as scratch:
        probe = Path(scratch) / "probe.git"
        # A server that does not say gets the sentinel, not this machine's init.defaultBranch.
        unsaid = "memsync-unsaid-head"
        run_git(
            ["-c", f"init.defaultBranch={unsaid}", "clone", "-q", "--bare", "--", url, str(probe)],
            cwd=repo,
            timeout=timeout,
            network=True,
        )
        branch = symbolic_head(probe)
        return None if branch == unsaid else branch


def ls_remote_head(
    cwd: Path, target: str, timeout: float | None, *, check: bool = True
) -> GitResult:
    """`git ls-remote --symref TARGET HEAD`: what TARGET (a URL or `origin`) says HEAD is."""
    args = ["ls-remote", "--symref", target, "HEAD"]
    return run_git(args, cwd=cwd, timeout=timeout, check=check, network=True)


def default_branch_of(result: GitResult) -> str | None:
    """The branch an `ls_remote_head` result names (None for an empty repository)."""
    for line in result.text.splitlines():
        if line.startswith("ref: refs/heads/") and line.endswith("\tHEAD"):
            return line[len("ref: refs/heads/") : -len("\tHEAD")]
    return None


def remote_ref_names(url: str, timeout: float | None) -> set[str]:
    """The ref names (`refs/heads/main`, `HEAD`, …) a repository at URL advertises."""
    # No clone needed: `git ls-remote URL` works from any directory.
    result = run_git(["ls-remote", url], cwd=Path.cwd(), timeout=timeout, network=True)
    return {line.split("\t", 1)[1] for line in result.text.splitlines() if "\t" in line}


_FETCH: tuple[str, ...] = ("-c", "protocol.version=0", "fetch", "-q", "--prune", "--no-tags")
_FETCH += ("--no-auto-maintenance",)


# Fetches started early (see `start_fetch`), by clone, until `wait_fetch` or `fetch`
# collects them; what `wait_fetch` collected waits in _DONE for the engine's `fetch`.
_STARTED: dict[Path, Background] = {}
_DONE: dict[Path, GitResult | RemoteUnavailableError] = {}


def start_fetch(repo: Path) -> None:
    """Start fetching origin into REPO in the background; the next `fetch` of REPO waits for
    it instead of starting another. Nothing happens when REPO is not a clone yet."""
    # Session start imports the sync engine while this runs: the round trip to the remote
    # overlaps the imports instead of following them. Fetching updates only
    # refs/remotes/origin/*, which no other step reads before its own `fetch`.
    if repo in _STARTED or repo in _DONE or not (repo / "HEAD").is_file():
        return
    try:
        _STARTED[repo] = start_git([*_FETCH, "origin"], repo, git_env())
    except OSError:
        return  # `fetch` runs git itself and reports what is wrong


def _collect(repo: Path, proc: Background, timeout: float | None) -> GitResult:
    ended = proc.collect(timeout)
    if ended is None:
        raise RemoteTimeoutError(
            f"git fetch: the remote did not answer within {timeout or 0:.0f} s in {repo}",
            hint="Local state is intact; the next run finishes the work.",
        )
    code, err = ended
    if code == 0:
        _answered(repo)
    return GitResult(("git", *_FETCH, "origin"), code, b"", err.decode("utf-8", "replace"))


# Stamped on each fetch the remote answered: git truncates FETCH_HEAD before it connects, so
# a failed fetch leaves FETCH_HEAD as new as a good one and says nothing about the last answer.
ANSWERED = "memsync-fetched"


def _answered(repo: Path) -> None:
    with contextlib.suppress(OSError):  # only the "unreachable since" note reads it
        (repo / ANSWERED).touch()


def wait_fetch(repo: Path, timeout: float | None) -> bool | None:
    """Wait for the fetch `start_fetch` began in REPO: whether it succeeded (None when none
    was started). The outcome is kept: the next `fetch` of REPO reports it, as its own."""
    if repo in _DONE:
        outcome = _DONE[repo]
        return isinstance(outcome, GitResult) and outcome.ok
    started = _STARTED.pop(repo, None)
    if started is None:
        return None
    try:
        result = _collect(repo, started, timeout)
    except RemoteUnavailableError as error:
        _DONE[repo] = error
        return False
    _DONE[repo] = result
    return result.ok


def drop_fetches(keep: Collection[Path], timeout: float | None) -> None:
    """Wait for the early fetches of clones not in KEEP and forget them: a fetch cut short
    could leave a ref lock behind, and one left running would outlive the hook."""
    for repo in [r for r in _STARTED if r not in keep]:
        wait_fetch(repo, timeout)
        _DONE.pop(repo, None)


def fetch(repo: Path, timeout: float | None) -> None:
    """Fetch every branch of origin into refs/remotes/origin/."""
    if repo in _STARTED:
        wait_fetch(repo, timeout)
    outcome = _DONE.pop(repo, None)
    if isinstance(outcome, RemoteUnavailableError):
        raise outcome
    if outcome is not None:
        if outcome.ok:
            return
        error = error_for(outcome, repo, network=True)
        if isinstance(error, RemoteUnavailableError):
            raise error
        # Anything else (a concurrent fetch held a ref's lock, …): fetch again, now locked.
    # Protocol v0: the server sends its refs right away, so a fetch that finds nothing new
    # costs one round trip instead of v2's two (capabilities, then ls-refs). Every session
    # start pays for it, and memory repositories have few refs to advertise.
    run_git(
        [*_FETCH, "origin"],
        cwd=repo,
        timeout=timeout,
        network=True,
    )
    _answered(repo)


def maintain(repo: Path) -> None:
    """Let git repack when it thinks it should (`maintenance run --auto`), never failing."""
    run_git(["maintenance", "run", "--auto", "--quiet"], cwd=repo, check=False)


# How a server says a concurrent push moved the branch while ours was in flight.
_LOST_RACE = ("cannot lock ref", "but expected", "failed to update ref", "incorrect old value")


def push(repo: Path, branch: str, timeout: float | None, commit: str | None = None) -> bool:
    """Push BRANCH, or COMMIT to it (never forced); False when the remote has moved on."""
    hint = "A server-side hook or branch protection said no; use `memsync push --review`."
    refspec = f"{commit or f'refs/heads/{branch}'}:refs/heads/{branch}"
    return _push(repo, refspec, branch, timeout, hint)


def push_commit(repo: Path, local: str, branch: str, timeout: float | None) -> bool:
    """Push commit LOCAL to origin's BRANCH (fast-forward only); False when it moved on."""
    hint = f"A server-side hook or branch protection said no to {branch}."
    return _push(repo, f"{local}:refs/heads/{branch}", branch, timeout, hint)


def _push(repo: Path, refspec: str, branch: str, timeout: float | None, hint: str) -> bool:
    result = run_git(
        ["push", "-q", "--porcelain", "origin", refspec],
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
        # git's own words on one line: the server's `remote:` lines (padded with spaces to
        # clear the terminal) and the rejection, not "error: failed to push some refs".
        lines = [" ".join(line.split()) for line in (result.stderr or result.text).splitlines()]
        said = [line for line in lines if line.startswith(("remote: ", "! [remote rejected]"))]
        reason = "; ".join(said or [line for line in lines if line][:1])
        raise GitError(f"the remote refused the push of {branch}: {reason}", hint=hint)
    raise error_for(result, repo, network=True)
