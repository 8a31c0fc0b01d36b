"""git started in the background: exit status, stderr, deadline, and the subprocess fallback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memsync.git.run import git_env
from memsync.git.spawn import start_git
from testing.gitrepo import make_bare_remote

POSIX_ONLY = pytest.mark.skipif(not hasattr(os, "posix_spawnp"), reason="posix_spawn path")


@pytest.fixture(params=["posix_spawn", "subprocess"])
def way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run each test through posix_spawn (where there is one) and through subprocess."""
    if request.param == "subprocess":
        monkeypatch.delattr(os, "posix_spawnp", raising=False)
    elif not hasattr(os, "posix_spawnp"):
        pytest.skip("no posix_spawn here")
    return str(request.param)


def test_exit_status_and_stderr_come_back_from_the_directory_given(
    tmp_path: Path, way: str
) -> None:
    repo = make_bare_remote(tmp_path / "r.git")
    proc = start_git(["rev-parse", "--verify", "refs/heads/nothing"], repo, git_env())
    assert proc.collect(30) == (128, b"fatal: Needed a single revision\n")
    outside = tmp_path / "plain"
    outside.mkdir()
    code, err = start_git(["rev-parse", "--git-dir"], outside, git_env()).collect(30) or (0, b"")
    assert code == 128 and b"not a git repository" in err


def test_standard_output_is_discarded(tmp_path: Path, way: str) -> None:
    assert start_git(["--version"], tmp_path, git_env()).collect(30) == (0, b"")


def test_a_long_stderr_is_read_while_git_runs(tmp_path: Path, way: str) -> None:
    # More than a pipe holds: a collector that only read after git ended would wait forever.
    noisy = ["-c", "alias.noisy=!yes x | head -c 200000 >&2", "noisy"]
    ended = start_git(noisy, tmp_path, git_env()).collect(30)
    assert ended is not None
    assert ended[0] == 0 and len(ended[1]) == 200000


def test_a_git_that_outlives_the_deadline_is_killed(tmp_path: Path, way: str) -> None:
    hang = start_git(["-c", "alias.hang=!exec sleep 30", "hang"], tmp_path, git_env())
    assert hang.running()
    assert hang.collect(0.2) is None
    assert not hang.running(), "killed and reaped"


def test_no_git_on_path_is_an_oserror_and_leaks_no_descriptor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    # Both look git up on this process's PATH, not on the one given to git.
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    env = git_env()
    before = _open_descriptors()
    with pytest.raises(OSError):
        start_git(["--version"], tmp_path, env)
    assert _open_descriptors() == before


@POSIX_ONLY
def test_the_session_start_fetch_does_not_import_subprocess() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from memsync.git.remote import start_fetch\n"
        "import memsync.git.spawn, memsync.git.run\n"
        "print('subprocess' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "False", done.stderr


def _open_descriptors() -> set[str]:
    fd_dir = Path("/proc/self/fd")
    return set(os.listdir(fd_dir)) if fd_dir.is_dir() else set()
