"""Session start with nothing new skips the engine; anything new or odd falls back to it."""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import string
import time
from pathlib import Path

import pytest

from memsync.config import load_config
from memsync.git import remote as gitremote
from memsync.sync import quickpull, store
from memsync.sync.binding import resolve_bindings
from memsync.sync.deadline import Deadline
from memsync.sync.lock import this_host
from memsync.sync.quickpull import quick_pull
from testing.gitrepo import git
from testing.hookprobe import bindings_of as _bindings
from testing.hookprobe import modules_loaded
from testing.hookprobe import run_pull_hook as _hook
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory


def _why(machine: Machine, project: Path) -> str:
    """Why the quick path declines (\"\" when it answers), with the fetches started as the
    hook starts them."""
    with machine.active():
        config = load_config()
        _, bindings = resolve_bindings(config, project, ("private", "team"))
        for binding in bindings:
            gitremote.start_fetch(binding.clone_dir)
        try:
            answered, why = quick_pull(bindings, config.settings, Deadline.after(10))
        finally:
            for binding in bindings:
                gitremote.wait_fetch(binding.clone_dir, 30)
                gitremote._DONE.pop(binding.clone_dir, None)
    assert answered != bool(why)
    return why


@pytest.fixture
def settled(machines: list[Machine], remotes: tuple[Path, Path]) -> tuple[Machine, Path, Path]:
    """A machine whose project syncs a private and a team store, in sync, the hook run once
    (it records what it fetched); returns the machine, its project and its live dir."""
    machine = machines[0]
    project = setup_machine(machine, remotes[0], remotes[1], "src/api")
    live = memory_dir(machine, project)
    write_memory(live, "deploy.md", "deploy freeze", "No deploys on Friday.\n")
    write_memory(live / "team", "style.md", "code style", "Use ruff.\n")
    (live / "team" / "MEMORY.md").write_text("- [Code style](style.md) — use ruff\n")
    machine.memsync("sync", cwd=project)
    _hook(machine, project)
    return machine, project, live


def test_nothing_new_is_answered_without_the_engine_and_says_the_same(
    settled: tuple[Machine, Path, Path],
) -> None:
    machine, project, _ = settled
    manifests = sorted((machine.home / ".memsync" / "manifests").glob("live-*.json"))
    before = [json.loads(m.read_text())["last_sync"] for m in manifests]
    assert _why(machine, project) == ""
    quick, stderr, path = _hook(machine, project)
    assert path == "QUICK" and stderr == ""
    after = [json.loads(m.read_text()) for m in manifests]
    assert all(a["last_sync"] > b for a, b in zip(after, before, strict=True))
    # The engine, made to run by a missing fetch record (it writes it again), says the same.
    clone = _bindings(machine, project)[0].clone_dir
    git("update-ref", "-d", "refs/memsync/fetched/main", cwd=clone)
    assert (
        _why(machine, project)
        == "private: the last fetch's record is not at the last synced commit"
    )
    engine, _, path = _hook(machine, project)
    assert path == "ENGINE"
    assert engine == quick
    context = quick["hookSpecificOutput"]["additionalContext"]  # type: ignore[index]
    assert "- [Code style](style.md) — use ruff" in context
    assert "systemMessage" not in quick


def test_nothing_new_loads_neither_subprocess_inspect_nor_typing(
    settled: tuple[Machine, Path, Path],
) -> None:
    machine, project, _ = settled
    heavy = ["subprocess", "inspect", "ast", "typing", "typer", "rich", "yaml"]
    heavy.append("memsync.sync.engine")
    # The index parser and its Markdown spans: about 23 ms of imports, which the team block
    # paid on every start when it looked for changed lines among none (found by the paired
    # benchmark, 1.2x).
    heavy += ["memsync.model.index", "memsync.model.mdspans"]
    # Each is a share of a session start's instructions (docs/BENCHMARKS.md).
    assert modules_loaded(machine, project, heavy) == []


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ("edit", "private: a memory was edited locally"),
        ("add", "private: a memory was added locally"),
        ("delete", "private: a memory was deleted locally"),
        ("team-edit", "team: a memory was edited locally"),
        ("symlink", "private: the live directory has unsafe files"),
    ],
)
def test_a_local_change_goes_to_the_engine_and_is_committed(
    settled: tuple[Machine, Path, Path], change: str, reason: str
) -> None:
    machine, project, live = settled
    target = live / "deploy.md"
    if change == "edit":
        target.write_text(target.read_text() + "Not even hotfixes.\n")
    elif change == "add":
        write_memory(live, "new.md", "new note", "Something new.\n")
    elif change == "delete":
        target.unlink()
    elif change == "team-edit":
        (live / "team" / "style.md").write_text("---\nname: style\n---\nUse black.\n")
    else:
        (live / "link.md").symlink_to(target)
    assert _why(machine, project) == reason
    _, _, path = _hook(machine, project)
    assert path == "ENGINE"
    clone = _bindings(machine, project)[0 if change != "team-edit" else 1].clone_dir
    files = git("ls-tree", "-r", "--name-only", "main", cwd=clone)
    if change == "add":
        assert "new.md" in files
    elif change == "delete":
        assert "deploy.md" not in files
    elif change == "edit":
        assert "Not even hotfixes." in git("show", "main:acme-api/deploy.md", cwd=clone)


