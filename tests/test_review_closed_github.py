"""A review pull request closed without merging, its branch kept: `memsync status` asks GitHub
(the local API stand-in) about the branches it shows as in review and says what became of
them; a later `push --review` proposes the closed review's commits again and says so.

Real git (a bare team remote behind a GitHub URL), real `memsync` processes.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from memsync.sync.inreview import ReviewPull
from memsync.team.pullstate import pull_states
from testing.fakegithub import TOKEN, FakeGitHub
from testing.gitrepo import git
from testing.machines import SOURCE_ROOT, Machine
from testing.memories import write_memory
from testing.reviewteam import bind_github_team, review_branch, send_deploy, team_dir

PULL_1 = "https://github.com/acme/team-memory/pull/1"
PULL_2 = "https://github.com/acme/team-memory/pull/2"


def closed_review(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub, *, merged: bool = False
) -> tuple[Machine, Path, Path, str]:
    """alice's deploy.md sent for review, its pull request then closed (or MERGED) on GitHub,
    the branch kept: (alice, her project, her team folder, the branch)."""
    alice, pa, _, _, remote = bind_github_team(machines, tmp_path, api)
    live = send_deploy(alice, pa)
    branch = review_branch(remote)
    api.close(1, git("rev-parse", branch, cwd=remote).strip(), merged=merged)
    return alice, pa, live, branch


def status(machine: Machine, project: Path, *extra: str) -> tuple[int, str, str]:
    done = machine.memsync("status", "--scope", "team", *extra, cwd=project, check=False)
    return done.returncode, done.stdout, done.stderr


def asked(api: FakeGitHub) -> list[dict[str, list[str]]]:
    """The queries of the pull-request listings status sent."""
    return [parse_qs(urlsplit(path).query) for verb, path, _, _ in api.requests if verb == "GET"]


def git_guess(branch: str) -> str:
    """The review line of status when GitHub said nothing: what git alone can tell."""
    return (
        f"  review     1 commit(s) in review on {branch}; shared when the pull request is merged"
        " (git cannot tell a closed one: if it was closed unmerged, delete its branch and they"
        " count as not pushed)\n"
    )


def test_status_says_a_review_was_closed_without_merging_and_what_to_do(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub
) -> None:
    alice, pa, _, _, remote = bind_github_team(machines, tmp_path, api)
    send_deploy(alice, pa)
    branch = review_branch(remote)
    assert api.pulls[1]["head"] == branch
    api.requests.clear()

    code, out, _ = status(alice, pa, "--exit-code")
    # Open: GitHub said so, so the guess about a closed one is gone.
    assert (
        f"  review     1 commit(s) in review on {branch}; shared when the pull request is merged"
        f" ({PULL_1})\n"
    ) in out, out
    assert code == 0, out
    (query,) = asked(api)  # one listing for the one branch in review
    assert (query["head"], query["state"]) == ([f"acme:{branch}"], ["all"])

    api.close(1, git("rev-parse", branch, cwd=remote).strip())
    code, out, _ = status(alice, pa, "--exit-code")
    assert (
        f"  closed     {branch}: closed without merging on 2026-11-23: {PULL_1}; its commits"
        " count as not pushed: reopen it on GitHub, or run `memsync push --review` to propose"
        " them again in a new pull request\n"
    ) in out, out
    assert "  review " not in out, out
    assert "commits    1 ahead, 0 behind (as of the last fetch); run `memsync push --review`" in out
    assert code == 1, out  # not pushed any more: pending
    _, out, _ = status(alice, pa, "--json")
    (team,) = json.loads(out)
    assert (team["in_review"], team["review_branches"], team["pending"]) == (0, [], True)
    (pull,) = team["review_pulls"]
    assert (pull["state"], pull["url"], pull["closed_on"]) == ("closed", PULL_1, "2026-11-23")


def test_status_says_a_merged_review_waits_for_a_pull(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub
) -> None:
    alice, pa, _, branch = closed_review(machines, tmp_path, api, merged=True)
    _, out, _ = status(alice, pa)
    assert f"  merged     {branch}: merged on 2026-11-23: {PULL_1}; run `memsync pull`" in out, out
    assert f"1 commit(s) in review on {branch}" in out, out


def test_without_an_answer_status_keeps_what_git_alone_can_tell(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub
) -> None:
    """GitHub failing, hanging or not asked (no token): git's wording, silently, and in time."""
    alice, pa, _, branch = closed_review(machines, tmp_path, api)
    guess = git_guess(branch)
    api.status_override = 500
    code, out, err = status(alice, pa, "--exit-code")
    assert (code, guess in out, err) == (0, True, ""), out + err

    api.status_override = None
    api.delay = 30.0
    started = time.monotonic()
    code, out, err = status(alice, pa, "--exit-code")
    assert time.monotonic() - started < 15, "status waited on a GitHub that hangs"
    assert (code, guess in out, err) == (0, True, ""), out + err

    api.delay = 0.0
    api.requests.clear()
    del alice.env["GITHUB_TOKEN"]
    code, out, _ = status(alice, pa, "--exit-code")
    assert (code, guess in out, api.requests) == (0, True, []), out


