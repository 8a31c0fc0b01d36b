"""Open or update the pull request of a `push --review` branch on GitHub.

Three ways, tried in order: the `gh` CLI when it is installed and logged in, the REST API
with `GITHUB_TOKEN` (or `GH_TOKEN`), else the compare URL for the user to open. A failure
of one way is reported as a warning and the next way is tried: the branch is already
pushed, so nothing is lost and the user can always finish by hand.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

from memsync.errors import RemoteUnavailableError
from memsync.sync.deadline import Deadline

if TYPE_CHECKING:
    from urllib.error import HTTPError

DEFAULT_API_URL = "https://api.github.com"
# GitHub rejects pull request bodies over 65,536 characters.
MAX_BODY_CHARS = 65_536
_TRUNCATED = "\n\n_(summary truncated: run `memsync review` locally for the rest)_\n"
_TIMEOUT_S = 15.0

Method = Literal["gh", "api", "url", "none"]

_SCP_URL = re.compile(r"^(?:[\w.+-]+@)?(?P<host>[\w.-]+):(?!//)(?P<path>[^\\]+)$")
_HTTP_URL = re.compile(
    r"^(?:https?|ssh|git)://(?:[^@/]+@)?(?P<host>[\w.-]+)(?::\d+)?/(?P<path>.+)$"
)


@dataclass(frozen=True)
class RepoRef:
    """A GitHub repository named by host, owner and name."""

    host: str
    owner: str
    name: str

    @property
    def slug(self) -> str:
        """`owner/name`."""
        return f"{self.owner}/{self.name}"


@dataclass(frozen=True)
class PullRequestResult:
    """How the pull request was handled and where the user can see it."""

    method: Method
    url: str | None
    number: int | None = None
    created: bool = False
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Proposal:
    """What the pull request should be."""

    head: str
    base: str
    title: str
    body: str


class StepFailed(Exception):
    """One way of opening the pull request failed; the next one is tried."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def parse_remote_url(url: str) -> RepoRef | None:
    """Host, owner and name of a git remote URL (scp-like, ssh, https); None for others."""
    url = url.strip()
    match = _HTTP_URL.match(url) or _SCP_URL.match(url)
    if match is None:
        return None
    parts = [p for p in match.group("path").split("/") if p]
    if len(parts) != 2:
        return None
    owner, name = parts
    name = name.removesuffix(".git")
    if not owner or not name:
        return None
    return RepoRef(match.group("host").lower(), owner, name)


def _redacted(url: str) -> str:
    """The URL without credentials someone put in its user-info part."""
    return re.sub(r"//[^@/]+@", "//", url)


def compare_url(repo: RepoRef, base: str, head: str) -> str:
    """The web page where the user can open the pull request by hand."""
    return (
        f"https://{repo.host}/{repo.slug}/compare/"
        f"{quote(base, safe='/')}...{quote(head, safe='/')}?expand=1"
    )


def api_url_for(repo: RepoRef, env: Mapping[str, str]) -> str | None:
    """`$GITHUB_API_URL`, else the API of github.com or of the GitHub Enterprise host the
    person named (`$GH_HOST`, as for gh); None for any other host, which never gets the token:
    a remote on gitlab.com or a company's Gitea is no GitHub to hand `$GITHUB_TOKEN` to."""
    configured = env.get("GITHUB_API_URL")
    if configured:
        return configured.rstrip("/")
    if repo.host == "github.com":
        return DEFAULT_API_URL
    if env.get("GH_HOST", "").lower() == repo.host:
        return f"https://{repo.host}/api/v3"
    return None


def fit_body(body: str) -> str:
    """The body, shortened to what GitHub accepts."""
    if len(body) <= MAX_BODY_CHARS:
        return body
    return body[: MAX_BODY_CHARS - len(_TRUNCATED)] + _TRUNCATED


