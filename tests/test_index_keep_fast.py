"""sync/indexkeep.py in this process, against a stand-in store run: each rule of
test_index_keep.py (which runs the real `memsync` as a subprocess) decided on its own, fast
enough for the mutation set `indexkeep` (docs/MUTATION.md)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from memsync.merge.index import IndexEnsure
from memsync.sync import indexkeep
from memsync.sync.indexkeep import (
    dropped_entries,
    forget_loaded_index,
    keep_index_entries,
    loaded_index_file,
    remember_loaded_index,
)
from memsync.sync.report import StoreReport
from testing.gitrepo import git

ONE, TWO, THREE = "- [One](one.md) — 1", "- [Two](two.md) — 2", "- [Three](three.md) — 3"
LIVE = {"one.md": b"1", "two.md": b"2", "three.md": b"3"}


@dataclass
class Binding:
    live_dir: Path
    clone_dir: Path
    scope: str = "private"
    prefix: str = ""


@dataclass
class Manifest:
    files: dict[str, str]


@dataclass
class Run:
    """The part of a StoreRun that indexkeep reads."""

    binding: Binding
    manifest: Manifest
    live: dict[str, bytes] = field(default_factory=dict)
    report: StoreReport = field(default_factory=lambda: StoreReport("private", "s"))

    def note(self, **changes: Any) -> None:
        self.report = replace(self.report, **changes)


def _text(*lines: str) -> bytes:
    return "".join(f"{line}\n" for line in lines).encode()


def _run(tmp_path: Path, synced: dict[str, bytes], scope: str = "private", **live: bytes) -> Run:
    """A run whose store (a real git repository) last synced SYNCED; LIVE the live folder."""
    clone = tmp_path / "clone"
    if not clone.exists():
        git("init", "-q", "-b", "main", str(clone), cwd=tmp_path)
    files = {}
    for path, data in synced.items():
        blob = clone / "blob"
        blob.write_bytes(data)
        files[path] = git("hash-object", "-w", str(blob), cwd=clone).strip()
    live_dir = tmp_path / "live"
    live_dir.mkdir(exist_ok=True)
    return Run(Binding(live_dir, clone, scope), Manifest(files), dict(live or LIVE))


def _delete_in_store(clone: Path, path: str) -> None:
    """A commit of the store that added PATH, then one that deleted it."""
    (clone / path).parent.mkdir(parents=True, exist_ok=True)
    (clone / path).write_text("gone\n", encoding="utf-8")
    git("add", path, cwd=clone)
    git("commit", "-qm", "add", cwd=clone)
    git("rm", "-q", path, cwd=clone)
    git("commit", "-qm", "delete", cwd=clone)


def _keep(run: Run, changes: dict[str, bytes | None]) -> dict[str, bytes | None]:
    return keep_index_entries(run, changes)  # type: ignore[arg-type]


def _notes(run: Run) -> str:
    return " ".join(" ".join(run.report.notes).split())


def test_dropped_entries_name_each_lost_line_with_its_neighbours() -> None:
    base = _text("# Index", ONE, "prose", TWO, THREE, "- [Gone](gone.md) — g")
    found = dropped_entries(base, _text("# Index", THREE), "", LIVE)
    assert found == [
        IndexEnsure("one.md", ONE, after=(), before=("two.md", "three.md", "gone.md")),
        IndexEnsure("two.md", TWO, after=("one.md",), before=("three.md", "gone.md")),
    ]
    # A line that links the memory in another shape keeps it; a link to nothing is none.
    reshaped = _text("1. [One](one.md)", "**[Two](two%2Emd)**", THREE)
    assert dropped_entries(base, reshaped, "", LIVE) == []


def test_dropped_entries_resolve_targets_from_the_index_folder() -> None:
    base = _text("- [A](a.md)", "- [B](../b.md)")
    live = {"team/a.md": b"a", "b.md": b"b", "a.md": b"a"}
    found = dropped_entries(base, b"", "team", live)
    assert [(e.target, e.before) for e in found] == [("team/a.md", ("b.md",)), ("b.md", ())]
    # The edit links `a.md` from the folder: the memory is linked, not dropped.
    assert [e.target for e in dropped_entries(base, _text("- [A](a.md)"), "team", live)] == ["b.md"]


def test_an_index_rewritten_with_one_line_gets_the_other_entries_back(tmp_path: Path) -> None:
    run = _run(tmp_path, {"MEMORY.md": _text("# Index", ONE, TWO, THREE)}, scope="team")
    result = _keep(run, {"MEMORY.md": _text("# Index", THREE), "one.md": b"x"})
    assert result == {"MEMORY.md": _text("# Index", ONE, TWO, THREE), "one.md": b"x"}
    assert _notes(run) == (
        'kept the MEMORY.md line(s) of "one.md", "two.md": the memory is still there, so '
        "only its line was dropped (likely a rewrite of the index from before this session's "
        "pull); delete the memory file to remove it"
    )


def test_changes_without_a_synced_index_pass_through(tmp_path: Path) -> None:
    run = _run(tmp_path, {"MEMORY.md": _text(ONE, TWO)})
    changes: dict[str, bytes | None] = {"one.md": b"x", "team/MEMORY.md": b""}
    assert _keep(run, changes) == changes  # no index the manifest knows
    assert run.report.notes == ()
    run.manifest.files["team/MEMORY.md"] = "0" * 40  # a blob the clone lacks: nothing to read
    assert _keep(run, changes) == changes
    whole = {"MEMORY.md": _text(ONE, TWO)}
    assert _keep(run, whole) == whole and run.report.notes == ()


def test_a_deleted_index_keeps_the_entries_of_memories_still_there(tmp_path: Path) -> None:
    run = _run(tmp_path, {"MEMORY.md": _text("# Index", ONE, TWO, THREE)}, **{"two.md": b"2"})
    remember(run, _text("# Index", ONE, TWO, THREE))  # a session saw all: a deletion still
    assert _keep(run, {"MEMORY.md": None}) == {"MEMORY.md": _text(TWO)}
    assert 'kept the MEMORY.md line(s) of "two.md"' in _notes(run)
    gone = _run(tmp_path, {"MEMORY.md": _text(ONE)}, **{"two.md": b"2"})
    assert _keep(gone, {"MEMORY.md": None}) == {"MEMORY.md": None}
    assert gone.report.notes == ()


def test_a_line_of_a_memory_the_store_deleted_is_dropped_again(tmp_path: Path) -> None:
    run = _run(tmp_path, {"MEMORY.md": _text(ONE)}, **{"one.md": b"1", "three.md": b"3"})
    _delete_in_store(run.binding.clone_dir, "two.md")
    soon, url = "- [Soon](soon.md) — to write", "- [Site](https://x.example/two.md)"
    edited = _text(ONE, TWO, url, soon, THREE)
    result = _keep(run, {"MEMORY.md": edited})
    # Only the deleted memory's line goes: one never written is the person's, a URL no memory.
    assert result == {"MEMORY.md": _text(ONE, url, soon, THREE)}
    assert _notes(run) == (
        'dropped the MEMORY.md line(s) of "two.md": that memory was deleted, and the line '
        "came back with an index written from before this session's pull"
    )
    # A line the synced index already had is no addition, whatever the store did.
    again = _run(tmp_path, {"MEMORY.md": _text(ONE, TWO)}, **{"one.md": b"1"})
    assert _keep(again, {"MEMORY.md": _text(ONE, TWO)}) == {"MEMORY.md": _text(ONE, TWO)}


def test_the_store_path_of_a_deleted_memory_has_the_binding_folder(tmp_path: Path) -> None:
    run = _run(tmp_path, {"MEMORY.md": _text(ONE)}, **{"one.md": b"1"})
    run.binding.prefix = "proj"
    _delete_in_store(run.binding.clone_dir, "proj/two.md")
    assert _keep(run, {"MEMORY.md": _text(ONE, TWO)}) == {"MEMORY.md": _text(ONE)}


def remember(run: Run, loaded: bytes, synced_as: str | None = None) -> None:
    """The loaded copy a session start keeps: LOADED, over the index synced as SYNCED_AS."""
    path = loaded_index_file(run.binding.live_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(loaded)
    over = run.manifest.files["MEMORY.md"] if synced_as is None else synced_as
    path.with_suffix(".loaded-base").write_bytes(over.encode("ascii"))


def test_a_line_written_back_as_loaded_takes_the_pulled_text(tmp_path: Path) -> None:
    new = "- [One](one.md) — 1, pnpm only"
    run = _run(tmp_path, {"MEMORY.md": _text("# Index", new, TWO)})
    remember(run, _text("# Index", ONE, TWO), synced_as="old")
    result = _keep(run, {"MEMORY.md": _text("# Index", ONE, TWO, "- [Two](two.md) — 2b")})
    assert result == {"MEMORY.md": _text("# Index", new, TWO, "- [Two](two.md) — 2b")}
    assert _notes(run) == (
        'kept the pulled MEMORY.md line(s) of "one.md": this session wrote them back as it '
        "had loaded them, before its pull changed them; edit the line again to change it"
    )
    # Given back once: the loaded copy now holds the pulled line, so the same write again
    # is the person's edit.
    loaded = loaded_index_file(run.binding.live_dir).read_bytes()
    assert loaded == _text("# Index", new, TWO)
    # Only the line given back is settled: one the pull retitled and the session edited
    # keeps its loaded text in the copy.
    three = "- [Three](three.md) — 3, pulled"
    (tmp_path / "other").mkdir()
    other = _run(tmp_path / "other", {"MEMORY.md": _text(new, three)})
    remember(other, _text(ONE, THREE), synced_as="old")
    mine = "- [Three](three.md) — mine"
    assert _keep(other, {"MEMORY.md": _text(ONE, mine)}) == {"MEMORY.md": _text(new, mine)}
    assert loaded_index_file(other.binding.live_dir).read_bytes() == _text(new, THREE)
    second = _run(tmp_path, {"MEMORY.md": _text("# Index", new, TWO)})
    assert _keep(second, {"MEMORY.md": _text("# Index", ONE, TWO)}) == {
        "MEMORY.md": _text("# Index", ONE, TWO)
    }


def test_nothing_is_read_as_written_back_before_a_sync_since_the_start(tmp_path: Path) -> None:
    new = "- [One](one.md) — 1, pnpm only"
    run = _run(tmp_path, {"MEMORY.md": _text(new, TWO)})
    remember(run, _text(ONE, TWO))  # loaded over the index synced now: nothing pulled since
    assert _keep(run, {"MEMORY.md": _text(ONE, TWO)}) == {"MEMORY.md": _text(ONE, TWO)}
    assert run.report.notes == ()
    team = _run(tmp_path, {"MEMORY.md": _text(new, TWO)}, scope="team")
    remember(team, _text(ONE, TWO), synced_as="old")  # the loaded copy is the private one's
    assert _keep(team, {"MEMORY.md": _text(ONE, TWO)}) == {"MEMORY.md": _text(ONE, TWO)}


def test_an_entry_the_session_saw_and_dropped_stays_dropped(tmp_path: Path) -> None:
    run = _run(tmp_path, {"MEMORY.md": _text(ONE, TWO, THREE)})
    remember(run, _text(ONE, TWO))  # the session was shown one and two, not three
    assert _keep(run, {"MEMORY.md": _text(ONE)}) == {"MEMORY.md": _text(ONE, THREE)}
    assert 'line(s) of "three.md"' in _notes(run) and "two.md" not in _notes(run)
    # Without the loaded copy, what the session saw is unknown: both come back.
    forget_loaded_index(run.binding)  # type: ignore[arg-type]
    assert _keep(run, {"MEMORY.md": _text(ONE)}) == {"MEMORY.md": _text(ONE, TWO, THREE)}


def test_the_loaded_copy_is_kept_over_what_was_synced_and_forgotten_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _run(tmp_path, {"MEMORY.md": _text(ONE)})
    manifest = run.manifest
    binding: Any = run.binding
    monkeypatch.setattr(
        "memsync.sync.manifest.binding_manifest",
        lambda given: (manifest, Path("m")) if given is binding else None,
    )
    path = loaded_index_file(binding.live_dir)
    base = path.with_suffix(".loaded-base")
    synced = manifest.files["MEMORY.md"].encode()
    remember_loaded_index(binding)  # no MEMORY.md: nothing kept
    assert not path.exists() and not base.exists()
    (binding.live_dir / "MEMORY.md").write_bytes(_text(ONE, TWO))
    remember_loaded_index(binding)
    assert (path.read_bytes(), base.read_bytes()) == (_text(ONE, TWO), synced)
    # A second start while the first session runs on: the lines both were shown, as the
    # first saw them, over what the first start had synced.
    manifest.files["MEMORY.md"] = "f" * 40
    (binding.live_dir / "MEMORY.md").write_bytes(_text("# Index", TWO, THREE, "- [One](one.md)"))
    remember_loaded_index(binding)
    assert (path.read_bytes(), base.read_bytes()) == (_text(ONE, TWO), synced)
    # The index as kept, synced since (a start committed an edit that waited): the copy is
    # kept, over the version synced now.
    (binding.live_dir / "MEMORY.md").write_bytes(_text(ONE, TWO))
    remember_loaded_index(binding)
    assert (path.read_bytes(), base.read_bytes()) == (_text(ONE, TWO), b"f" * 40)
    base.unlink()  # a base file lost: written again, the loaded copy unchanged
    remember_loaded_index(binding)
    assert (path.read_bytes(), base.read_bytes()) == (_text(ONE, TWO), b"f" * 40)
    forget_loaded_index(binding)
    assert not path.exists() and not base.exists()
    forget_loaded_index(binding)  # a session end with nothing kept: nothing to do
    (binding.live_dir / "MEMORY.md").write_bytes(_text(ONE))
    remember_loaded_index(binding)
    (binding.live_dir / "MEMORY.md").unlink()
    remember_loaded_index(binding)  # the index went before a start: no stale copy stays
    assert not path.exists()


def test_the_loaded_copy_sits_beside_the_manifest(tmp_path: Path) -> None:
    from memsync.config import data_dir
    from memsync.sync.manifest import manifest_path

    live = tmp_path / "live"
    expected = manifest_path(data_dir(), live).with_suffix(".loaded-index")
    assert loaded_index_file(live) == expected
    assert indexkeep.LOADED_SUFFIX == ".loaded-index"


def test_a_second_start_keeps_only_the_lines_both_were_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _run(tmp_path, {})  # an index never synced: no version to keep beside it
    binding: Any = run.binding
    monkeypatch.setattr(
        "memsync.sync.manifest.binding_manifest", lambda given: (run.manifest, Path("m"))
    )
    path = loaded_index_file(binding.live_dir)
    (binding.live_dir / "MEMORY.md").write_bytes(_text("# Index", ONE, TWO))
    remember_loaded_index(binding)
    assert path.with_suffix(".loaded-base").read_bytes() == b""
    # The second start's index lacks `two` (its pull or a hand edit took it out).
    (binding.live_dir / "MEMORY.md").write_bytes(_text("# Index", THREE, ONE))
    remember_loaded_index(binding)
    assert path.read_bytes() == _text("# Index", ONE)


def test_only_the_private_top_index_is_read_against_the_loaded_copy(tmp_path: Path) -> None:
    team = _run(tmp_path, {"MEMORY.md": _text(ONE, TWO)}, scope="team")
    remember(team, _text(ONE, TWO))  # the private session saw both
    assert _keep(team, {"MEMORY.md": _text(ONE)}) == {"MEMORY.md": _text(ONE, TWO)}
    sub = {"sub/MEMORY.md": _text("- [A](a.md)", "- [B](b.md)")}
    private = _run(tmp_path, sub, **{"sub/a.md": b"a", "sub/b.md": b"b"})
    remember(private, _text("- [A](sub/a.md)", "- [B](sub/b.md)"), synced_as="x")
    result = _keep(private, {"sub/MEMORY.md": _text("- [B](b.md)")})
    assert result == {"sub/MEMORY.md": _text("- [A](a.md)", "- [B](b.md)")}
    assert 'kept the sub/MEMORY.md line(s) of "sub/a.md"' in _notes(private)


def test_each_index_of_a_push_is_kept_whatever_came_before_it(tmp_path: Path) -> None:
    synced = {"team/MEMORY.md": _text(ONE), "sub/MEMORY.md": _text(ONE), "MEMORY.md": _text(ONE)}
    run = _run(tmp_path, synced, **{"one.md": b"1", "two.md": b"2", "sub/x.md": b"x"})
    run.manifest.files["team/MEMORY.md"] = "0" * 40  # its blob is not in the clone
    run.manifest.files["MEMORY.md"] = run.manifest.files["sub/MEMORY.md"]
    changes: dict[str, bytes | None] = {
        "team/MEMORY.md": b"",
        "sub/MEMORY.md": _text(ONE),  # nothing dropped here
        "MEMORY.md": _text("# Mine"),
    }
    assert _keep(run, changes) == {**changes, "MEMORY.md": _text("# Mine", ONE)}


def test_an_emptied_index_is_the_kept_entries_alone_as_the_index_had_them(
    tmp_path: Path,
) -> None:
    # Put after an empty file's one empty line, they began with a blank line and lost the
    # final newline: `\n- [One](one.md) — 1` went to every machine.
    run = _run(tmp_path, {"MEMORY.md": _text("# Index", ONE, TWO)}, **{"one.md": b"1"})
    assert _keep(run, {"MEMORY.md": b""}) == {"MEMORY.md": _text(ONE)}
    assert 'kept the MEMORY.md line(s) of "one.md"' in _notes(run)
    crlf = _run(tmp_path, {"MEMORY.md": b"# Index\r\n- [One](one.md)\r\n"})
    assert _keep(crlf, {"MEMORY.md": b"\n \n"}) == {"MEMORY.md": b"- [One](one.md)\r\n"}


def test_a_line_of_a_memory_deleted_once_and_written_again_stays(tmp_path: Path) -> None:
    run = _run(tmp_path, {"MEMORY.md": _text(ONE)}, **{"one.md": b"1", "two.md": b"2"})
    _delete_in_store(run.binding.clone_dir, "two.md")
    assert _keep(run, {"MEMORY.md": _text(ONE, TWO)}) == {"MEMORY.md": _text(ONE, TWO)}
    assert run.report.notes == ()


def test_a_reshaped_link_in_a_folders_index_still_links_its_memory() -> None:
    base = _text("- [Two](two.md) — 2")
    live = {"sub/two.md": b"2"}
    assert dropped_entries(base, _text("**[Two](two%2Emd)**"), "sub", live) == []


def _ensure(lines: bytes, *items: IndexEnsure) -> bytes | None:
    from memsync.merge.index import merge_index

    return merge_index(lines, lines, lines, ensure=list(items)).content


def test_entries_put_back_by_target_each_where_its_neighbours_are() -> None:
    x = "- [X](x.md)"
    a, b = "- [A](a.md)", "- [B](b.md)"
    # Taken by target: `a` first, after `x`; then `b` after `a`, not before `x`.
    later = IndexEnsure("b.md", b, after=("a.md",), before=("x.md",))
    first = IndexEnsure("a.md", a, after=("x.md",))
    assert _ensure(_text(x), later, first) == _text(x, a, b)
    # An entry already there is skipped, and the next one still goes in.
    there = IndexEnsure("x.md", "- [X again](x.md)", after=("a.md",))
    assert _ensure(_text(x), there, IndexEnsure("y.md", "- [Y](y.md)")) == _text(x, "- [Y](y.md)")
    # No neighbour left: after the last entry, before the prose that ends the index.
    alone = IndexEnsure("y.md", "- [Y](y.md)", after=("q.md",), before=("r.md",))
    assert _ensure(_text("# I", x, "A", "end."), alone) == _text(
        "# I", x, "- [Y](y.md)", "A", "end."
    )
    z = "- [Z](z.md)"
    assert _ensure(_text("# I", x, z), alone) == _text("# I", x, z, "- [Y](y.md)")
    assert _ensure(_text("# I", "text"), alone) == _text("# I", "text", "- [Y](y.md)")