def test_status_no_github_asks_nothing_and_keeps_what_git_alone_can_tell(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub
) -> None:
    """Offline work, a rate-limited token, scripts: `--no-github` sends GitHub no request, by
    the lean path (output piped) and by the typer command alike, and says what git can."""
    alice, pa, _, branch = closed_review(machines, tmp_path, api)
    guess = git_guess(branch)
    api.requests.clear()
    code, out, err = status(alice, pa, "--no-github", "--exit-code")
    assert (code, guess in out, err, api.requests) == (0, True, "", []), out + err
    _, out, _ = status(alice, pa, "--json", "--no-github")
    (team,) = json.loads(out)
    assert (team["in_review"], team["review_pulls"], api.requests) == (1, [], [])
    typer_run = [sys.executable, "-c", "from memsync.cli.app import main; main()"]
    args = ["status", "--scope", "team", "--no-github"]
    env = {**os.environ, **alice.env, "PYTHONPATH": SOURCE_ROOT}
    done = subprocess.run([*typer_run, *args], cwd=pa, env=env, capture_output=True, check=False)
    shown = done.stdout.decode()
    assert (guess in shown, api.requests) == (True, []), shown + done.stderr.decode()
    # Without the switch it asks, as before: the closed one is named.
    _, out, _ = status(alice, pa)
    assert f"  closed     {branch}: closed without merging" in out, out
    assert len(api.requests) == 1


def test_push_review_after_a_closed_review_proposes_its_commits_in_a_new_pull_request(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub
) -> None:
    alice, pa, live, branch = closed_review(machines, tmp_path, api)
    write_memory(live, "tone.md", "tone", "Short answers.\n")
    out = alice.memsync("push", "--review", "--scope", "team", cwd=pa).stdout
    assert f"review: pull request opened: {PULL_2}\n" in out, out
    assert (
        f"review: it proposes again the commits of {PULL_1} ({branch}), closed without merging"
        " on 2026-11-23\n"
    ) in out, out
    body = api.pulls[2]["body"]
    assert "/deploy.md`" in body and "/tone.md`" in body, body  # nothing of the closed one lost
    assert api.pulls[2]["head"] == branch

    _, out, _ = status(alice, pa)
    assert f"in review on {branch}; shared when the pull request is merged ({PULL_2})\n" in out
    assert "  closed " not in out, out

    # Pushed again while the new one is open: it is updated, nothing is said of the old one.
    write_memory(live, "tone.md", "tone", "Short answers, please.\n")
    out = alice.memsync("push", "--review", "--scope", "team", cwd=pa).stdout
    assert f"review: pull request updated: {PULL_2}\n" in out, out
    assert "proposes again" not in out, out


def test_the_next_days_review_names_the_closed_one_it_brings_again(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub
) -> None:
    alice, pa, live, old = closed_review(machines, tmp_path, api)
    write_memory(live, "tone.md", "tone", "Short answers.\n")
    day = dt.date.fromisoformat(old.rsplit("/", 1)[1]) + dt.timedelta(days=1)
    from memsync.team.reviewflow import push_for_review

    with alice.active():
        pushed = push_for_review(pa, ("team",), today=day)
    (pull,) = pushed.pulls
    assert pull.result is not None and pull.result.url == PULL_2
    (closed,) = pull.reproposed
    assert (closed.branch, closed.url, closed.closed_on) == (old, PULL_1, "2026-11-23")
    new = f"{old.rsplit('/', 1)[0]}/{day.isoformat()}"
    assert api.pulls[2]["head"] == new
    assert "/deploy.md`" in api.pulls[2]["body"]
    # Every commit of the closed review waits on today's open one: nothing said of the old.
    _, out, _ = status(alice, pa, "--exit-code")
    assert f"  review     2 commit(s) in review on {new}; shared when" in out, out
    assert f"merged ({PULL_2})\n" in out and "  closed " not in out, out


