"""Problems already on the team remote (a secret, a `type: user` memory committed there with
plain git) are told on the pull that brings them: CLI report and the hook's systemMessage.

Real git, file:// remotes, two simulated machines; the token is generated here.
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

from testing.gitrepo import git
from testing.machines import ORIGIN, Machine, memory_dir, setup_machine
from testing.memories import write_memory


def _token(seed: str) -> str:
    rng = random.Random(seed)
    return "ghp_" + "".join(rng.choices(string.ascii_letters + string.digits, k=36))


def _commit_on_remote(tmp: Path, team: Path, name: str, text: str) -> None:
    """A teammate adds NAME beside the project's memories with plain git (no memsync)."""
    work = tmp / "plain-clone"
    git("clone", "-q", str(team), str(work), cwd=tmp)
    index = next(p for p in work.rglob("MEMORY.md") if ".git" not in p.parts)
    (index.parent / name).write_text(text, encoding="utf-8")
    with index.open("a", encoding="utf-8") as out:
        out.write(f"- [{name}]({name}) — added by hand\n")
    git("add", "-A", cwd=work)
    git("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "add", cwd=work)
    git("push", "-q", "origin", "HEAD", cwd=work)


def _setup(tmp: Path, machines: list[Machine], remotes: tuple[Path, Path], text: str) -> tuple:
    private, team = remotes
    alice, _, bob = machines
    pa = setup_machine(alice, private, team, "src/api")
    write_memory(memory_dir(alice, pa) / "team", "notes.md", "notes", "Deploys on Fridays.\n")
    (memory_dir(alice, pa) / "team" / "MEMORY.md").write_text(
        "- [Notes](notes.md) — notes\n", encoding="utf-8"
    )
    alice.memsync("push", "--scope", "team", cwd=pa)
    pb = setup_machine(bob, private, team, "code/api")
    _commit_on_remote(tmp, team, "ci.md", text)
    return alice, pa, bob, pb


def test_a_secret_pulled_from_the_team_remote_is_told(
    tmp_path: Path, machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    token = _token("remote")
    text = f"---\nname: ci\ndescription: ci\ntype: project\n---\nCI token: {token}\nRuns.\n"
    alice, pa, bob, pb = _setup(tmp_path, machines, remotes, text)
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa)
    out = pulled.stdout + pulled.stderr
    assert "ci.md:6" in out and "github-pat" in out and "[secret]" in out, out
    assert "team remote" in out and "rotate" in out, out
    assert token not in out and token[:12] not in out
    # A teammate's session start: the hook's systemMessage says it too.
    hook = json.loads(bob.memsync("pull", "--hook", cwd=pb, stdin="{}").stdout)
    message = hook.get("systemMessage", "")
    assert "ci.md:6" in message and "github-pat" in message and "rotate" in message, hook
    assert token not in json.dumps(hook)


def test_a_user_memory_pulled_from_the_team_remote_is_told(
    tmp_path: Path, machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    text = "---\nname: alice\ndescription: leave\ntype: user\n---\nAlice is on leave.\n"
    alice, pa, _, _ = _setup(tmp_path, machines, remotes, text)
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa)
    out = pulled.stdout + pulled.stderr
    assert "ci.md" in out and "[user-in-team]" in out and "team remote" in out, out
    # A teammate who joins later: `init` says it too.
    desk = machines[1]
    project = desk.checkout_project(ORIGIN, "work/api")
    init = desk.memsync("init", "--private", str(remotes[0]), "--team", str(remotes[1]),
                        "--no-hooks", cwd=project)  # fmt: skip
    said = init.stdout + init.stderr
    assert "on the team remote ci.md:4" in said and "[user-in-team]" in said, said
    assert "private memory of the person" in said, said
