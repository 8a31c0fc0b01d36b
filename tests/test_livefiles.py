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


# A session writing while a pull writes: the edit lands after the pull looked at the file and
# before its swap (the pull stages and flushes every file first). `time_of` runs between the
# two, so the tests write there, as Claude Code would: a new file renamed over the old.
def _edit_during_staging(live: Path, name: str, data: bytes | None) -> object:
    def time_of(path: str, _: bytes) -> None:
        if path == name and data is None:
            (live / name).unlink()
        elif path == name:
            atomic_write(live / name, data)

    return time_of


@pytest.mark.parametrize("many", [False, True])
def test_an_edit_made_while_the_pull_stages_its_files_is_kept(tmp_path: Path, many: bool) -> None:
    live = tmp_path / "memory"
    names = [f"m{i:02}.md" for i in range(20 if many else 1)]  # 20: staged in one flush
    for name in names:
        atomic_write(live / name, b"v1")
    snapshot = dict.fromkeys(names, b"v1")
    base = {name: blob_sha(b"v1") for name in names}
    target = dict.fromkeys(names, b"remote")
    edit = _edit_during_staging(live, names[-1], b"written by the session")
    outcome = write_live(live, target, snapshot, base, set(), time_of=edit)  # type: ignore[arg-type]
    assert (live / names[-1]).read_bytes() == b"written by the session"
    assert outcome.kept == (names[-1],) and names[-1] not in outcome.written
    assert outcome.manifest[names[-1]] == blob_sha(b"v1")  # the next run merges the edit
    assert all((live / n).read_bytes() == b"remote" for n in names[:-1])
    assert not [p.name for p in live.iterdir() if p.name.startswith(".")]  # no leftovers


def test_a_file_created_while_the_pull_stages_the_same_new_file_is_kept(tmp_path: Path) -> None:
    live = tmp_path / "memory"
    live.mkdir()
    edit = _edit_during_staging(live, "new.md", b"the session's own")
    outcome = write_live(live, {"new.md": b"remote"}, {}, {}, set(), time_of=edit)  # type: ignore[arg-type]
    assert (live / "new.md").read_bytes() == b"the session's own"
    assert outcome.kept == ("new.md",) and outcome.manifest == {}


def test_a_file_deleted_while_the_pull_stages_is_not_written_back(tmp_path: Path) -> None:
    live = tmp_path / "memory"
    atomic_write(live / "a.md", b"v1")
    edit = _edit_during_staging(live, "a.md", None)
    outcome = write_live(
        live,
        {"a.md": b"remote"},
        {"a.md": b"v1"},
        {"a.md": blob_sha(b"v1")},
        set(),
        time_of=edit,  # type: ignore[arg-type]
    )
    assert not (live / "a.md").exists() and outcome.kept == ("a.md",)


def test_a_file_edited_just_before_the_pull_deletes_it_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = tmp_path / "memory"
    atomic_write(live / "a.md", b"v1")
    real_rename = os.rename

    def rename(src: object, dst: object) -> None:  # the session writes just before the swap
        if str(src).endswith("a.md"):
            (live / "a.md").write_bytes(b"edited")
        real_rename(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "rename", rename)
    outcome = write_live(live, {}, {"a.md": b"v1"}, {"a.md": blob_sha(b"v1")}, set())
    assert (live / "a.md").read_bytes() == b"edited"
    assert outcome.kept == ("a.md",) and outcome.deleted == ()


@pytest.mark.parametrize(
    "refusal",
    [
        PermissionError(1, "Operation not permitted"),  # FAT, some network mounts
        NotImplementedError("follow_symlinks unavailable on this platform"),
    ],
)
def test_without_hard_links_the_pull_still_writes_and_still_yields_to_an_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refusal: Exception
) -> None:
    def no_links(*_: object, **__: object) -> None:
        raise refusal

    monkeypatch.setattr(os, "link", no_links)
    live = tmp_path / "memory"
    atomic_write(live / "a.md", b"v1")
    atomic_write(live / "b.md", b"v1")
    snapshot = {"a.md": b"v1", "b.md": b"v1"}
    base = {"a.md": blob_sha(b"v1"), "b.md": blob_sha(b"v1")}
    edit = _edit_during_staging(live, "b.md", b"edited")
    target = {"a.md": b"remote", "b.md": b"remote"}
    outcome = write_live(live, target, snapshot, base, set(), time_of=edit)  # type: ignore[arg-type]
    assert (live / "a.md").read_bytes() == b"remote" and outcome.written == ("a.md",)
    assert (live / "b.md").read_bytes() == b"edited" and outcome.kept == ("b.md",)
