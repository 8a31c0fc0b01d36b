"""What a team repository's workflows and pre-commit hook install: the memsync spec.

The default is the memsync that is running: installed from a public git URL or archive
(PEP 610's direct_url.json), that URL at that commit; else `memsync==<version>`. Either
way the spec is checked before a scaffold uses it, so a team learns on day one, not on
the first failed workflow, that its runners cannot install it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

from memsync import __version__
from memsync.errors import UsageError

# The spec lands inside double quotes in shell and YAML: keep it to the characters a
# requirement specifier or a URL needs, so it can never inject anything.
_SAFE_SPEC = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+\-\[\],<>=!~@/:#%?& ]*$")
# Seconds one resolvability check may take (pip or git talking to an index or a host).
CHECK_TIMEOUT = 60.0


def validate_spec(spec: str) -> str:
    """SPEC, stripped, when a workflow can quote it safely; else a usage error."""
    spec = spec.strip()
    if not _SAFE_SPEC.match(spec):
        raise UsageError(
            f"memsync spec {spec!r} has characters a workflow cannot quote safely",
            hint='Use a pip requirement such as "memsync==0.1.0" or "memsync @ git+https://…".',
        )
    return spec


def pinned_spec(version: str = __version__) -> str:
    """`memsync==VERSION`."""
    return f"memsync=={version}"


def default_spec() -> str:
    """The running memsync as a pip requirement CI runners can install, if it knows one."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        raw = distribution("memsync").read_text("direct_url.json")
    except PackageNotFoundError:
        raw = None
    spec = _spec_from_direct_url(raw) if raw else None
    return spec or pinned_spec()


def _spec_from_direct_url(raw: str) -> str | None:
    """A spec from PEP 610 data: a VCS URL at its commit, or a remote archive."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        return None
    url = data.get("url") if isinstance(data, dict) else None
    if not isinstance(url, str) or not url.startswith(("https://", "ssh://", "git@")):
        return None  # a local path or file:// install: no runner can reach it
    vcs = data.get("vcs_info")
    if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str):
        commit = vcs.get("commit_id")
        at = f"@{commit}" if isinstance(commit, str) and commit else ""
        return f"memsync @ {vcs['vcs']}+{url}{at}"
    if isinstance(data.get("archive_info"), dict):
        return f"memsync @ {url}"
    return None


def check_spec(spec: str, timeout: float = CHECK_TIMEOUT) -> str | None:
    """None when SPEC resolves; else a warning saying why and what to do."""
    _, sep, url = spec.partition(" @ ")
    if sep and url.startswith("git+"):
        problem = _check_git_url(url.removeprefix("git+"), timeout)
    elif sep and url.startswith("file:"):
        problem = "it is a local file, which CI runners cannot reach"
    else:
        problem = _check_with_pip(spec, timeout)
    if problem is None:
        return None
    return (
        f"the memsync spec {spec!r} may not install in CI ({problem}): the scaffolded "
        "workflows and pre-commit hook would fail. Choose one that does with "
        "`memsync scaffold --update --memsync-spec SPEC` in a clone of the team repository "
        "(or `memsync init --memsync-spec SPEC` for a new one), e.g. "
        "'memsync @ git+https://github.com/OWNER/memsync@TAG'"
    )


def _check_with_pip(spec: str, timeout: float) -> str | None:
    """Ask an installer whether SPEC resolves: this environment's pip, else uv or a pip on
    PATH (pipx and `uv tool` environments have no pip of their own)."""
    import importlib.util
    import shutil

    flags = ["--no-deps", "--quiet"]
    try:
        own_pip = importlib.util.find_spec("pip") is not None
    except (ImportError, ValueError):
        own_pip = False
    if own_pip:
        command = [sys.executable, "-m", "pip", "install", "--dry-run", *flags]
        command += ["--ignore-installed", "--disable-pip-version-check", "--no-input"]
        return _ask_installer([*command, "--retries", "0", "--timeout", "10", spec], timeout)
    uv = shutil.which("uv")
    if uv is not None:
        # Resolves against the index without touching any environment.
        return _ask_installer([uv, "pip", "compile", "-", *flags, "--no-header"], timeout, spec)
    pip = shutil.which("pip3") or shutil.which("pip")
    if pip is not None:
        command = [pip, "install", "--dry-run", *flags, "--ignore-installed", "--no-input", spec]
        return _ask_installer(command, timeout)
    return "neither pip nor uv is available here to check it with"


def _ask_installer(command: list[str], timeout: float, stdin: str | None = None) -> str | None:
    """None when the installer COMMAND resolves; else its first error line."""
    name = "uv" if command[1:3] == ["pip", "compile"] else "pip"
    try:
        done = subprocess.run(
            command, input=stdin, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return f"{name} did not answer within {timeout:.0f} s"
    except OSError as exc:
        return f"{name} could not run: {exc.strerror}"
    if done.returncode == 0:
        return None
    text = (done.stderr or done.stdout).strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("ERROR:", "error:", "cause:"))]
    found = errors[-1] if name == "uv" and errors else errors[0] if errors else lines[-1]
    for prefix in ("ERROR: ", "error: ", "cause: "):
        found = found.removeprefix(prefix)
    return f"{name}: {found}"


def _check_git_url(url: str, timeout: float) -> str | None:
    from memsync import git
    from memsync.errors import MemsyncError

    # `…/repo.git@v1.2` names a ref after the last `@` of the path (not a user@host part).
    repo, ref = url, None
    head, _, tail = url.rpartition("@")
    if head and "/" not in tail and ":" not in tail:
        repo, ref = head, tail
    try:
        names = git.remote_ref_names(repo, timeout)
    except MemsyncError as exc:
        return exc.message
    if ref is None or re.fullmatch(r"[0-9a-f]{7,40}", ref):
        return None  # a commit id cannot be checked without fetching; the repository exists
    if not names & {f"refs/heads/{ref}", f"refs/tags/{ref}", ref}:
        return f"no branch or tag {ref!r} in {repo}"
    return None
