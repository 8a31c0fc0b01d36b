"""What GitHub says of the pull request of a review branch: open, closed without merging,
or merged.

Git cannot tell a pull request closed without merging from an open one while its branch stays
on the remote, so `memsync status` asks GitHub about the branches it shows as in review, and
`push --review` about those whose commits it proposes again. The ways are those of
`team/github.py` (`gh` when logged in, else the REST API with `$GITHUB_TOKEN`), one request per
branch, all within a few seconds: no answer (offline, no credentials, not GitHub, an error)
is no state, and the caller says what git alone can tell.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Mapping
from urllib.parse import quote

from memsync.sync.deadline import Deadline
from memsync.sync.inreview import ReviewPull
from memsync.team.github import (
    Api,
    Gh,
    RepoRef,
    StepFailed,
    api_url_for,
    gh_logged_in,
    parse_remote_url,
)

# All the questions of one status together: a GitHub that hangs costs no more than this.
ASK_SECONDS = 4.0

_Ask = Callable[[str], ReviewPull | None]


def pull_states(
    remote_url: str,
    branches: tuple[str, ...],
    *,
    env: Mapping[str, str] | None = None,
    deadline: Deadline | None = None,
    not_number: int | None = None,
) -> tuple[ReviewPull, ...]:
    """The latest pull request (but NOT_NUMBER, one just opened) of each of BRANCHES that
    GitHub answers for within DEADLINE (default: ASK_SECONDS); none for a branch without one,
    none at all when it cannot ask."""
    repo = parse_remote_url(remote_url)
    if repo is None or not branches:
        return ()
    env = os.environ if env is None else env
    deadline = Deadline.after(ASK_SECONDS) if deadline is None else deadline
    ask = _asker(repo, env, deadline, not_number)
    if ask is None:
        return ()
    found: list[ReviewPull] = []
    for branch in branches:
        try:
            pull = ask(branch)
        except StepFailed:
            break  # offline, refused, out of time: the rest would fare no better
        if pull is not None:
            found.append(pull)
    return tuple(found)


def _asker(
    repo: RepoRef, env: Mapping[str, str], deadline: Deadline, skip: int | None
) -> _Ask | None:
    """How to ask: gh when it is logged in for the host, else the API with a token, else None."""
    gh_path = shutil.which("gh", path=env.get("PATH", os.defpath))
    if gh_path is not None:
        gh = Gh(gh_path, env, deadline)
        if gh_logged_in(gh, repo):
            return lambda branch: _gh_pull(gh, repo, branch, skip)
    token = env.get("GITHUB_TOKEN") or env.get("GH_TOKEN")
    api_url = api_url_for(repo, env)  # None: a host that is no GitHub never gets the token
    if token and api_url is not None:
        api = Api(api_url, token, deadline)
        return lambda branch: _api_pull(api, repo, branch, skip)
    return None


def _latest(answer: object, skip: int | None) -> dict[str, object] | None:
    """The newest pull request listed in ANSWER that is not number SKIP."""
    listed = answer if isinstance(answer, list) else []
    pulls = [p for p in listed if isinstance(p, dict) and p.get("number") != skip]
    return pulls[0] if pulls else None


def _gh_pull(gh: Gh, repo: RepoRef, branch: str, skip: int | None) -> ReviewPull | None:
    fields = "number,url,state,closedAt,mergedAt,headRefOid"
    args = ["pr", "list", "--repo", f"{repo.host}/{repo.slug}", "--head", branch]
    limit = "1" if skip is None else "2"
    listed = gh.checked([*args, "--state", "all", "--limit", limit, "--json", fields])
    try:
        pull = _latest(json.loads(listed or "[]"), skip)
    except json.JSONDecodeError as exc:
        raise StepFailed("gh pr list answered no JSON") from exc
    if pull is None:
        return None
    state = str(pull.get("state", "")).lower()
    when = pull.get("mergedAt") if state == "merged" else pull.get("closedAt")
    return _pull(branch, state, pull.get("number"), pull.get("url"), (when, pull.get("headRefOid")))


def _api_pull(api: Api, repo: RepoRef, branch: str, skip: int | None) -> ReviewPull | None:
    pulls = f"{api.base}/repos/{quote(repo.owner)}/{quote(repo.name)}/pulls"
    head = quote(f"{repo.owner}:{branch}", safe="")
    # Newest first (GitHub's default order): a review closed, then opened again, is open.
    query = f"?head={head}&state=all&per_page={1 if skip is None else 2}"
    pull = _latest(api.request("GET", pulls + query), skip)
    if pull is None:
        return None
    state = str(pull.get("state", ""))
    merged = pull.get("merged_at")
    if state == "closed" and merged:
        state = "merged"
    when = merged if state == "merged" else pull.get("closed_at")
    ref = pull.get("head")
    sha = ref.get("sha") if isinstance(ref, dict) else None
    return _pull(branch, state, pull.get("number"), pull.get("html_url"), (when, sha))


def _pull(
    branch: str, state: str, number: object, url: object, last: tuple[object, object]
) -> ReviewPull | None:
    """A ReviewPull from GitHub's fields (LAST: when it closed or merged, its head commit);
    None when they are not those of a pull request."""
    when, sha = last
    if not (isinstance(number, int) and isinstance(url, str)):
        return None
    if state not in ("open", "closed", "merged"):
        return None
    day = when[:10] if isinstance(when, str) and len(when) >= 10 else None
    return ReviewPull(branch, number, url, state, day, sha if isinstance(sha, str) else None)
