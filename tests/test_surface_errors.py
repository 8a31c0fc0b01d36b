"""One error handler (SPEC section 7), through the installed `memsync` command (issue 17, 3).

User errors print no traceback; Ctrl-C exits 130; an unexpected error exits 70 with the
path of a log holding the traceback; text from outside memsync is escaped for rich and
for terminals; disk full, a read-only memory directory and a missing merge-file input
are clear errors.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memsync.errors import PRECEDENCE, ExitCode, most_urgent
from memsync.sync.report import StoreReport, exit_code
from testing.gitrepo import make_bare_remote
from testing.machines import ORIGIN, Machine, memory_dir, remote_files, setup_machine
from testing.memories import write_memory

POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and /dev/full")


def inject(tmp_path: Path, code: str) -> dict[str, str]:
    """Environment whose Python runs CODE at startup (sitecustomize), to provoke a fault."""
    site = tmp_path / "inject"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(code)
    return {"PYTHONPATH": str(site)}


def run(
    machine: Machine, *args: str, cwd: Path, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **machine.env, **(extra or {})}
    exe = Path(sys.executable).parent / "memsync"
    return subprocess.run(
        [str(exe), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_exit_codes_are_ranked_by_name() -> None:
    # What the person must fix comes first; offline last, as it fixes itself.
    assert PRECEDENCE == (
        ExitCode.INTERNAL,
        ExitCode.NEEDS_USER,
        ExitCode.USAGE,
        ExitCode.LOCKED,
        ExitCode.REMOTE_UNAVAILABLE,
    )
    assert most_urgent([]) is ExitCode.OK
    assert most_urgent([3, 4]) is ExitCode.LOCKED
    assert most_urgent([3, 1, 4]) is ExitCode.NEEDS_USER
    offline = StoreReport("private", "p", offline="remote unreachable")
    locked = StoreReport("team", "t", error="busy", error_code=ExitCode.LOCKED)
    blocked = StoreReport("team", "t", blocked=(object(),))  # type: ignore[arg-type]
    assert exit_code([offline]) is ExitCode.REMOTE_UNAVAILABLE
    assert exit_code([offline, locked]) is ExitCode.LOCKED
    assert exit_code([locked, blocked, offline]) is ExitCode.NEEDS_USER
    assert exit_code([StoreReport("private", "p")]) is ExitCode.OK


def test_markup_and_control_characters_in_paths_and_messages(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    # A project whose path contains `[/b]` (rich's closing tag) and `[red]`.
    project = alice.checkout_project(ORIGIN, "src/x[/b]/[red]api")
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    done = run(alice, "init", "--private", str(private), "--no-hooks", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "x[/b]/[red]api" in done.stdout
    missing = run(alice, "check", str(tmp_path / "[red]nowhere"), cwd=project)
    assert missing.returncode == 2
    assert "[red]nowhere does not exist" in missing.stderr
    # A memory whose name carries a terminal escape sequence is shown escaped.
    live = memory_dir(alice, project)
    evil = "evil\x1b[31mred\x07.md"
    write_memory(live, evil, "evil", "E\n")
    pushed = run(alice, "status", cwd=project)
    out = pushed.stdout + pushed.stderr
    assert "\x1b" not in out and "\x07" not in out
    assert "evil\\x1b[31mred\\x07.md" in out


def test_an_unexpected_error_exits_70_with_a_log(machines: list[Machine], tmp_path: Path) -> None:
    alice = machines[0]
    code = (
        "import memsync.sync.overview as o\n"
        "def boom(*a, **k):\n"
        "    raise RuntimeError('injected failure [red]')\n"
        "o.store_status = boom\n"
    )
    done = run(alice, "status", cwd=alice.home, extra=inject(tmp_path, code))
    assert done.returncode == 70
    assert "Traceback" not in done.stderr
    assert "unexpected error: RuntimeError: injected failure [red]" in done.stderr
    log = Path(done.stderr.split("the traceback is in ", 1)[1].split(". Please")[0])
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and "injected failure" in text
    assert str(alice.home / ".memsync" / "logs") in str(log)


# A terminal's foreground job takes Ctrl-C; a runner that started this test in the
# background may have left SIGINT ignored, which memsync would inherit and keep.
_WITH_DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def _git_that_never_answers(machine: Machine, tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose git never answers, and the file it creates once it has started."""
    slow = tmp_path / "slowbin"
    slow.mkdir()
    started = tmp_path / "git-started"
    (slow / "git").write_text(f"#!/bin/sh\n: > '{started}'\nexec sleep 60\n")
    (slow / "git").chmod(0o755)
    env = {**os.environ, **machine.env, "PATH": f"{slow}{os.pathsep}{os.environ['PATH']}"}
    return env, started


