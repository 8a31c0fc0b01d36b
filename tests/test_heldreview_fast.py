"""sync/heldreview.py in this process, against a stand-in store run over a real git repository:
what a plain push holds back, what it sends, and when a hold ends. test_review_heldback.py
plays the whole team over real remotes (memsync in a child process, which mutmut cannot see);
this file decides each rule on its own, for the mutation set `heldreview` (docs/MUTATION.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from memsync.sync import heldreview
from memsync.sync.heldreview import held_here, held_paths, hold, hold_out, merge_back
from memsync.sync.report import StoreReport
from testing.gitrepo import git

INDEX = "# Memory\n\n- [Notes](notes.md) — notes\n"
SAID = "held back from the push: {} (the default branch undid your reviewed change; kept here"


@dataclass
class Binding:
    clone_dir: Path
    prefix: str = "acme"
    project_key: str = "acme-key"


@dataclass
class Run:
    """The part of a StoreRun that heldreview reads."""

    binding: Binding
    report: StoreReport = field(default_factory=lambda: StoreReport("team", "s"))

    def note(self, **changes: Any) -> None:
        self.report = replace(self.report, **changes)


@pytest.fixture
def clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMSYNC_HOSTNAME", "alices-laptop")
    repo = tmp_path / "clone"
    git("init", "-q", "-b", "main", str(repo), cwd=tmp_path)
    git("config", "user.name", "Alice", cwd=repo)
    git("config", "user.email", "alice@example.invalid", cwd=repo)
    return repo


def commit(
    repo: Path, files: dict[str, str | None], parent: str | None = None, mode: str = "100644"
) -> str:
    """A commit of FILES (None: deleted; each new one of MODE) on PARENT's tree (or none)."""
    if parent is None:
        git("read-tree", "--empty", cwd=repo)
    else:
        git("read-tree", parent, cwd=repo)
    for path, text in files.items():
        if text is None:
            git("rm", "-q", "--cached", path, cwd=repo)
            continue
        blob = repo / "blob"
        blob.write_text(text, encoding="utf-8")
        sha = git("hash-object", "-w", str(blob), cwd=repo).strip()
        git("update-index", "--add", "--cacheinfo", f"{mode},{sha},{path}", cwd=repo)
    tree = git("write-tree", cwd=repo).strip()
    return git(
        "commit-tree", tree, *(["-p", parent] if parent else []), "-m", "c", cwd=repo
    ).strip()


def files_of(repo: Path, commit_id: str) -> dict[str, str]:
    """The files of COMMIT_ID with their texts."""
    names = git("ls-tree", "-r", "--name-only", commit_id, cwd=repo).split()
    return {name: git("show", f"{commit_id}:{name}", cwd=repo) for name in names}


def record(repo: Path, paths: list[Any]) -> None:
    (repo / heldreview.HELD).write_text(json.dumps(paths) + "\n", encoding="utf-8")


def recorded(repo: Path) -> list[str] | None:
    held = repo / heldreview.HELD
    return json.loads(held.read_text(encoding="utf-8")) if held.exists() else None


def test_nothing_recorded_or_an_unreadable_record_holds_nothing(clone: Path) -> None:
    binding = Binding(clone)
    assert held_paths(binding) == ()  # type: ignore[arg-type]
    (clone / heldreview.HELD).write_text("{not json", encoding="utf-8")
    assert held_paths(binding) == ()  # type: ignore[arg-type]
    record(clone, {"acme/deploy.md": 1})  # type: ignore[arg-type]
    assert held_paths(binding) == ()  # type: ignore[arg-type]
    record(clone, ["acme/deploy.md", 3, None, "acme/b.md"])
    assert held_paths(binding) == ("acme/deploy.md", "acme/b.md")  # type: ignore[arg-type]


def test_held_here_names_only_this_folder_s_memories_below_it(clone: Path) -> None:
    record(clone, ["acme/z.md", "other/x.md", "acmesite/y.md", "acme/sub/a.md", "top.md"])
    assert held_here(Binding(clone, prefix="acme/"), None, None) == ("sub/a.md", "z.md")  # type: ignore[arg-type]
    everything = ("acme/sub/a.md", "acme/z.md", "acmesite/y.md", "other/x.md", "top.md")
    assert held_here(Binding(clone, prefix=""), None, None) == everything  # type: ignore[arg-type]
    record(clone, ["projX/a.md", "proj/b.md"])  # a folder name ending in X is no other folder's
    assert held_here(Binding(clone, prefix="projX"), None, None) == ("a.md",)  # type: ignore[arg-type]


