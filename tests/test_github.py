"""Opening the review pull request: gh, the REST API against a local server, compare URL."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from memsync.sync.deadline import Deadline
from memsync.team import github
from memsync.team.github import RepoRef
from testing.fakegithub import TOKEN, FakeGitHub

REMOTE = "git@github.com:acme/team-memory.git"
HEAD = "memsync/alice/2026-03-05"


# --- remote URLs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("git@github.com:Acme/API.git", RepoRef("github.com", "Acme", "API")),
        ("https://github.com/acme/api", RepoRef("github.com", "acme", "api")),
        ("https://x-token:abc@github.com/acme/api.git", RepoRef("github.com", "acme", "api")),
        ("ssh://git@github.com:22/acme/api.git", RepoRef("github.com", "acme", "api")),
        ("git@GHE.corp.example:team/mem.git\n", RepoRef("ghe.corp.example", "team", "mem")),
        ("/srv/git/team.git", None),
        ("file:///srv/git/team.git", None),
        ("https://gitlab.com/group/sub/project.git", None),
        ("C:\\repos\\team", None),
    ],
)
def test_parse_remote_url(url: str, expected: RepoRef | None) -> None:
    assert github.parse_remote_url(url) == expected


def test_compare_url_and_api_url() -> None:
    repo = RepoRef("github.com", "acme", "team-memory")
    assert github.compare_url(repo, "main", HEAD) == (
        "https://github.com/acme/team-memory/compare/main...memsync/alice/2026-03-05?expand=1"
    )
    assert github.api_url_for(repo, {}) == "https://api.github.com"
    assert github.api_url_for(repo, {"GITHUB_API_URL": "http://h/api/"}) == "http://h/api"
    ghe = RepoRef("ghe.corp", "t", "m")
    # Another host gets the token only when the person named it a GitHub Enterprise server.
    assert github.api_url_for(ghe, {}) is None
    assert github.api_url_for(ghe, {"GH_HOST": "GHE.corp"}) == "https://ghe.corp/api/v3"
    assert github.api_url_for(RepoRef("gitlab.com", "t", "m"), {"GH_HOST": "ghe.corp"}) is None


def test_a_token_is_never_sent_to_a_host_that_is_not_github(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_calls(*_: object, **__: object) -> None:
        raise AssertionError("a request was sent")

    monkeypatch.setattr(github, "_via_api", no_calls)
    env = {"PATH": "", "GITHUB_TOKEN": TOKEN}
    result = github.open_or_update_pull_request(
        "https://gitlab.com/acme/team-memory.git",
        head=HEAD,
        base="main",
        title="title",
        body="body",
        env=env,
    )
    assert result.method == "url"
    assert any("not sent to gitlab.com" in w and "GH_HOST" in w for w in result.warnings)


def test_long_bodies_are_shortened_to_githubs_limit() -> None:
    body = github.fit_body("x" * 100_000)
    assert len(body) == github.MAX_BODY_CHARS
    assert body.endswith("memsync review` locally for the rest)_\n")
    assert github.fit_body("short") == "short"


# --- a local stand-in for the GitHub REST API -----------------------------------------------


def rest_env(tmp_path: Path, api: FakeGitHub, **extra: str) -> dict[str, str]:
    # An empty PATH hides any real gh, so the REST path is the one taken.
    return {"PATH": str(tmp_path), "GITHUB_API_URL": api.url, "GITHUB_TOKEN": TOKEN, **extra}


def open_pr(
    env: dict[str, str], body: str = "## 2 memories changed\n", deadline: Deadline | None = None
) -> github.PullRequestResult:
    return github.open_or_update_pull_request(
        REMOTE,
        head=HEAD,
        base="main",
        title="memsync: alice 2026-03-05",
        body=body,
        env=env,
        deadline=deadline,
    )


def test_rest_creates_then_updates_the_same_pull_request(tmp_path: Path, api: FakeGitHub) -> None:
    env = rest_env(tmp_path, api)
    first = open_pr(env)
    assert first == github.PullRequestResult(
        "api", "https://github.com/acme/team-memory/pull/1", 1, created=True
    )
    pr = api.pulls[1]
    assert (pr["head"], pr["base"], pr["title"]) == (HEAD, "main", "memsync: alice 2026-03-05")
    assert pr["body"] == "## 2 memories changed\n"

    second = open_pr(env, body="## 3 memories changed\n")
    assert (second.method, second.number, second.created) == ("api", 1, False)
    assert len(api.pulls) == 1
    assert api.pulls[1]["body"] == "## 3 memories changed\n"
    assert api.pulls[1]["title"] == "memsync: alice 2026-03-05"

    methods = [(m, urlsplit(p).path) for m, p, _, _ in api.requests]
    assert methods == [
        ("GET", "/repos/acme/team-memory/pulls"),
        ("POST", "/repos/acme/team-memory/pulls"),
        ("GET", "/repos/acme/team-memory/pulls"),
        ("PATCH", "/repos/acme/team-memory/pulls/1"),
    ]
    _, path, headers, _ = api.requests[0]
    assert parse_qs(urlsplit(path).query)["head"] == [f"acme:{HEAD}"]
    assert headers["accept"] == "application/vnd.github+json"
    assert headers["user-agent"].startswith("memsync/")


def test_rest_create_race_updates_the_pull_request_someone_else_opened(
    tmp_path: Path, api: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    api.pulls[7] = {"head": HEAD, "base": "main", "title": "t", "body": "old", "state": "open"}
    api.pulls[7].update(number=7, html_url="https://github.com/acme/team-memory/pull/7")
    real_update = github._api_update_open
    calls: list[int] = []

    def lookup_misses_once(*args: Any) -> github.PullRequestResult | None:
        calls.append(1)
        return None if len(calls) == 1 else real_update(*args)

    monkeypatch.setattr(github, "_api_update_open", lookup_misses_once)
    result = open_pr(rest_env(tmp_path, api))
    assert (result.number, result.created, result.warnings) == (7, False, ())
    assert api.pulls[7]["body"] == "## 2 memories changed\n"


def test_rest_failure_falls_back_to_compare_url_without_leaking_the_token(
    tmp_path: Path, api: FakeGitHub
) -> None:
    api.status_override = 401
    result = open_pr(rest_env(tmp_path, api))
    assert result.method == "url"
    assert result.url == (
        "https://github.com/acme/team-memory/compare/main...memsync/alice/2026-03-05?expand=1"
    )
    assert len(result.warnings) == 1
    assert "HTTP 401 Bad credentials" in result.warnings[0]
    assert TOKEN not in result.warnings[0]


@pytest.mark.parametrize(
    ("method", "answer"), [("POST", (201, {})), ("GET", (200, ["x"])), ("PATCH", (200, None))]
)
def test_a_malformed_api_answer_falls_back_to_compare_url(
    tmp_path: Path, api: FakeGitHub, method: str, answer: tuple[int, Any]
) -> None:
    """`{}`, `["x"]` or `null` where a pull request was expected: a KeyError (exit 70, and a
    hook saying the push failed when it had not), found by an adversarial team review."""
    api.pulls[7] = {"head": HEAD, "base": "main", "title": "t", "body": "old", "state": "open"}
    api.pulls[7].update(number=7, html_url="https://github.com/acme/team-memory/pull/7")
    if method == "POST":
        api.pulls.clear()
    api.answers[method] = answer
    result = open_pr(rest_env(tmp_path, api))
    assert result.method == "url" and result.url.endswith("?expand=1")
    (warning,) = result.warnings
    assert f"the GitHub API could not open the pull request: {method} " in warning
    assert "the answer is no pull request" in warning


def test_a_hanging_api_is_given_up_at_the_deadline(tmp_path: Path, api: FakeGitHub) -> None:
    """`push --hook --review`: the pull request gets what is left of the hook's limit, not
    15 s per call (an adversarial review saw gh and the API both hang past the limit)."""
    api.delay = 2.0
    result = open_pr(rest_env(tmp_path, api), deadline=Deadline.after(0.3))
    assert result.method == "url"
    assert result.url is not None and result.url.endswith(f"main...{HEAD}?expand=1")
    assert len(result.warnings) == 1
    assert "timed out" in result.warnings[0]
    assert [m for m, *_ in api.requests] == ["GET"]


def test_no_time_left_gives_the_compare_url_without_calling_anything(
    tmp_path: Path, fake_gh: Path, api: FakeGitHub
) -> None:
    env = gh_env(tmp_path, fake_gh, FAKE_GH_AUTH="1", GITHUB_API_URL=api.url, GITHUB_TOKEN=TOKEN)
    result = open_pr(env, deadline=Deadline.after(-1.0))
    assert result.method == "url"
    assert result.warnings == (
        "the GitHub API could not open the pull request: no time was left in the hook's limit",
    )
    assert api.requests == []
    assert not (tmp_path / "gh.json").exists()  # gh was never started


def test_unreachable_api_falls_back_to_compare_url(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path), "GITHUB_API_URL": "http://127.0.0.1:9", "GITHUB_TOKEN": TOKEN}
    result = open_pr(env)
    assert result.method == "url"
    assert "the GitHub API could not open the pull request" in result.warnings[0]


def test_without_gh_or_token_the_compare_url_is_returned(tmp_path: Path) -> None:
    result = open_pr({"PATH": str(tmp_path)})
    assert result == github.PullRequestResult(
        "url",
        "https://github.com/acme/team-memory/compare/main...memsync/alice/2026-03-05?expand=1",
    )


def test_a_remote_that_is_not_github_says_so_without_credentials(tmp_path: Path) -> None:
    result = github.open_or_update_pull_request(
        "https://bob:s3cret@git.example.org/x/y/z.git",
        head=HEAD,
        base="main",
        title="t",
        body="b",
        env={"PATH": str(tmp_path), "GITHUB_TOKEN": TOKEN},
    )
    assert (result.method, result.url) == ("none", None)
    assert "s3cret" not in result.warnings[0]
    assert HEAD in result.warnings[0]


# --- gh ------------------------------------------------------------------------------------

FAKE_GH = """\
import json, os, sys
from pathlib import Path
state = Path(os.environ["FAKE_GH_STATE"])
log = json.loads(state.read_text()) if state.exists() else {"calls": [], "prs": []}
args = sys.argv[1:]
stdin = sys.stdin.read() if "--body-file" in args else None
log["calls"].append({"args": args, "stdin": stdin, "prompt": os.environ.get("GH_PROMPT_DISABLED")})
out, code = "", 0
if args[:2] == ["auth", "status"]:
    code = 0 if os.environ.get("FAKE_GH_AUTH") == "1" else 1
