"""Two projects bound to one team store share its clone (a folder each), so a push from one
sends the whole branch: the other project's committed files too. The push report names them
(h2): before, `pushed:` listed this project's files only and the other's went out unsaid.

Real git, as in tests/test_review_heldback.py: alice's api and web projects on one team remote.
"""

from __future__ import annotations

import json
from pathlib import Path

from testing.gitrepo import git
from testing.machines import Machine, setup_machine
from testing.memories import write_memory
from testing.reviewteam import bind_team, team_dir


def test_a_push_names_the_other_projects_files_it_sent(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice, pa, _, _, remote = bind_team(machines, tmp_path)
    private = tmp_path / "remotes" / "private.git"
    pw = setup_machine(alice, private, remote, "src/web", origin="git@github.com:Acme/Web.git")
    web = team_dir(alice, pw)
    write_memory(web, "web.md", "web", "Web note.\n", description="web")
    (web / "MEMORY.md").write_text("- [Web](web.md) — web\n")
    alice.memsync("push", "--review", "--scope", "team", cwd=pw)  # committed, sent for review
    api = team_dir(alice, pa)
    write_memory(api, "api.md", "api", "Api note.\n", description="api")

    pushed = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    files = git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    (folder,) = {p.split("/")[0] for p in files if p.endswith("/web.md")}
    assert "  pushed: api.md\n" in pushed, pushed
    assert (
        f"  pushed from other folders of this store (committed there, not yet pushed): "
        f"{folder}/MEMORY.md, {folder}/web.md\n"
    ) in pushed, pushed
    (report,) = json.loads(alice.memsync("push", "--scope", "team", "--json", cwd=pa).stdout)
    assert report["sent_elsewhere"] == [], report  # nothing more went out


def test_the_session_end_hook_names_the_other_projects_files_it_sent(
    machines: list[Machine], tmp_path: Path
) -> None:
    """i1: `push --hook` sent the other project's committed files as `push` does, and its
    message said nothing of them (only `push` and `--json` named them)."""
    alice, pa, _, _, remote = bind_team(machines, tmp_path)
    private = tmp_path / "remotes" / "private.git"
    pw = setup_machine(alice, private, remote, "src/web", origin="git@github.com:Acme/Web.git")
    web = team_dir(alice, pw)
    write_memory(web, "web.md", "web", "Web note.\n", description="web")
    alice.memsync("push", "--review", "--scope", "team", cwd=pw)  # committed, not pushed
    write_memory(team_dir(alice, pa), "api.md", "api", "Api note.\n", description="api")

    stdin = json.dumps({"cwd": str(pa), "hook_event_name": "SessionEnd"})
    hook = alice.memsync("push", "--hook", cwd=pa, stdin=stdin)
    message = json.loads(hook.stdout or "{}").get("systemMessage", "")  # nothing said: ""
    files = git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    (folder,) = {p.split("/")[0] for p in files if p.endswith("/web.md")}
    said = (
        "memsync: team: pushed from other folders of this store (committed there, not yet "
        f'pushed): "{folder}/web.md"'
    )
    assert said in message.splitlines(), message
    # Only when it applies: the next session end sends nothing of another folder.
    write_memory(team_dir(alice, pa), "api.md", "api", "Api note, again.\n", description="api")
    again = alice.memsync("push", "--hook", cwd=pa, stdin=stdin).stdout
    assert "other folders" not in again, again
