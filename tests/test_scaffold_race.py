"""Two `init --team` at once on one empty team repository (sync/scaffoldrace): the one that
pushes second keeps the first one's scaffold instead of interleaving both.

Real git and two machines: bob's init runs in this process and, right after it scaffolded
its clone of the (then empty) repository, alice's whole init runs as a subprocess and pushes
first, as a faster network would have it.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

from memsync.cli.app import main
from memsync.team import initialize, memsyncspec
from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine
from testing.memories import write_memory


def test_the_second_init_keeps_the_first_ones_scaffold(
    machines: list[Machine],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    remote = make_bare_remote(tmp_path / "remotes" / "team.git")
    alice, _, bob = machines
    pa = alice.checkout_project("git@github.com:Acme/API.git", "src/api")
    pb = bob.checkout_project("git@github.com:Acme/Web.git", "src/web")
    scaffold = initialize.scaffold_empty_team_store

    def then_alice_wins(*args: object, **kwargs: object) -> tuple[str, ...]:
        done = scaffold(*args, **kwargs)  # type: ignore[arg-type]
        assert done, "bob found the team repository empty"
        private = make_bare_remote(tmp_path / "remotes" / "alice.git")
        alice.memsync(
            *("init", "--private", str(private), "--team", str(remote), "--no-hooks"),
            *("--memsync-spec", "memsync==0.1.0"),
            cwd=pa,
        )
        return done

    # bob already has a team memory, written two weeks ago: it is imported by his init.
    key = re.sub(r"[^A-Za-z0-9]", "-", str(pb.resolve()))
    team = bob.claude_dir / "projects" / key / "memory" / "team"
    memory = write_memory(team, "deploy.md", "deploy", "Never on Friday.\n")
    (team / "MEMORY.md").write_text("- [Deploy](deploy.md) — deploy\n")
    written = int(time.time()) - 14 * 86400
    for path in (memory, team / "MEMORY.md"):
        os.utime(path, (written, written))
    monkeypatch.setattr(initialize, "scaffold_empty_team_store", then_alice_wins)
    monkeypatch.setattr(memsyncspec, "check_spec", lambda *args, **kwargs: None)
    private = make_bare_remote(tmp_path / "remotes" / "bob.git")
    args = ["init", "--project", str(pb), "--private", str(private), "--team", str(remote)]
    with bob.active(), pytest.raises(SystemExit) as exited:
        main([*args, "--no-hooks", "--memsync-spec", "memsync==0.2.0"])
    printed = capsys.readouterr()
    out = printed.out + printed.err
    assert exited.value.code in (0, None), out
    assert "kept both" not in out, out
    assert "scaffolded by another `memsync init` meanwhile" in out, out
    assert "scaffolded the empty team repository" not in out, out  # its scaffold is gone
    assert "this one has commits: run `memsync scaffold --update" in out, out

    # One scaffold, alice's, whole and valid; one root; both projects' folders.
    def show(path: str) -> str:
        return git("show", f"main:{path}", cwd=remote)

    workflow = show(".github/workflows/memsync-check.yml")
    installs = [line.strip() for line in workflow.splitlines() if "pip install" in line]
    assert installs == ['run: python -m pip install "memsync==0.1.0"'], installs
    record = json.loads(show(".memsync/scaffold.json"))
    assert "memsync==0.1.0" in json.dumps(record) and "0.2.0" not in json.dumps(record)
    assert show(".pre-commit-config.yaml").count("additional_dependencies:") == 1
    assert len(git("rev-list", "--max-parents=0", "main", cwd=remote).split()) == 1
    folders = {
        p.split("/")[0] for p in git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    }
    assert {"acme-api", "acme-web"} <= folders, folders
    # bob's memory went out on top of alice's history, dated when he wrote it (SPEC 4).
    assert show("acme-web/deploy.md").endswith("Never on Friday.\n")
    dated = git("log", "-1", "--format=%at", "main", "--", "acme-web/deploy.md", cwd=remote)
    assert int(dated) == written
