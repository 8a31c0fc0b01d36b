"""`memsync status` piped runs without typer, and prints and exits exactly as the typer command;
a reader that goes away ends any command quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memsync.cli.leanstatus import StatusArgs, parse_status_argv
from memsync.git.refs import ahead_behind
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory


def _run(machine: Machine, code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **machine.env, "PYTHONPATH": str(Path(__file__).parent.parent)}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def _lean(machine: Machine, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """The entry point with stdout piped: the lean path; says whether typer was loaded."""
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write(f'typer={\"typer\" in sys.modules}'))\n"
        "from memsync.__main__ import main\n"
        f"main({['status', *args]!r})\n"
    )
    return _run(machine, code, cwd)


def _typer(machine: Machine, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    code = f"from memsync.cli.app import main\nmain({['status', *args]!r})\n"
    return _run(machine, code, cwd)


@pytest.fixture
def project(machines: list[Machine], remotes: tuple[Path, Path]) -> tuple[Machine, Path]:
    """A machine with a private store only, one memory synced and one edited since."""
    machine = machines[0]
    root = setup_machine(machine, remotes[0], None, "src/api")
    live = memory_dir(machine, root)
    write_memory(live, "deploy.md", "deploy freeze", "No deploys on Friday.\n")
    machine.memsync("sync", cwd=root)
    write_memory(live, "style.md", "code style", "Use ruff.\n")
    return machine, root


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--json"],
        ["--exit-code"],
        ["--scope=PRIVATE", "--json", "--exit-code"],
        ["--scope", "team"],
    ],
)
def test_the_lean_path_prints_and_exits_as_the_typer_command(
    project: tuple[Machine, Path], args: list[str]
) -> None:
    machine, root = project
    lean, full = _lean(machine, args, root), _typer(machine, args, root)
    assert lean.stderr.endswith("typer=False"), lean.stderr  # it really was the lean path
    assert (lean.returncode, lean.stdout) == (full.returncode, full.stdout)
    assert lean.stderr.removesuffix("typer=False") == full.stderr
    if "--exit-code" in args:
        assert lean.returncode == 1  # an edit not yet pushed is pending
    if args in ([], ["--exit-code"]):
        assert "+ style.md" in lean.stdout, lean.stdout
    if args[-2:] == ["--scope", "team"]:
        assert lean.returncode == 2 and "no team store is configured" in lean.stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], StatusArgs()),
        (["--json"], StatusArgs(as_json=True)),
        (["--exit-code", "--scope", "Team"], StatusArgs(scope="team", exit_code=True)),
        (["--project=src", "--scope=all", "--scope=private"], StatusArgs(Path("src"), "private")),
        (["--help"], None),
        (["-h"], None),
        (["path"], None),  # status takes no PATH
        (["--scope", "both"], None),
        (["--scope"], None),
        (["--project", ""], None),
        (["--fetch"], None),
        (["--no-github", "--json"], StatusArgs(as_json=True, github=False)),
        (["--github"], StatusArgs()),
        (["--github", "--no-github"], None),  # the last wins: click reads which is last
    ],
)
def test_status_command_lines_the_lean_path_reads(
    args: list[str], expected: StatusArgs | None
) -> None:
    assert parse_status_argv(args) == expected


def test_a_reader_that_goes_away_ends_the_run_quietly(project: tuple[Machine, Path]) -> None:
    machine, root = project
    for args in (["status", "--json"], ["log"]):
        # The reader closes its end before memsync writes a byte (`| true`).
        code = (
            "import subprocess, sys\n"
            f"p = subprocess.Popen([sys.executable, '-m', 'memsync', *{args!r}], "
            "stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
            "p.stdout.close()\n"
            "err = p.stderr.read().decode(); print(p.wait(), repr(err))\n"
        )
        done = _run(machine, code, root)
        status, _, err = done.stdout.strip().partition(" ")
        assert status == "1", done  # as click ends a typer command whose reader is gone
        assert err == "''", f"{args}: {err}"  # no traceback, no crash report
    assert not (machine.home / ".memsync" / "logs").exists()


def test_ahead_behind_of_one_commit_asks_no_git(tmp_path: Path) -> None:
    sha = "7ff2eaacaad4074d8b70eae3614d7c7c817453c7"
    assert ahead_behind(tmp_path / "not-a-repository", sha, sha) == (0, 0)
