"""The in-store merge: changed paths only, one fast-import, decisions as commit trailers."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memsync import git as gitcmd
from memsync.merge.memory import MergeDecision
from memsync.merge.tree import merge_trees
from memsync.model.index import parse_index
from memsync.model.memory import parse_memory
from memsync.sync.storemerge import StoreMerge, describe, merge_in_store, riding, trailers
from testing.gitrepo import git, git_bytes

ANN = gitcmd.Identity("Ann", "ann@example.invalid")
EXAMPLES = 200 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 15


def mem(name: str, body: str, description: str | None = None) -> bytes:
    head = f"---\nname: {name}\ndescription: {description or name}\ntype: project\n---\n"
    return (head + body).encode()


def index(*names: str) -> bytes:
    return ("# Memory\n" + "".join(f"- [{n}]({n}.md) — {n}\n" for n in names)).encode()


BASE = {"p/MEMORY.md": index("a", "b"), "p/a.md": mem("a", "A\n"), "p/b.md": mem("b", "B\n")}


def commit_files(
    repo: Path,
    files: Mapping[str, bytes | None],
    message: str,
    when: int,
    allow_empty: bool = False,
) -> str:
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
    empty = ["--allow-empty"] if allow_empty else []
    git("commit", "-q", *empty, "-m", message, cwd=repo, env=env)
    return git("rev-parse", "HEAD", cwd=repo).strip()


@pytest.fixture
def store(tmp_path: Path) -> Path:
    repo = tmp_path / "store"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    commit_files(repo, BASE, "base", 1_000)
    git("branch", "other", cwd=repo)
    return repo


def branch(store: Path, name: str, files: Mapping[str, bytes | None], when: int) -> str:
    git("checkout", "-q", name, cwd=store)
    commit = commit_files(store, files, f"{name} edits", when)
    git("checkout", "-q", "main", cwd=store)
    return commit


def merge(store: Path, ours: str = "main", theirs: str = "other") -> StoreMerge:
    one, two = (git("rev-parse", ref, cwd=store).strip() for ref in (ours, theirs))
    base = git("merge-base", one, two, cwd=store).strip()
    return merge_in_store(store, base, one, two, message="memsync: merge\n", author=ANN, when=5)


def tree(store: Path, commit: str) -> dict[str, bytes]:
    names = git("ls-tree", "-r", "--name-only", commit, cwd=store).split()
    return {n: git_bytes("cat-file", "blob", f"{commit}:{n}", cwd=store) for n in names}


def test_a_clean_merge_commit_with_both_parents_and_nothing_moved(store: Path) -> None:
    ours = branch(store, "main", {"p/a.md": mem("a", "A\n", "desc from main")}, 2_000)
    theirs = branch(store, "other", {"p/a.md": mem("a", "A\nmore body\n"), "p/b.md": None}, 3_000)
    result = merge(store)
    assert git("rev-parse", "main", cwd=store).strip() == ours  # objects only
    assert git("rev-list", "--parents", "-n1", result.commit, cwd=store).split()[1:] == [
        ours,
        theirs,
    ]
    files = tree(store, result.commit)
    a = parse_memory(files["p/a.md"])
    assert a.description == "desc from main" and "more body" in a.body
    # The index was changed by neither side: it is looked up and fixed all the same.
    assert "p/b.md" not in files and parse_index(files["p/MEMORY.md"]).targets == ["a.md"]
    assert set(result.changed) == {"p/a.md", "p/b.md", "p/MEMORY.md"}
    assert result.decisions == ()
    # Committed at the merge (5); authored when the latest edit it merges into a.md was made
    # (other's, 3000): blame dates the lines the merge writes by that edit (SPEC 4).
    assert git("log", "-1", "--format=%an <%ae> %at %ct%n%B", result.commit, cwd=store) == (
        "Ann <ann@example.invalid> 3000 5\nmemsync: merge\n\n"
    )


def test_decisions_are_trailers_of_the_merge_commit(store: Path) -> None:
    branch(store, "main", {"p/a.md": mem("a", "A\n", "older")}, 2_000)
    branch(store, "other", {"p/a.md": mem("a", "A\n", "newer")}, 9_000)
    result = merge(store)
    assert parse_memory(tree(store, result.commit)["p/a.md"]).description == "newer"
    (decision,) = result.decisions
    assert (decision.kept, decision.lost) == ("newer", "older")
    parsed = git(
        "log", "-1", "--format=%(trailers:key=Memsync-Decision,valueonly)", result.commit, cwd=store
    ).strip()
    assert parsed == describe(decision)
    assert parsed.startswith("p/a.md (description): both sides changed")
    assert parsed.endswith('kept "newer", lost "older"')


def test_add_add_copy_and_executable_mode_survive(store: Path) -> None:
    (store / "p/run.sh.md").write_text("x\n")
    os.chmod(store / "p/run.sh.md", 0o755)
    commit_files(store, {}, "exec", 1_500)
    git("branch", "-f", "other", "main", cwd=store)
    branch(store, "main", {"p/c.md": mem("c", "C\n"), "p/run.sh.md": b"x\nours\n"}, 2_000)
    branch(store, "other", {"p/c.md": mem("sea", "S\n"), "p/run.sh.md": b"x\n\ntheirs\n"}, 3_000)
    result = merge(store)
    files = tree(store, result.commit)
    assert files["p/c-2.md"] == mem("sea", "S\n")
    assert sorted(parse_index(files["p/MEMORY.md"]).targets) == ["a.md", "b.md", "c-2.md", "c.md"]
    mode = git("ls-tree", result.commit, "p/run.sh.md", cwd=store).split()[0]
    assert mode == "100755"
    assert sorted(d.kind for d in result.decisions) == ["add-add-renamed", "text-conflict"]


def test_a_rename_on_one_side_takes_the_other_sides_edit(store: Path) -> None:
    branch(store, "main", {"p/b.md": None, "p/bee.md": BASE["p/b.md"]}, 2_000)
    branch(store, "other", {"p/b.md": mem("b", "B\nedited\n")}, 3_000)
    files = tree(store, merge(store).commit)
    assert "p/b.md" not in files and files["p/bee.md"] == mem("b", "B\nedited\n")


def test_both_machines_build_the_same_tree(store: Path) -> None:
    branch(store, "main", {"p/a.md": mem("a", "A\nfrom main\n"), "p/c.md": mem("c", "C\n")}, 2)
    branch(store, "other", {"p/a.md": mem("a", "A\nfrom other\n"), "p/b.md": None}, 3)
    one, two = merge(store, "main", "other"), merge(store, "other", "main")
    trees = {git("rev-parse", f"{c.commit}^{{tree}}", cwd=store) for c in (one, two)}
    assert len(trees) == 1
    assert set(one.decisions) == set(two.decisions)


def test_unrelated_histories_merge_against_the_empty_tree(store: Path) -> None:
    git("checkout", "-q", "--orphan", "fresh", cwd=store)
    git("rm", "-rq", "--cached", ".", cwd=store)
    fresh = commit_files(store, {"p/z.md": mem("z", "Z\n")}, "fresh", 4_000)
    main = git("rev-parse", "main", cwd=store).strip()
    result = merge_in_store(store, None, main, fresh, message="m", author=ANN)
    assert set(tree(store, result.commit)) == {*BASE, "p/z.md"}


def test_describe_never_prints_a_secret_looking_value() -> None:
    token = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
    decision = MergeDecision("p/a.md", "field-conflict", "api_token", token, "short", "d")
    line = describe(decision)
    assert token not in line and "not shown" in line
    long = MergeDecision("p/a.md", "field-conflict", "description", "word " * 40, "x", "d")
    assert len(describe(long)) < 120 and "…" in describe(long)
    assert trailers([]) == ""
    assert trailers([long]).startswith("\nMemsync-Decision: p/a.md (description): d; kept")


NAMES = st.sampled_from(["p/a.md", "p/b.md", "p/c.md", "p/team/d.md", "p/MEMORY.md"])
CONTENT = st.sampled_from([mem("a", "A\n"), mem("b", "B\n"), mem("a", "A\nA2\n"), index("a")])
CHANGES = st.dictionaries(NAMES, st.one_of(st.none(), CONTENT), max_size=3)


@settings(max_examples=EXAMPLES, deadline=None)
@given(CHANGES, CHANGES)
# Git's own rename detection (diff-tree -M) saw no rename here, the pure merge's rule saw
# a.md -> c.md (half the lines alike): the two merges disagreed until the store used that rule.
@example({"p/a.md": mem("b", "B\n")}, {"p/a.md": None, "p/c.md": mem("b", "B\n")})
def test_the_in_store_merge_equals_the_pure_merge_of_whole_trees(
    tmp_path_factory: pytest.TempPathFactory,
    ours_changes: dict[str, bytes | None],
    theirs_changes: dict[str, bytes | None],
) -> None:
    repo = tmp_path_factory.mktemp("store")
    git("init", "-q", "-b", "main", cwd=repo)
    commit_files(repo, BASE, "base", 1_000)
    git("branch", "other", cwd=repo)
    for name, changes, when in (("main", ours_changes, 2_000), ("other", theirs_changes, 3_000)):
        git("checkout", "-q", name, cwd=repo)
        present = {p: d for p, d in changes.items() if d is not None or (repo / p).exists()}
        commit_files(repo, present, name, when, allow_empty=True)
        git("checkout", "-q", "main", cwd=repo)
    sides = [tree(repo, ref) for ref in ("main", "other")]
    if sides[0] == BASE or sides[1] == BASE or sides[0] == sides[1]:
        return  # a fast-forward or nothing: the sync engine never merges those
    expected = merge_trees(
        BASE,
        sides[0],
        sides[1],
        ours_times=dict.fromkeys(ours_changes, 2_000),
        theirs_times=dict.fromkeys(theirs_changes, 3_000),
    )
    assert tree(repo, merge(repo).commit) == dict(expected.files)


def test_trailers_of_local_edit_commits_name_store_paths_and_ride_with_their_file() -> None:
    mine = MergeDecision("a.md", "body-conflict", None, "x", None, "kept both")
    index = MergeDecision("MEMORY.md", "index-lines-combined", None, "x", None, "kept both")
    block = trailers([mine], "acme-api")
    assert block == "\nMemsync-Decision: acme-api/a.md: kept both\n"
    merged = {"a.md", "b.md"}
    assert riding([mine, index], {"b.md"}, merged, last=False) == []
    assert riding([mine, index], {"a.md"}, merged, last=False) == [mine]
    assert riding([mine, index], {"b.md"}, merged, last=True) == [index]
