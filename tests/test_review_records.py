"""Review records (sync/reviewed) after the pull request: a review closed unmerged stops
costing every pull its git calls, and a squash the team reverted before the author pulled it
leaves the author's memories with the author (as a memory deleted there, changed here).

Real git, as in tests/test_review_landed.py: alice the author, bob the reviewer, GitHub's
buttons played by plain git in a third clone.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from testing.gitrepo import git
from testing.hookprobe import bindings_of
from testing.machines import Machine
from testing.memories import write_memory
from testing.reviewteam import (
    DEPLOY,
    Team,
    bind_team,
    github,
    records,
    review_branch,
    review_branches,
    send_deploy,
    team_dir,
)


@pytest.fixture
def team(machines: list[Machine], tmp_path: Path) -> Team:
    """alice and bob bound to one team remote, as in tests/test_review_landed.py."""
    return bind_team(machines, tmp_path)


def squash(remote: Path, branch: str, tmp_path: Path, method: str = "squash") -> str:
    """GitHub's "Squash and merge" (or "Rebase and merge"), the branch deleted: the commits
    that landed, as a range for `git revert`."""
    work = github(remote, tmp_path, f"github-{method}")
    old = git("rev-parse", "HEAD", cwd=work).strip()
    if method == "squash":
        git("merge", "-q", "--squash", f"origin/{branch}", cwd=work)
        git("commit", "-qm", "Memory review (#1)", cwd=work)
    else:  # new commits even where a fast-forward would do
        git("checkout", "-q", "-B", "landing", f"origin/{branch}", cwd=work)
        git("rebase", "-q", "--force-rebase", "main", cwd=work)
        git("checkout", "-q", "main", cwd=work)
        git("merge", "-q", "--ff-only", "landing", cwd=work)
    git("push", "-q", "origin", "main", f":refs/heads/{branch}", cwd=work)
    return f"{old}..{git('rev-parse', 'HEAD', cwd=work).strip()}"


def revert(remote: Path, commits: str, tmp_path: Path) -> None:
    """The reviewer's `git revert` of COMMITS on main (GitHub's "Revert" button does the same)."""
    work = github(remote, tmp_path, "github-revert")
    git("revert", "--no-edit", commits, cwd=work)
    git("push", "-q", "origin", "main", cwd=work)


@pytest.mark.parametrize("method", ["squash", "rebase"])
def test_a_squash_reverted_before_the_author_pulled_it_keeps_her_memory(
    team: Team, tmp_path: Path, method: str
) -> None:
    alice, pa, _, _, remote = team
    live = send_deploy(alice, pa)
    revert(remote, squash(remote, review_branch(remote), tmp_path, method), tmp_path)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert (live / "deploy.md").read_text().endswith(DEPLOY), pulled
    assert "(deploy.md)" in (live / "MEMORY.md").read_text(), pulled
    assert "deploy.md: the default branch undid your reviewed change" in pulled, pulled
    assert "kept yours, `memsync push --review` proposes it again" in pulled, pulled
    files = git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    assert not [f for f in files if f.endswith("deploy.md")], files  # the team's revert stays

    # Hers, not yet the team's: the next review proposes it again.
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    changed = git("diff", "--name-only", f"main...{review_branch(remote)}", cwd=remote).split()
    assert sorted(Path(p).name for p in changed) == ["MEMORY.md", "deploy.md"], changed


def test_a_revert_after_the_author_pulled_the_squash_is_a_teammates_deletion(
    team: Team, tmp_path: Path
) -> None:
    """Once alice's machine had the team's version, the revert deletes it as any teammate's
    deletion of a memory she did not change since does (SPEC section 4), and says so."""
    alice, pa, _, _, remote = team
    live = send_deploy(alice, pa)
    landed = squash(remote, review_branch(remote), tmp_path)
    alice.memsync("pull", "--scope", "team", cwd=pa)
    revert(remote, landed, tmp_path)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert not (live / "deploy.md").exists(), pulled
    assert "- deploy.md" in pulled, pulled


def diverged_pull(team: Team, name: str, trace: Path | None = None) -> list[str]:
    """bob pushes a memory, alice writes one: her pull merges. The git commands it ran."""
    alice, pa, bob, pb, _ = team
    write_memory(team_dir(bob, pb), f"bob-{name}.md", f"bob {name}", "Bob's.\n", description="b")
    bob.memsync("push", "--scope", "team", cwd=pb)
    write_memory(
        team_dir(alice, pa), f"alice-{name}.md", f"alice {name}", "Hers.\n", description="a"
    )
    if trace is not None:
        alice.env["GIT_TRACE"] = str(trace)
    try:
        out = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    finally:
        alice.env.pop("GIT_TRACE", None)
    assert (team_dir(alice, pa) / f"bob-{name}.md").is_file(), out
    if trace is None:
        return []
    marker = "trace: built-in: git "
    commands = []
    for line in trace.read_text().splitlines():
        if marker in line:
            words = line.split(marker, 1)[1].split()
            while words[0] == "-c":
                words = words[2:]
            commands.append(words[0])
    return sorted(commands)


def review(alice: Machine, pa: Path, name: str) -> str:
    """alice sends memory NAME for review as a person of that name (one branch each)."""
    live = team_dir(alice, pa)
    write_memory(live, f"{name}.md", name, f"{name.title()}'s rule.\n", description=name)
    with (live / "MEMORY.md").open("a") as index:
        index.write(f"- [{name}]({name}.md) — {name}\n")
    alice.git("config", "user.name", name, cwd=pa)
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    (branch,) = [b for b in review_branches(remote_of(alice, pa)) if f"/{name}" in b]
    return branch


def remote_of(machine: Machine, project: Path) -> Path:
    (binding,) = [b for b in bindings_of(machine, project) if b.scope == "team"]
    return Path(binding.store.url.removeprefix("file://"))


def test_reviews_closed_unmerged_stop_costing_every_pull_git_calls(
    team: Team, tmp_path: Path
) -> None:
    """Three pull requests closed without merging, their branches deleted: the next pull
    drops their records, and pulls after it run the git commands a pull ran before any
    review, not a few more for each closed one."""
    alice, pa, _, _, remote = team
    diverged_pull(team, "warm-up")
    before = diverged_pull(team, "before", tmp_path / "trace-before")
    closed = [review(alice, pa, name) for name in ("carol", "dave", "erin")]
    assert len(records(alice, pa)) == 3
    git("branch", "-D", *closed, cwd=remote)  # "Close pull request", "Delete branch"

    diverged_pull(team, "drops")
    after = diverged_pull(team, "after", tmp_path / "trace-after")
    assert after == before
    assert records(alice, pa) == []


def test_a_review_closed_with_its_branch_kept_goes_with_the_later_review_that_landed(
    team: Team, tmp_path: Path
) -> None:
    """carol's pull request is closed unmerged, its branch kept (GitHub's default); alice
    rewrites that memory and sends it again in dave's review, which is squash-merged. Once her
    branch holds the squash, both records go: carol's review is in dave's."""
    alice, pa, _, _, remote = team
    first = review(alice, pa, "carol")
    memory = team_dir(alice, pa) / "carol.md"
    memory.write_text(memory.read_text().replace("Carol's rule.", "Carol's rule, rewritten."))
    squash(remote, review(alice, pa, "dave"), tmp_path)
    assert len(records(alice, pa)) == 2

    diverged_pull(team, "lands")
    diverged_pull(team, "absorbs")
    assert records(alice, pa) == []
    assert first in review_branches(remote)  # what is on GitHub stays as it is
    assert "rewritten" in memory.read_text()


def test_a_record_older_than_the_bound_is_dropped_unread(team: Team, tmp_path: Path) -> None:
    """A review sent 100 days ago whose pull request was closed, its branch kept: dropped."""
    alice, pa, _, _, remote = team
    first = review(alice, pa, "carol")
    (ref,) = records(alice, pa)
    (clone,) = [b.clone_dir for b in bindings_of(alice, pa) if b.scope == "team"]
    tree, parents = git("show", "-s", "--format=%T %P", ref, cwd=clone).split(" ", 1)
    old = git(
        "commit-tree",
        tree,
        *(f"-p{p}" for p in parents.split()),
        "-m",
        "sent",
        cwd=clone,
        env={**os.environ, **alice.env, "GIT_COMMITTER_DATE": f"@{int(time.time()) - 100 * 86400}"},
    ).strip()
    git("update-ref", ref, old, cwd=clone)

    diverged_pull(team, "drops")
    assert records(alice, pa) == []
    assert first in review_branches(remote)