elif args[:2] == ["pr", "list"]:
    out = json.dumps([{"number": p["number"], "url": p["url"]} for p in log["prs"]])
elif args[:2] == ["pr", "create"]:
    if os.environ.get("FAKE_GH_FAIL"):
        sys.stderr.write("GraphQL: Resource not accessible by integration\\n")
        code = 1
    else:
        n = len(log["prs"]) + 1
        url = "https://github.com/acme/team-memory/pull/%d" % n
        log["prs"].append({"number": n, "url": url, "body": stdin})
        out = url + "\\n"
elif args[:2] == ["pr", "edit"]:
    log["prs"][int(args[2]) - 1]["body"] = stdin
state.write_text(json.dumps(log))
sys.stdout.write(out)
sys.exit(code)
"""


@pytest.fixture
def fake_gh(tmp_path: Path) -> Path:
    if sys.platform == "win32":
        pytest.skip("the stand-in gh is a POSIX script")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "gh"
    (bindir / "fake_gh.py").write_text(FAKE_GH)
    # A shell wrapper, not a shebang on the interpreter: its path may hold spaces.
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{bindir / "fake_gh.py"}" "$@"\n')
    script.chmod(0o755)
    return bindir


def gh_env(tmp_path: Path, bindir: Path, **extra: str) -> dict[str, str]:
    return {"PATH": str(bindir), "FAKE_GH_STATE": str(tmp_path / "gh.json"), **extra}


def gh_log(tmp_path: Path) -> dict[str, Any]:
    return json.loads((tmp_path / "gh.json").read_text())  # type: ignore[no-any-return]


def test_gh_creates_then_edits_the_pull_request(tmp_path: Path, fake_gh: Path) -> None:
    env = gh_env(tmp_path, fake_gh, FAKE_GH_AUTH="1")
    first = open_pr(env)
    assert first == github.PullRequestResult(
        "gh", "https://github.com/acme/team-memory/pull/1", 1, created=True
    )
    second = open_pr(env, body="updated body")
    assert (second.method, second.number, second.created) == ("gh", 1, False)
    log = gh_log(tmp_path)
    assert [c["args"][:2] for c in log["calls"]] == [
        ["auth", "status"],
        ["pr", "list"],
        ["pr", "create"],
        ["auth", "status"],
        ["pr", "list"],
        ["pr", "edit"],
    ]
    create = log["calls"][2]["args"]
    assert create[create.index("--repo") + 1] == "github.com/acme/team-memory"
    assert create[create.index("--head") + 1] == HEAD
    assert create[create.index("--base") + 1] == "main"
    assert log["prs"][0]["body"] == "updated body"
    assert {c["prompt"] for c in log["calls"]} == {"1"}


def test_gh_not_logged_in_uses_the_rest_api(tmp_path: Path, fake_gh: Path, api: FakeGitHub) -> None:
    env = gh_env(tmp_path, fake_gh, GITHUB_API_URL=api.url, GITHUB_TOKEN=TOKEN)
    result = open_pr(env)
    assert (result.method, result.number) == ("api", 1)
    assert [c["args"][:2] for c in gh_log(tmp_path)["calls"]] == [["auth", "status"]]


def test_gh_failure_is_a_warning_and_the_next_way_is_tried(tmp_path: Path, fake_gh: Path) -> None:
    env = gh_env(tmp_path, fake_gh, FAKE_GH_AUTH="1", FAKE_GH_FAIL="1")
    result = open_pr(env)
    assert result.method == "url"
    assert result.warnings == (
        "gh could not open the pull request: GraphQL: Resource not accessible by integration",
    )
