"""A session start whose remote hangs: the hook still answers with the team memory, inside
its limit, and says why. Real git over a stand-in ssh that waits before serving (an adversarial
review of the real client saw the hook killed by its own watchdog, printing nothing)."""

from __future__ import annotations

import io
import json
import os
import sys
import time
from pathlib import Path

import pytest

from testing.gitrepo import make_bare_remote
from testing.machines import ORIGIN, Machine
from testing.memories import write_memory

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the stand-in ssh is sh")

SLOW_SSH = """#!/bin/sh
# A stand-in ssh: waits $SLOW seconds (a link that drops packets), then serves locally.
if [ "$1" = "-G" ]; then exit 0; fi
sleep "${SLOW:-0}"
for last; do :; done
exec sh -c "$last"
"""


def live_dirs(machine: Machine, project: Path) -> dict[str, Path]:
    out = machine.memsync("status", "--json", cwd=project, check=False)
    return {s["scope"]: Path(s["live_dir"]) for s in json.loads(out.stdout)}


@pytest.fixture
def hanging(machines: list[Machine], tmp_path: Path) -> tuple[Machine, Path]:
    """alice, her team memory pushed, then both stores reached over an ssh that hangs."""
    alice = machines[0]
    remotes = {s: make_bare_remote(tmp_path / "remotes" / f"{s}.git") for s in ("private", "team")}
    project = alice.checkout_project(ORIGIN)
    ssh = tmp_path / "slow-ssh"
    ssh.write_text(SLOW_SSH)
    ssh.chmod(0o755)
    alice.env["GIT_SSH_COMMAND"] = str(ssh)
    urls = {s: f"ssh://stand-in{path}" for s, path in remotes.items()}
    alice.memsync(
        "init", "--private", urls["private"], "--team", urls["team"], "--no-hooks", cwd=project
    )
    team = live_dirs(alice, project)["team"]
    write_memory(team, "deploy.md", "deploy", "Deploys go through staging.\n")
    (team / "MEMORY.md").write_text("- [Deploys](deploy.md) — through staging\n", encoding="utf-8")
    alice.memsync("push", cwd=project)
    config = Path(alice.env["MEMSYNC_CONFIG"])
    text = config.read_text(encoding="utf-8").replace("pull_timeout: 10.0", "pull_timeout: 3.0")
    config.write_text(text, encoding="utf-8")
    alice.env["SLOW"] = "30"
    return alice, project


def session_start(alice: Machine, project: Path) -> dict[str, object]:
    hook_input = json.dumps({"cwd": str(project), "hook_event_name": "SessionStart"})
    out = alice.memsync("pull", "--hook", stdin=hook_input, cwd=project)
    assert out.returncode == 0
    assert out.stdout.strip(), f"the hook said nothing: {out.stderr}"
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_a_hanging_remote_still_gives_the_session_its_team_memory(
    hanging: tuple[Machine, Path],
) -> None:
    answer = session_start(*hanging)
    context = answer["hookSpecificOutput"]["additionalContext"]  # type: ignore[index]
    assert "Team memory" in context
    assert "- [Deploys](deploy.md) — through staging" in context


def test_a_remote_silent_for_days_is_told_at_session_start(hanging: tuple[Machine, Path]) -> None:
    alice, project = hanging
    days_ago = time.time() - 3 * 86_400
    stamps = list(Path(alice.env["MEMSYNC_HOME"]).rglob("memsync-fetched"))
    assert len(stamps) == 2
    for stamp in stamps:
        os.utime(stamp, (days_ago, days_ago))
    answer = session_start(alice, project)
    message = str(answer.get("systemMessage"))
    assert "the remote has been unreachable for 3 day(s)" in message
    assert "Team memory" in answer["hookSpecificOutput"]["additionalContext"]  # type: ignore[index]


def test_a_sync_that_fails_still_gives_the_session_its_team_memory(
    machines: list[Machine],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An unexpected error in the sync engine: the person is told, and the model still gets
    the team memory read before the sync began."""
    from memsync.sync import engine, hookmode

    alice = machines[0]
    remotes = {s: make_bare_remote(tmp_path / "remotes" / f"{s}.git") for s in ("private", "team")}
    project = alice.checkout_project(ORIGIN)
    alice.memsync(
        "init",
        "--private",
        str(remotes["private"]),
        "--team",
        str(remotes["team"]),
        "--no-hooks",
        cwd=project,
    )
    team = live_dirs(alice, project)["team"]
    write_memory(team, "deploy.md", "deploy", "Deploys go through staging.\n")
    (team / "MEMORY.md").write_text("- [Deploys](deploy.md) — through staging\n", encoding="utf-8")

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "sync_project", broken)
    with alice.active():
        monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"cwd": str(project)})))
        hookmode.run_hook("pull", project, ("private", "team"))
    answer = json.loads(capsys.readouterr().out)
    assert (
        answer["systemMessage"] == "memsync: pull failed: RuntimeError('boom'); run `memsync pull`"
    )
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "- [Deploys](deploy.md) — through staging" in context


def test_hooks_that_run_out_of_time_tell_the_person_and_count_the_runs(
    hanging: tuple[Machine, Path],
) -> None:
    """F21: a remote slower than the hook's limit (a large object, a slow link) timed every
    hook out with a word on stderr only; a killed fetch keeps nothing, so it never ended."""
    alice, project = hanging
    began = time.monotonic()
    first = str(session_start(alice, project).get("systemMessage"))
    assert time.monotonic() - began < 3 + 2 + 5  # the limit, the watchdog's margin, start-up
    assert "memsync: private: not synced, the remote did not answer in time (" in first
    assert "run `memsync pull` once in a terminal" in first
    assert "`network_timeout` in the config" in first
    assert "in a row" not in first
    second = str(session_start(alice, project).get("systemMessage"))
    assert "memsync: private: not synced, the remote did not answer in time (" in second
    assert "2 runs in a row ran out of time" in second
    status = alice.memsync("status", cwd=project, check=False).stdout
    assert "2 runs in a row ran out of time" in status
    # A fetch the remote answers ends the row: nothing more is said.
    alice.env["SLOW"] = "0"
    alice.memsync("pull", cwd=project)
    assert "ran out of time" not in str(session_start(alice, project).get("systemMessage"))
    assert "in a row" not in alice.memsync("status", cwd=project, check=False).stdout
