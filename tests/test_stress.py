"""Sync under stress: crash recovery, hostile remotes, concurrency, network faults (fast subset).

The full campaigns live in `benchmarks/run_stress.py`; these are the quick, deterministic
cases that guard the fixes the harness drove.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memsync.gitcmd import blob_sha
from memsync.livefiles import write_live
from tests.conftest import Machine, git, make_bare_remote, write_memory

ORIGIN = "git@github.com:Acme/API.git"


def live_dir(machine: Machine, project: Path) -> Path:
    from memsync.paths import sanitize_path

    return machine.claude_dir / "projects" / sanitize_path(str(project.resolve())) / "memory"


def setup(machine: Machine, private: Path, team: Path | None = None) -> tuple[Path, Path]:
    project = machine.checkout_project(ORIGIN, "src/api")
    args = ["init", "--private", str(private), "--no-hooks"]
    if team is not None:
        args += ["--team", str(team)]
    machine.memsync(*args, cwd=project)
    return project, live_dir(machine, project)


def remote_paths(remote: Path) -> list[str]:
    return git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()


# --- crash recovery ---


def test_live_file_equal_to_the_store_is_recorded_even_if_it_looks_pending(
    tmp_path: Path,
) -> None:
    # A crash after the local commit but before the manifest was saved leaves files that
    # differ from the manifest yet already match the store: they must enter the manifest.
    live = tmp_path / "memory"
    live.mkdir()
    (live / "new.md").write_bytes(b"committed before the crash")
    snapshot = {"new.md": b"committed before the crash"}
    outcome = write_live(live, dict(snapshot), snapshot, {}, pending={"new.md"})
    assert outcome.manifest == {"new.md": blob_sha(b"committed before the crash")}
    assert outcome.kept == ()


def test_a_deletion_after_a_crash_between_commit_and_manifest_is_not_undone(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    project, live = setup(laptop, private)
    manifests = laptop.home / ".memsync" / "manifests"
    saved = tmp_path / "manifests-before"
    shutil.copytree(manifests, saved)
    write_memory(live, "note.md", "note", "Written just before the crash.\n")
    laptop.memsync("push", cwd=project)
    # Simulate SIGKILL after the commit and push but before the manifest was written.
    shutil.rmtree(manifests)
    shutil.copytree(saved, manifests)
    laptop.memsync("sync", cwd=project)
    (live / "note.md").unlink()
    laptop.memsync("sync", cwd=project)
    assert not (live / "note.md").exists()
    assert "acme-api/note.md" not in remote_paths(private)


# --- fewer git processes on the session-start path ---


def _count_git_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    from memsync import gitcmd

    calls: list[tuple[str, ...]] = []
    real = gitcmd.subprocess.run

    def counting(args: list[str], **kwargs: object) -> object:
        calls.append(tuple(args))
        return real(args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(gitcmd.subprocess, "run", counting)
    return calls


def test_resolving_the_branch_and_its_upstream_takes_one_git_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memsync import gitcmd

    remote = make_bare_remote(tmp_path / "remote.git")
    repo = tmp_path / "clone.git"
    gitcmd.init_bare(repo, str(remote))
    me = gitcmd.Identity("T", "t@example.invalid")
    first = gitcmd.write_commit(
        repo, parents=[], changes={"a.md": b"A"}, message="m\n", author=me, when=1
    )
    gitcmd.update_branch(repo, "main", first, None, "t")
    calls = _count_git_calls(monkeypatch)
    assert gitcmd.resolve_refs(repo, "refs/heads/main", "refs/remotes/origin/main") == [
        first,
        None,
    ]
    assert gitcmd.symbolic_head(repo) == "main"
    assert len(calls) <= 1, calls


# --- hostile remotes ---


def test_a_folder_replaced_by_a_file_of_the_same_name_is_written(tmp_path: Path) -> None:
    live = tmp_path / "memory"
    (live / "x.md").mkdir(parents=True)
    (live / "x.md" / "inner.md").write_bytes(b"old")
    snapshot = {"x.md/inner.md": b"old"}
    base = {"x.md/inner.md": blob_sha(b"old")}
    outcome = write_live(live, {"x.md": b"now a file"}, snapshot, base, pending=set())
    assert (live / "x.md").read_bytes() == b"now a file"
    assert outcome.deleted == ("x.md/inner.md",)
    assert outcome.manifest == {"x.md": blob_sha(b"now a file")}


def test_a_file_that_cannot_be_written_is_reported_not_fatal(tmp_path: Path) -> None:
    live = tmp_path / "memory"
    (live / "blocked.md").mkdir(parents=True)
    (live / "blocked.md" / "user-file.txt").write_text("not ours")
    target = {"n" * 300 + ".md": b"long", "blocked.md": b"file", "fine.md": b"ok"}
    outcome = write_live(live, target, {}, {}, pending=set())
    assert (live / "fine.md").read_bytes() == b"ok"
    assert [path for path, _ in outcome.failed] == ["blocked.md", "n" * 300 + ".md"]
    assert "fine.md" in outcome.manifest
    assert "blocked.md" not in outcome.manifest


def test_names_that_are_not_utf8_are_skipped() -> None:
    from memsync.safety import filter_files

    bad = b"caf\xe9.md".decode("utf-8", "surrogateescape")
    scan = filter_files({bad: b"---\nname: x\n---\n", "ok.md": b"fine"}, "team")
    assert list(scan.files) == ["ok.md"]
    assert [s.path for s in scan.skipped] == ["caf\\xe9.md"]
    assert "UTF-8" in scan.skipped[0].reason


def test_an_edit_the_store_already_has_does_not_block_later_remote_changes(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    p1, live1 = setup(laptop, private)
    p2, live2 = setup(desktop, private)
    shared = write_memory(live1, "shared.md", "shared", "one\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)
    manifests = desktop.home / ".memsync" / "manifests"
    saved = tmp_path / "desktop-manifests"
    shutil.copytree(manifests, saved)
    with (live2 / "shared.md").open("a") as handle:
        handle.write("two from the desktop\n")
    desktop.memsync("push", cwd=p2)
    # Killed after the push, before the manifest was saved.
    shutil.rmtree(manifests)
    shutil.copytree(saved, manifests)
    laptop.memsync("pull", cwd=p1)
    with shared.open("a") as handle:
        handle.write("three from the laptop\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("sync", cwd=p2)
    text = (live2 / "shared.md").read_text()
    assert "two from the desktop" in text
    assert "three from the laptop" in text


# --- concurrent pushers ---


def test_a_push_that_loses_the_race_inside_the_server_is_retried(tmp_path: Path) -> None:
    from memsync import gitcmd

    remote = make_bare_remote(tmp_path / "remote.git")
    repo = tmp_path / "clone.git"
    gitcmd.init_bare(repo, str(remote))
    me = gitcmd.Identity("T", "t@example.invalid")
    first = gitcmd.write_commit(
        repo, parents=[], changes={"a.md": b"A"}, message="a\n", author=me, when=1
    )
    gitcmd.update_branch(repo, "main", first, None, "t")
    assert gitcmd.push(repo, "main", 30)
    other = gitcmd.write_commit(
        repo, parents=[first], changes={"b.md": b"B"}, message="b\n", author=me, when=2
    )
    git("push", "-q", str(remote), f"{other}:refs/heads/other", cwd=repo)
    mine = gitcmd.write_commit(
        repo, parents=[first], changes={"c.md": b"C"}, message="c\n", author=me, when=3
    )
    gitcmd.update_branch(repo, "main", mine, first, "t")
    # Another pusher's update lands after the server advertised `first` to us, before our
    # ref update: git reports "cannot lock ref ... is at X but expected Y".
    hook = remote / "hooks" / "pre-receive"
    hook.write_text(
        "#!/bin/sh\ncat >/dev/null\n"
        "env -u GIT_QUARANTINE_PATH git update-ref refs/heads/main refs/heads/other\n",
        encoding="utf-8",
    )
    hook.chmod(0o755)
    assert gitcmd.push(repo, "main", 30) is False


def test_temporary_files_of_a_killed_run_are_swept_by_the_next(tmp_path: Path) -> None:
    from memsync.livefiles import WRITING_MARK

    live = tmp_path / "memory"
    (live / "sub").mkdir(parents=True)
    # A run killed mid-write leaves its marker and a temporary file (its pid is gone).
    (live / WRITING_MARK).write_text("999999999")
    (live / "sub" / ".a.md.memsync-999999999.tmp").write_bytes(b"half")
    (live / ".keep-me.tmp").write_bytes(b"not ours")
    write_live(live, {"b.md": b"B"}, {}, {}, pending=set())
    assert sorted(p.name for p in live.rglob("*")) == [".keep-me.tmp", "b.md", "sub"]


def test_push_backoff_spreads_losers_over_a_doubling_window() -> None:
    import random

    from memsync.sync import backoff

    random.seed(3)
    for losses, window in ((1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (9, 8.0)):
        waits = [backoff(losses, 0.5) for _ in range(400)]
        assert 0 <= min(waits) < window * 0.05
        assert window * 0.9 < max(waits) <= window
    assert max(backoff(1, 600.0) for _ in range(50)) <= 10.0  # a slow attempt is capped


def test_twenty_concurrent_pushers_fit_in_the_default_retries() -> None:
    from memsync.config import Settings

    # The stress harness: 20 machines at once need up to 6 attempts with the backoff above.
    assert Settings().push_retries >= 10