@POSIX_ONLY
def test_ctrl_c_exits_130_without_a_traceback(machines: list[Machine], tmp_path: Path) -> None:
    alice = machines[0]
    project = setup_machine(alice, make_bare_remote(tmp_path / "p.git"), None, "src/api")
    # The push is interrupted while it waits for git.
    env, started = _git_that_never_answers(alice, tmp_path)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            _WITH_DEFAULT_SIGINT,
            str(Path(sys.executable).parent / "memsync"),
            "push",
            "--scope",
            "private",
        ],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), "memsync never ran git"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Traceback" not in err


@POSIX_ONLY
def test_ctrl_c_with_two_stores_ends_the_run_at_once(
    machines: list[Machine], tmp_path: Path
) -> None:
    """Each store runs in its own thread: non-daemon, they kept the process alive after Ctrl-C
    until their git calls ended, and a second Ctrl-C printed a traceback (a review)."""
    alice = machines[0]
    remotes = (make_bare_remote(tmp_path / "p.git"), make_bare_remote(tmp_path / "t.git"))
    project = setup_machine(alice, *remotes, "src/api")
    env, started = _git_that_never_answers(alice, tmp_path)
    memsync = str(Path(sys.executable).parent / "memsync")
    # Files, not pipes: the git that never answers keeps a pipe open after memsync is gone.
    with (tmp_path / "err").open("w") as err_file:
        proc = subprocess.Popen(
            [sys.executable, "-c", _WITH_DEFAULT_SIGINT, memsync, "push"],
            cwd=project,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=err_file,
            text=True,
        )
        deadline = time.monotonic() + 30
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started.exists(), "memsync never ran git"
        time.sleep(0.5)  # both stores' threads are waiting on git
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 130  # the git calls would take 60 s
    assert "Traceback" not in (tmp_path / "err").read_text()


@POSIX_ONLY
def test_ctrl_c_in_a_hook_exits_0_without_a_traceback(
    machines: list[Machine], tmp_path: Path
) -> None:
    """A hook never fails the session, Ctrl-C included: an adversarial review saw a
    KeyboardInterrupt traceback and status -2 from `push --hook` (raised in a thread join)."""
    alice = machines[0]
    project = setup_machine(alice, make_bare_remote(tmp_path / "p.git"), None, "src/api")
    write_memory(memory_dir(alice, project), "deploy.md", "deploy", "Deploys go out on Fridays.")
    env, started = _git_that_never_answers(alice, tmp_path)
    memsync = str(Path(sys.executable).parent / "memsync")
    proc = subprocess.Popen(
        [sys.executable, "-c", _WITH_DEFAULT_SIGINT, memsync, "push", "--hook"],
        cwd=project,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None
    proc.stdin.write(f'{{"cwd": "{project}", "hook_event_name": "SessionEnd"}}')
    proc.stdin.close()
    deadline = time.monotonic() + 30
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), "memsync never ran git"
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 0
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert "memsync: interrupted; the next run finishes the work" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("args", "code"), [(("push", "--hook"), 0), (("push",), 130)])
def test_ctrl_c_while_memsync_imports_is_no_traceback(
    machines: list[Machine], tmp_path: Path, args: tuple[str, ...], code: int
) -> None:
    alice = machines[0]
    interrupt = (
        "import builtins\n"
        "real = builtins.__import__\n"
        "def imports(name, *a, **k):\n"
        "    if name in ('memsync.sync.hookmode', 'memsync.cli.app'):\n"
        "        raise KeyboardInterrupt\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = imports\n"
    )
    done = run(alice, *args, cwd=alice.home, extra=inject(tmp_path, interrupt))
    assert done.returncode == code
    assert done.stderr.startswith("memsync: interrupted")
    assert "Traceback" not in done.stderr


