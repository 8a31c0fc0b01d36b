"""Small things of the command line, through the installed `memsync` (issue 17, item 5).

`hooks install` edits settings.json as text and warns about a second copy in the other
scope; `promote` applies the team rules before moving anything; `-h` everywhere, the
choices of `--scope`/`--format` in the help, and `+`/`~`/`-` for added/changed/removed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testing.gitrepo import make_bare_remote
from testing.machines import Machine, installed, memory_dir, setup_machine
from testing.memories import write_memory

# Hand-formatted: four spaces, an inline object, keys in the person's order, a blank line.
SETTINGS = """{
    "model": "opus",
    "env": {"EDITOR": "vim", "PAGER": "less"},

    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
        ]
    },
    "permissions": {
        "allow": [ "Bash(git status)" ]
    }
}
"""


def test_hooks_install_keeps_formatting_and_order(machines: list[Machine]) -> None:
    alice = machines[0]
    settings = alice.claude_dir / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(SETTINGS)
    done = installed(alice, "hooks", "install", cwd=alice.home)
    assert done.returncode == 0, done.stderr
    text = settings.read_text()
    data = json.loads(text)
    assert list(data) == ["model", "env", "hooks", "permissions"]
    assert list(data["hooks"]) == ["PreToolUse", "SessionStart", "SessionEnd"]
    # Every line the person wrote is still there, as written.
    for line in SETTINGS.splitlines():
        if line.strip() not in ("}", "]", "},"):
            assert line in text.splitlines(), line
    assert '        "SessionStart": [' in text  # new entries follow the file's indentation
    assert installed(alice, "hooks", "install", cwd=alice.home).stdout.startswith(
        "memsync hooks already up to date"
    )
    installed(alice, "hooks", "uninstall", cwd=alice.home)
    assert settings.read_text() == SETTINGS  # byte for byte


def test_hooks_in_two_scopes_are_warned_about(machines: list[Machine], tmp_path: Path) -> None:
    alice = machines[0]
    project = alice.checkout_project("https://github.com/acme/web")
    done = installed(alice, "hooks", "install", "--scope", "project", cwd=project)
    assert done.returncode == 0 and "warning" not in done.stderr
    local = project / ".claude" / "settings.local.json"
    assert "pull --hook" in local.read_text()
    user = installed(alice, "hooks", "install", cwd=project)
    assert user.returncode == 0
    assert f"warning: {local} also runs memsync's hooks" in user.stderr
    assert "run each twice" in user.stderr
    assert f"memsync hooks uninstall --settings {local}" in user.stderr
    back = installed(alice, "hooks", "install", "--scope", "project", cwd=project)
    assert str(alice.claude_dir / "settings.json") + " also runs memsync's hooks" in back.stderr
    # `hooks status` says so too, in either scope.
    status = installed(alice, "hooks", "status", cwd=project)
    assert status.returncode == 0
    assert f"warning: {local} also runs memsync's hooks" in status.stderr
    as_json = json.loads(installed(alice, "hooks", "status", "--json", cwd=project).stdout)
    assert "run each twice" in as_json["warnings"][0]
    installed(alice, "hooks", "uninstall", "--scope", "project", cwd=project)
    assert "warning" not in installed(alice, "hooks", "status", cwd=project).stderr
    # `--settings FILE` (TEAM.md's form, and the one the warning itself suggests) compared the
    # file with the project's other file only: a second copy was installed without a word.
    user_file = alice.claude_dir / "settings.json"
    for target in (local, project / ".claude" / "settings.json"):
        by_path = installed(alice, "hooks", "install", "--settings", str(target), cwd=project)
        assert f"warning: {user_file} also runs memsync's hooks" in by_path.stderr
        told = installed(alice, "hooks", "status", "--settings", str(target), cwd=project)
        assert f"warning: {user_file} also runs memsync's hooks" in told.stderr
        installed(alice, "hooks", "uninstall", "--settings", str(target), cwd=project)


@pytest.fixture
def solo(machines: list[Machine], tmp_path: Path) -> tuple[Machine, Path]:
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    alice = machines[0]
    return alice, setup_machine(alice, private, team, "src/api")


def test_promote_checks_the_team_rules_before_moving(solo: tuple[Machine, Path]) -> None:
    alice, project = solo
    live = memory_dir(alice, project)
    (live / "bare.md").write_text("No frontmatter at all.\n")
    done = installed(alice, "promote", "bare.md", cwd=project)
    assert done.returncode == 1
    assert "bare.md cannot go to the team store, nothing was moved" in done.stderr
    assert "[frontmatter-missing]" in done.stderr
    assert "memsync promote bare.md" in done.stderr  # the command to run after the fix
    assert (live / "bare.md").exists() and not (live / "team" / "bare.md").exists()
    write_memory(live, "mine.md", "mine", "About me.\n", type_="user")
    refused = installed(alice, "promote", "mine.md", cwd=project)
    assert refused.returncode == 1 and "[user-in-team]" in refused.stderr
    assert not (live / "team" / "mine.md").exists()


COMMANDS = [
    ["init"], ["pull"], ["push"], ["sync"], ["status"], ["diff"], ["log"], ["check"],
    ["consolidate"], ["review"], ["promote"], ["merge-file"], ["scaffold"],
    ["hooks"], ["hooks", "install"], ["hooks", "uninstall"], ["hooks", "status"],
]  # fmt: skip


def test_dash_h_everywhere_with_the_choices(machines: list[Machine]) -> None:
    alice = machines[0]
    assert "Usage: memsync" in installed(alice, "-h", cwd=alice.home).stdout
    for command in COMMANDS:
        done = installed(alice, *command, "-h", cwd=alice.home)
        assert done.returncode == 0, (command, done.stderr)
        assert f"Usage: memsync {' '.join(command)}" in done.stdout, command
    choices = [
        (("pull",), "private|team|all"),
        (("status",), "private|team|all"),
        (("check",), "text|json|sarif|github"),
        (("review",), "markdown|json"),
        (("consolidate",), "markdown|json"),
        (("consolidate",), "project-reference|all"),
        (("hooks", "install"), "user|project"),
    ]
    for command, shown in choices:
        assert shown in installed(alice, *command, "-h", cwd=alice.home).stdout, command


def test_added_changed_removed_signs(solo: tuple[Machine, Path], machines: list[Machine]) -> None:
    alice, project = solo
    live = memory_dir(alice, project)
    write_memory(live, "a.md", "alpha", "A\n")
    write_memory(live, "b.md", "beta", "B\n")
    installed(alice, "push", cwd=project)
    (live / "a.md").write_text((live / "a.md").read_text() + "more\n")
    (live / "b.md").unlink()
    write_memory(live, "c.md", "gamma", "C\n")
    installed(alice, "push", cwd=project)
    log = installed(alice, "log", "--scope", "private", cwd=project).stdout
    assert "      ~ a.md" in log and "      - b.md" in log and "      + c.md" in log
    diff = installed(alice, "diff", "--scope", "private", "--no-fetch", cwd=project)
    assert diff.returncode == 0