def test_hold_adds_memories_beside_those_held_and_never_an_index(clone: Path) -> None:
    binding = Binding(clone)
    hold(binding, ["acme/MEMORY.md"])  # type: ignore[arg-type]
    assert recorded(clone) is None  # an index alone: nothing to record
    hold(binding, ["acme/b.md", "acme/MEMORY.md"])  # type: ignore[arg-type]
    hold(binding, ["acme/a.md", "acme/b.md"])  # type: ignore[arg-type]
    assert recorded(clone) == ["acme/a.md", "acme/b.md"]
    assert (clone / heldreview.HELD).read_text(encoding="utf-8").endswith("]\n")
    heldreview.release_here(binding)  # type: ignore[arg-type]
    assert recorded(clone) is None
    heldreview.release_here(binding)  # type: ignore[arg-type]  # nothing left: no error


def test_nothing_held_or_no_remote_sends_the_local_branch(clone: Path) -> None:
    remote = commit(clone, {"acme/MEMORY.md": INDEX, "acme/deploy.md": "v1\n"})
    local = commit(clone, {"acme/deploy.md": "v2\n"}, remote)
    run = Run(Binding(clone))
    assert hold_out(run, remote, local) == local  # type: ignore[arg-type]
    record(clone, ["acme/deploy.md"])
    assert hold_out(run, None, local) == local  # type: ignore[arg-type]
    assert run.report.notes == () and run.report.held_review == ()
    assert recorded(clone) == ["acme/deploy.md"]  # no remote yet: the hold waits


def test_a_held_file_the_local_branch_holds_as_the_remote_does_is_released(clone: Path) -> None:
    remote = commit(clone, {"acme/MEMORY.md": INDEX, "acme/deploy.md": "v1\n", "acme/b.md": "b\n"})
    local = commit(clone, {"acme/b.md": "b2\n"}, remote)
    record(clone, ["acme/deploy.md", "acme/b.md"])
    run = Run(Binding(clone))
    assert hold_out(run, remote, local) == remote  # b.md held, and nothing else changed
    assert recorded(clone) == ["acme/b.md"]  # deploy.md is as the remote has it: released
    local = commit(clone, {"acme/notes.md": "n\n"}, remote)
    run = Run(Binding(clone))
    assert hold_out(run, remote, local) == local  # type: ignore[arg-type]
    assert recorded(clone) is None  # the last one released: no record left
    assert run.report.notes == ()


def test_a_plain_push_sends_the_other_changes_on_the_remote_s_tip(clone: Path) -> None:
    base = {"acme/MEMORY.md": INDEX, "acme/deploy.md": "v1\n", "acme/gone.md": "g\n"}
    remote = commit(clone, base)
    changed = {"acme/deploy.md": "v2\n", "acme/gone.md": None, "acme/oncall.md": "o\n"}
    local = commit(clone, changed, remote)
    record(clone, ["acme/deploy.md"])
    run = Run(Binding(clone))
    sent = hold_out(run, remote, local)  # type: ignore[arg-type]
    assert git("rev-parse", f"{sent}^@", cwd=clone).split() == [remote]
    assert files_of(clone, sent) == {
        "acme/MEMORY.md": INDEX,
        "acme/deploy.md": "v1\n",  # the remote's: held back
        "acme/oncall.md": "o\n",  # her other changes go: a new file, and a deletion
    }
    message = git("log", "-1", "--format=%B", sent, cwd=clone).strip()
    assert message == (
        "memsync(acme-key): local edits from alices-laptop, held back for review: deploy.md"
    )
    assert git("log", "-1", "--format=%an <%ae>", sent, cwd=clone).strip() == (
        "Alice <alice@example.invalid>"
    )
    assert run.report.held_review == ("acme/deploy.md",)
    (said,) = run.report.notes
    assert said.startswith(SAID.format("deploy.md"))
    assert said.endswith("`memsync push --review` proposes it again)")
    again = hold_out(run, remote, local)  # type: ignore[arg-type]  # a retry: said once
    assert files_of(clone, again) == files_of(clone, sent)
    assert run.report.notes == (said,)


