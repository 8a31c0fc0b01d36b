"""Defects a new user's walkthrough found (docs/WALKTHROUGH.md), through the installed command.

Each test drives the `memsync` console script as a person would and asserts what they read.
"""

from __future__ import annotations

import json
from pathlib import Path

from testing.gitrepo import make_bare_remote
from testing.machines import Machine, installed, memory_dir, setup_machine
from testing.memories import write_memory


def test_consolidate_dry_run_shows_rewritten_index_lines_before_and_after(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "deploy.md").write_text(
        "---\nname: Deploy freeze\ndescription: no deploys on fridays\n"
        "metadata:\n  type: project\n---\n\nNo deploys on Fridays.\n"
    )
    old = "- [deploy](deploy.md) — freeze started yesterday"
    (folder / "MEMORY.md").write_text(old + "\n")
    done = installed(alice, "consolidate", str(folder), "--dry-run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    new = "- [Deploy freeze](deploy.md) — no deploys on fridays"
    # Like every other rewritten line: the old one with `-`, the new one with `+`.
    at = lines.index(f"- {old}")
    assert lines[at + 1] == f"+ {new}"
    assert (folder / "MEMORY.md").read_text() == old + "\n"  # a dry run changes nothing
    as_json = installed(alice, "consolidate", str(folder), "--dry-run", "--json", cwd=tmp_path)
    assert '"before": "- [deploy](deploy.md)' in as_json.stdout


def test_hook_mode_escapes_paths_for_the_terminal(machines: list[Machine], tmp_path: Path) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    project = setup_machine(alice, private, team, "src/api")
    team_dir = memory_dir(alice, project) / "team"
    # A personal memory in the team folder is held back, its name in rich markup; a file
    # whose name carries a terminal escape sequence and a bidirectional override is skipped.
    write_memory(team_dir, "me [/b][red].md", "me", "About me.\n", type_="user")
    write_memory(team_dir, "x\x1b[2J\u202ey.md", "x", "X.\n")
    hook_input = json.dumps({"cwd": str(project), "hook_event_name": "SessionEnd"})
    done = installed(alice, "push", "--hook", cwd=project, stdin=hook_input)
    assert done.returncode == 0
    message = json.loads(done.stdout)["systemMessage"]
    for text in (message, done.stderr):
        assert "\x1b" not in text and "\u202e" not in text
        assert "me [/b][red].md" in text  # printed as written, not as markup
        assert "[2J" in text  # the escape sequence is shown, escaped
    assert "not synced: me [/b][red].md" in message
    assert "user-in-team" in message
    # A broken configuration file whose path carries controls: named, escaped, exit 0.
    config = tmp_path / "c\x1b[2J\u202e" / "config.yaml"
    config.parent.mkdir()
    config.write_text("stores: [unclosed\n")
    broken = Machine(alice.name, alice.home, {**alice.env, "MEMSYNC_CONFIG": str(config)})
    done = installed(broken, "pull", "--hook", cwd=project, stdin=hook_input)
    assert done.returncode == 0
    message = json.loads(done.stdout)["systemMessage"]
    for text in (message, done.stderr):
        assert "\x1b" not in text and "\u202e" not in text
        assert "c\\x1b[2J\\u202e" in text and "config.yaml" in text
    assert "Traceback" not in done.stderr