@POSIX_ONLY
def test_a_fifo_in_place_of_the_config_or_settings_hangs_nothing(
    machines: list[Machine], tmp_path: Path
) -> None:
    """Opening a FIFO for reading waits for a writer: hooks hung past their limits, and so did
    every command (an adversarial bad-input review)."""
    alice = machines[0]
    project = setup_machine(alice, make_bare_remote(tmp_path / "p.git"), None, "src/api")
    config = Path(alice.env["MEMSYNC_CONFIG"])
    config.unlink()
    os.mkfifo(config)
    hook = run(alice, "pull", "--hook", cwd=project)  # run() times out after 120 s
    assert hook.returncode == 0
    assert f"cannot read the config file {config}" in hook.stdout + hook.stderr
    assert "not a regular file" in hook.stdout + hook.stderr
    plain = run(alice, "status", cwd=project)
    assert plain.returncode == 2 and "not a regular file" in plain.stderr
    settings = alice.claude_dir / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(settings)
    config.unlink()
    hooks = run(alice, "hooks", "status", cwd=project)
    assert hooks.returncode != 0 and f"cannot read {settings}" in hooks.stderr


@POSIX_ONLY
def test_disk_full_is_a_clear_error(machines: list[Machine], tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    alice = machines[0]
    folder = tmp_path / "memory"
    write_memory(folder, "a.md", "alpha", "A\n")
    done = run(
        alice, "consolidate", str(folder), "--dry-run", "--report", "/dev/full", cwd=tmp_path
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "the disk is full at /dev/full" in done.stderr
    assert "Free some space" in done.stderr


def test_a_read_only_memory_directory_is_a_clear_error(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    project = alice.checkout_project(ORIGIN)
    claude = str(alice.claude_dir)
    # Tests run as root, where permissions do not bind: make the file system say EROFS.
    code = (
        "import errno, os\n"
        "real = os.mkdir\n"
        "def mkdir(path, *a, **k):\n"
        f"    if os.fspath(path).startswith({claude!r}):\n"
        "        raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fspath(path))\n"
        "    return real(path, *a, **k)\n"
        "os.mkdir = mkdir\n"
    )
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    done = run(
        alice,
        "init",
        "--private",
        str(private),
        "--no-hooks",
        cwd=project,
        extra=inject(tmp_path, code),
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "the file system is read-only at " + claude in done.stderr
    assert "Remount it writable" in done.stderr


def test_an_os_error_in_a_hook_names_the_path_and_the_fix(
    machines: list[Machine], tmp_path: Path
) -> None:
    """The hook said `push failed: PermissionError(13, 'Permission denied')` where the command
    line names the path and the fix (an adversarial bad-input review)."""
    alice = machines[0]
    project = setup_machine(alice, make_bare_remote(tmp_path / "p.git"), None, "src/api")
    live = memory_dir(alice, project)
    write_memory(live, "deploy.md", "deploy", "Deploys go out on Fridays.")
    manifests = alice.home / ".memsync" / "manifests"
    code = (  # the manifest cannot be written: an OS error far from any memory
        "import builtins, errno, os\n"
        "real = builtins.open\n"
        "def open_(file, mode='r', *a, **k):\n"
        "    name = os.fspath(file) if isinstance(file, (str, os.PathLike)) else ''\n"
        f"    if 'w' in mode and name.startswith({str(manifests)!r}):\n"
        "        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), name)\n"
        "    return real(file, mode, *a, **k)\n"
        "builtins.open = open_\n"
    )
    env = {**os.environ, **alice.env, **inject(tmp_path, code)}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "memsync"), "push", "--hook"],
        cwd=project,
        env=env,
        input=json.dumps({"cwd": str(project), "hook_event_name": "SessionEnd"}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    message = json.loads(done.stdout)["systemMessage"]
    assert f"memsync: push: permission denied at {manifests}" in message
    assert "Check the owner and permissions of that path." in message


def test_merge_file_with_a_missing_input_names_it(tmp_path: Path) -> None:
    (tmp_path / "ours.md").write_text("x\n")
    (tmp_path / "theirs.md").write_text("y\n")
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "memsync"),
            "merge-file",
            "gone.md",
            "ours.md",
            "theirs.md",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "gone.md" in done.stderr and "does not exist" in done.stderr


def test_merge_file_refuses_a_path_outside_the_repository(tmp_path: Path) -> None:
    """Git passes the path in the repository; by hand, `--path ../../x.md` wrote the other
    memory of an add/add beside the project (an adversarial bad-input review)."""
    work = tmp_path / "repo"
    work.mkdir()
    for name, who in (("base.md", "b"), ("ours.md", "o"), ("theirs.md", "t")):
        (work / name).write_text(f"---\nname: {who}\ndescription: {who}\n---\n{who}\n")
    args = ["merge-file", "base.md", "ours.md", "theirs.md", "--path", "../../x.md"]
    done = subprocess.run(
        [str(Path(sys.executable).parent / "memsync"), *args],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--path '../../x.md': path contains '..'" in done.stderr
    assert sorted(p.name for p in tmp_path.rglob("*.md")) == ["base.md", "ours.md", "theirs.md"]


def test_git_failures_quote_git_and_pass_on_its_hints() -> None:
    from memsync.git.run import GitResult, error_for

    stderr = (
        "fatal: '/tmp/x.git' does not appear to be a git repository\n"
        "fatal: Could not read from remote repository.\n\n"
        "Please make sure you have the correct access rights\nand the repository exists.\n"
    )
    args = ("git", "-c", "protocol.version=0", "fetch", "-q", "origin")
    error = error_for(GitResult(args, 128, b"", stderr), Path("/r"), network=True)
    assert error.message == (
        "remote unreachable: git fetch said: '/tmp/x.git' does not appear to be a git "
        "repository; Could not read from remote repository."
    )
    rejected = "error: failed to push some refs\nhint: Updates were rejected.\nhint: Pull first.\n"
    failed = error_for(GitResult(("git", "push"), 1, b"", rejected), Path("/r"))
    assert failed.message == "git push failed in /r: failed to push some refs"
    assert failed.hint == "hint: Updates were rejected.\nhint: Pull first."


@POSIX_ONLY
def test_a_file_size_limit_is_a_clear_error(machines: list[Machine], tmp_path: Path) -> None:
    """h3: under `ulimit -f 0` (RLIMIT_FSIZE) `consolidate --yes` ended in two tracebacks:
    EFBIG was an unexpected error (exit 70), and writing its crash log raised again
    (`No usable temporary directory found`); the hooks said `OSError(27, 'File too large')`."""
    import resource

    alice = machines[0]
    folder = tmp_path / "memory"
    write_memory(folder, "a.md", "alpha", "A\n")
    before = sorted(p.name for p in folder.iterdir())
    hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
    # Under the limit, coverage's own data file cannot be written either (in CI it measures
    # subprocesses): its exit traceback would be coverage's, not memsync's.
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_")}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "memsync"), "consolidate", str(folder), "--yes"],
        cwd=tmp_path,
        env={**env, **alice.env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard)),
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "unexpected error" not in done.stderr
    assert f"a file would pass the file size limit at {folder}" in done.stderr, done.stderr
    assert "ulimit -f unlimited" in done.stderr
    assert sorted(p.name for p in folder.iterdir()) == before  # nothing half-written left


def test_a_crash_log_that_can_be_written_nowhere_is_no_second_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    import memsync.config
    from memsync.cli.crashlog import write_crash_log

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setattr(memsync.config, "data_dir", lambda: blocker / "memsync")

    def nowhere() -> str:
        raise FileNotFoundError(2, "No usable temporary directory found")

    monkeypatch.setattr(tempfile, "gettempdir", nowhere)
    assert write_crash_log(RuntimeError("boom"), ["memsync", "status"]) is None


def _read_only(folder: Path) -> str:
    """Startup code under which FOLDER takes no new, renamed or removed file (as `chmod a-w`
    does for anyone but root, and tests run as root)."""
    return (
        "import builtins, errno, io, os\n"
        f"FOLDER = {str(folder)!r}\n"
        "def denied(path):\n"
        "    if os.path.abspath(os.fspath(path)).startswith(FOLDER):\n"
        "        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))\n"
        "real_open, real_os_open = builtins.open, os.open\n"
        "def open_(file, mode='r', *a, **k):\n"
        "    if isinstance(file, (str, os.PathLike)) and set(mode) & set('wax+'):\n"
        "        denied(file)\n"
        "    return real_open(file, mode, *a, **k)\n"
        "def os_open(path, flags, *a, **k):\n"
        "    if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):\n"
        "        denied(path)\n"
        "    return real_os_open(path, flags, *a, **k)\n"
        "builtins.open = io.open = open_\n"
        "os.open = os_open\n"
        "def two(real):\n"
        "    def call(src, dst, *a, **k):\n"
        "        denied(src), denied(dst)\n"
        "        return real(src, dst, *a, **k)\n"
        "    return call\n"
        "def one(real):\n"
        "    def call(path, *a, **k):\n"
        "        if os.path.lexists(path) != (real is os.mkdir):\n"
        "            denied(path)\n"
        "        return real(path, *a, **k)\n"
        "    return call\n"
        "for name in ('replace', 'rename', 'link'):\n"
        "    setattr(os, name, two(getattr(os, name)))\n"
        "for name in ('unlink', 'remove', 'mkdir', 'rmdir'):\n"
        "    setattr(os, name, one(getattr(os, name)))\n"
    )


def test_a_push_from_a_read_only_memory_folder_says_what_it_pushed(
    machines: list[Machine], tmp_path: Path
) -> None:
    """i1: with the memory folder read-only, a push that also pulled pushed this machine's
    memory, then failed writing what it pulled: exit 1, `permission denied at
    <folder>/.memsync-writing`, and not a word of the push (nor in --json: no report)."""
    alice, bob = machines[0], machines[2]
    remote = make_bare_remote(tmp_path / "remotes" / "private.git")
    pa = setup_machine(alice, remote, None, "src/api")
    live = memory_dir(alice, pa)
    write_memory(live, "old.md", "old", "An old note.\n")
    alice.memsync("push", cwd=pa)
    pb = setup_machine(bob, remote, None, "work/api")
    live_b = memory_dir(bob, pb)
    write_memory(live_b, "bob.md", "bob", "Bob's note.\n")
    (live_b / "old.md").unlink()
    bob.memsync("push", cwd=pb)
    write_memory(live, "second.md", "second", "Staging resets nightly.\n")

    done = run(alice, "push", cwd=pa, extra=inject(tmp_path, _read_only(live)))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    summary = "private (private): pushed 1; 2 files not written to the memory folder (below)"
    assert summary in done.stdout, done.stdout
    assert "  pushed: second.md" in done.stdout, done.stdout
    said = (
        f'memsync: private: could not write 2 file(s) into the memory folder {live}: "old.md", '
        '"bob.md" (cannot write it here: Permission denied); free space or make the folder '
        "writable, then run `memsync pull`"
    )
    assert said in " ".join(done.stderr.split()), done.stderr
    assert any(f.endswith("/second.md") for f in remote_files(remote))
    assert (live / "old.md").exists() and not (live / "bob.md").exists()

    # The folder writable again, the pull the message names brings both.
    alice.memsync("pull", cwd=pa)
    assert (live / "bob.md").read_text().endswith("Bob's note.\n")
    assert not (live / "old.md").exists()
