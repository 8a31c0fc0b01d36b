"""benchmarks/sweep_dates.py: a sweep over a real repository's memory folder, and its score
against reviews (the figures of docs/BENCHMARKS.md, ninth pass)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from benchmarks.sweep_dates import score, sweep
from testing.gitrepo import git


def _source(tmp_path: Path) -> Path:
    """A published workspace: its daily log committed the night after (a nightly backup)."""
    work = tmp_path / "owner+workspace" / "work"
    (work / "memory").mkdir(parents=True)
    (work / "memory" / "2026-03-19.md").write_text(
        "# Log\n\n- Published today.\n- Candidate: User: we talked yesterday\n", "utf-8"
    )
    (work / "memory" / "notes.md").write_text("# Notes\n\n- Call Bo today.\n", "utf-8")
    (work / "README.md").write_text("Today is not a memory.\n", "utf-8")
    git("init", "-q", cwd=work)
    stamp = "2026-03-20T03:00:00+00:00"
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    git("add", "-A", cwd=work, env=env)
    ident = ["-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    git(*ident, "commit", "-q", "-m", "backup", cwd=work, env=env)
    bare = tmp_path / "owner+workspace" / "repo"
    git("clone", "-q", "--bare", str(work), str(bare), cwd=tmp_path)
    return bare


def test_a_sweep_rewrites_only_the_memory_folder_and_says_why(tmp_path: Path) -> None:
    rows = sweep(_source(tmp_path))
    assert [(r["repo"], r["path"], r["line"], r["old"], r["value"], r["source"]) for r in rows] == [
        ("owner/workspace", "2026-03-19.md", 3, "today", "2026-03-19", "file name `2026-03-19.md`"),
        ("owner/workspace", "notes.md", 3, "today", "2026-03-20", "git blame"),
    ]
    # The line as it was before the rewrite, and after it: each file's own line 3 and rewrite
    assert [(r["text"], r["new"], r["rewritten"]) for r in rows] == [
        ("- Published today.", "on 2026-03-19", "- Published on 2026-03-19."),
        ("- Call Bo today.", "on 2026-03-20", "- Call Bo on 2026-03-20."),
    ]


def test_a_mirror_missing_large_files_outside_memory_is_still_swept(tmp_path: Path) -> None:
    """A fetched mirror may list its largest files but lack them; a full checkout fails, so the
    first sweeps skipped such repositories without a word (mediajunkie/dispatch among them)."""
    bare = _source(tmp_path)
    readme = git("rev-parse", "HEAD:README.md", cwd=bare).strip()
    (bare / "objects" / readme[:2] / readme[2:]).unlink()
    rows = sweep(bare)
    assert [(r["path"], r["old"], r["value"]) for r in rows] == [
        ("2026-03-19.md", "today", "2026-03-19"),
        ("notes.md", "today", "2026-03-20"),
    ]


def test_a_sweep_of_what_is_no_repository_finds_nothing_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert sweep(tmp_path / "missing") == []
    assert "skipped" in capsys.readouterr().err


def _review(verdict: str, value: str = "2026-03-19", right: str | None = None) -> dict[str, Any]:
    key = {"repo": "o/w", "folder": "memory", "path": "a.md", "line": 3, "old": "today"}
    return {**key, "value": value, "verdict": verdict, "right_value": right}


def test_reviews_score_what_a_new_sweep_does_with_each_reviewed_rewrite() -> None:
    now = [{**_review("correct"), "value": "2026-03-19"}]
    assert score(now, [_review("correct")]) == {"right": 1}
    assert score([], [_review("correct")]) == {"missed": 1}
    assert score(now, [_review("negative")]) == {"wrong": 1}
    assert score([], [_review("bad_wording")]) == {"left alone": 1}
    assert score(now, [_review("wrong_value", "2026-03-18", "2026-03-19")]) == {"right": 1}
    assert score(now, [_review("wrong_value", "2026-03-19", "2026-03-20")]) == {"wrong": 1}
    assert score(now, [_review("unsure")]) == {"unsure": 1}