def test_a_teammates_review_branch_is_not_asked_about(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub
) -> None:
    """Only the branches holding this machine's commits: bob's review costs alice nothing."""
    alice, pa, bob, pb, _ = bind_github_team(machines, tmp_path, api)
    write_memory(team_dir(bob, pb), "oncall.md", "on call", "Rotate weekly.\n")
    bob.memsync("push", "--review", "--scope", "team", cwd=pb)
    alice.memsync("pull", "--scope", "team", cwd=pa)
    api.requests.clear()
    _, out, _ = status(alice, pa)
    assert "  review " not in out and api.requests == [], out


# --- the question itself, by gh and by the API ---------------------------------------------

REMOTE = "git@github.com:acme/team-memory.git"
BRANCH = "memsync/alice/2026-11-22"
GH = """\
import json, os, sys
with open(os.environ["FAKE_GH_LOG"], "a") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
if sys.argv[1:3] == ["auth", "status"]:
    sys.exit(0)
sys.stdout.write(os.environ["FAKE_GH_LIST"])
"""


def gh_env(tmp_path: Path, listed: object) -> dict[str, str]:
    bindir = tmp_path / "gh-bin"
    bindir.mkdir(exist_ok=True)
    (bindir / "gh.py").write_text(GH)
    (bindir / "gh").write_text(f'#!/bin/sh\nexec "{sys.executable}" "{bindir / "gh.py"}" "$@"\n')
    (bindir / "gh").chmod(0o755)
    log = tmp_path / "gh.log"
    return {"PATH": str(bindir), "FAKE_GH_LOG": str(log), "FAKE_GH_LIST": json.dumps(listed)}


@pytest.mark.parametrize(
    ("listed", "expected"),
    [
        (
            [{"number": 3, "url": "u3", "state": "CLOSED", "closedAt": "2026-11-23T09:00:00Z"}],
            ReviewPull(BRANCH, 3, "u3", "closed", "2026-11-23"),
        ),
        (
            [{"number": 3, "url": "u3", "state": "MERGED", "mergedAt": "2026-11-24T09:00:00Z"}],
            ReviewPull(BRANCH, 3, "u3", "merged", "2026-11-24"),
        ),
        (
            [{"number": 3, "url": "u3", "state": "OPEN", "headRefOid": "abc"}],
            ReviewPull(BRANCH, 3, "u3", "open", None, "abc"),
        ),
        ([], None),
        ({"message": "weird"}, None),
    ],
)
def test_gh_is_asked_for_the_latest_pull_request_of_a_branch(
    tmp_path: Path, listed: object, expected: ReviewPull | None
) -> None:
    if sys.platform == "win32":
        pytest.skip("the stand-in gh is a POSIX script")
    env = gh_env(tmp_path, listed)
    found = pull_states(REMOTE, (BRANCH,), env=env)
    assert found == (() if expected is None else (expected,))
    calls = [json.loads(line) for line in (tmp_path / "gh.log").read_text().splitlines()]
    assert calls[1][:2] == ["pr", "list"]
    assert calls[1][calls[1].index("--head") + 1] == BRANCH
    assert calls[1][calls[1].index("--state") + 1] == "all"
    assert calls[1][calls[1].index("--repo") + 1] == "github.com/acme/team-memory"


@pytest.mark.parametrize(
    "answer", [(200, [{"number": "1"}]), (200, {"message": "x"}), (404, {"message": "Not Found"})]
)
def test_an_api_answer_that_is_no_pull_request_is_no_state(
    api: FakeGitHub, answer: tuple[int, object]
) -> None:
    api.answers["GET"] = answer
    env = {"PATH": "", "GITHUB_API_URL": api.url, "GITHUB_TOKEN": TOKEN}
    assert pull_states(REMOTE, (BRANCH, "memsync/alice/2026-11-23"), env=env) == ()
    # An error stops the asking: the second branch would fare no better.
    assert len(api.requests) == (1 if answer[0] == 404 else 2)


def test_a_remote_that_is_not_github_is_never_asked(api: FakeGitHub) -> None:
    env = {"PATH": "", "GITHUB_API_URL": "", "GITHUB_TOKEN": TOKEN}
    assert pull_states("https://gitlab.com/acme/team-memory.git", (BRANCH,), env=env) == ()
    assert pull_states(str(Path("/srv/team.git")), (BRANCH,), env=env) == ()
    assert api.requests == []


