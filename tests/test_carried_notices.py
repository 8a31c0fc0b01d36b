"""A session end's lines told at the next start: a state fixed since is not told again.

Claude Code shows nothing a SessionEnd hook prints, so `push --hook` keeps its lines and the
next `pull --hook` tells them (`sync.notices`). An event (a secret sent, a merge) is told once
always; a state (an unusable folder, a file not synced, a held lock, an unreachable remote)
only while no run since found it gone. Real git, file:// remotes, simulated machines.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import string
import subprocess
import sys
import time
from pathlib import Path

from memsync.git import remote as gitremote
from memsync.sync import notices
from memsync.sync.noticetype import FILES, LOCK, RUN, Notice
from testing.hookprobe import bindings_of, modules_loaded, run_pull_hook
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory

CARRIED = "memsync: at the last session end, "


def _hook(machine: Machine, command: str, project: Path) -> str:
    """The person's lines (`systemMessage`) of one `COMMAND --hook` run ("" when none)."""
    result = machine.memsync(command, "--hook", cwd=project, stdin="{}")
    return str(json.loads(result.stdout).get("systemMessage", "")) if result.stdout else ""


def _synced(machine: Machine, remote: Path) -> tuple[Path, Path]:
    """MACHINE's project syncing a private store at REMOTE, one memory pushed; (project, live)."""
    project = setup_machine(machine, remote, None, "src/api")
    live = memory_dir(machine, project)
    write_memory(live, "deploy.md", "deploy freeze", "No deploys on Friday.\n")
    machine.memsync("push", cwd=project)
    return project, live


def _short_lock_wait(machine: Machine) -> None:
    config = machine.home / ".config" / "memsync" / "config.yaml"
    config.write_text(config.read_text().replace("lock_timeout: 30.0", "lock_timeout: 0.5"))


def _hold(lock: Path, pid: int) -> None:
    """LOCK held by the live process PID on this host: a holder memsync never takes over."""
    holder = {"pid": pid, "host": socket.gethostname(), "command": "push", "since": time.time()}
    lock.write_text(json.dumps(holder))