def test_a_new_remote_commit_goes_to_the_engine_and_reaches_the_live_dir(
    settled: tuple[Machine, Path, Path], machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    machine, project, live = settled
    other = machines[1]
    elsewhere = setup_machine(other, remotes[0], remotes[1], "code/api")
    write_memory(memory_dir(other, elsewhere), "ci.md", "ci runs", "CI runs on push.\n")
    other.memsync("push", cwd=elsewhere)
    assert _why(machine, project) == "private: the remote's branch is not at the last synced commit"
    _, _, path = _hook(machine, project)
    assert path == "ENGINE"
    assert (live / "ci.md").read_text().endswith("CI runs on push.\n")
    # The next start has nothing new again.
    assert _why(machine, project) == ""


def test_a_rewritten_remote_goes_to_the_engine_which_says_so(
    settled: tuple[Machine, Path, Path], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    machine, project, _ = settled
    work = tmp_path / "admin"
    git("clone", "-q", str(remotes[0]), str(work), cwd=tmp_path)
    git("commit", "-q", "--amend", "-m", "purged", cwd=work)
    git("push", "-q", "--force", "origin", "HEAD:main", cwd=work)
    assert _why(machine, project) == "private: the remote's branch is not at the last synced commit"
    out, _, path = _hook(machine, project)
    assert path == "ENGINE"
    message = str(out.get("systemMessage"))
    assert "memsync: private: the private store's history was rewritten on the remote" in message
    assert "merge: the private" not in message  # a rebuild is not a merge decision


def test_after_this_machines_push_the_next_start_is_quick(
    settled: tuple[Machine, Path, Path],
) -> None:
    machine, project, live = settled
    clone = _bindings(machine, project)[0].clone_dir
    before = git("rev-parse", "refs/memsync/fetched/main", cwd=clone).strip()
    write_memory(live, "pushed.md", "pushed note", "Sent at session end.\n")
    machine.memsync("push", "--hook", stdin="{}", cwd=project)
    head = git("rev-parse", "refs/heads/main", cwd=clone).strip()
    assert head != before
    assert _why(machine, project) == ""
    assert git("rev-parse", "refs/memsync/fetched/main", cwd=clone).strip() == head
    _, _, path = _hook(machine, project)
    assert path == "QUICK"


def test_a_record_that_is_not_an_ancestor_goes_to_the_engine(
    settled: tuple[Machine, Path, Path], tmp_path: Path
) -> None:
    machine, project, _ = settled
    clone = _bindings(machine, project)[0].clone_dir
    # As if origin had shown another history before: the record is not behind C.
    tree = git("rev-parse", "main^{tree}", cwd=clone).strip()
    other = git("commit-tree", tree, "-m", "elsewhere", cwd=clone).strip()
    git("update-ref", "refs/memsync/fetched/main", other, cwd=clone)
    assert _why(machine, project) == "private: the remote's history was rewritten"
    assert git("rev-parse", "refs/memsync/fetched/main", cwd=clone).strip() == other


def test_a_held_lock_goes_to_the_engine(settled: tuple[Machine, Path, Path]) -> None:
    machine, project, _ = settled
    lock = _bindings(machine, project)[1].lock_path
    # This very process, alive on this host: a holder the lock never takes over.
    holder = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "command": "push",
        "since": time.time(),
    }
    lock.write_text(json.dumps(holder))
    assert _why(machine, project) == "team: the store is locked by another memsync"
    assert lock.exists(), "a lock the quick path did not take is left alone"


def test_an_unreachable_remote_goes_to_the_engine_which_reports_it(
    settled: tuple[Machine, Path, Path], remotes: tuple[Path, Path]
) -> None:
    machine, project, _ = settled
    remotes[1].rename(remotes[1].with_name("moved.git"))
    assert _why(machine, project) == "team: the fetch failed"
    _, stderr, path = _hook(machine, project)
    assert path == "ENGINE"
    assert "memsync: team: remote unreachable" in stderr
    assert "(kept locally)" in stderr


def test_a_remote_unreachable_for_days_is_told_though_failed_fetches_touch_fetch_head(
    settled: tuple[Machine, Path, Path], remotes: tuple[Path, Path]
) -> None:
    """git truncates FETCH_HEAD before it connects, so a failed fetch made it look as new as
    a good one and the days-offline note never came (found by an adversarial sync review)."""
    machine, project, _ = settled
    clone = _bindings(machine, project)[1].clone_dir
    stamp = clone / gitremote.ANSWERED
    assert stamp.is_file(), "the last fetch the remote answered is stamped"
    three_days_ago = stamp.stat().st_mtime - 3 * 86_400
    os.utime(stamp, (three_days_ago, three_days_ago))
    remotes[1].rename(remotes[1].with_name("moved.git"))
    out, _, path = _hook(machine, project)
    assert path == "ENGINE"
    assert (clone / "FETCH_HEAD").stat().st_mtime > three_days_ago + 2 * 86_400
    message = str(out.get("systemMessage"))
    assert "memsync: team: the remote has been unreachable for 3 day(s)" in message
    assert stamp.stat().st_mtime == three_days_ago, "a failed fetch does not stamp"


def test_a_clone_from_before_the_stamp_trusts_only_a_fetch_head_a_fetch_filled(
    settled: tuple[Machine, Path, Path],
) -> None:
    machine, project, _ = settled
    binding = _bindings(machine, project)[1]
    (binding.clone_dir / gitremote.ANSWERED).unlink()
    fetch_head = binding.clone_dir / "FETCH_HEAD"
    assert fetch_head.stat().st_size > 0
    assert store.last_fetch(binding) == fetch_head.stat().st_mtime
    fetch_head.write_bytes(b"")  # what a failed fetch leaves
    assert store.last_fetch(binding) is None
    fetch_head.unlink()
    assert store.last_fetch(binding) is None


def test_a_clone_mid_merge_goes_to_the_engine_which_refuses_it(
    settled: tuple[Machine, Path, Path],
) -> None:
    machine, project, _ = settled
    clone = _bindings(machine, project)[0].clone_dir
    (clone / "MERGE_HEAD").write_text("0" * 40 + "\n")
    assert _why(machine, project) == "private: a git operation is half done in the clone"
    out, _, path = _hook(machine, project)
    assert path == "ENGINE"
    assert "in the middle of a git operation (MERGE_HEAD exists)" in str(out.get("systemMessage"))


def test_a_changed_config_goes_to_the_engine(settled: tuple[Machine, Path, Path]) -> None:
    machine, project, live = settled
    config = Path(machine.env["MEMSYNC_CONFIG"])
    text = config.read_text()
    config.write_text(text.replace("subdir: acme-api", "subdir: acme-api-2", 1))
    assert _why(machine, project) == "private: the store or folder changed since the last run"
    _, _, path = _hook(machine, project)
    assert path == "ENGINE"
    clone = _bindings(machine, project)[0].clone_dir
    assert "acme-api-2/deploy.md" in git("ls-tree", "-r", "--name-only", "main", cwd=clone)
    assert (live / "deploy.md").exists()


def test_a_store_url_spelled_otherwise_goes_to_the_engine(
    settled: tuple[Machine, Path, Path], remotes: tuple[Path, Path]
) -> None:
    machine, project, _ = settled
    config = Path(machine.env["MEMSYNC_CONFIG"])
    url = str(remotes[0])
    config.write_text(config.read_text().replace(f"url: {url}", f"url: {url}/", 1))
    assert _why(machine, project) == "private: the clone points at another URL"
    _hook(machine, project)
    assert _why(machine, project) == ""


def test_an_unclean_last_run_goes_to_the_engine(settled: tuple[Machine, Path, Path]) -> None:
    machine, project, _ = settled
    manifest = sorted((machine.home / ".memsync" / "manifests").glob("live-*.json"))[0]
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "clean": False}))
    why = _why(machine, project)
    assert why.endswith("the last run did not leave the live directory at a commit")


