"""Which hooks are memsync's, what install keeps of them, and the timeouts they declare.

A hook the person tuned (`push --hook --review`, `--scope team`) stays as they wrote it; a
hook of another program that mentions memsync is never touched; the declared timeouts
follow the config's `pull_timeout` / `push_timeout`. Through the installed `memsync`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memsync.team import claudehooks as hooks
from memsync.team.claudehooks import HookState
from memsync.team.hookcommand import memsync_command_prefix_for
from testing.machines import Machine, installed

POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell scripts")


def commands(settings: Path) -> dict[str, list[str]]:
    """Every hook command in SETTINGS, per event."""
    data = json.loads(settings.read_text())
    return {
        event: [entry["command"] for group in groups for entry in group["hooks"]]
        for event, groups in data["hooks"].items()
    }


def timeouts(settings: Path) -> dict[str, list[object]]:
    """Every declared hook timeout in SETTINGS, per event."""
    data = json.loads(settings.read_text())
    return {
        event: [entry.get("timeout") for group in groups for entry in group["hooks"]]
        for event, groups in data["hooks"].items()
    }


def status(machine: Machine) -> dict[str, str]:
    out = installed(machine, "hooks", "status", "--json", cwd=machine.home)
    assert out.returncode == 0, out.stderr
    events: dict[str, str] = json.loads(out.stdout)["events"]
    return events


def write_config(machine: Machine, pull: float, push: float) -> None:
    config = Path(machine.env["MEMSYNC_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f"settings:\n  pull_timeout: {pull}\n  push_timeout: {push}\n")


def test_review_and_scope_flags_the_person_added_are_kept(machines: list[Machine]) -> None:
    alice = machines[0]
    settings = alice.claude_dir / "settings.json"
    assert installed(alice, "hooks", "install", cwd=alice.home).returncode == 0
    # TEAM.md §7: a reviewed team edits the SessionEnd hook to push for review.
    text = settings.read_text()
    text = text.replace(" push --hook", " push --hook --review").replace(
        " pull --hook", " pull --hook --scope team"
    )
    settings.write_text(text)
    prefix = commands(settings)["SessionEnd"][0].removesuffix(" push --hook --review")
    assert status(alice) == {"SessionStart": "installed", "SessionEnd": "installed"}
    again = installed(alice, "hooks", "install", cwd=alice.home)
    assert again.stdout.startswith("memsync hooks already up to date"), again.stdout
    assert settings.read_text() == text
    assert commands(settings) == {
        "SessionStart": [f"{prefix} pull --hook --scope team"],
        "SessionEnd": [f"{prefix} push --hook --review"],
    }


def test_a_moved_memsync_keeps_the_flags_after_its_program(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "SessionStart": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": "MEMSYNC_HOSTNAME=lab /usr/bin/python3 -m memsync "
                                    "pull --scope team --hook",
                                    "timeout": 15,
                                }
                            ]
                        }
                    ],
                    "SessionEnd": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": "'/old venv/bin/memsync' push --hook --review "
                                    "2>>/tmp/memsync.log",
                                    "timeout": 30,
                                }
                            ]
                        }
                    ],
                }
            }
        )
    )
    assert set(hooks.hook_status(path, "/opt/bin/memsync").values()) == {HookState.OUTDATED}
    hooks.apply(hooks.plan_install(path, "/opt/bin/memsync"))
    # Only the program changed: the variable, the flags and the redirection are the person's.
    assert commands(path) == {
        "SessionStart": ["MEMSYNC_HOSTNAME=lab /opt/bin/memsync pull --scope team --hook"],
        "SessionEnd": ["/opt/bin/memsync push --hook --review 2>>/tmp/memsync.log"],
    }
    assert set(hooks.hook_status(path, "/opt/bin/memsync").values()) == {HookState.INSTALLED}


def test_a_memsync_hook_after_a_cd_is_memsyncs_and_is_not_added_twice(tmp_path: Path) -> None:
    """`cd /x && memsync push --hook` (a person's wrapped hook) was memsync's before the
    program rule; install must update it, not add a second memsync hook beside it."""
    path = tmp_path / "settings.json"
    start = {"type": "command", "command": "cd /srv && /old/memsync pull --hook", "timeout": 15}
    end = {"type": "command", "command": "true; /old/memsync push --hook --review", "timeout": 30}
    hooks_table = {"SessionStart": [{"hooks": [start]}], "SessionEnd": [{"hooks": [end]}]}
    path.write_text(json.dumps({"hooks": hooks_table}))
    hooks.apply(hooks.plan_install(path, "/opt/bin/memsync"))
    assert commands(path) == {
        "SessionStart": ["cd /srv && /opt/bin/memsync pull --hook"],
        "SessionEnd": ["true; /opt/bin/memsync push --hook --review"],
    }
    assert set(hooks.hook_status(path, "/opt/bin/memsync").values()) == {HookState.INSTALLED}


@POSIX_ONLY
def test_the_kept_review_hook_still_runs_push_for_review(tmp_path: Path) -> None:
    exe = tmp_path / "new bin" / "memsync"
    exe.parent.mkdir()
    exe.write_text('#!/bin/sh\necho "$@" > "$(dirname "$0")/args"\n')
    exe.chmod(0o755)
    path = tmp_path / "settings.json"
    end = {"type": "command", "command": "/gone/memsync push --hook --review", "timeout": 30}
    path.write_text(json.dumps({"hooks": {"SessionEnd": [{"hooks": [end]}]}}))
    hooks.apply(hooks.plan_install(path, memsync_command_prefix_for(exe)))
    subprocess.run(commands(path)["SessionEnd"][0], shell=True, check=True)
    assert (exe.parent / "args").read_text() == "push --hook --review\n"


@pytest.mark.parametrize(
    "command",
    [
        "~/bin/notify-memsync push --hook",
        "/opt/tools/my_memsync pull --hook",
        "echo memsync push --hook",
        "echo a | memsync pull --hook",  # memsync reads the pipe, not Claude Code's JSON
        "logger -t memsync pull --hook",
    ],
)
def test_another_programs_hook_is_left_alone(machines: list[Machine], command: str) -> None:
    alice = machines[0]
    settings = alice.claude_dir / "settings.json"
    settings.parent.mkdir(parents=True)
    event = "SessionStart" if " pull " in command else "SessionEnd"
    theirs = f'{{"hooks": [{{"type": "command", "command": "{command}"}}]}}'
    original = f'{{\n  "hooks": {{\n    "{event}": [{theirs}]\n  }}\n}}\n'
    settings.write_text(original)
    assert status(alice) == {"SessionStart": "missing", "SessionEnd": "missing"}
    assert installed(alice, "hooks", "install", cwd=alice.home).returncode == 0
    text = settings.read_text()
    assert f'    "{event}": [{theirs}, ' in text  # kept byte for byte, still first
    # memsync's own hook is added beside it, not in its place.
    mine = commands(settings)[event][1]
    assert commands(settings)[event] == [command, mine]
    sub = command.split()[-2]
    assert mine.endswith((f" -m memsync {sub} --hook", f"/memsync {sub} --hook"))
    done = installed(alice, "hooks", "uninstall", cwd=alice.home)
    assert done.returncode == 0, done.stderr
    assert settings.read_text() == original


def test_declared_timeouts_follow_the_configured_limits(machines: list[Machine]) -> None:
    alice = machines[0]
    settings = alice.claude_dir / "settings.json"
    assert installed(alice, "hooks", "install", cwd=alice.home).returncode == 0
    assert timeouts(settings) == {"SessionStart": [15], "SessionEnd": [30]}
    write_config(alice, pull=25, push=45)
    # 15 s would cancel a 25 s pull (plus the watchdog's 2 s) before it answers.
    assert status(alice) == {"SessionStart": "outdated", "SessionEnd": "outdated"}
    done = installed(alice, "hooks", "install", cwd=alice.home)
    assert done.stdout.startswith("memsync hooks installed"), done.stdout
    assert timeouts(settings) == {"SessionStart": [30], "SessionEnd": [50]}
    assert status(alice) == {"SessionStart": "installed", "SessionEnd": "installed"}
    # A longer timeout the person chose is kept; the default limits ask no more than before.
    settings.write_text(settings.read_text().replace('"timeout": 50', '"timeout": 55'))
    write_config(alice, pull=10, push=20)
    assert status(alice) == {"SessionStart": "installed", "SessionEnd": "installed"}
    installed(alice, "hooks", "install", cwd=alice.home)
    assert timeouts(settings) == {"SessionStart": [30], "SessionEnd": [55]}


def test_init_declares_the_timeouts_of_its_config(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    alice = machines[0]
    write_config(alice, pull=12.5, push=40)
    project = alice.checkout_project("git@github.com:Acme/API.git")
    alice.memsync("init", "--private", str(remotes[0]), cwd=project)
    assert timeouts(alice.claude_dir / "settings.json") == {
        "SessionStart": [18],
        "SessionEnd": [45],
    }


def test_a_push_limit_over_claude_codes_session_end_cap_is_warned_about(
    machines: list[Machine],
) -> None:
    alice = machines[0]
    write_config(alice, pull=10, push=100)
    done = installed(alice, "hooks", "install", cwd=alice.home)
    assert done.returncode == 0, done.stderr
    assert timeouts(alice.claude_dir / "settings.json")["SessionEnd"] == [105]
    assert "push_timeout needs a SessionEnd hook of 105 s" in done.stderr
    assert "set push_timeout to at most 55" in done.stderr
