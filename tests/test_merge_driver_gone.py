"""The git merge driver on a MEMORY.md whose memory git's merge deletes: one side deleted
`old.md` with its line, the other reworded the line. The driver kept the reworded line,
linking nowhere (`check`: index-dangling-link). During `git merge` it can tell the memory
goes (the other head is in `GITHEAD_<commit>`): the line goes too, its words quoted."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from memsync.team.mergegone import merge_deletes, other_head
from testing.gitrepo import git

ROOT = Path(__file__).resolve().parents[1]
OLD = "---\nname: old\ndescription: old one\ntype: project\n---\nBody of old.\n"
NEW = "---\nname: new\ndescription: new one\ntype: project\n---\nBody of new.\n"
INDEX = "# Memory\n\n- [New](new.md) — new one\n- [Old](old.md) — old hook\n"
REWORDED = INDEX.replace("old hook", "bob's new hook")
DROPPED = INDEX.replace("- [Old](old.md) — old hook\n", "")
WENT = (
    "deleted on one side with its memory and changed on the other; the entry went with its memory"
)


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=False
    )


def _repo(tmp_path: Path, deleter: str) -> Path:
    """A repository whose branch DELETER deleted acme/old.md and its line while the other
    (main or other) reworded the line; main checked out."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    driver = f"{shlex.quote(sys.executable)} -m memsync merge-file %O %A %B --path %P"
    git("config", "merge.memsync.driver", driver, cwd=repo)
    (repo / ".gitattributes").write_text("*.md merge=memsync\n")
    folder = repo / "acme"
    folder.mkdir()
    (folder / "old.md").write_text(OLD)
    (folder / "new.md").write_text(NEW)
    (folder / "MEMORY.md").write_text(INDEX)
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "base", cwd=repo)
    git("branch", "other", cwd=repo)
    for branch in ("main", "other"):
        git("checkout", "-q", branch, cwd=repo)
        if branch == deleter:
            (folder / "old.md").unlink()
            (folder / "MEMORY.md").write_text(DROPPED)
        else:
            (folder / "MEMORY.md").write_text(REWORDED)
        git("add", "-A", cwd=repo)
        git("commit", "-qm", branch, cwd=repo)
    git("checkout", "-q", "main", cwd=repo)
    return repo


@pytest.mark.parametrize("deleter", ["main", "other"])
@pytest.mark.parametrize("command", [("merge", "--no-edit", "other"), ("pull", "--no-rebase")])
def test_git_merge_drops_the_reworded_line_of_a_memory_it_deletes_and_quotes_it(
    tmp_path: Path, deleter: str, command: tuple[str, ...]
) -> None:
    repo = _repo(tmp_path, deleter)
    if command[0] == "pull":
        command = (*command, "--no-edit", str(repo), "other")
    proc = _run(repo, *command)
    assert proc.returncode == 0, proc.stderr
    assert not (repo / "acme" / "old.md").exists()
    assert (repo / "acme" / "MEMORY.md").read_text() == DROPPED  # no line linking nowhere
    quoted = "- [Old](old.md) — bob's new hook"
    assert f'memsync: acme/MEMORY.md (acme/old.md): {WENT}; kept (none), lost "{quoted}"' in (
        proc.stderr
    )
    assert git("status", "--porcelain", cwd=repo) == ""
    assert "index-dangling-link" not in _check(repo)


def _check(repo: Path) -> str:
    """What `memsync check` says of the folder acme/ (it ran: its summary is there)."""
    check = subprocess.run(
        [sys.executable, "-m", "memsync", "check", str(repo / "acme")],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert "old.md" not in check.stderr, check.stderr
    return check.stdout


def test_a_rebase_names_no_other_head_and_the_line_stays(tmp_path: Path) -> None:
    # The limit, documented: a rebase (or cherry-pick) sets no GITHEAD_<commit>, so the
    # driver cannot tell the memory goes; the reworded line stays, and `check` flags it.
    repo = _repo(tmp_path, "main")
    proc = _run(repo, "rebase", "other")
    assert proc.returncode == 0, proc.stderr
    assert not (repo / "acme" / "old.md").exists()
    assert "(old.md) — bob's new hook" in (repo / "acme" / "MEMORY.md").read_text()
    assert "links to old.md, which does not exist: remove the line or restore it" in _check(repo)


def test_the_other_head_is_read_only_when_git_merge_names_exactly_one() -> None:
    sha = "0123456789abcdef0123456789abcdef01234567"
    assert other_head({f"GITHEAD_{sha}": "other", "HOME": "/x"}) == sha
    assert other_head({}) is None
    assert other_head({f"GITHEAD_{sha}": "a", f"GITHEAD_{sha[::-1]}": "b"}) is None  # octopus
    assert other_head({"GITHEAD_not-a-commit": "x"}) is None


def test_blobs_that_are_not_the_two_heads_versions_tell_nothing(tmp_path: Path) -> None:
    # An inner merge of merge bases (criss-cross) hands the driver other blobs: no guess.
    repo = _repo(tmp_path, "other")
    other = git("rev-parse", "other", cwd=repo).strip()
    env = {f"GITHEAD_{other}": "other"}
    name = "acme/MEMORY.md"
    real = merge_deletes(repo, name, REWORDED.encode(), DROPPED.encode(), env)
    assert real == frozenset({"acme/old.md"})
    assert merge_deletes(repo, name, INDEX.encode(), DROPPED.encode(), env) == frozenset()
    assert merge_deletes(repo, name, REWORDED.encode(), DROPPED.encode(), {}) == frozenset()


def test_a_git_that_cannot_answer_tells_nothing(tmp_path: Path) -> None:
    # Not a repository (as when git's GIT_DIR points elsewhere): the merge goes on as before.
    sha = "0123456789abcdef0123456789abcdef01234567"
    name = "acme/MEMORY.md"
    env = {f"GITHEAD_{sha}": "other"}
    assert merge_deletes(tmp_path, name, b"a", b"b", env) == frozenset()