def test_a_secret_in_the_team_index_is_redacted_on_the_quick_path(
    settled: tuple[Machine, Path, Path], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    machine, project, _ = settled
    key = "AKIA" + "".join(random.Random("quick").choices(string.ascii_uppercase + "234567", k=16))
    # memsync never pushes it; plain git can.
    work = tmp_path / "plain"
    git("clone", "-q", str(remotes[1]), str(work), cwd=tmp_path)
    index = next(work.rglob("MEMORY.md"))
    index.write_text(index.read_text() + f"- [Keys](keys.md) — deploy key {key}\n")
    git("commit", "-q", "-am", "key", cwd=work)
    git("push", "-q", "origin", "HEAD:main", cwd=work)
    paths = [_hook(machine, project)[2] for _ in range(3)]
    for _ in range(2):
        out, _, path = _hook(machine, project)
        paths.append(path)
        context = str(out["hookSpecificOutput"])
        assert key not in context
        assert "(aws-access-token: AKIA" in context
    assert paths[0] == "ENGINE" and paths[-1] == "QUICK"


def test_no_fetch_started_or_no_store_goes_to_the_engine(
    settled: tuple[Machine, Path, Path],
) -> None:
    machine, project, _ = settled
    with machine.active():
        config = load_config()
        _, bindings = resolve_bindings(config, project, ("private", "team"))
        at = Deadline.after(10)
        assert quick_pull(bindings, config.settings, at) == (False, "private: no fetch was started")
        assert quick_pull([], config.settings, at) == (False, "no store is bound")


def test_the_lock_names_this_host_as_the_socket_module_does() -> None:
    # Lock files written before (socket.gethostname) and now (uname) name the same host.
    assert this_host() == socket.gethostname()


def test_a_clone_that_is_missing_or_detached_goes_to_the_engine(
    settled: tuple[Machine, Path, Path],
) -> None:
    machine, project, _ = settled
    private, team = (b.clone_dir for b in _bindings(machine, project))
    head = git("rev-parse", "main", cwd=team).strip()
    (team / "HEAD").write_text(head + "\n")
    assert _why(machine, project) == "team: the clone's HEAD is detached"
    private.rename(private.with_name("elsewhere.git"))
    assert _why(machine, project) == "private: no clone yet"


def test_a_missing_team_folder_goes_to_the_engine(settled: tuple[Machine, Path, Path]) -> None:
    machine, project, live = settled
    shutil.rmtree(live / "team")
    assert _why(machine, project) == "team: the live directory is missing"
    _, _, path = _hook(machine, project)
    assert path == "ENGINE"  # which writes the folder again: its removal deletes no memory
    team = _bindings(machine, project)[1].clone_dir
    assert "style.md" in git("ls-tree", "-r", "--name-only", "main", cwd=team)
    assert (live / "team" / "style.md").is_file()


def test_anything_unexpected_goes_to_the_engine(
    settled: tuple[Machine, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    machine, project, _ = settled

    def broken(_: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(quickpull, "binding_manifest", broken)
    assert _why(machine, project) == "unexpected: RuntimeError('disk on fire')"


def test_nothing_new_starts_no_git_but_the_fetches(
    settled: tuple[Machine, Path, Path], tmp_path: Path
) -> None:
    """The usual session start stays lean: counting runs that ran out of time (F21) reads
    nothing more on this path, and git runs only the two stores' fetches."""
    machine, project, _ = settled
    trace = tmp_path / "git-trace"
    machine.env["GIT_TRACE"] = str(trace)
    try:
        _, _, path = _hook(machine, project)
    finally:
        del machine.env["GIT_TRACE"]
    assert path == "QUICK"
    commands = []
    for line in trace.read_text().splitlines():
        if "trace: built-in: git " in line:
            words = line.split("trace: built-in: git ", 1)[1].split()
            while words[0] == "-c":
                words = words[2:]
            commands.append(words[0])
    # The two stores' fetches and what git runs for a fetch itself (the remote's end over
    # file://, its connectivity check): no git process of memsync's own besides.
    assert commands.count("fetch") == 2, commands
    fetching = {"fetch", "upload-pack", "for-each-ref", "rev-list", "index-pack", "pack-objects"}
    assert set(commands) <= fetching, commands
