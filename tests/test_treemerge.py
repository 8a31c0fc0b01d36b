"""Tree-level merge: pure merge_trees, and merge_commits on real git clones."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.errors import UnsafeStateError
from memsync.merge.tree import (
    TreeMergeResult,
    build_merge_commit,
    detect_renames,
    merge_commits,
    merge_trees,
)
from memsync.model.index import parse_index
from memsync.model.memory import parse_memory
from testing.gitrepo import git

EXAMPLES = 1000 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 100


def mem(name: str, body: str, description: str | None = None) -> bytes:
    head = f"---\nname: {name}\ndescription: {description or name}\ntype: project\n---\n"
    return (head + body).encode()


def index(*names: str, folder_prefix: str = "") -> bytes:
    return (
        "# Memory\n" + "".join(f"- [{n}]({folder_prefix}{n}.md) — {n}\n" for n in names)
    ).encode()


def both_ways(
    base: Mapping[str, bytes],
    ours: Mapping[str, bytes],
    theirs: Mapping[str, bytes],
    t_ours: int = 10,
    t_theirs: int = 20,
) -> TreeMergeResult:
    times_o = dict.fromkeys(ours, t_ours)
    times_t = dict.fromkeys(theirs, t_theirs)
    one = merge_trees(base, ours, theirs, ours_times=times_o, theirs_times=times_t)
    two = merge_trees(base, theirs, ours, ours_times=times_t, theirs_times=times_o)
    assert one.files == two.files
    assert set(one.decisions) == set(two.decisions)
    return one


def targets(data: bytes) -> list[str]:
    return parse_index(data).targets


BASE = {"p/MEMORY.md": index("a", "b"), "p/a.md": mem("a", "A\n"), "p/b.md": mem("b", "B\n")}


def test_one_sided_changes_need_no_merge() -> None:
    theirs = {**BASE, "p/c.md": mem("c", "C\n")}
    result = both_ways(BASE, BASE, theirs)
    assert result.files == theirs and result.changed == ("p/c.md",)


def test_delete_versus_modify_keeps_file_and_its_index_entry() -> None:
    ours = {"p/MEMORY.md": index("a"), "p/a.md": BASE["p/a.md"]}
    theirs = {**BASE, "p/b.md": mem("b", "B\nmore\n"), "p/a.md": mem("a", "A\nA2\n")}
    result = both_ways(BASE, ours, theirs)
    assert result.files["p/b.md"] == theirs["p/b.md"]
    assert targets(result.files["p/MEMORY.md"]) == ["a.md", "b.md"]
    assert [d.kind for d in result.decisions] == ["delete-modify"]


def test_deleted_memory_leaves_the_index_even_if_the_other_side_edited_the_index() -> None:
    ours = {"p/MEMORY.md": BASE["p/MEMORY.md"], "p/a.md": BASE["p/a.md"]}  # forgot the index
    theirs = {**BASE, "p/MEMORY.md": index("a", "b", "c"), "p/c.md": mem("c", "C\n")}
    result = both_ways(BASE, ours, theirs)
    assert "p/b.md" not in result.files
    assert targets(result.files["p/MEMORY.md"]) == ["a.md", "c.md"]


def test_add_add_of_different_memories_keeps_both_and_indexes_both() -> None:
    ours = {**BASE, "p/c.md": mem("c", "C\n"), "p/MEMORY.md": index("a", "b", "c")}
    theirs = {**BASE, "p/c.md": mem("other", "O\n")}  # theirs did not index it
    result = both_ways(BASE, ours, theirs)
    assert result.files["p/c.md"] == ours["p/c.md"]
    assert result.files["p/c-2.md"] == theirs["p/c.md"]
    assert result.renamed == (("p/c.md", "p/c-2.md"),)
    assert targets(result.files["p/MEMORY.md"]) == ["a.md", "b.md", "c.md", "c-2.md"]
    assert "- [other](c-2.md) — other" in result.files["p/MEMORY.md"].decode()


def test_add_add_renamed_side_entry_follows_its_memory() -> None:
    ours = {**BASE, "p/c.md": mem("c", "C\n"), "p/MEMORY.md": index("a", "b", "c")}
    theirs = {
        **BASE,
        "p/c.md": mem("zed", "Z\n"),
        "p/MEMORY.md": index("a", "b") + b"- [zed](c.md) - zed hook\n",
    }
    result = both_ways(BASE, ours, theirs, 10, 20)
    lines = result.files["p/MEMORY.md"].decode().splitlines()
    assert lines[-2:] == ["- [c](c.md) — c", "- [zed](c-2.md) - zed hook"]


def test_team_subfolder_has_its_own_index() -> None:
    base = {**BASE, "p/team/MEMORY.md": index("t"), "p/team/t.md": mem("t", "T\n")}
    ours = {**base, "p/team/u.md": mem("u", "U\n"), "p/team/MEMORY.md": index("t", "u")}
    theirs = {**base, "p/team/u.md": mem("v", "V\n"), "p/team/MEMORY.md": index("t", "u")}
    result = both_ways(base, ours, theirs)
    assert targets(result.files["p/team/MEMORY.md"]) == ["t.md", "u.md", "u-2.md"]
    assert result.files["p/MEMORY.md"] == BASE["p/MEMORY.md"]


def test_rename_on_one_side_edit_on_the_other_lands_on_the_new_name() -> None:
    ours = {"p/MEMORY.md": index("a", "bee"), "p/a.md": BASE["p/a.md"], "p/bee.md": BASE["p/b.md"]}
    theirs = {**BASE, "p/b.md": mem("b", "B\nedited\n")}
    result = both_ways(BASE, ours, theirs)
    assert "p/b.md" not in result.files
    assert result.files["p/bee.md"] == theirs["p/b.md"]
    assert targets(result.files["p/MEMORY.md"]) == ["a.md", "bee.md"]


def test_rename_on_both_sides_keeps_the_newer_name() -> None:
    ours = {**BASE, "p/b.md": b"", "p/MEMORY.md": BASE["p/MEMORY.md"]}
    del ours["p/b.md"]
    ours["p/b-ours.md"] = mem("b", "B\nfrom ours\n")
    theirs = {k: v for k, v in BASE.items() if k != "p/b.md"}
    theirs["p/b-theirs.md"] = mem("b", "B\n", "theirs desc")
    result = both_ways(BASE, ours, theirs, 10, 20)
    memories = sorted(p for p in result.files if not p.endswith("MEMORY.md"))
    assert memories == ["p/a.md", "p/b-theirs.md"]
    merged = parse_memory(result.files["p/b-theirs.md"])
    assert merged.description == "theirs desc" and "from ours" in merged.body
    assert [d.kind for d in result.decisions] == ["rename-rename"]


def test_binary_files_keep_both() -> None:
    base = {"p/x.bin": b"\0base"}
    result = both_ways(base, {"p/x.bin": b"\0ours"}, {"p/x.bin": b"\0theirs"})
    assert set(result.files.values()) == {b"\0ours", b"\0theirs"}


def test_detect_renames_exact_and_similar() -> None:
    base = {"a.md": b"same\n", "b.md": b"one\ntwo\nthree\nfour\n"}
    side = {"x.md": b"same\n", "y.md": b"one\ntwo\nthree\nfive\n"}
    assert detect_renames(base, side) == {"a.md": "x.md", "b.md": "y.md"}


NAMES = st.sampled_from(["p/a.md", "p/b.md", "p/c.md", "p/team/d.md", "p/x.txt"])
CONTENT = st.sampled_from([mem("a", "A\n"), mem("b", "B\n"), mem("a", "A\nA2\n"), b"line\n"])
TREE = st.dictionaries(NAMES, CONTENT, max_size=4)


@settings(max_examples=EXAMPLES, deadline=None)
@given(TREE, TREE, TREE, st.booleans())
def test_tree_merge_is_symmetric(
    base: dict[str, bytes], ours: dict[str, bytes], theirs: dict[str, bytes], with_index: bool
) -> None:
    if with_index:
        for tree in (base, ours, theirs):
            tree["p/MEMORY.md"] = index(*sorted(p[2:-3] for p in tree if p.endswith(".md")))
    result = both_ways(base, ours, theirs, 1, 1)
    assert merge_trees(base, ours, ours).files == ours
    assert merge_trees(base, base, ours).files == ours
    assert result.changed == tuple(
        sorted(p for p in {*ours, *result.files} if ours.get(p) != result.files.get(p))
    )


# --- merge_commits on real clones ---


def commit_files(repo: Path, files: Mapping[str, bytes | None], message: str, when: int) -> str:
    for path, data in files.items():
        target = repo / path
        if data is None:
            target.unlink()
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    git("add", "-A", cwd=repo)
    stamp = f"@{when} +0000"
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    git("commit", "-q", "-m", message, cwd=repo, env=env)
    return git("rev-parse", "HEAD", cwd=repo).strip()


@pytest.fixture
def store(tmp_path: Path) -> Path:
    repo = tmp_path / "store"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    commit_files(repo, BASE, "base", 1_000)
    git("branch", "other", cwd=repo)
    return repo


def diverge(store: Path) -> tuple[str, str]:
    ours = commit_files(
        store,
        {
            "p/a.md": mem("a", "A\n", "desc from main"),
            "p/MEMORY.md": index("a", "b", "c"),
            "p/c.md": mem("c", "C\n"),
        },
        "main edits",
        2_000,
    )
    git("checkout", "-q", "other", cwd=store)
    theirs = commit_files(
        store,
        {"p/a.md": mem("a", "A\nmore body\n"), "p/b.md": None, "p/c.md": mem("sea", "S\n")},
        "other edits",
        3_000,
    )
    git("checkout", "-q", "main", cwd=store)
    return ours, theirs


def test_merge_commits_creates_a_clean_merge(store: Path) -> None:
    ours, theirs = diverge(store)
    outcome = merge_commits(store, "HEAD", "other", "memsync: merge")
    assert outcome.status == "merged"
    assert git("rev-parse", "HEAD", cwd=store).strip() == outcome.commit
    assert git("rev-list", "--parents", "-n1", "HEAD", cwd=store).split()[1:] == [ours, theirs]
    assert git("status", "--porcelain", cwd=store) == ""
    a = parse_memory((store / "p/a.md").read_bytes())
    assert a.description == "desc from main" and "more body" in a.body
    assert not (store / "p/b.md").exists()
    assert (store / "p/c-2.md").read_bytes() == mem("sea", "S\n")
    assert targets((store / "p/MEMORY.md").read_bytes()) == ["a.md", "c.md", "c-2.md"]
    assert set(outcome.changed) == {"p/a.md", "p/b.md", "p/c-2.md", "p/MEMORY.md"}
    assert outcome.renamed == (("p/c.md", "p/c-2.md"),)


def test_both_machines_converge_to_the_same_tree(store: Path) -> None:
    diverge(store)
    git("branch", "main-copy", "main", cwd=store)
    one = merge_commits(store, "main", "other", "merge on machine one")
    git("checkout", "-q", "other", cwd=store)
    two = merge_commits(store, "other", "main-copy", "merge on machine two")
    tree = "{}^{{tree}}"
    assert git("rev-parse", tree.format(one.commit), cwd=store) == git(
        "rev-parse", tree.format(two.commit), cwd=store
    )


def test_fast_forward_and_up_to_date(store: Path) -> None:
    git("checkout", "-q", "other", cwd=store)
    theirs = commit_files(store, {"p/z.md": mem("z", "Z\n")}, "z", 5_000)
    git("checkout", "-q", "main", cwd=store)
    outcome = merge_commits(store, "HEAD", "other", "m")
    assert (outcome.status, outcome.commit, outcome.changed) == (
        "fast-forward",
        theirs,
        ("p/z.md",),
    )
    assert (store / "p/z.md").exists() and git("status", "--porcelain", cwd=store) == ""
    assert merge_commits(store, "HEAD", "other", "m").status == "up-to-date"


def test_merging_into_a_branch_that_is_not_checked_out_moves_only_its_ref(store: Path) -> None:
    diverge(store)
    head_before = git("rev-parse", "HEAD", cwd=store)
    outcome = merge_commits(store, "other", "main", "m")
    assert git("rev-parse", "other", cwd=store).strip() == outcome.commit
    assert git("rev-parse", "HEAD", cwd=store) == head_before


def test_refuses_a_dirty_clone_and_changes_nothing(store: Path) -> None:
    diverge(store)
    (store / "p/a.md").write_text("local edit\n")
    head = git("rev-parse", "HEAD", cwd=store)
    with pytest.raises(UnsafeStateError, match="uncommitted"):
        merge_commits(store, "HEAD", "other", "m")
    assert git("rev-parse", "HEAD", cwd=store) == head
    assert (store / "p/a.md").read_text() == "local edit\n"


def test_an_untracked_file_in_the_way_leaves_everything_as_it_was(store: Path) -> None:
    diverge(store)
    (store / "p/c-2.md").write_text("untracked\n")
    head = git("rev-parse", "HEAD", cwd=store)
    with pytest.raises(UnsafeStateError, match="could not update"):
        merge_commits(store, "HEAD", "other", "m")
    assert git("rev-parse", "HEAD", cwd=store) == head
    assert git("status", "--porcelain", "--untracked-files=no", cwd=store) == ""
    assert (store / "p/c-2.md").read_text() == "untracked\n"
    assert not (store / ".git/MERGE_HEAD").exists()


def test_refuses_a_clone_in_the_middle_of_a_merge(store: Path) -> None:
    diverge(store)
    (store / ".git/MERGE_HEAD").write_text(git("rev-parse", "other", cwd=store))
    with pytest.raises(UnsafeStateError, match="middle of a merge"):
        merge_commits(store, "HEAD", "other", "m")


def test_newer_commit_time_wins_a_field_conflict(store: Path) -> None:
    commit_files(store, {"p/a.md": mem("a", "A\n", "older")}, "main", 2_000)
    git("checkout", "-q", "other", cwd=store)
    commit_files(store, {"p/a.md": mem("a", "A\n", "newer")}, "other", 9_000)
    git("checkout", "-q", "main", cwd=store)
    outcome = merge_commits(store, "HEAD", "other", "m")
    assert parse_memory((store / "p/a.md").read_bytes()).description == "newer"
    (decision,) = outcome.decisions
    assert (decision.kept, decision.lost) == ("newer", "older")


def test_build_merge_commit_moves_nothing_and_uses_the_given_identity(store: Path) -> None:
    ours, theirs = diverge(store)
    base = git("merge-base", ours, theirs, cwd=store).strip()
    env = {"GIT_AUTHOR_NAME": "Ann", "GIT_AUTHOR_EMAIL": "ann@example.invalid"}
    outcome = build_merge_commit(store, base, ours, theirs, message="m", env=env)
    assert git("rev-parse", "HEAD", cwd=store).strip() == ours
    assert git("log", "-1", "--format=%an <%ae>", outcome.commit, cwd=store).strip() == (
        "Ann <ann@example.invalid>"
    )
    assert {d.kind for d in outcome.decisions} == {"add-add-renamed"}
