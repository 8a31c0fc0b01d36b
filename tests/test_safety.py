"""The SPEC 2 filter: what may be synced and materialized, and why the rest is skipped."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from memsync.fsutil.scan import scan_directory
from memsync.model.limits import MAX_MEMORY_BYTES
from memsync.model.safety import (
    Skipped,
    TreeScan,
    filter_files,
    fold_key,
    is_memory_file,
    unsafe_path_reason,
)

GOOD = b"---\nname: a\ndescription: d\ntype: project\n---\nbody\n"
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names and links")


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("a.md", None),
        ("sub/dir/a.md", None),
        (".hidden.md", None),
        ("café.md", None),
        ("", "empty path"),
        ("../a.md", "path contains '..'"),
        ("a/../../b.md", "path contains '..'"),
        ("./a.md", "path contains '.'"),
        ("/etc/a.md", "absolute path"),
        ("C:/x/a.md", "drive letter in path"),
        ("c:a.md", "drive letter in path"),
        ("a\\b.md", "backslash in name"),
        ("a\x00.md", "NUL in name"),
        ("a\x1b[31m.md", "control character in name"),
        ("a\x7f.md", "control character in name"),
        ("a//b.md", "empty path component"),
        ("a/", "empty path component"),
        (".git/config.md", "path contains '.git'"),
        ("sub/.GIT/x.md", "path contains '.git'"),
    ],
)
def test_unsafe_path_reason(path: str, reason: str | None) -> None:
    assert unsafe_path_reason(path) == reason


@pytest.mark.parametrize(
    ("path", "scope", "synced"),
    [
        ("MEMORY.md", "private", True),
        ("a.md", "team", True),
        ("deep/er/a.md", "private", True),
        ("a.txt", "private", False),
        ("a.MD", "private", False),
        ("team/a.md", "private", False),
        ("Team/a.md", "private", False),  # the same directory on macOS and Windows
        ("team/a.md", "team", True),
        ("sub/team/a.md", "private", True),
        ("team.md", "private", True),
        (".consolidate-lock", "private", False),
        ("archive/old.md", "team", True),
        # The client's own files (CLAUDE-CODE.md 3): never synced, deleted or reported.
        (".memory-sync", "private", False),
        (".memory-sync-basis.md", "private", False),
        (".memory-sync.1234.stage", "private", False),
        (".a.md.tmp", "private", False),
        ("a.md.tmp.1a2b3c4d", "private", False),
        (".hidden.md", "private", False),
        (".drafts/x.md", "team", False),
        ("sub/.cache/x.md", "private", False),
        ("logs/2026/11/23.md", "private", False),
        ("sessions/s.md", "private", False),
        ("proposals/p.md", "private", False),
        ("logs/x.md", "team", True),  # the team scope's root is `team/`, not the client's
        ("notes/logs/x.md", "private", True),
        ("logs.md", "private", True),
    ],
)
def test_is_memory_file(path: str, scope: str, synced: bool) -> None:
    assert is_memory_file(path, scope) is synced  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["README.md", "CONTRIBUTING.md", "CODE_OF_CONDUCT.md"])
def test_repository_files_are_memory_only_below_a_repository_root(name: str) -> None:
    assert is_memory_file(name, "team")
    assert not is_memory_file(name, "team", repository_root=True)
    assert is_memory_file(f"proj/{name}", "team", repository_root=True)


def test_fold_key_joins_case_and_unicode_forms() -> None:
    assert fold_key("Notes/A.md") == fold_key("notes/a.md")
    assert fold_key("cafe\u0301.md") == fold_key("café.md")
    assert fold_key("STRASSE.md") == fold_key("straße.md")
    assert fold_key("a.md") != fold_key("b.md")


def test_filter_files_applies_every_rule() -> None:
    files = {
        "a.md": GOOD,
        "A.md": GOOD,
        "notes/x.md": GOOD,
        "../escape.md": GOOD,
        "team/t.md": GOOD,
        "big.md": b"x" * (MAX_MEMORY_BYTES + 1),
        "edge.md": b"x" * MAX_MEMORY_BYTES,
        "latin1.md": b"caf\xe9",
        "script.sh": b"#!/bin/sh\n",
        "../escape.sh": b"",
    }
    scan = filter_files(files, "private")
    assert sorted(scan.files) == ["A.md", "edge.md", "notes/x.md"]
    assert scan.files["A.md"] == GOOD
    assert scan.skipped == (
        Skipped("../escape.md", "path contains '..'"),
        Skipped("a.md", "differs only by case from A.md"),
        Skipped("big.md", "over 250,000 bytes (250,001)"),
        Skipped("latin1.md", "not valid UTF-8 (line 1, byte 3)"),
    )


def test_filter_files_keeps_team_in_team_scope_and_reports_normalization() -> None:
    scan = filter_files({"team/t.md": GOOD, "cafe\u0301.md": GOOD, "café.md": GOOD}, "team")
    assert "team/t.md" in scan.files
    assert len(scan.skipped) == 1
    assert scan.skipped[0].reason.startswith("differs only by Unicode normalization from ")


def test_a_bom_is_valid_utf8() -> None:
    assert filter_files({"a.md": b"\xef\xbb\xbf---\n"}, "private").files == {
        "a.md": b"\xef\xbb\xbf---\n"
    }


def _tree(root: Path) -> None:
    (root / "sub").mkdir(parents=True)
    (root / "team").mkdir()
    (root / "dir.md").mkdir()
    (root / ".git").mkdir()
    (root / "a.md").write_bytes(GOOD)
    (root / "MEMORY.md").write_bytes(b"- [A](a.md)\n")
    (root / "sub" / "b.md").write_bytes(GOOD)
    (root / "team" / "t.md").write_bytes(GOOD)
    (root / "dir.md" / "inner.md").write_bytes(GOOD)
    (root / ".git" / "x.md").write_bytes(GOOD)
    (root / "notes.txt").write_bytes(b"not memory")
    (root / ".consolidate-lock").write_bytes(b"123")
    (root / "big.md").write_bytes(b"x" * (MAX_MEMORY_BYTES + 10))
    (root / "bad.md").write_bytes(b"\xff\xfe")


def test_scan_directory_reads_safe_files_and_reports_the_rest(tmp_path: Path) -> None:
    _tree(tmp_path)
    scan = scan_directory(tmp_path, "private")
    assert sorted(scan.files) == ["MEMORY.md", "a.md", "dir.md/inner.md", "sub/b.md"]
    assert scan.files["a.md"] == GOOD
    assert scan.skipped == (
        Skipped("bad.md", "not valid UTF-8 (line 1, byte 0)"),
        Skipped("big.md", "over 250,000 bytes (250,010)"),
    )
    team = scan_directory(tmp_path, "team")
    assert "team/t.md" in team.files


def test_scan_of_a_missing_directory_is_empty(tmp_path: Path) -> None:
    scan = scan_directory(tmp_path / "absent", "team")
    assert scan.files == {} and scan.skipped == ()


@posix_only
def test_symlinks_are_reported_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_bytes(GOOD)
    root = tmp_path / "memory"
    root.mkdir()
    (root / "a.md").write_bytes(GOOD)
    (root / "link.md").symlink_to(outside / "secret.md")
    (root / "linkdir").symlink_to(outside)
    (root / "dangling.md").symlink_to(tmp_path / "nowhere.md")
    (root / "image.png").symlink_to(outside / "secret.md")  # not memory: ignored
    scan = scan_directory(root, "private")
    assert sorted(scan.files) == ["a.md"]
    assert scan.skipped == (
        Skipped("dangling.md", "symlink"),
        Skipped("link.md", "symlink"),
        Skipped("linkdir", "symlink"),
    )


@posix_only
def test_follow_reads_through_links_without_looping(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "shared.md").write_bytes(GOOD)
    root = tmp_path / "memory"
    root.mkdir()
    (root / "linkdir").symlink_to(outside)
    (root / "loop").symlink_to(root)
    (root / "dangling.md").symlink_to(tmp_path / "nowhere.md")
    scan = scan_directory(root, "private", follow=True)
    assert sorted(scan.files) == ["linkdir/shared.md"]
    assert scan.skipped == (Skipped("dangling.md", "broken symlink"),)


@posix_only
def test_special_files_and_odd_names_are_reported(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.md")
    (tmp_path / "back\\slash.md").write_bytes(GOOD)
    (tmp_path / "bell\x07.md").write_bytes(GOOD)
    (tmp_path / "Case.md").write_bytes(GOOD)
    (tmp_path / "case.md").write_bytes(GOOD)
    result: list[TreeScan] = []
    worker = threading.Thread(target=lambda: result.append(scan_directory(tmp_path, "private")))
    worker.start()
    worker.join(timeout=30)  # opening a FIFO without O_NONBLOCK would block forever
    assert result, "the scan blocked on a FIFO"
    scan = result[0]
    assert sorted(scan.files) == ["Case.md"]
    assert scan.skipped == (
        Skipped("back\\slash.md", "backslash in name"),
        Skipped("bell\x07.md", "control character in name"),
        Skipped("case.md", "differs only by case from Case.md"),
        Skipped("pipe.md", "not a regular file"),
    )


@posix_only
def test_unreadable_files_are_reported(tmp_path: Path) -> None:
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root reads everything")
    locked = tmp_path / "locked.md"
    locked.write_bytes(GOOD)
    locked.chmod(0)
    try:
        scan = scan_directory(tmp_path, "private")
    finally:
        locked.chmod(0o644)
    assert scan.skipped[0].path == "locked.md"
    assert scan.skipped[0].reason.startswith("unreadable")
