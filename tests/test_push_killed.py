"""A push killed after the remote took it (a session's end hook cut short, a power loss):
the next run recovers by itself (SPEC 4), and the next edit is an edit, not a conflict with
this machine's own commit (a review's SIGKILL brought replaced text back)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, _pythonpath, memory_dir, setup_machine
from testing.memories import write_memory


def test_a_push_killed_after_the_remote_took_it_leaves_the_next_edit_a_plain_edit(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    project = setup_machine(alice, private, None, "src/api")
    live = memory_dir(alice, project)
    write_memory(live, "note.md", "note", "line v1\n")
    alice.memsync("push", cwd=project)
    write_memory(live, "note.md", "note", "line v2\n")
    taken = tmp_path / "taken"
    hook = private / "hooks" / "post-receive"
    hook.write_text(f"#!/bin/sh\ntouch {taken}\nsleep 30\n", encoding="utf-8")
    hook.chmod(0o755)
    env = {**os.environ, **alice.env, "PYTHONPATH": _pythonpath()}
    with subprocess.Popen(
        [sys.executable, "-m", "memsync", "push"],
        cwd=project,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    ) as pushing:
        for _ in range(600):
            if taken.exists():
                break
            time.sleep(0.05)
        os.killpg(pushing.pid, signal.SIGKILL)
    hook.unlink()
    assert "line v2" in git("show", "main:acme-api/note.md", cwd=private)
    write_memory(live, "note.md", "note", "line v3\n")  # the person replaces v2
    result = alice.memsync("push", cwd=project)
    assert "kept both" not in result.stdout + result.stderr
    for text in ((live / "note.md").read_text(), git("show", "main:acme-api/note.md", cwd=private)):
        assert "line v3" in text and "line v2" not in text
