"""The watchdog's answer: when it ends a hook, the session still gets what was known early
(the team memory section) and the person is told why, once; and a run that answered first
is never answered twice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import sys, time
from memsync.sync.hookoutput import HookOutput, Section
from memsync.sync import hookwatch
output = HookOutput("SessionStart").with_section(Section("Team memory:", ("- [Deploys](d.md)",)))
hookwatch.set_fallback(output, "the remote did not answer; this session has the memory here")
hookwatch.start_watchdog(1.0, "memsync pull")
if sys.argv[1] == "answered":
    hookwatch.emit(HookOutput("SessionStart").with_person("memsync: the run's own answer"))
    time.sleep(2)  # a process that goes on (a test runner): the watchdog must not end it
    print("still running")
else:
    time.sleep(30)
"""


def run(mode: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MEMSYNC_HOME": str(tmp_path / "home")}
    env["MEMSYNC_CONFIG"] = str(tmp_path / "config.yaml")
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, mode],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_the_watchdog_prints_the_fallback_with_why(tmp_path: Path) -> None:
    done = run("hung", tmp_path)
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["additionalContext"].startswith("Team memory:")
    assert "- [Deploys](d.md)" in answer["hookSpecificOutput"]["additionalContext"]
    assert answer["systemMessage"] == (
        "memsync: memsync pull stopped after 1 s; the next run finishes it (the remote did not"
        " answer; this session has the memory here)"
    )
    assert "memsync pull stopped after 1 s" in done.stderr


def test_a_run_that_answered_is_not_answered_again(tmp_path: Path) -> None:
    done = run("answered", tmp_path)
    assert done.returncode == 0
    answer, after = done.stdout.splitlines()
    assert json.loads(answer) == {"systemMessage": "memsync: the run's own answer"}
    assert after == "still running"
    assert "stopped after" not in done.stderr
