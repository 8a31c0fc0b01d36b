"""Sync under stress: crash recovery, hostile remotes, concurrency, network faults (fast subset).

The full campaigns live in `benchmarks/run_stress.py`; these are the quick, deterministic
cases that guard the fixes the harness drove.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.harness.daemon import available as daemon_available
from memsync.git import blob_sha
from memsync.sync.livefiles import write_live
from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine
from testing.memories import write_memory

ORIGIN = "git@github.com:Acme/API.git"


def live_dir(machine: Machine, project: Path) -> Path:
    from memsync.model.paths import sanitize_path

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
    import subprocess

    calls: list[tuple[str, ...]] = []
    real = subprocess.run

    def counting(args: list[str], **kwargs: Any) -> Any:
        calls.append(tuple(args))
        return real(args, **kwargs)

    # gitcmd runs every git through subprocess.run.
    monkeypatch.setattr(subprocess, "run", counting)
    return calls


def test_resolving_the_branch_and_its_upstream_takes_one_git_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memsync import git as gitcmd

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
    from memsync.model.safety import filter_files

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


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell hook on the remote")
def test_a_push_that_loses_the_race_inside_the_server_is_retried(tmp_path: Path) -> None:
    from memsync import git as gitcmd

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
    from memsync.sync.livefiles import WRITING_MARK

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

    from memsync.sync.deadline import backoff

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


# --- the harness itself, in small doses ---


# The harness kills process groups and serves git over TCP: POSIX with git-daemon only.
harness = pytest.mark.skipif(
    sys.platform == "win32" or not daemon_available(),
    reason="the stress harness needs POSIX process groups and git-daemon",
)


@pytest.fixture
def harness_tmp(tmp_path: Path) -> Path:
    """A scratch directory for the harness, which builds its own simulated machines."""
    return tmp_path


@harness
def test_the_proxy_delays_refuses_stalls_and_drops(harness_tmp: Path) -> None:
    import subprocess
    import time

    from benchmarks.harness.daemon import GitDaemon
    from benchmarks.harness.machines import harness_git_env, make_remote
    from benchmarks.harness.proxy import DelayProxy

    served = harness_tmp / "served"
    served.mkdir()
    make_remote(served / "r.git")

    def ls_remote(url: str, timeout: float = 20) -> tuple[int, str, float]:
        start = time.monotonic()
        try:
            proc = subprocess.run(
                ["git", "-c", "protocol.version=0", "ls-remote", url],
                cwd=served,
                env=harness_git_env(served),
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return -1, "timeout", time.monotonic() - start
        return proc.returncode, proc.stderr, time.monotonic() - start

    with (
        GitDaemon(served) as daemon,
        DelayProxy(daemon.port, delay_up=0.1, delay_down=0.1) as proxy,
    ):
        code, _, seconds = ls_remote(proxy.url("r.git"))
        assert code == 0
        assert seconds >= 0.2  # one round trip through 100 ms each way
        proxy.set_mode("refuse")
        code, err, _ = ls_remote(proxy.url("r.git"))
        assert code != 0 and "refused" in err.lower()
        proxy.set_mode("blackhole")
        code, _, seconds = ls_remote(proxy.url("r.git"), timeout=1.0)
        assert code == -1
        proxy.set_mode("drop", direction="down", after_bytes=1)
        code, err, _ = ls_remote(proxy.url("r.git"))
        assert code != 0
        proxy.set_mode("pass")
        assert ls_remote(proxy.url("r.git"))[0] == 0
        assert proxy.stats.stalled >= 1 and proxy.stats.dropped >= 1


@harness
def test_a_handful_of_crash_injections_lose_nothing(harness_tmp: Path) -> None:
    from benchmarks.harness.crash import crash_campaign

    summary, _ = crash_campaign(
        harness_tmp, 3, seed=5, sizes=(16,), commands=("sync",), estimate_s=1.2
    )
    assert summary.killed + summary.finished_before_kill >= 3
    assert summary.lost == 0 and summary.remote_lost == 0
    assert summary.manual_repairs == 0 and summary.recovery_failures == 0
    assert summary.markers == 0 and summary.leftover_files == 0, summary.failures


@harness
def test_the_hostile_corpus_is_skipped_and_named(harness_tmp: Path) -> None:
    from benchmarks.harness import hostile

    wanted = {
        "symlink pointing outside",
        "absolute path as entry name",
        "'..' tree entry",
        "backslashes",
        "file over 250,000 bytes (and one exactly at it)",
        "non-UTF-8 file name",
        "case-colliding names",
        ".git and .GIT folders",
        "directory x.md (step 1)",
        "directory x.md becomes a file",
        "name over 255 bytes, path over 4096",
        "files outside the project folder",
    }
    kinds = tuple(k for k in hostile.KINDS if k.name in wanted)
    assert len(kinds) == len(wanted)
    campaign = hostile.Campaign(harness_tmp)
    results = [campaign.run_kind(kind, push=False) for kind in kinds]
    problems = [f"{r.name}: {r.problems}" for r in results if not r.ok]
    assert not problems, problems
    last: list[str] = []
    assert campaign.victim_push(kinds[-1], last) == 0, last


@harness
def test_two_processes_on_one_store_wait_or_report_the_lock(harness_tmp: Path) -> None:
    from benchmarks.harness.concurrent import held_lock, same_store

    together = same_store(harness_tmp / "together", memories=30, only=(0,))
    assert together[0].consistent, together[0].problems
    assert together[0].exit_codes == [0, 0]
    held = held_lock(harness_tmp / "held")
    assert held.consistent, held.problems
    assert held.exit_codes == [4, 0]  # exit 4 naming the live holder; a dead one is taken over


@harness
def test_hook_pull_against_a_stalled_remote_returns_in_time(harness_tmp: Path) -> None:
    from benchmarks.harness import netfaults

    results = netfaults.network_faults(
        harness_tmp, faults=("stalled mid-fetch",), normal_stalls=False
    )
    assert [(r.mode, r.ok) for r in results] == [("hook", True)], results[0].problems
    assert results[0].seconds < netfaults.PULL_LIMIT + netfaults.SLACK


def test_change_times_survive_control_characters_in_names(tmp_path: Path) -> None:
    from memsync import git as gitcmd

    remote = make_bare_remote(tmp_path / "remote.git")
    repo = tmp_path / "clone.git"
    gitcmd.init_bare(repo, str(remote))
    me = gitcmd.Identity("T", "t@example.invalid")
    first = gitcmd.write_commit(
        repo, parents=[], changes={"a.md": b"A"}, message="1\n", author=me, when=1_700_000_000
    )
    second = gitcmd.write_commit(
        repo,
        parents=[first],
        changes={"ctl\x01char.md": b"X", "b.md": b"B"},
        message="2\n",
        author=me,
        when=1_700_000_100,
    )
    times = gitcmd.change_times(repo, None, second)
    assert times == {"a.md": 1_700_000_000, "b.md": 1_700_000_100, "ctl\x01char.md": 1_700_000_100}