def test_a_memory_folder_fixed_since_the_session_end_is_not_told_as_a_file(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """The end said the folder was a file; the person moved the file away: the start told the
    old line next to `the memory folder was missing; restored it`."""
    alice = machines[0]
    project, live = _synced(alice, remotes[0])
    shutil.rmtree(live)
    live.write_text("not a folder\n", encoding="utf-8")
    end = _hook(alice, "push", project)
    assert f"the memory folder {live} is a file, not a folder" in end
    live.unlink()  # the person moves it out of the way
    start = _hook(alice, "pull", project)
    assert (
        start
        == f"memsync: private: the memory folder was missing; restored it from the store: {live}"
    )
    assert (live / "deploy.md").is_file()


def test_a_memory_folder_still_a_file_at_the_start_is_told_once(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    alice = machines[0]
    project, live = _synced(alice, remotes[0])
    shutil.rmtree(live)
    live.write_text("not a folder\n", encoding="utf-8")
    _hook(alice, "push", project)
    start = _hook(alice, "pull", project)
    assert start.count("is a file, not a folder") == 1
    assert start.startswith(f"memsync: private: the memory folder {live} is a file")


def test_a_file_not_synced_then_deleted_is_not_told_but_a_secret_sent_is(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """`not synced: me.md … ` after me.md was deleted sends the person after a file that is
    gone; the secret the same end pushed is an event: told however the start went."""
    alice = machines[0]
    project, live = _synced(alice, remotes[0])
    token = "ghp_" + "".join(random.Random("k1").choices(string.ascii_letters, k=36))
    write_memory(live, "me.md", "me", "<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n")
    write_memory(live, "token.md", "token", f"Deploy token: {token}\n")
    end = _hook(alice, "push", project)
    assert "memsync: private: not synced: me.md:" in end
    assert "memsync: private: pushed a possible secret: token.md:6:" in end
    (live / "me.md").unlink()
    start = _hook(alice, "pull", project)
    assert start.startswith(CARRIED + "private: pushed a possible secret: token.md:6:")
    assert "me.md" not in start
    assert len(start.splitlines()) == 1
    assert _hook(alice, "pull", project) == ""  # told once


def test_a_file_still_not_synced_at_the_start_is_told_in_the_starts_words(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    alice = machines[0]
    project, live = _synced(alice, remotes[0])
    write_memory(live, "me.md", "me", "<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n")
    end = _hook(alice, "push", project)
    start = _hook(alice, "pull", project)
    assert start == end  # the start's own line, not the end's again beside it
    assert start.startswith("memsync: private: not synced: me.md:")


def test_a_file_deleted_is_not_told_though_the_starts_run_could_not_look(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """The start's run found the store locked, so it scanned nothing: the file's absence alone
    says `not synced: me.md` is over; the lock is the start's to tell."""
    alice = machines[0]
    project, live = _synced(alice, remotes[0])
    write_memory(live, "me.md", "me", "<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n")
    assert "not synced: me.md:" in _hook(alice, "push", project)
    (live / "me.md").unlink()
    _short_lock_wait(alice)
    _hold(bindings_of(alice, project)[0].lock_path, os.getpid())
    start = _hook(alice, "pull", project)
    assert start.startswith("memsync: private: the private store is busy: locked by pid")
    assert "me.md" not in start and CARRIED not in start


def test_a_lock_released_since_the_session_end_is_not_told(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """`locked by … delete <lock>` told after the lock was released could have someone
    delete the lock of a run that took it since. The start finds nothing new (quick path)."""
    alice = machines[0]
    project, _ = _synced(alice, remotes[0])
    _short_lock_wait(alice)
    lock = bindings_of(alice, project)[0].lock_path
    _hold(lock, os.getpid())
    end = _hook(alice, "push", project)
    assert f"locked by pid {os.getpid()}" in end and str(lock) in end
    lock.unlink()
    out, _, path = run_pull_hook(alice, project)
    assert path == "QUICK"
    assert "systemMessage" not in out


def test_a_lock_held_by_another_process_at_the_start_names_that_one(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    alice = machines[0]
    project, _ = _synced(alice, remotes[0])
    _short_lock_wait(alice)
    lock = bindings_of(alice, project)[0].lock_path
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as first:
        try:
            _hold(lock, first.pid)
            end = _hook(alice, "push", project)
            assert f"locked by pid {first.pid}" in end
        finally:
            first.kill()
    _hold(lock, os.getpid())  # the first holder ended; another run holds the lock now
    start = _hook(alice, "pull", project)
    assert f"locked by pid {os.getpid()}" in start
    assert f"pid {first.pid}" not in start
    assert CARRIED not in start


def test_a_remote_back_since_the_session_end_is_not_told_unreachable(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    alice = machines[0]
    project, _ = _synced(alice, remotes[0])
    stamp = bindings_of(alice, project)[0].clone_dir / gitremote.ANSWERED
    three_days_ago = time.time() - 3 * 86_400
    os.utime(stamp, (three_days_ago, three_days_ago))
    moved = remotes[0].with_name("moved.git")
    remotes[0].rename(moved)
    end = _hook(alice, "push", project)
    assert "the remote has been unreachable for 3 day(s)" in end
    moved.rename(remotes[0])
    assert _hook(alice, "pull", project) == ""


def test_a_push_refused_is_told_until_a_push_goes_out(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """The start's pull sends nothing: a push refused with commits left unsent is still true
    after it, and told. A later session end whose push sends them settles it, though no start
    ran between (the other machine then has the memory)."""
    alice, desktop = machines[0], machines[1]
    project, live = _synced(alice, remotes[0])
    hook = remotes[0] / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'refused by policy' >&2\nexit 1\n", encoding="utf-8")
    hook.chmod(0o755)
    write_memory(live, "new.md", "new", "Something new.\n")
    end = _hook(alice, "push", project)
    assert "refused by policy" in end
    start = _hook(alice, "pull", project)
    assert start == CARRIED + end.removeprefix("memsync: ")
    assert _hook(alice, "push", project) == end  # refused again: kept for the next start
    hook.unlink()
    assert _hook(alice, "push", project) == ""  # sent: what the earlier end said is over
    assert _hook(alice, "pull", project) == ""
    other = setup_machine(desktop, remotes[0], None, "src/api")
    assert (memory_dir(desktop, other) / "new.md").is_file()


def test_notices_an_older_memsync_kept_are_told_and_odd_lines_never_fail_the_hook(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    alice = machines[0]
    project, _ = _synced(alice, remotes[0])
    key = bindings_of(alice, project)[0].project_key
    with alice.active():
        path = notices._path(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "memsync: private: merge: kept both versions of a.md (`memsync log` has both versions)\n"
        '{"text": "memsync: private: a newer kind", "scope": "private", "state": "later"}\n'
        '{"text": 3}\n'
        "{not json\n",
        encoding="utf-8",
    )
    start = _hook(alice, "pull", project)
    assert start.splitlines() == [
        CARRIED + "private: merge: kept both versions of a.md (`memsync log` has both versions)",
        CARRIED + "private: a newer kind",
        CARRIED + '{"text": 3}',
        CARRIED + "{not json",
    ]
    assert not path.exists()


def test_each_line_is_kept_as_an_event_or_as_the_state_a_later_run_checks(
    tmp_path: Path,
) -> None:
    from memsync.check.findings import Finding
    from memsync.errors import ExitCode
    from memsync.model.safety import Skipped
    from memsync.sync.hooklines import person_lines, person_notices
    from memsync.sync.report import StoreReport

    secret = Finding("token.md", 3, "secret", "error", "possible secret (github-pat)")
    marker = Finding("me.md", 6, "conflict-marker", "error", "conflict marker")
    reports = [
        StoreReport("private", "p", error="busy", error_code=ExitCode.LOCKED),
        StoreReport("team", "t", error="refused", error_code=1, ahead=2),
        StoreReport(
            "private",
            "p",
            blocked=(secret, marker),
            live_dir=str(tmp_path),
            offline="unreachable",
            unreachable_since=0.0,
            skipped=(Skipped("odd.md", "a symlink"),),
            decisions=("kept both versions of a.md",),
            notes=("the memory folder was missing; restored it",),
        ),
    ]
    told = person_notices(reports, now=3 * 86_400.0)
    assert [n.text for n in told] == person_lines(reports, now=3 * 86_400.0)
    assert [(n.scope, n.state, n.unsent) for n in told] == [
        ("private", LOCK, False),
        ("team", RUN, True),
        ("private", RUN, False),  # unreachable for days
        ("private", "", False),  # a blocked secret: an event
        ("private", FILES, False),
        ("private", RUN, False),  # skipped
        ("private", "", False),  # a merge decision
        ("private", "", False),  # a note
    ]
    assert told[4].paths == ("me.md",) and told[4].live_dir == str(tmp_path)


def test_a_session_end_drops_the_kept_states_its_own_runs_found_gone(
    machines: list[Machine],
) -> None:
    from memsync.sync.report import StoreReport

    kept = [
        Notice("memsync: private: busy", "private", LOCK),
        Notice("memsync: team: refused", "team", RUN, unsent=True),
        Notice("memsync: private: merge: a.md", "private"),
        Notice("memsync: team: not synced: me.md", "team", FILES, ("me.md",), "/x"),
    ]
    with machines[0].active():
        notices.keep("p", kept)
        assert notices.take("p") == kept  # stored typed, as said
        notices.keep("p", kept)
        # The end's private run took the lock; its team run finished with a commit unsent.
        ran = [StoreReport("private", "p"), StoreReport("team", "t", ahead=1)]
        notices.keep("p", [Notice("memsync: private: merge: b.md", "private")], ran)
        assert [n.text for n in notices.take("p")] == [
            "memsync: team: refused",
            "memsync: private: merge: a.md",
            "memsync: private: merge: b.md",
        ]  # me.md is gone from /x: not synced no more
        notices.keep("p", kept[:1])
        notices.keep("p", [], [StoreReport("private", "p")])
        assert notices.take("p") == []


def test_a_start_with_nothing_carried_loads_nothing_of_it(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """The usual session start (nothing kept, nothing new) stays as lean as before."""
    alice = machines[0]
    project, _ = _synced(alice, remotes[0])
    run_pull_hook(alice, project)  # records what it fetched: the next start is the quick one
    assert run_pull_hook(alice, project)[2] == "QUICK"
    assert modules_loaded(alice, project, ["memsync.sync.noticetype"]) == []
