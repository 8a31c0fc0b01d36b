"""sync/scaffoldrace.py on a clone built by hand: which histories are rebuilt, and how each
local commit is replayed on the remote's (test_scaffold_race.py runs two real inits; this
file decides each rule on its own, fast enough for the mutation set `scaffold-automemory`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from memsync.sync.scaffoldrace import LOST, SCAFFOLD_SUBJECT, drop_lost_scaffold
from testing.gitrepo import git

OLD = 1_700_000_000  # a local commit's author date, kept by its replay


@dataclass
class Binding:
    clone_dir: Path
    label: str = "team (acme)"
    scope: str = "team"
    prefix: str = ""


def _commit(repo: Path, files: dict[str, str | None], message: str, when: int = OLD) -> str:
    for path, text in files.items():
        target = repo / path
        if text is None:
            git("rm", "-q", path, cwd=repo)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        git("add", path, cwd=repo)
    env = {**os.environ, "GIT_AUTHOR_DATE": f"{when} +0000"}
    git("commit", "-q", "--allow-empty", "-m", message, cwd=repo, env=env)
    return git("rev-parse", "HEAD", cwd=repo).strip()


def _race(tmp_path: Path, root_message: str = SCAFFOLD_SUBJECT) -> tuple[Any, str]:
    """A clone whose `main` is an unpushed scaffold and later commits, and whose
    `origin/main` is another init's history; the remote's tip."""
    repo = tmp_path / "clone"
    git("init", "-q", "-b", "other", str(repo), cwd=tmp_path)
    theirs = {
        "README.md": "theirs\n",
        "CONTRIBUTING.md": "A\nb\nc\nd\ne\n",
        ".memsync/scaffold.json": '{"spec": "0.1.0"}\n',
        "acme-api/MEMORY.md": "one\ntwo\nthree\n",
    }
    remote = _commit(repo, theirs, SCAFFOLD_SUBJECT, when=OLD + 10)
    git("update-ref", "refs/remotes/origin/main", remote, cwd=repo)
    git("checkout", "-q", "--orphan", "main", cwd=repo)
    git("rm", "-rq", "--cached", ".", cwd=repo)
    for path in theirs:
        (repo / path).unlink()
    ours = {
        "README.md": "ours\n",
        "CONTRIBUTING.md": "a\nb\nc\nd\n",
        ".memsync/scaffold.json": '{"spec": "0.2.0"}\n',
        ".github/workflows/check.yml": "on: push\n",
    }
    _commit(repo, ours, root_message)
    _commit(repo, {"acme-web/deploy.md": "Never on Friday.\n"}, "memsync: deploy")
    _commit(repo, {}, "memsync: nothing")
    _commit(repo, {"acme-api/MEMORY.md": "one\ntwo\nthree\nfour\n"}, "memsync: index")
    _commit(repo, {"README.md": "theirs\n"}, "memsync: as the remote has it")
    _commit(repo, {".github/workflows/check.yml": None}, "memsync: no workflow\n\nbody")
    git("branch", "-q", "-D", "other", cwd=repo)
    return Binding(repo), remote


def _log(repo: Path) -> list[str]:
    out = git("log", "--first-parent", "--format=%at %s", "main", cwd=repo)
    return out.splitlines()[::-1]


def _show(repo: Path, path: str) -> str:
    return git("show", f"main:{path}", cwd=repo)


def test_the_lost_scaffold_is_dropped_and_each_later_commit_replayed(tmp_path: Path) -> None:
    binding, remote = _race(tmp_path)
    said = drop_lost_scaffold(binding)
    assert said == (
        f"the team (acme) store {LOST}: its scaffold is kept and this one's dropped "
        "(`memsync scaffold --update` in a clone of the repository changes the memsync spec)",
        # The index both inits wrote to, merged as any merge is, and said so.
        "merge: acme-api/MEMORY.md: both sides changed the index at the same place; "
        "kept both sides' lines",
    )
    repo = binding.clone_dir
    log = _log(repo)
    assert git("rev-list", "--max-parents=0", "main", cwd=repo).split() == [remote]
    subjects = [line.split(" ", 1)[1] for line in log]
    # The remote's scaffold, the files it lacked, then each commit that still changes
    # something (the empty one and the one the remote already had are gone).
    assert subjects == [
        SCAFFOLD_SUBJECT,
        f"{SCAFFOLD_SUBJECT}: the files it lacked",
        "memsync: deploy",
        "memsync: index",
        "memsync: no workflow",
    ]
    assert [int(line.split()[0]) for line in log[2:]] == [OLD, OLD, OLD]
    assert _show(repo, ".memsync/scaffold.json") == '{"spec": "0.1.0"}\n'
    assert _show(repo, "README.md") == "theirs\n"
    assert _show(repo, "CONTRIBUTING.md") == "A\nb\nc\nd\ne\n"
    assert _show(repo, "acme-web/deploy.md") == "Never on Friday.\n"
    assert _show(repo, "acme-api/MEMORY.md") == "one\ntwo\nthree\nfour\n"
    files = git("ls-tree", "-r", "--name-only", "main", cwd=repo).split()
    assert ".github/workflows/check.yml" not in files
    raw = git("cat-file", "commit", "main", cwd=repo)
    assert raw.split("\n\n", 1)[1] == "memsync: no workflow\n\nbody\n"
    assert git("rev-parse", "origin/main", cwd=repo).strip() == remote  # the remote untouched
    # The branch's reflog says why it moved, for whoever looks for the dropped commits.
    assert git("reflog", "-1", "--format=%gs", "main", cwd=repo).strip() == (
        "memsync: drop a lost scaffold"
    )


def test_a_replayed_edit_the_remote_changed_too_is_merged_three_ways(tmp_path: Path) -> None:
    binding, _ = _race(tmp_path)
    repo = binding.clone_dir
    # Both scaffolds wrote the file, differently: the local edit lands on the remote's.
    _commit(repo, {"CONTRIBUTING.md": "a\nb\nc\nD\n"}, "memsync: contributing")
    drop_lost_scaffold(binding)
    assert _show(repo, "CONTRIBUTING.md") == "A\nb\nc\nD\ne\n"
    assert _log(repo)[-1].endswith(" memsync: contributing")


def test_only_an_unrelated_history_rooted_in_memsyncs_scaffold_is_rebuilt(
    tmp_path: Path,
) -> None:
    binding, remote = _race(tmp_path, root_message="a scaffold of someone else's")
    repo = binding.clone_dir
    before = git("rev-parse", "main", cwd=repo).strip()
    assert drop_lost_scaffold(binding) == ()
    assert git("rev-parse", "main", cwd=repo).strip() == before
    # Related histories are the merge engine's; no remote branch is nothing to do.
    git("update-ref", "refs/remotes/origin/main", before, cwd=repo)
    assert drop_lost_scaffold(binding) == ()
    git("update-ref", "-d", "refs/remotes/origin/main", cwd=repo)
    assert drop_lost_scaffold(binding) == ()
    assert git("rev-parse", "main", cwd=repo).strip() == before
    assert remote != before


def test_a_remote_with_every_scaffold_file_gets_no_commit_for_them(tmp_path: Path) -> None:
    # A scaffold commit with a body (a later memsync's) is still memsync's scaffold.
    binding, remote = _race(tmp_path, root_message=f"{SCAFFOLD_SUBJECT}\n\nspec 0.2.0")
    repo = binding.clone_dir
    git("checkout", "-q", "--detach", remote, cwd=repo)
    workflow = {".github/workflows/check.yml": "on: pull_request\n"}
    tip = _commit(repo, workflow, "theirs: a workflow")
    git("update-ref", "refs/remotes/origin/main", tip, cwd=repo)
    git("checkout", "-q", "main", cwd=repo)
    assert drop_lost_scaffold(binding)
    subjects = [line.split(" ", 1)[1] for line in _log(repo)]
    assert subjects[:3] == [SCAFFOLD_SUBJECT, "theirs: a workflow", "memsync: deploy"]


def test_a_replayed_commit_keeps_its_other_changes_beside_one_the_remote_has(
    tmp_path: Path,
) -> None:
    binding, _ = _race(tmp_path)
    repo = binding.clone_dir
    both = {"CONTRIBUTING.md": "A\nb\nc\nd\ne\n", "acme-web/z.md": "Zed.\n"}
    _commit(repo, both, "memsync: two changes")
    drop_lost_scaffold(binding)
    assert _show(repo, "acme-web/z.md") == "Zed.\n"
    assert _log(repo)[-1].endswith(" memsync: two changes")


def test_a_replayed_edit_the_merge_makes_the_remotes_version_is_no_commit(
    tmp_path: Path,
) -> None:
    binding, _ = _race(tmp_path)
    repo = binding.clone_dir
    # The remote's scaffold has this edit already (and a line more): nothing to commit.
    _commit(repo, {"CONTRIBUTING.md": "A\nb\nc\nd\n"}, "memsync: capital A")
    drop_lost_scaffold(binding)
    assert _log(repo)[-1].endswith(" memsync: no workflow")
    assert _show(repo, "CONTRIBUTING.md") == "A\nb\nc\nd\ne\n"


def test_a_memory_both_inits_imported_differently_keeps_both(tmp_path: Path) -> None:
    binding, remote = _race(tmp_path)
    repo = binding.clone_dir
    git("checkout", "-q", "--detach", remote, cwd=repo)
    theirs = "---\nname: deploy\ndescription: theirs\n---\nOn Mondays.\n"
    tip = _commit(repo, {"acme-web/deploy.md": theirs}, "theirs: deploy")
    git("update-ref", "refs/remotes/origin/main", tip, cwd=repo)
    git("checkout", "-q", "main", cwd=repo)
    said = drop_lost_scaffold(binding)  # replays `memsync: deploy`, which added its own deploy.md
    assert _show(repo, "acme-web/deploy.md") == theirs
    assert _show(repo, "acme-web/deploy-2.md") == "Never on Friday.\n"
    # Told as any merge's decisions are: in the run's lines and the commit's trailers.
    told = [line for line in said if line.startswith("merge: acme-web/deploy.md: ")]
    assert len(told) == 1 and "two different memories" in told[0], said
    body = git("log", "--format=%B", "--grep=^memsync: deploy$", "main", cwd=repo)
    assert "Memsync-Decision:" in body and "deploy" in body, body


def test_the_commits_it_writes_are_the_clones_identity_or_memsyncs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    binding, _ = _race(tmp_path)
    repo = binding.clone_dir
    git("config", "user.name", "Clone Person", cwd=repo)
    git("config", "user.email", "clone@example.invalid", cwd=repo)
    drop_lost_scaffold(binding)
    authors = git("log", "-4", "--format=%an <%ae>", "main", cwd=repo).splitlines()
    assert set(authors) == {"Clone Person <clone@example.invalid>"}
    # No identity anywhere: memsync's own, named after this machine.
    (tmp_path / "other").mkdir()
    other, _ = _race(tmp_path / "other")
    empty = tmp_path / "empty.gitconfig"
    empty.write_text("", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty))
    monkeypatch.setenv("MEMSYNC_HOSTNAME", "box")
    drop_lost_scaffold(other)
    authors = git("log", "-4", "--format=%an <%ae>", "main", cwd=other.clone_dir).splitlines()
    assert set(authors) == {"memsync <memsync@box>"}
