"""Writing into live memory directories: atomic, contained, never over a fresh edit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memsync.fsutil.atomic import atomic_write
from memsync.git import blob_sha
from memsync.sync.livefiles import contained, write_live


def test_write_live_writes_deletes_and_keeps(tmp_path: Path) -> None:
    live = tmp_path / "memory"
    atomic_write(live / "keep.md", b"same")
    atomic_write(live / "old.md", b"old")
    atomic_write(live / "gone.md", b"bye")
    atomic_write(live / "pending.md", b"mine")
    snapshot = {p.name: p.read_bytes() for p in live.iterdir()}
    base = {"keep.md": blob_sha(b"same"), "old.md": blob_sha(b"old"), "gone.md": blob_sha(b"bye")}
    target = {
        "keep.md": b"same",
        "old.md": b"new",
        "sub/added.md": b"added",
        "pending.md": b"theirs",
    }
    outcome = write_live(live, target, snapshot, base, pending={"pending.md"})
    assert outcome.written == ("old.md", "sub/added.md")
    assert outcome.deleted == ("gone.md",)
    assert outcome.kept == ("pending.md",)
    assert (live / "old.md").read_bytes() == b"new"
    assert (live / "sub" / "added.md").read_bytes() == b"added"
    assert (live / "pending.md").read_bytes() == b"mine"
    assert outcome.manifest == {
        "keep.md": blob_sha(b"same"),
        "old.md": blob_sha(b"new"),
        "sub/added.md": blob_sha(b"added"),
    }


def test_a_file_edited_since_the_snapshot_is_not_overwritten(tmp_path: Path) -> None:
    live = tmp_path / "memory"
    atomic_write(live / "a.md", b"v1")
    snapshot = {"a.md": b"v1"}
    (live / "a.md").write_bytes(b"edited meanwhile")
    outcome = write_live(live, {"a.md": b"remote"}, snapshot, {"a.md": blob_sha(b"v1")}, set())
    assert outcome.kept == ("a.md",)
    assert (live / "a.md").read_bytes() == b"edited meanwhile"
    assert outcome.manifest == {"a.md": blob_sha(b"v1")}


@pytest.mark.skipif(os.name == "nt", reason="symlinks need privileges on Windows")
def test_never_writes_through_a_symlinked_directory(tmp_path: Path) -> None:
    live = tmp_path / "memory"
    live.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (live / "sub").symlink_to(outside, target_is_directory=True)
    assert contained(live, "sub/x.md") is None
    assert contained(live, "../x.md") is None
    outcome = write_live(live, {"sub/x.md": b"x"}, {}, {}, set())
    assert outcome.kept == ("sub/x.md",)
    assert not (outside / "x.md").exists()


def test_deleting_the_last_file_prunes_empty_folders(tmp_path: Path) -> None:
    live = tmp_path / "memory"
    atomic_write(live / "deep" / "er" / "x.md", b"x")
    outcome = write_live(live, {}, {"deep/er/x.md": b"x"}, {"deep/er/x.md": blob_sha(b"x")}, set())
    assert outcome.deleted == ("deep/er/x.md",)
    assert not (live / "deep").exists()
    assert live.is_dir()