def test_the_index_goes_without_the_lines_of_held_memories_the_remote_lacks(clone: Path) -> None:
    remote = commit(clone, {"acme/MEMORY.md": INDEX, "acme/notes.md": "n\n", "acme/a.md": "a\n"})
    index = INDEX + "- [Deploy](deploy.md) — deploy\n- [Zeta](zeta.md) — z\n- [A](a.md) — a2\n"
    changed = {"acme/MEMORY.md": index, "acme/deploy.md": "d\n", "acme/zeta.md": "z\n"}
    changed["acme/a.md"] = "a2\n"
    local = commit(clone, changed, remote)
    record(clone, ["acme/zeta.md", "acme/deploy.md", "acme/a.md"])
    run = Run(Binding(clone))
    sent = hold_out(run, remote, local)  # type: ignore[arg-type]
    # a.md is on the remote: its line stays; the new memories' lines wait with them
    assert files_of(clone, sent)["acme/MEMORY.md"] == INDEX + "- [A](a.md) — a2\n"
    assert set(files_of(clone, sent)) == {"acme/MEMORY.md", "acme/notes.md", "acme/a.md"}
    assert run.report.held_review == ("acme/a.md", "acme/deploy.md", "acme/zeta.md")
    assert run.report.notes[0].startswith(SAID.format("a.md, deploy.md, zeta.md"))


def test_an_index_changed_only_by_held_lines_is_not_sent(clone: Path) -> None:
    remote = commit(clone, {"acme/MEMORY.md": INDEX, "acme/notes.md": "n\n"})
    index = INDEX + "- [Deploy](deploy.md) — deploy\n"
    local = commit(clone, {"acme/MEMORY.md": index, "acme/deploy.md": "d\n"}, remote)
    record(clone, ["acme/deploy.md"])
    assert hold_out(Run(Binding(clone)), remote, local) == remote  # type: ignore[arg-type]


def test_a_new_index_with_only_held_lines_goes_without_them(clone: Path) -> None:
    remote = commit(clone, {"acme/notes.md": "n\n"})
    index = "# Memory\n\n- [Deploy](deploy.md) — deploy\n"
    local = commit(clone, {"acme/MEMORY.md": index, "acme/deploy.md": "d\n"}, remote)
    record(clone, ["acme/deploy.md"])
    sent = hold_out(Run(Binding(clone)), remote, local)  # type: ignore[arg-type]
    assert files_of(clone, sent) == {"acme/MEMORY.md": "# Memory\n\n", "acme/notes.md": "n\n"}


def test_an_index_is_trimmed_only_when_a_held_memory_is_missing(clone: Path) -> None:
    """deploy.md is on the remote (her edit held): the index's new line for a file the
    remote has goes out whole, with the other changes."""
    base = {"acme/MEMORY.md": INDEX, "acme/notes.md": "n\n", "acme/deploy.md": "d\n"}
    remote = commit(clone, base)
    index = INDEX + "- [Deploy](deploy.md) — deploy, reworded\n"
    local = commit(clone, {"acme/MEMORY.md": index, "acme/deploy.md": "d2\n"}, remote)
    record(clone, ["acme/deploy.md"])
    sent = hold_out(Run(Binding(clone)), remote, local)  # type: ignore[arg-type]
    assert files_of(clone, sent)["acme/MEMORY.md"] == index
    assert files_of(clone, sent)["acme/deploy.md"] == "d\n"


def test_merge_back_keeps_the_local_tree_over_what_was_pushed(clone: Path) -> None:
    remote = commit(clone, {"acme/deploy.md": "v1\n"})
    local = commit(clone, {"acme/deploy.md": "v2\n", "acme/b.md": "b\n"}, remote)
    pushed = commit(clone, {"acme/b.md": "b\n"}, remote)
    git("update-ref", "refs/heads/main", local, cwd=clone)
    merged = merge_back(Run(Binding(clone)), "main", local, pushed)  # type: ignore[arg-type]
    assert git("rev-parse", "main", cwd=clone).strip() == merged
    assert git("rev-parse", f"{merged}^@", cwd=clone).split() == [local, pushed]
    assert files_of(clone, merged) == files_of(clone, local)
    message = git("log", "-1", "--format=%B", merged, cwd=clone).strip()
    assert message == "memsync: merge what was pushed; files held back for review kept here"
    assert git("log", "-1", "--format=%an", merged, cwd=clone).strip() == "Alice"
    reflog = git("reflog", "-1", "--format=%gs", "refs/heads/main", cwd=clone).strip()
    assert reflog == "memsync: held back for review"