def test_the_session_end_names_the_closed_review_it_proposes_again(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub
) -> None:
    """The session start (`pull --hook`) asks nothing (guard); the session end's
    `push --hook --review` opens the new pull request and, as `push --review` does, names the
    closed one it proposes again: kept, the next session start shows it."""
    alice, pa, live, branch = closed_review(machines, tmp_path, api)
    api.requests.clear()
    start = json.dumps({"cwd": str(pa), "hook_event_name": "SessionStart"})
    assert alice.memsync("pull", "--hook", cwd=pa, stdin=start).returncode == 0
    assert api.requests == []
    write_memory(live, "tone.md", "tone", "Short answers.\n")
    end = json.dumps({"cwd": str(pa), "hook_event_name": "SessionEnd"})
    out = alice.memsync("push", "--hook", "--review", cwd=pa, stdin=end).stdout
    again = (
        f"review pull request {PULL_2}; it proposes again the commits of {PULL_1} ({branch}),"
        " closed without merging on 2026-11-23"
    )
    assert f"memsync: {again}" in out, out
    # The look-up of an open pull request, then, the new one opened, the closed one's state.
    queries = [q["state"] for q in asked(api)]
    assert queries == [["open"], ["all"]], queries
    out = alice.memsync("pull", "--hook", cwd=pa, stdin=start).stdout
    assert f"memsync: at the last session end, {again}" in out, out


def withdraw_deploy(alice: Machine, pa: Path, live: Path) -> str:
    """alice deletes deploy.md, adds tone.md and pushes for review: what the push says."""
    write_memory(live, "tone.md", "tone", "Short answers.\n")
    (live / "deploy.md").unlink()
    (live / "MEMORY.md").write_text("- [Tone](tone.md) — tone\n")
    return alice.memsync("push", "--review", "--scope", "team", cwd=pa).stdout


def test_a_memory_deleted_after_its_review_was_closed_is_withdrawn_from_the_new_one(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub
) -> None:
    """Deleting it is how to withdraw a memory: the push no longer squashes away the commits
    the review branch holds, which its merge of that branch then undid (deploy.md came back)."""
    alice, pa, live, branch = closed_review(machines, tmp_path, api)
    out = withdraw_deploy(alice, pa, live)
    assert f"review: pull request opened: {PULL_2}\n" in out, out
    body = api.pulls[2]["body"]
    assert "/tone.md`" in body and "/deploy.md`" not in body, body
    remote = tmp_path / "remotes" / "team.git"
    files = git("ls-tree", "-r", "--name-only", branch, cwd=remote).split()
    assert [f for f in files if f.endswith(("deploy.md", "tone.md"))] == ["acme-api/tone.md"]
    assert not (live / "deploy.md").exists()


def test_a_memory_deleted_while_its_review_is_open_leaves_that_pull_request(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub
) -> None:
    alice, pa, _, _, _ = bind_github_team(machines, tmp_path, api)
    out = withdraw_deploy(alice, pa, send_deploy(alice, pa))
    assert f"review: pull request updated: {PULL_1}\n" in out, out
    body = api.pulls[1]["body"]
    assert "/tone.md`" in body and "/deploy.md`" not in body, body


def test_a_memory_added_and_deleted_after_a_review_push_still_stays_out_of_history(
    machines: list[Machine], tmp_path: Path, api: FakeGitHub
) -> None:
    """Only what a review branch holds counts as pushed: a file `pull` committed and the
    person deleted before any push is squashed away as before (guard)."""
    alice, pa, live, branch = closed_review(machines, tmp_path, api)
    write_memory(live, "draft.md", "draft", "Not for the team.\n")
    alice.memsync("pull", "--scope", "team", cwd=pa)  # commits it, pushes nothing
    (live / "draft.md").unlink()
    write_memory(live, "tone.md", "tone", "Short answers.\n")
    out = alice.memsync("push", "--review", "--scope", "team", cwd=pa).stdout
    assert "not in the pushed history (added, then deleted before any push): draft.md" in out
    remote = tmp_path / "remotes" / "team.git"
    touched = git("log", "--name-only", "--format=", branch, cwd=remote).split()
    assert "acme-api/draft.md" not in touched, touched
    assert {"acme-api/deploy.md", "acme-api/tone.md"} <= set(touched), touched