def open_or_update_pull_request(
    remote_url: str,
    *,
    head: str,
    base: str,
    title: str,
    body: str,
    env: Mapping[str, str] | None = None,
    deadline: Deadline | None = None,
) -> PullRequestResult:
    """Open a pull request from `head` into `base`, or update the body of the open one.

    Each call to gh or the API waits at most 15 s and never past DEADLINE (a hook's limit):
    when the time is up, the compare URL is what the user gets."""
    env = os.environ if env is None else env
    deadline = Deadline() if deadline is None else deadline
    repo = parse_remote_url(remote_url)
    if repo is None:
        return PullRequestResult(
            "none",
            None,
            warnings=(
                f"cannot tell the GitHub repository of remote {_redacted(remote_url)!r}; "
                f"open a pull request for branch {head} by hand",
            ),
        )
    proposal = _Proposal(head, base, title, fit_body(body))
    warnings: list[str] = []
    gh = shutil.which("gh", path=env.get("PATH", os.defpath))
    if gh is not None and gh_logged_in(Gh(gh, env, deadline), repo):
        try:
            return _with_warnings(_via_gh(Gh(gh, env, deadline), repo, proposal), warnings)
        except StepFailed as exc:
            warnings.append(f"gh could not open the pull request: {exc}")
    token = env.get("GITHUB_TOKEN") or env.get("GH_TOKEN")
    api_url = api_url_for(repo, env)
    if token and api_url is None:
        warnings.append(
            f"$GITHUB_TOKEN not sent to {repo.host}, which is not github.com: if it is a GitHub "
            f"Enterprise server, set GH_HOST={repo.host} (or GITHUB_API_URL)"
        )
    elif token and api_url is not None:
        try:
            result = _via_api(Api(api_url, token, deadline), repo, proposal)
            return _with_warnings(result, warnings)
        except StepFailed as exc:
            warnings.append(f"the GitHub API could not open the pull request: {exc}")
    return PullRequestResult("url", compare_url(repo, base, head), warnings=tuple(warnings))


def _with_warnings(result: PullRequestResult, warnings: list[str]) -> PullRequestResult:
    if not warnings:
        return result
    return PullRequestResult(
        result.method, result.url, result.number, result.created, (*warnings, *result.warnings)
    )


# --- gh ----------------------------------------------------------------------------------


def _seconds(deadline: Deadline) -> float:
    """How long the next call may wait: 15 s, or what is left of DEADLINE."""
    try:
        return deadline.remaining(_TIMEOUT_S)
    except RemoteUnavailableError as exc:
        raise StepFailed("no time was left in the hook's limit") from exc