def test_a_held_file_of_another_folder_of_the_clone_is_named_by_its_store_path(
    clone: Path,
) -> None:
    remote = commit(clone, {"acme/MEMORY.md": INDEX, "web/deploy.md": "v1\n"})
    local = commit(clone, {"web/deploy.md": "v2\n", "acme/b.md": "b\n"}, remote)
    record(clone, ["web/deploy.md"])
    run = Run(Binding(clone))
    sent = hold_out(run, remote, local)  # type: ignore[arg-type]
    assert run.report.notes[0].startswith(SAID.format("web/deploy.md"))
    assert git("log", "-1", "--format=%s", sent, cwd=clone).strip().endswith(": web/deploy.md")


def test_a_file_sent_as_it_is_keeps_its_mode(clone: Path) -> None:
    remote = commit(clone, {"acme/MEMORY.md": INDEX, "acme/deploy.md": "v1\n"})
    local = commit(clone, {"acme/deploy.md": "v2\n"}, remote)
    local = commit(clone, {"acme/run.sh": "echo hi\n"}, local, mode="100755")
    record(clone, ["acme/deploy.md"])
    sent = hold_out(Run(Binding(clone)), remote, local)  # type: ignore[arg-type]
    listed = git("ls-tree", sent, "acme/run.sh", cwd=clone)
    assert listed.startswith("100755 blob "), listed


def test_without_a_git_identity_the_commits_are_memsync_s_on_this_host(
    clone: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    remote = commit(clone, {"acme/deploy.md": "v1\n"})
    local = commit(clone, {"acme/deploy.md": "v2\n", "acme/b.md": "b\n"}, remote)
    git("config", "--unset", "user.name", cwd=clone)
    git("config", "--unset", "user.email", cwd=clone)
    (tmp_path / "empty-config").write_text("", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "empty-config"))
    record(clone, ["acme/deploy.md"])
    run = Run(Binding(clone))
    sent = hold_out(run, remote, local)  # type: ignore[arg-type]
    git("update-ref", "refs/heads/main", local, cwd=clone)
    merged = merge_back(run, "main", local, sent)  # type: ignore[arg-type]
    for made in (sent, merged):
        author = git("log", "-1", "--format=%an <%ae>", made, cwd=clone).strip()
        assert author == "memsync <memsync@alices-laptop>"


def test_a_held_index_keeps_back_the_lines_the_review_changed_and_sends_the_rest(
    clone: Path,
) -> None:
    """h2: the record keeps the index as sent; a plain push sends the local index merged over
    it with the remote's, and a record whose sent version git lacks holds nothing (no crash)."""
    team = "- [Notes](notes.md) — notes\n"
    sent_index = "- [Notes, retitled](notes.md) — notes\n"
    remote = commit(clone, {"acme/MEMORY.md": team, "acme/notes.md": "n\n"})
    local = commit(clone, {"acme/MEMORY.md": sent_index + "- [New](new.md) — n\n"}, remote)
    local = commit(clone, {"acme/new.md": "new\n"}, local)
    binding = Binding(clone)
    sent = git(
        "rev-parse",
        f"{commit(clone, {'acme/MEMORY.md': sent_index}, remote)}:acme/MEMORY.md",
        cwd=clone,
    ).strip()
    hold(binding, ["acme/MEMORY.md"], {"acme/MEMORY.md": sent})  # type: ignore[arg-type]
    assert recorded(clone) == [{"index": "acme/MEMORY.md", "sent": sent}]
    assert held_here(binding, local, remote) == ("MEMORY.md",)  # type: ignore[arg-type]

    run = Run(Binding(clone))
    out = hold_out(run, remote, local)  # type: ignore[arg-type]
    assert files_of(clone, out)["acme/MEMORY.md"] == team + "- [New](new.md) — n\n"
    assert run.report.held_review == ("acme/MEMORY.md",)

    record(clone, [{"index": "acme/MEMORY.md", "sent": "0" * 40}])
    assert held_here(binding, local, remote) == ()  # type: ignore[arg-type]
    assert hold_out(Run(Binding(clone)), remote, local) == local  # type: ignore[arg-type]
    assert recorded(clone) is None
