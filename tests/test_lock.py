"""The store lock: exclusive, names its holder, recovers from dead holders."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from memsync.errors import ExitCode, LockHeldError
from memsync.sync.lock import read_holder, store_lock


def test_lock_is_exclusive_and_names_the_holder(tmp_path: Path) -> None:
    path = tmp_path / "locks" / "private.lock"
    with store_lock(path, timeout=1, command="pull", store="private"):
        holder = read_holder(path)
        assert holder is not None and holder.pid == os.getpid()
        # A second, live holder (another process) keeps us out.
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        try:
            path.write_text(
                json.dumps(
                    {
                        "pid": child.pid,
                        "host": socket.gethostname(),
                        "command": "push",
                        "since": time.time(),
                    }
                )
            )
            with (
                pytest.raises(LockHeldError) as info,
                store_lock(path, timeout=0.3, command="pull", store="private"),
            ):
                pass
            assert f"pid {child.pid}" in str(info.value)
            assert info.value.exit_code == ExitCode.LOCKED
        finally:
            child.kill()
            child.wait()
    # Ours was overwritten by the simulated holder, so we must not have deleted theirs.
    assert path.exists()


def test_a_lock_of_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "store.lock"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    path.write_text(
        json.dumps({"pid": dead.pid, "host": socket.gethostname(), "command": "push", "since": 0})
    )
    with store_lock(path, timeout=0.5, command="pull", store="team"):
        assert read_holder(path) is not None
        assert read_holder(path).pid == os.getpid()  # type: ignore[union-attr]
    assert not path.exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process start times: Linux")
def test_a_lock_whose_pid_now_names_a_younger_process_is_taken_over(tmp_path: Path) -> None:
    """After a power loss the recorded pid is often another, later process's: the lock would
    wedge every run until deleted by hand (found by an adversarial sync review)."""
    path = tmp_path / "store.lock"
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        holder = {"pid": alive.pid, "host": socket.gethostname(), "command": "push"}
        path.write_text(json.dumps({**holder, "since": time.time() - 3600}))  # before it began
        with store_lock(path, timeout=0.5, command="pull", store="team"):
            assert read_holder(path).pid == os.getpid()  # type: ignore[union-attr]
        path.write_text(json.dumps({**holder, "since": time.time()}))  # taken once it ran
        with pytest.raises(LockHeldError), store_lock(path, timeout=0.2, command="pull", store="x"):
            pass
        # Taken a minute before it began: a clock stepped forward since, not a reused pid
        path.write_text(json.dumps({**holder, "since": time.time() - 120}))
        with pytest.raises(LockHeldError), store_lock(path, timeout=0.2, command="pull", store="x"):
            pass
    finally:
        alive.kill()
        alive.wait()


def test_a_half_written_lock_file_is_stale_after_a_moment(tmp_path: Path) -> None:
    path = tmp_path / "store.lock"
    path.write_text("")
    old = time.time() - 60
    os.utime(path, (old, old))
    with store_lock(path, timeout=0.5, command="pull", store="team"):
        pass


def test_a_lock_held_on_another_host_is_respected_until_old(tmp_path: Path) -> None:
    path = tmp_path / "store.lock"
    path.write_text(
        json.dumps({"pid": 1, "host": "elsewhere", "command": "push", "since": time.time()})
    )
    with pytest.raises(LockHeldError), store_lock(path, timeout=0.2, command="pull", store="x"):
        pass
    path.write_text(json.dumps({"pid": 1, "host": "elsewhere", "command": "push", "since": 0}))
    with store_lock(path, timeout=0.2, command="pull", store="x"):
        pass


def _in_a_child(
    script: str, path: Path, preexec: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run SCRIPT with PATH in a child Python (a hang or a file size limit stays there)."""
    return subprocess.run(
        [sys.executable, "-c", script, str(path)],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
        preexec_fn=preexec,
        check=False,
    )


def test_a_fifo_or_a_folder_where_the_lock_goes_hangs_nothing(tmp_path: Path) -> None:
    """A FIFO at the lock's path hung every command for good (its holder was read with a
    blocking open) and each hook until its watchdog; a folder left a `.stale-PID` folder."""
    script = (
        "import sys; from pathlib import Path; from memsync.sync.lock import store_lock\n"
        "with store_lock(Path(sys.argv[1]), timeout=2, command='pull', store='team'):\n"
        "    print('taken')\n"
    )
    for kind in ("fifo", "folder"):
        path = tmp_path / kind / "store.lock"
        path.parent.mkdir()
        os.mkfifo(path) if kind == "fifo" else path.mkdir()
        old = time.time() - 60
        os.utime(path, (old, old))
        done = _in_a_child(script, path)
        assert (done.returncode, done.stdout) == (0, "taken\n"), done.stderr
        assert sorted(os.listdir(path.parent)) == [], kind  # no lock and no stale leftover


@pytest.mark.parametrize("since", ["NaN", "Infinity", "1e300", "-1e300"])
def test_a_lock_with_an_impossible_time_is_a_damaged_one(tmp_path: Path, since: str) -> None:
    """A lock file whose `since` no clock can show made every command crash (exit 70:
    ValueError or OverflowError naming the holder) once the wait ran out, the hooks with it."""
    path = tmp_path / "store.lock"
    path.write_text(f'{{"pid": 1, "host": "elsewhere", "command": "push", "since": {since}}}')
    assert read_holder(path) is None  # as a half-written lock: stale after a moment
    old = time.time() - 60
    os.utime(path, (old, old))
    with store_lock(path, timeout=0.2, command="pull", store="x"):
        assert read_holder(path).pid == os.getpid()  # type: ignore[union-attr]


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE")
def test_a_lock_the_disk_refuses_is_not_left_behind_and_names_its_path(tmp_path: Path) -> None:
    """h3: a full disk (here a file size limit) failed the lock's write after its create: an
    empty lock file stayed, making the next runs wait, and the error named no path."""
    import resource

    path = tmp_path / "store.lock"
    script = (
        "import sys; from pathlib import Path; from memsync.sync.lock import store_lock\n"
        "try:\n"
        "    with store_lock(Path(sys.argv[1]), timeout=1, command='pull', store='team'):\n"
        "        pass\n"
        "except OSError as exc:\n"
        "    print(exc.errno, exc.filename)\n"
    )
    hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
    done = _in_a_child(script, path, lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard)))
    assert done.stdout == f"27 {path}\n", done.stderr  # EFBIG, with the lock's path
    assert not path.exists()
