"""`memsync check` piped runs without typer, and prints and exits exactly as the typer command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memsync.cli.leancheck import CheckArgs, parse_check_argv
from testing.secretgen import materialize, token_template

_FAKE_TOKEN = materialize(token_template("github-pat"), "leancheck")[0]  # filled at test time


def _folder(tmp_path: Path, *, clean: bool) -> Path:
    folder = tmp_path / ("clean" if clean else "dirty")
    folder.mkdir()
    body = "Deploys go through the release train." if clean else f"token {_FAKE_TOKEN} today"
    head = "---\nname: deploys\ndescription: how we deploy\nmetadata:\n  type: project\n---\n"
    (folder / "deploys.md").write_text(f"{head}{body}\n", encoding="utf-8")
    (folder / "MEMORY.md").write_text("- [Deploys](deploys.md) — how we deploy\n", "utf-8")
    return folder


def _run(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, check=False
    )


def _lean(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed entry point, stdout piped: the lean path; says whether typer loaded."""
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write(f'typer={\"typer\" in sys.modules}'))\n"
        "from memsync.__main__ import main\n"
        f"main({['check', *args]!r})\n"
    )
    return _run(code, cwd)


def _typer(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return _run(f"from memsync.cli.app import main\nmain({['check', *args]!r})\n", cwd)


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "JSON"])
@pytest.mark.parametrize("clean", [True, False])
def test_the_lean_path_prints_and_exits_as_the_typer_command(
    tmp_path: Path, fmt: str, clean: bool
) -> None:
    folder = _folder(tmp_path, clean=clean)
    args = [str(folder), f"--format={fmt}"] if fmt != "json" else ["--format", fmt, str(folder)]
    lean, full = _lean(args, tmp_path), _typer(args, tmp_path)
    assert lean.stderr.endswith("typer=False"), lean.stderr  # it really was the lean path
    assert (lean.returncode, lean.stdout) == (full.returncode, full.stdout)
    assert lean.returncode == (0 if clean else 1)
    if not clean:
        assert "github-pat" in lean.stdout and "relative-date" in lean.stdout, lean.stdout


def test_an_expected_error_is_mapped_as_the_typer_command_maps_it(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder"
    lean, full = _lean([str(missing)], tmp_path), _typer([str(missing)], tmp_path)
    assert lean.returncode == full.returncode != 0
    assert "Traceback" not in lean.stderr
    assert lean.stderr.replace("typer=False", "") == full.stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], CheckArgs()),
        (["dir"], CheckArgs(path=Path("dir"))),
        (["--format", "SARIF", "dir"], CheckArgs(path=Path("dir"), fmt="sarif")),
        (["dir", "--scope=TEAM", "--all"], CheckArgs(Path("dir"), "text", "team", True)),
        (["--format=json", "--format", "github"], CheckArgs(fmt="github")),  # the last wins
        (["--project", "src"], CheckArgs(project=Path("src"))),
    ],
)
def test_the_common_command_lines_are_read_as_click_reads_them(
    args: list[str], expected: CheckArgs
) -> None:
    assert parse_check_argv(args) == expected


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["-h"],
        ["--verbose"],  # unknown: click's own message
        ["a", "b"],  # a second PATH
        ["--format"],  # an option without its value
        ["--format", "yaml"],  # not a choice
        ["--scope", "everyone"],
        ["--", "dir"],
        ["-"],
        [""],
        ["--all=yes"],
        ["--project="],
    ],
)
def test_anything_else_goes_to_the_typer_command(args: list[str]) -> None:
    assert parse_check_argv(args) is None


def test_a_project_that_is_a_file_goes_to_the_typer_command(tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x", encoding="utf-8")
    assert parse_check_argv(["--project", str(a_file)]) is None
    assert parse_check_argv(["--project", str(tmp_path)]) == CheckArgs(project=tmp_path)
