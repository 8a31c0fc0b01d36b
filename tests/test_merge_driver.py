"""`memsync merge-file` as a git merge driver, configured the way docs/MERGE.md says."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from memsync.model.index import parse_index
from memsync.model.memory import parse_memory
from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, setup_machine

ROOT = Path(__file__).resolve().parents[1]

BASE = (
    "---\nname: testing policy\ndescription: tests hit a real database\ntype: feedback\n---\n"
    "Integration tests must hit a real database.\n"
    "**Why:** mocked tests passed while the migration failed.\n"
)
INDEX = "# Memory\n- [Testing policy](testing-policy.md) — real database\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    driver = (
        f"{shlex.quote(sys.executable)} -m memsync merge-file %O %A %B --path %P --marker-size %L"
    )
    git("config", "merge.memsync.name", "memsync memory merge", cwd=repo)
    git("config", "merge.memsync.driver", driver, cwd=repo)
    (repo / ".gitattributes").write_text("*.md merge=memsync\n")
    (repo / "testing-policy.md").write_text(BASE)
    (repo / "MEMORY.md").write_text(INDEX)
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "base", cwd=repo)
    return repo


def merge(repo: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        ["git", "merge", "-q", "--no-edit", "other"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_git_merge_with_the_driver_resolves_edits_of_one_memory(repo: Path) -> None:
    git("checkout", "-q", "-b", "other", cwd=repo)
    (repo / "testing-policy.md").write_text(
        BASE.replace("tests hit a real database", "tests use the real DB")
        + "**How to apply:** no mocks.\n"
    )
    (repo / "MEMORY.md").write_text(INDEX + "- [Ports](ports.md) — dev ports\n")
    git("commit", "-qam", "other", cwd=repo)
    git("checkout", "-q", "main", cwd=repo)
    (repo / "testing-policy.md").write_text(
        BASE.replace("mocked tests passed", "mocked tests happily passed")
        + "**How to apply:** real connections.\n"
    )
    (repo / "MEMORY.md").write_text(INDEX + "- [Oncall](oncall.md) — rota\n")
    git("commit", "-qam", "main", cwd=repo)
    proc = merge(repo)
    assert proc.returncode == 0, proc.stderr
    text = (repo / "testing-policy.md").read_text()
    assert "<<<<<<<" not in text and ">>>>>>>" not in text
    memory = parse_memory(text.encode())
    assert memory.description == "tests use the real DB"
    assert "mocked tests happily passed" in memory.body
    assert "no mocks." in memory.body and "real connections." in memory.body
    targets = parse_index((repo / "MEMORY.md").read_bytes()).targets
    assert sorted(targets) == ["oncall.md", "ports.md", "testing-policy.md"]
    assert git("status", "--porcelain", cwd=repo) == ""
    assert "MEMORY.md: both sides changed the index" in proc.stderr  # reported on stderr


def test_driver_keeps_the_other_memory_of_an_add_add(repo: Path) -> None:
    git("checkout", "-q", "-b", "other", cwd=repo)
    (repo / "new.md").write_text("---\nname: one\ntype: user\n---\nA\n")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "other", cwd=repo)
    git("checkout", "-q", "main", cwd=repo)
    (repo / "new.md").write_text("---\nname: two\ntype: user\n---\nB\n")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "main", cwd=repo)
    proc = merge(repo)
    assert proc.returncode == 1, proc.stderr  # unfinished: new-2.md is not staged yet
    contents = {(repo / "new.md").read_text(), (repo / "new-2.md").read_text()}
    assert contents == {
        "---\nname: one\ntype: user\n---\nA\n",
        "---\nname: two\ntype: user\n---\nB\n",
    }
    assert "new-2.md" in proc.stderr


def commit_all(repo: Path, message: str) -> None:
    git("add", "-A", cwd=repo)
    git("commit", "-qm", message, cwd=repo)


def test_driver_leaves_an_add_add_of_two_memories_unfinished_and_says_what_to_do(
    repo: Path,
) -> None:
    """A driver cannot stage `n-2.md`: git must not commit the merge without it (T1)."""
    one = "---\nname: n-one\ndescription: first\nmetadata:\n  type: project\n---\nSide one.\n"
    two = "---\nname: n-two\ndescription: second\nmetadata:\n  type: feedback\n---\nMain two.\n"
    git("checkout", "-q", "-b", "other", cwd=repo)
    (repo / "p").mkdir()
    (repo / "p" / "n.md").write_text(one)
    (repo / "p" / "MEMORY.md").write_text("- [N](n.md) — first\n")
    commit_all(repo, "other")
    git("checkout", "-q", "main", cwd=repo)
    (repo / "p").mkdir()
    (repo / "p" / "n.md").write_text(two)
    (repo / "p" / "MEMORY.md").write_text("- [N2](n.md) — second\n")
    commit_all(repo, "main")
    head = git("rev-parse", "HEAD", cwd=repo)
    proc = merge(repo)
    # The merge stops: no merge commit that would hold only one of the two memories.
    assert proc.returncode != 0, proc.stderr
    assert git("rev-parse", "HEAD", cwd=repo) == head
    assert (repo / ".git" / "MERGE_HEAD").exists()
    kept = {(repo / "p" / "n.md").read_text(), (repo / "p" / "n-2.md").read_text()}
    assert kept == {one, two}  # both memories on disk, neither with conflict markers
    assert not any("<<<<<<<" in text or ">>>>>>>" in text for text in kept)
    status = git("status", "--porcelain", cwd=repo)
    assert "UU p/n.md" in status or "AA p/n.md" in status
    assert "?? p/n-2.md" in status
    # The driver says exactly what to do: stage both, index the copy, commit.
    assert "git add p/n.md p/n-2.md" in proc.stderr
    second = "n-2.md"
    name = "n-two" if (repo / "p" / second).read_text() == two else "n-one"
    assert f"- [{name}]({second})" in proc.stderr and "p/MEMORY.md" in proc.stderr
    assert "git commit" in proc.stderr
    # Following the instructions finishes the merge with both memories indexed.
    line = next(x for x in proc.stderr.splitlines() if f"]({second})" in x).strip()
    index = (repo / "p" / "MEMORY.md").read_text()
    (repo / "p" / "MEMORY.md").write_text(index + line.split("`")[1] + "\n")
    git("add", "p/n.md", "p/n-2.md", "p/MEMORY.md", cwd=repo)
    git("commit", "-q", "--no-edit", cwd=repo)
    assert git("ls-tree", "-r", "--name-only", "HEAD", "p", cwd=repo).split() == [
        "p/MEMORY.md",
        "p/n-2.md",
        "p/n.md",
    ]
    targets = parse_index(git("show", "HEAD:p/MEMORY.md", cwd=repo).encode()).targets
    assert sorted(targets) == ["n-2.md", "n.md"]


def conflicting_docs(repo: Path) -> None:
    """CONTRIBUTING.md and a `.github` template edited differently on both branches."""
    (repo / ".github").mkdir()
    (repo / ".gitattributes").write_text(
        "*.md merge=memsync\n/CONTRIBUTING.md conflict-marker-size=10\n"
    )
    (repo / "CONTRIBUTING.md").write_text("# Contributing\n\nRun `make test` first.\n")
    (repo / ".github" / "pr.md").write_text("## Checklist\n\n- [ ] tests pass\n")
    commit_all(repo, "docs")
    git("checkout", "-q", "-b", "other", cwd=repo)
    (repo / "CONTRIBUTING.md").write_text("# Contributing\n\nRun `make check` first.\n")
    (repo / ".github" / "pr.md").write_text("## Checklist\n\n- [ ] tests and lint pass\n")
    commit_all(repo, "other")
    git("checkout", "-q", "main", cwd=repo)
    (repo / "CONTRIBUTING.md").write_text("# Contributing\n\nRun `tox` first.\n")
    (repo / ".github" / "pr.md").write_text("## Checklist\n\n- [ ] all tests pass\n")
    commit_all(repo, "main")


def test_driver_merges_files_that_are_not_memories_as_git_does(repo: Path) -> None:
    """CONTRIBUTING.md and `.github/*.md` are not memories: a real conflict stays one (T7)."""
    conflicting_docs(repo)
    head = git("rev-parse", "HEAD", cwd=repo)
    proc = merge(repo)
    assert proc.returncode == 1, proc.stderr
    assert git("rev-parse", "HEAD", cwd=repo) == head  # nothing committed
    status = git("status", "--porcelain", cwd=repo).splitlines()
    assert "UU CONTRIBUTING.md" in status and "UU .github/pr.md" in status
    contributing = (repo / "CONTRIBUTING.md").read_text()
    # Git's conflict markers, of the size the attribute asks for (%L).
    assert "\n<<<<<<<<<< " in contributing and "\n>>>>>>>>>> " in contributing
    assert "\n==========\n" in contributing
    assert "Run `tox` first." in contributing and "Run `make check` first." in contributing
    template = (repo / ".github" / "pr.md").read_text()
    assert "\n<<<<<<< " in template and "\n=======\n" in template and "\n>>>>>>> " in template
    assert "- [ ] all tests pass" in template and "- [ ] tests and lint pass" in template
    # Not silently "kept both"; the driver says what the person does next.
    assert "kept both" not in proc.stderr
    assert "CONTRIBUTING.md: not a memory" in proc.stderr
    assert "git add CONTRIBUTING.md" in proc.stderr


def test_driver_merges_a_clean_non_memory_as_git_does(repo: Path) -> None:
    (repo / "CONTRIBUTING.md").write_text("one\ntwo\nthree\nfour\nfive\n")
    commit_all(repo, "docs")
    git("checkout", "-q", "-b", "other", cwd=repo)
    (repo / "CONTRIBUTING.md").write_text("one\ntwo\nthree\nfour\nFIVE\n")
    commit_all(repo, "other")
    git("checkout", "-q", "main", cwd=repo)
    (repo / "CONTRIBUTING.md").write_text("ONE\ntwo\nthree\nfour\nfive\n")
    commit_all(repo, "main")
    proc = merge(repo)
    assert proc.returncode == 0, proc.stderr
    assert (repo / "CONTRIBUTING.md").read_text() == "ONE\ntwo\nthree\nfour\nFIVE\n"
    assert git("status", "--porcelain", cwd=repo) == ""


DOCS = {
    "docs/TEAM.md": ROOT / "docs" / "TEAM.md",
    "templates/README.md": ROOT / "templates" / "README.md",
    "templates/gitattributes": ROOT / "templates" / "gitattributes",
}
CONFIG_LINES = [
    'git config merge.memsync.name "memsync memory merge"',
    'git config merge.memsync.driver "memsync merge-file %O %A %B --path %P --marker-size %L"',
]


def test_docs_name_the_command_a_hand_clone_runs_and_claim_no_more_of_init(
    machines: list[Machine], tmp_path: Path
) -> None:
    """`memsync init` configures no merge driver; the docs must not say it does (T8)."""
    alice = machines[0]
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    setup_machine(alice, private, team, "src/api")
    stores = [p for p in alice.home.rglob("*.git") if (p / "config").is_file()]
    assert stores, "init made no store clone"
    for store in stores:  # memsync's stores merge with its engine, never through git's driver
        config = (store / "config").read_text()
        assert "merge.memsync" not in config and '[merge "memsync"]' not in config
    for name, path in DOCS.items():
        text = " ".join(path.read_text(encoding="utf-8").split())
        claims = ("get it from `memsync init`", "enables the merge driver", "`memsync init` does")
        for claim in claims:
            assert claim not in text, f"{name} still says init configures the driver: {claim}"
    for name in ("docs/TEAM.md", "templates/README.md"):
        text = DOCS[name].read_text(encoding="utf-8")
        assert all(line in text for line in CONFIG_LINES), name
    # The commands the README gives, run in a hand clone, make `git merge` use the driver.
    clone = tmp_path / "hand"
    git("clone", "-q", str(team), str(clone), cwd=tmp_path)
    shim = tmp_path / "bin" / "memsync"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m memsync "$@"\n')
    shim.chmod(0o755)
    for line in CONFIG_LINES:
        git(*shlex.split(line)[1:], cwd=clone)
    assert (clone / ".gitattributes").is_file()  # the scaffold init wrote
    folder = next(p for p in clone.iterdir() if p.is_dir() and not p.name.startswith("."))
    (folder / "MEMORY.md").write_text(INDEX)
    (folder / "testing-policy.md").write_text(BASE)
    commit_all(clone, "base")
    git("checkout", "-q", "-b", "other", cwd=clone)
    (folder / "MEMORY.md").write_text(INDEX + "- [Ports](ports.md) — dev ports\n")
    commit_all(clone, "other")
    git("checkout", "-q", "-", cwd=clone)
    (folder / "MEMORY.md").write_text(INDEX + "- [Oncall](oncall.md) — rota\n")
    commit_all(clone, "main")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PATH": f"{shim.parent}:{os.environ['PATH']}"}
    proc = subprocess.run(
        ["git", "merge", "--no-edit", "other"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "memsync: " in proc.stderr  # the driver ran, not git's text merge
    assert sorted(parse_index((folder / "MEMORY.md").read_bytes()).targets) == [
        "oncall.md",
        "ports.md",
        "testing-policy.md",
    ]
