"""One repository is private or a team's, never both (SPEC 1: `user` memories never reach a
team repository; a review pushed a `type: user` memory with a key into the team's by giving
one URL to `--private` and `--team`, and by naming a scaffolded team repository private)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine
from testing.memories import write_memory

ORIGIN = "git@github.com:Acme/API.git"


def _user_memory(machine: Machine, project: Path) -> None:
    """A private `type: user` memory in PROJECT's live folder, before any init."""
    key = "-" + str(project.resolve()).strip("/").replace("/", "-").replace(".", "-")
    live = Path(machine.env["CLAUDE_CONFIG_DIR"]) / "projects" / key / "memory"
    write_memory(live, "me.md", "me", "On parental leave in March.\n", type_="user")


def _branches(remote: Path) -> str:
    return git("for-each-ref", "--format=%(refname)", cwd=remote)


@pytest.mark.parametrize("spelling", ["same", "file-url"])
def test_one_repository_given_as_private_and_team_is_refused_and_nothing_is_pushed(
    machines: list[Machine], tmp_path: Path, spelling: str
) -> None:
    alice = machines[0]
    shared = make_bare_remote(tmp_path / "remotes" / "shared.git")
    project = alice.checkout_project(ORIGIN)
    _user_memory(alice, project)
    team = str(shared) if spelling == "same" else f"file://{shared}/"
    result = alice.memsync(
        "init", "--private", str(shared), "--team", team, "--no-hooks", cwd=project, check=False
    )
    assert result.returncode == 2, result.stderr
    assert "is the private store's repository too" in result.stderr
    assert "give --private and --team their own repositories" in result.stderr
    assert _branches(shared) == ""  # nothing pushed, not even a scaffold
    assert not Path(alice.env["MEMSYNC_CONFIG"]).exists()


def test_a_scaffolded_team_repository_named_private_is_refused_before_any_push(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice, bob = machines[0], machines[1]
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    own = make_bare_remote(tmp_path / "remotes" / "alice.git")
    project = alice.checkout_project(ORIGIN)
    alice.memsync("init", "--private", str(own), "--team", str(team), "--no-hooks", cwd=project)
    before = git("rev-parse", "main", cwd=team)
    elsewhere = bob.checkout_project(ORIGIN)
    _user_memory(bob, elsewhere)
    result = bob.memsync("init", "--private", str(team), "--no-hooks", cwd=elsewhere, check=False)
    assert result.returncode == 2, result.stderr
    assert "is a team's memory repository (it holds .memsync/scaffold.json)" in result.stderr
    assert git("rev-parse", "main", cwd=team) == before
    assert "me.md" not in git("ls-tree", "-r", "--name-only", "main", cwd=team)


def test_a_config_edited_to_share_a_repository_is_a_config_error(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    project = alice.checkout_project(ORIGIN)
    alice.memsync("init", "--private", str(private), "--team", str(team), "--no-hooks", cwd=project)
    config = Path(alice.env["MEMSYNC_CONFIG"])
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    (name,) = [n for n, s in data["stores"].items() if s["scope"] == "team"]
    data["stores"][name]["url"] = str(private)
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = alice.memsync("push", cwd=project, check=False)
    assert result.returncode == 2, result.stderr
    assert f"`stores.{name}.url` is the private store's repository too" in " ".join(
        result.stderr.split()
    ), result.stderr
