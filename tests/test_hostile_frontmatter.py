"""Hostile frontmatter (issue 14): deep nesting, alias bombs and huge values are reported as
invalid and kept; no command crashes or hangs on them."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from testing.gitrepo import git

ROOT = Path(__file__).resolve().parent.parent
# Indented, so the client's quoting retry (top-level `key: value` lines only) leaves them be.
DEEP = "---\nname: deep\nmetadata:\n  type: " + "[" * 30_000 + "\n---\nbody\n"
BOMB = (
    "---\nname: bomb\nmetadata:\n  type: project\n  a: &a [x, x, x, x, x, x, x, x, x]\n"
    + "".join(
        f"  {n}: &{n} [{', '.join(['*' + p] * 9)}]\n"
        for p, n in zip("abcdefgh", "bcdefghi", strict=True)
    )
    + "---\nbody\n"
)
HUGE = "---\nname: huge\nmetadata:\n  type: project\n  note: " + "y" * 100_000 + "\n---\nbody\n"
HOSTILE = {"deep.md": DEEP, "bomb.md": BOMB, "huge.md": HUGE}


def memsync(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "memsync", *args],
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "HOME": str(cwd), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return proc, time.monotonic() - start


def test_check_reports_each_hostile_file_as_invalid_and_keeps_it(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    for name, text in HOSTILE.items():
        (folder / name).write_text(text, encoding="utf-8")
    proc, took = memsync("check", str(folder), "--format", "text", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and took < 30
    out = proc.stdout
    assert "memory/deep.md:4: error: frontmatter is not valid YAML: nested more than 64" in out
    assert "memory/bomb.md" in out and "more than 10,000 values once aliases" in out
    assert "memory/huge.md" in out and "over 65,536 characters" in out
    for name, text in HOSTILE.items():
        assert (folder / name).read_text(encoding="utf-8") == text  # kept as it was


def test_review_of_an_alias_bomb_finishes(tmp_path: Path) -> None:
    repo = tmp_path / "team"
    git("init", "-q", "-b", "main", str(repo), cwd=tmp_path)
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    (repo / "proj").mkdir()
    (repo / "proj" / "ok.md").write_text(
        "---\nname: ok\ndescription: d\nmetadata:\n  type: project\n---\nfine\n", encoding="utf-8"
    )
    git("add", "-A", cwd=repo)
    git(*identity, "commit", "-q", "-m", "base", cwd=repo)
    base = git("rev-parse", "HEAD", cwd=repo).strip()
    for name, text in HOSTILE.items():
        (repo / "proj" / name).write_text(text, encoding="utf-8")
    git("add", "-A", cwd=repo)
    git(*identity, "commit", "-q", "-m", "hostile", cwd=repo)
    proc, took = memsync(
        "review", str(repo), "--base", base, "--head", "HEAD", "--format", "json", cwd=tmp_path
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    assert took < 60
    assert "bomb.md" in proc.stdout and "deep.md" in proc.stdout
