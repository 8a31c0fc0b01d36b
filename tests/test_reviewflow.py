"""`memsync push --review`: a real bare team remote behind a GitHub URL, a local GitHub API."""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from memsync import git as gitcmd
from memsync.cli.app import main
from memsync.config import load_config
from memsync.errors import UsageError
from memsync.sync import store
from memsync.sync.binding import Binding, resolve_bindings
from memsync.team import reviewflow
from testing.fakegithub import TOKEN, FakeGitHub
from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine
from testing.memories import write_memory

TEAM_URL = "git@github.com:acme/team-memory.git"
ORIGIN = "git@github.com:Acme/API.git"
DAY = dt.date(2026, 3, 5)
BRANCH = "memsync/alice-laptop-user/2026-03-05"
TESTING = "---\nname: testing policy\ndescription: real database\ntype: feedback\n---\nReal DB.\n"


def cli(machine: Machine, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the memsync CLI in this process as MACHINE."""
    capsys.readouterr()
    with machine.active(), pytest.raises(SystemExit) as exited:
        main(list(args))
    out, err = capsys.readouterr()
    code = exited.value.code
    return (code if isinstance(code, int) else 0), out, err


def seed_team_remote(tmp_path: Path) -> Path:
    """A bare team remote whose main holds one project folder with one memory."""
    remote = make_bare_remote(tmp_path / "remotes" / "team.git")
    work = tmp_path / "seed"
    git("clone", "-q", str(remote), str(work), cwd=tmp_path)
    (work / "acme-api").mkdir()
    (work / "acme-api" / "testing.md").write_text(TESTING)
    (work / "acme-api" / "MEMORY.md").write_text("- [Testing policy](testing.md) — real DB\n")
    (work / "README.md").write_text("# Team memory\n")
    git("add", "-A", cwd=work)
    git("commit", "-qm", "seed", cwd=work)
    git("push", "-q", "origin", "main", cwd=work)
    return remote


@pytest.fixture
def alice(
    machines: list[Machine], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> Iterator[tuple[Machine, Path, Path]]:
    """alice-laptop with a project bound to a GitHub-looking team remote that is a local repo."""
    machine = machines[0]
    remote = seed_team_remote(tmp_path)
    # The remote URL must look like GitHub's for the pull request step; git reaches it locally.
    with open(machine.env["GIT_CONFIG_GLOBAL"], "a", encoding="utf-8") as config:
        config.write(f'[url "{remote.as_uri()}"]\n\tinsteadOf = {TEAM_URL}\n')
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    project = machine.checkout_project(ORIGIN)
    code, _, err = cli(
        machine,
        capsys,
        "init",
        "--project",
        str(project),
        "--private",
        str(private),
        "--team",
        TEAM_URL,
        "--no-hooks",
    )
    assert code == 0, err
    yield machine, project, remote


def team_binding(project: Path) -> Binding:
    _, (binding,) = resolve_bindings(load_config(), project, ("team",))
    return binding


def commit_in_clone(project: Path, files: dict[str, bytes | None], message: str) -> str:
    """Local commits a plain push could not deliver (e.g. refused by a protected branch)."""
    binding = team_binding(project)
    heads = store.heads(binding)
    author = gitcmd.Identity("alice-laptop user", "alice-laptop@example.invalid")
    new = store.commit_files(
        binding, parent=heads.local, changes=files, message=message, author=author
    )
    gitcmd.update_branch(binding.clone_dir, heads.branch, new, heads.local, "test")
    return new


def api_env(api: FakeGitHub) -> dict[str, str]:
    # An empty PATH hides any real gh: the REST API is the way taken.
    return {"PATH": "", "GITHUB_API_URL": api.url, "GITHUB_TOKEN": TOKEN}


def deploy(description: str = "no Friday deploys") -> bytes:
    return (
        f"---\nname: deploy freeze\ndescription: {description}\ntype: project\n---\nNone.\n"
    ).encode()


INDEX_2 = (
    b"- [Testing policy](testing.md) \xe2\x80\x94 real DB\n- [Deploy](deploy.md) \xe2\x80\x94 no\n"
)


def test_branch_name_and_user_slug(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert reviewflow.slug("Zoë O'Neil") == "zoe-o-neil"
    assert reviewflow.slug("  ") == ""
    assert reviewflow.review_branch("zoe", DAY) == "memsync/zoe/2026-03-05"
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", str(repo), cwd=tmp_path)
    assert reviewflow.user_slug(repo) == "memsync-tester"  # conftest's git identity
    git("config", "user.name", "Ünïcode Name", cwd=repo)
    assert reviewflow.user_slug(repo) == "unicode-name"
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "none"))
    git("config", "--unset", "user.name", cwd=repo)
    assert reviewflow.user_slug(repo, {"USER": "Bob"}) == "bob"
    assert reviewflow.user_slug(repo, {}) == "memsync"


def test_push_review_opens_then_updates_one_pull_request(
    alice: tuple[Machine, Path, Path], api: FakeGitHub
) -> None:
    machine, project, remote = alice
    main_before = git("rev-parse", "main", cwd=remote).strip()
    with machine.active():
        first = commit_in_clone(
            project, {"deploy.md": deploy(), "MEMORY.md": INDEX_2}, "add deploy"
        )
        result = reviewflow.push_for_review(
            project, ("private", "team"), today=DAY, env=api_env(api)
        )
    assert result.branch == BRANCH
    team = next(r for r in result.reports if r.scope == "team")
    assert (team.pushed, team.review_branch, team.error) == (True, BRANCH, None)
    # The default branch is untouched; the review branch holds the local commit.
    assert git("rev-parse", "main", cwd=remote).strip() == main_before
    assert git("rev-parse", BRANCH, cwd=remote).strip() == first
    (pull,) = result.pulls
    assert pull.result is not None
    assert (pull.result.method, pull.result.number, pull.result.created) == ("api", 1, True)
    assert pull.result.url == "https://github.com/acme/team-memory/pull/1"
    pr = api.pulls[1]
    assert (pr["head"], pr["base"]) == (BRANCH, "main")
    assert pr["title"] == "memsync(acme-api): 1 memory from alice-laptop-user"
    body = pr["body"]
    assert "by alice-laptop-user from alice-laptop" in body
    assert "**1 memory** changed: 1 added" in body
    assert "| added | deploy freeze | project | `acme-api/deploy.md` |" in body
    assert "| `acme-api` | 1 → 2 / 200 |" in body
    # The live memory directory got the committed memory too.
    assert (team_binding_live(machine, project) / "deploy.md").read_bytes() == deploy()

    with machine.active():
        second = commit_in_clone(
            project, {"deploy.md": deploy("no deploys Friday to Monday")}, "widen"
        )
        again = reviewflow.push_for_review(project, ("team",), today=DAY, env=api_env(api))
    (pull,) = again.pulls
    assert pull.result is not None
    assert (pull.result.number, pull.result.created) == (1, False)
    assert len(api.pulls) == 1
    assert git("rev-parse", BRANCH, cwd=remote).strip() == second
    body = api.pulls[1]["body"]
    # Still the whole branch against main: one added memory, in its newest version.
    assert "| `description` | — | no deploys Friday to Monday |" in body
    assert [m for m, *_ in api.requests] == ["GET", "POST", "GET", "PATCH"]


def team_binding_live(machine: Machine, project: Path) -> Path:
    with machine.active():
        return team_binding(project).live_dir


def test_nothing_to_review_and_scope_errors(
    alice: tuple[Machine, Path, Path], api: FakeGitHub
) -> None:
    machine, project, _ = alice
    with machine.active():
        result = reviewflow.push_for_review(project, ("team",), today=DAY, env=api_env(api))
        (pull,) = result.pulls
        assert pull.result is None
        assert pull.note == "nothing to review: the team store has no commits beyond origin/main"
        assert api.requests == []
        # A commit that changes no memory (like the merge of a squash-merged review) is
        # pushed, but asks no one for a review.
        commit_in_clone(project, {"testing.md": TESTING.encode()}, "same content")
        result = reviewflow.push_for_review(project, ("team",), today=DAY, env=api_env(api))
        (pull,) = result.pulls
        assert (pull.result, pull.note) == (
            None,
            f"nothing to review: {BRANCH} brings no memory changes over origin/main",
        )
        assert api.requests == []
        with pytest.raises(UsageError, match="--review sends the team store"):
            reviewflow.push_for_review(project, ("private",))


def test_a_review_that_only_rewords_index_lines_opens_a_pull_request(
    alice: tuple[Machine, Path, Path], api: FakeGitHub
) -> None:
    # A retitled entry changes no memory, but the team loads the line: reviewers see its diff
    # (found by h2: `push --review` said "nothing to review" and opened none).
    machine, project, _ = alice
    reworded = "- [Testing policy](testing.md) — integration tests hit a real database\n"
    with machine.active():
        commit_in_clone(project, {"MEMORY.md": reworded.encode()}, "reword the index")
        result = reviewflow.push_for_review(project, ("team",), today=DAY, env=api_env(api))
    (pull,) = result.pulls
    assert pull.result is not None and pull.note is None, pull.note
    pr = api.pulls[1]
    assert pr["title"] == "memsync(acme-api): MEMORY.md lines from alice-laptop-user"
    body = pr["body"]
    assert "<details><summary>`acme-api/MEMORY.md` lines</summary>" in body, body
    assert "-- [Testing policy](testing.md) — real DB" in body
    assert "+" + reworded.rstrip("\n") in body


def test_a_project_without_a_team_store_is_refused(
    machines: list[Machine], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    machine = machines[1]
    project = machine.checkout_project(ORIGIN)
    private = make_bare_remote(tmp_path / "remotes" / "solo.git")
    init = ["init", "--project", str(project), "--private", str(private), "--no-hooks"]
    assert cli(machine, capsys, *init)[0] == 0
    code, _, err = cli(machine, capsys, "push", "--project", str(project), "--review")
    assert code == 2  # a usage error, as `push --scope team` without a team store
    assert "has no team store" in err


def failing_gh(bindir: Path) -> str:
    """A `gh` that is never logged in, so a real gh (as on GitHub runners) stays out of it."""
    bindir.mkdir(exist_ok=True)
    script = bindir / "gh"
    script.write_text("#!/bin/sh\nexit 1\n")
    script.chmod(0o755)
    (bindir / "gh.bat").write_text("@exit /b 1\r\n")
    return f"{bindir}{os.pathsep}{os.environ['PATH']}"


def ready_to_review(machine: Machine, project: Path, api: FakeGitHub, bindir: Path) -> None:
    """A local commit waiting in the team clone; the API stand-in reachable, gh not logged in."""
    with machine.active():
        commit_in_clone(project, {"deploy.md": deploy(), "MEMORY.md": INDEX_2}, "add deploy")
    machine.env["PATH"] = failing_gh(bindir)
    machine.env.update({"GITHUB_API_URL": api.url, "GITHUB_TOKEN": TOKEN})


def test_cli_push_review_prints_the_pull_request(
    alice: tuple[Machine, Path, Path],
    api: FakeGitHub,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    machine, project, remote = alice
    ready_to_review(machine, project, api, tmp_path / "bin")
    push = ["push", "--project", str(project), "--review"]
    code, out, err = cli(machine, capsys, *push, "-m", "Deploy freeze for the team")
    assert code == 0, err
    # Two files reach the review branch: the memory and its index line.
    assert "team (team-acme-team-memory): pulled 2; pushed 2 to memsync/alice-laptop-user/" in out
    assert "review: pushed memsync/alice-laptop-user/" in out
    assert "(1 memory changed against main)" in out
    assert "review: pull request opened: https://github.com/acme/team-memory/pull/1" in out
    assert api.pulls[1]["title"] == "Deploy freeze for the team"
    branch = git("for-each-ref", "--format=%(refname:short)", "refs/heads/memsync", cwd=remote)
    (pushed,) = branch.split()
    assert pushed.startswith("memsync/alice-laptop-user/")
    dt.date.fromisoformat(pushed.rsplit("/", 1)[1])

    # Without a token (and no gh) the compare URL is the way to finish by hand.
    del machine.env["GITHUB_TOKEN"]
    code, out, _ = cli(machine, capsys, *push, "--scope", "team", "--json")
    (team,) = json.loads(out)
    assert team["pull_request"]["result"]["method"] == "url"
    assert team["pull_request"]["result"]["url"] == (
        f"https://github.com/acme/team-memory/compare/main...{pushed}?expand=1"
    )
    code, out, _ = cli(machine, capsys, *push, "--scope", "team")
    compare = f"https://github.com/acme/team-memory/compare/main...{pushed}?expand=1"
    assert (code, f"review: open the pull request at {compare}" in out) == (0, True)
    code, _, err = cli(machine, capsys, *push, "--scope", "private")
    assert code == 2
    assert "--review sends the team store" in err


def test_plain_push_passes_the_message_through(
    alice: tuple[Machine, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    machine, project, remote = alice
    with machine.active():
        commit_in_clone(project, {"deploy.md": deploy()}, "add deploy")
    code, out, err = cli(machine, capsys, "push", "--project", str(project), "-m", "ignored")
    assert code == 0, err
    # Already committed: the subject applies to new commits only; main got the commit.
    assert "acme-api/deploy.md" in git("ls-tree", "-r", "--name-only", "main", cwd=remote)
    assert "review:" not in out


def test_live_edits_go_to_the_review_branch(
    alice: tuple[Machine, Path, Path], api: FakeGitHub
) -> None:
    machine, project, remote = alice
    live = team_binding_live(machine, project)
    write_memory(live, "deploy.md", "deploy freeze", "No deploys on Friday.\n")
    with machine.active():
        result = reviewflow.push_for_review(
            project, ("team",), message="deploy freeze", today=DAY, env=api_env(api)
        )
    (team,) = result.reports
    assert team.committed == ("deploy.md",)
    assert "acme-api/deploy.md" in git("ls-tree", "-r", "--name-only", BRANCH, cwd=remote)
    assert "acme-api/deploy.md" not in git("ls-tree", "-r", "--name-only", "main", cwd=remote)
    assert git("log", "-1", "--format=%s", BRANCH, cwd=remote).strip() == "deploy freeze"
    assert "| added | deploy freeze | project | `acme-api/deploy.md` |" in api.pulls[1]["body"]


def test_hook_mode_prints_the_pull_request_url(
    alice: tuple[Machine, Path, Path], api: FakeGitHub, tmp_path: Path
) -> None:
    machine, project, _ = alice
    ready_to_review(machine, project, api, tmp_path / "bin")
    hook_input = json.dumps({"cwd": str(project), "hook_event_name": "SessionEnd"})
    out = machine.memsync("push", "--hook", "--review", stdin=hook_input)
    assert out.returncode == 0
    assert "memsync: review pull request https://github.com/acme/team-memory/pull/1" in out.stdout


def test_hook_mode_gives_the_compare_url_when_github_hangs_past_the_limit(
    alice: tuple[Machine, Path, Path], api: FakeGitHub, tmp_path: Path
) -> None:
    """The pull request gets what the push left of `push_timeout`: a GitHub that hangs is
    given up before the watchdog (limit + 2 s) would end the hook without a word."""
    machine, project, _ = alice
    ready_to_review(machine, project, api, tmp_path / "bin")
    config = Path(machine.env["MEMSYNC_CONFIG"])
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("push_timeout: 20.0", "push_timeout: 4.0"), encoding="utf-8")
    assert "push_timeout: 4.0" in config.read_text(encoding="utf-8")
    api.delay = 8.0
    hook_input = json.dumps({"cwd": str(project), "hook_event_name": "SessionEnd"})
    out = machine.memsync("push", "--hook", "--review", stdin=hook_input)
    assert out.returncode == 0
    opened_at = "memsync: open the review pull request at https://github.com/acme/team-memory/"
    assert f"{opened_at}compare/main...memsync/" in out.stdout, out.stdout
    assert "the GitHub API could not open the pull request: GET " in out.stdout, out.stdout
    assert "timed out)" in out.stdout, out.stdout


def test_after_a_squash_merge_the_next_round_has_nothing_to_review(
    alice: tuple[Machine, Path, Path], api: FakeGitHub, tmp_path: Path
) -> None:
    machine, project, remote = alice
    live = team_binding_live(machine, project)
    write_memory(live, "deploy.md", "deploy freeze", "No deploys on Friday.\n")
    with machine.active():
        reviewflow.push_for_review(project, ("team",), today=DAY, env=api_env(api))
    # GitHub's "Squash and merge": one new commit on main with the branch's tree.
    work = tmp_path / "github"
    git("clone", "-q", str(remote), str(work), cwd=tmp_path)
    git("merge", "-q", "--squash", f"origin/{BRANCH}", cwd=work)
    git("commit", "-qm", "Squash review", cwd=work)
    git("push", "-q", "origin", "main", cwd=work)
    with machine.active():
        result = reviewflow.push_for_review(project, ("team",), today=DAY, env=api_env(api))
    (team,) = result.reports
    assert (team.error, team.blocked) == (None, ())
    (pull,) = result.pulls
    assert pull.result is None
    assert pull.note is not None and pull.note.startswith("nothing to review")
    assert len(api.pulls) == 1
    assert (live / "deploy.md").read_text().endswith("No deploys on Friday.\n")


def reviewer_commits_on(remote: Path, branch: str, tmp_path: Path) -> None:
    """A reviewer's commit on the pull request's branch ("Commit suggestion" on GitHub)."""
    work = tmp_path / "reviewer"
    git("clone", "-q", "-b", branch, str(remote), str(work), cwd=tmp_path)
    memory = work / "acme-api" / "testing.md"
    memory.write_text(TESTING.replace("Real DB.", "Real DB, never mocks."))
    git("commit", "-qam", "reviewer's suggestion", cwd=work)
    git("push", "-q", "origin", branch, cwd=work)


def test_pushing_again_merges_what_moved_on_the_review_branch(
    alice: tuple[Machine, Path, Path], api: FakeGitHub, tmp_path: Path
) -> None:
    """The review branch moved on the remote (a reviewer's commit, another machine): the next
    push the same day merges it in and moves the branch, into the same pull request."""
    machine, project, remote = alice
    live = team_binding_live(machine, project)
    write_memory(live, "deploy.md", "deploy freeze", "No deploys on Friday.\n")
    with machine.active():
        reviewflow.push_for_review(project, ("team",), today=DAY, env=api_env(api))
    reviewer_commits_on(remote, BRANCH, tmp_path)
    write_memory(live, "oncall.md", "on call", "Rotate weekly.\n")
    with machine.active():
        again = reviewflow.push_for_review(project, ("team",), today=DAY, env=api_env(api))
    (team,) = again.reports
    assert (team.error, team.pushed) == (None, True)
    files = git("ls-tree", "-r", "--name-only", BRANCH, cwd=remote).split()
    assert {"acme-api/deploy.md", "acme-api/oncall.md"} <= set(files)
    # Nothing lost: the reviewer's commit is in the branch's history and its content kept.
    assert "reviewer's suggestion" in git("log", "--format=%s", BRANCH, cwd=remote)
    kept = git("show", f"{BRANCH}:acme-api/testing.md", cwd=remote)
    assert "Real DB, never mocks." in kept
    (pull,) = again.pulls
    assert pull.result is not None and (pull.result.number, pull.result.created) == (1, False)
    assert "`acme-api/oncall.md`" in api.pulls[1]["body"]


def test_a_review_branch_that_keeps_moving_names_the_branch_not_git_pull(
    alice: tuple[Machine, Path, Path], api: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, project, _ = alice
    monkeypatch.setattr(gitcmd, "push_commit", lambda *args, **kwargs: False)
    monkeypatch.setattr("memsync.sync.engine.backoff", lambda *args: 0.0)
    with machine.active():
        commit_in_clone(project, {"deploy.md": deploy()}, "add deploy")
        result = reviewflow.push_for_review(project, ("team",), today=DAY, env=api_env(api))
    (team,) = result.reports
    assert team.error is not None
    assert f"the review branch {BRANCH} moved on" in team.error
    assert "git pull" not in team.error


def test_non_ascii_names_get_distinct_branch_names() -> None:
    """Names git cannot spell in ASCII must not all fall back to one shared `$USER`."""
    names = ["山田太郎", "佐藤花子", "Łukasz", "Ольга", "Олег"]
    slugs = [reviewflow.slug(name) for name in names]
    assert all(slugs) and len(set(slugs)) == len(slugs), slugs
    assert reviewflow.slug("Łukasz") == "lukasz"  # transliterated, no hash needed
    assert reviewflow.slug("Zoë O'Neil") == "zoe-o-neil"  # what ASCII spells keeps its name
    assert all(len(s) <= reviewflow.MAX_SLUG_CHARS for s in slugs)


def test_status_after_push_review_says_the_commits_are_in_review(
    alice: tuple[Machine, Path, Path], api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """The commits wait on the review branch: not "run `memsync push`", which a protected
    default branch refuses, and not pending for `status --exit-code`."""
    machine, project, _ = alice
    with machine.active():
        commit_in_clone(project, {"deploy.md": deploy(), "MEMORY.md": INDEX_2}, "add deploy")
        reviewflow.push_for_review(project, ("team",), today=DAY, env=api_env(api))
    status = ["status", "--project", str(project), "--scope", "team"]
    code, out, err = cli(machine, capsys, *status, "--exit-code")
    assert code == 0, out + err
    assert f"1 commit(s) in review on {BRANCH}" in out, out
    assert "run `memsync push`" not in out, out
    code, out, _ = cli(machine, capsys, *status, "--json")
    (team,) = json.loads(out)
    assert (team["ahead"], team["in_review"], team["pending"]) == (1, 1, False)
    assert team["review_branches"] == [BRANCH]
    # A commit made after the review push is not in review: push it (for review) again.
    with machine.active():
        commit_in_clone(project, {"deploy.md": deploy("later")}, "later")
    code, out, _ = cli(machine, capsys, *status, "--exit-code")
    assert code == 1
    assert "1 commit(s) in review on" in out and "run `memsync push --review`" in out, out


def test_the_same_person_on_a_second_machine_joins_the_same_review_branch(
    alice: tuple[Machine, Path, Path],
    machines: list[Machine],
    api: FakeGitHub,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """alice's laptop pushed for review; her desktop pushes the same day: one branch, one
    pull request, both machines' memories on it (it failed with git's "git pull" hint)."""
    laptop, project, remote = alice
    write_memory(team_binding_live(laptop, project), "deploy.md", "deploy freeze", "Fri.\n")
    with laptop.active():
        reviewflow.push_for_review(project, ("team",), today=DAY, env=api_env(api))
    desktop = machines[1]
    with open(desktop.env["GIT_CONFIG_GLOBAL"], "a", encoding="utf-8") as config:
        config.write(f'[url "{remote.as_uri()}"]\n\tinsteadOf = {TEAM_URL}\n')
    other = desktop.checkout_project(ORIGIN)
    git("config", "user.name", "alice-laptop user", cwd=other)  # one person, one slug
    private = make_bare_remote(tmp_path / "remotes" / "private-desktop.git")
    init = ["init", "--project", str(other), "--private", str(private), "--team", TEAM_URL]
    assert cli(desktop, capsys, *init, "--no-hooks")[0] == 0
    write_memory(team_binding_live(desktop, other), "oncall.md", "on call", "Weekly.\n")
    with desktop.active():
        result = reviewflow.push_for_review(other, ("team",), today=DAY, env=api_env(api))
    (team,) = result.reports
    assert (result.branch, team.error, team.pushed) == (BRANCH, None, True)
    files = set(git("ls-tree", "-r", "--name-only", BRANCH, cwd=remote).split())
    assert {"acme-api/deploy.md", "acme-api/oncall.md"} <= files
    (pull,) = result.pulls
    assert pull.result is not None and (pull.result.number, pull.result.created) == (1, False)
    assert len(api.pulls) == 1