@dataclass(frozen=True)
class Gh:
    """The `gh` CLI, run without prompts and within a deadline."""

    path: str
    env: Mapping[str, str]
    deadline: Deadline

    def run(self, args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """gh ARGS, finished (any exit status) or a failed step."""
        # gh must never prompt: hooks and CI have no one to answer.
        quiet = {"GH_PROMPT_DISABLED": "1", "GH_NO_UPDATE_NOTIFIER": "1", "NO_COLOR": "1"}
        try:
            return subprocess.run(
                [self.path, *args],
                input=stdin,
                capture_output=True,
                text=True,
                env={**self.env, **quiet},
                timeout=_seconds(self.deadline),
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise StepFailed(str(exc)) from exc

    def checked(self, args: list[str], stdin: str | None = None) -> str:
        """gh ARGS' output; a non-zero exit is a failed step quoting gh's last error line."""
        done = self.run(args, stdin)
        if done.returncode != 0:
            detail = done.stderr.strip().splitlines()
            raise StepFailed(detail[-1] if detail else f"gh exited with {done.returncode}")
        return done.stdout


def gh_logged_in(gh: Gh, repo: RepoRef) -> bool:
    """Whether `gh` is logged in for REPO's host."""
    try:
        return gh.run(["auth", "status", "--hostname", repo.host]).returncode == 0
    except StepFailed:
        return False


def _via_gh(gh: Gh, repo: RepoRef, proposal: _Proposal) -> PullRequestResult:
    target = ["--repo", f"{repo.host}/{repo.slug}"]
    query = ["--head", proposal.head, "--state", "open", "--json", "number,url"]
    listed = gh.checked(["pr", "list", *target, *query])
    try:
        existing = json.loads(listed or "[]")
    except json.JSONDecodeError as exc:
        raise StepFailed(f"unexpected output of gh pr list: {listed[:200]!r}") from exc
    body = proposal.body
    if existing:
        url, number = _pull_of(
            existing[0] if isinstance(existing, list) else None, "gh", "pr list", "url"
        )
        gh.checked(["pr", "edit", str(number), *target, "--body-file", "-"], body)
        return PullRequestResult("gh", url, number, created=False)
    args = ["pr", "create", *target, "--head", proposal.head, "--base", proposal.base]
    args += ["--title", proposal.title, "--body-file", "-"]
    out = gh.checked(args, body).strip()
    url = out.splitlines()[-1] if out else compare_url(repo, proposal.base, proposal.head)
    tail = url.rstrip("/").rsplit("/", 1)[-1]
    return PullRequestResult("gh", url, int(tail) if tail.isdigit() else None, created=True)


# --- REST API ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Api:
    """GitHub's REST API at BASE, with a token, within a deadline."""

    base: str
    token: str
    deadline: Deadline

    def request(self, method: str, url: str, payload: dict[str, Any] | None = None) -> Any:
        """The JSON answer to METHOD URL, or a failed step quoting GitHub's message."""
        import urllib.error
        import urllib.request

        from memsync import __version__

        data = None if payload is None else json.dumps(payload).encode("utf-8")
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Accept", "application/vnd.github+json")
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("X-GitHub-Api-Version", "2022-11-28")
        request.add_header("User-Agent", f"memsync/{__version__}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=_seconds(self.deadline)) as response:
                return json.loads(response.read().decode("utf-8") or "null")
        except urllib.error.HTTPError as exc:
            detail = f"{method} {url}: HTTP {exc.code} {_api_message(exc)}"
            raise StepFailed(detail, exc.code) from exc
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise StepFailed(f"{method} {url}: {getattr(exc, 'reason', exc)}") from exc
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise StepFailed(f"{method} {url}: the answer is not JSON") from exc


def _api_message(error: HTTPError) -> str:
    """GitHub's own explanation from an error response, without echoing anything sent."""
    try:
        detail = json.loads(error.read().decode("utf-8"))
    except (ValueError, OSError):
        return str(error.reason)
    message = str(detail.get("message", error.reason)) if isinstance(detail, dict) else ""
    errors = detail.get("errors") if isinstance(detail, dict) else None
    if isinstance(errors, list) and errors and isinstance(errors[0], dict):
        message += f" ({errors[0].get('message') or errors[0].get('code')})"
    return message


def _via_api(api: Api, repo: RepoRef, proposal: _Proposal) -> PullRequestResult:
    pulls = f"{api.base}/repos/{quote(repo.owner)}/{quote(repo.name)}/pulls"
    head_filter = quote(f"{repo.owner}:{proposal.head}", safe="")
    query = f"?head={head_filter}&state=open&per_page=1"
    updated = _api_update_open(api, pulls, query, proposal.body)
    if updated is not None:
        return updated
    payload = {
        "title": proposal.title,
        "head": proposal.head,
        "base": proposal.base,
        "body": proposal.body,
    }
    try:
        created = api.request("POST", pulls, payload)
    except StepFailed as exc:
        # 422: another push opened it between our look-up and our create.
        raced = _api_update_open(api, pulls, query, proposal.body) if exc.status == 422 else None
        if raced is None:
            raise
        return raced
    url, number = _pull_of(created, "POST", pulls, "html_url")
    return PullRequestResult("api", url, number, created=True)


def _api_update_open(api: Api, pulls: str, query: str, body: str) -> PullRequestResult | None:
    existing = api.request("GET", pulls + query)
    if not (isinstance(existing, list) and existing):
        return None
    _, number = _pull_of(existing[0], "GET", pulls + query, None)
    updated = api.request("PATCH", f"{pulls}/{number}", {"body": body})
    url, _ = _pull_of(updated, "PATCH", f"{pulls}/{number}", "html_url")
    return PullRequestResult("api", url, number, created=False)


def _pull_of(answer: object, method: str, url: str, link: str | None) -> tuple[str, int]:
    """(ANSWER's LINK, its number) from a pull request the API answered with: anything else
    (`{}`, `null`, `["x"]`) fails this way, after which the compare URL is given (the branch
    is already pushed), never a KeyError at the person."""
    if isinstance(answer, dict):
        number, where = answer.get("number"), answer.get(link) if link else ""
        if isinstance(number, int) and not isinstance(number, bool) and isinstance(where, str):
            return where, number
    raise StepFailed(f"{method} {url}: the answer is no pull request: {str(answer)[:80]!r}")
