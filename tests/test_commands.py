"""status, diff, log, promote and the error paths of the sync commands, through the real CLI."""

from __future__ import annotations

import json
import os
import re
import socket
import time
from pathlib import Path

import pytest

from testing.gitrepo import git, make_bare_remote
from testing.machines import ORIGIN, Machine, memory_dir, remote_files, setup_machine
from testing.memories import write_memory


@pytest.fixture
def solo(machines: list[Machine], tmp_path: Path) -> tuple[Machine, Path, Path, Path]:
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    alice = machines[0]
    project = setup_machine(alice, private, team, "src/api")
    return alice, project, private, team


def test_status_reports_edits_index_and_sync_times(solo: tuple[Machine, Path, Path, Path]) -> None:
    alice, project, _, _ = solo
    live = memory_dir(alice, project)
    write_memory(live, "a.md", "alpha", "A\n")
    (live / "MEMORY.md").write_text("- [alpha](a.md) — first\n")
    data = json.loads(alice.memsync("status", "--json", cwd=project).stdout)
    private = next(s for s in data if s["scope"] == "private")
    assert private["local_edits"] == ["MEMORY.md", "a.md"]
    assert private["index"]["lines"] == 1
    alice.memsync("push", cwd=project)
    data = json.loads(alice.memsync("status", "--json", cwd=project).stdout)
    private = next(s for s in data if s["scope"] == "private")
    assert private["local_edits"] == []
    assert private["ahead"] == 0 and private["behind"] == 0
    assert private["last_push"] is not None
    text = alice.memsync("status", cwd=project).stdout
    assert "1/200 lines" in text and "team" in text


def test_status_flags_an_index_over_the_limits(solo: tuple[Machine, Path, Path, Path]) -> None:
    alice, project, _, _ = solo
    live = memory_dir(alice, project)
    (live / "MEMORY.md").write_text("".join(f"- [m{i}](m{i}.md) — hook\n" for i in range(230)))
    text = alice.memsync("status", cwd=project).stdout
    assert "230 lines" in text and "consolidate" in text


def test_diff_shows_outgoing_and_incoming_changes(
    solo: tuple[Machine, Path, Path, Path], machines: list[Machine]
) -> None:
    alice, project, private, team = solo
    live = memory_dir(alice, project)
    write_memory(live, "a.md", "alpha", "A\n", description="first")
    alice.memsync("push", cwd=project)
    bob = machines[2]
    pb = setup_machine(bob, private, team, "code/api")
    other = memory_dir(bob, pb) / "a.md"
    other.write_text(other.read_text().replace("description: first", "description: second"))
    write_memory(memory_dir(bob, pb), "b.md", "beta", "B\n")
    bob.memsync("push", cwd=pb)
    write_memory(live, "c.md", "gamma", "C\n")
    data = json.loads(alice.memsync("diff", "--json", "--scope", "private", cwd=project).stdout)
    [store] = data
    assert [c["path"] for c in store["outgoing"]] == ["c.md"]
    incoming = {c["path"]: c for c in store["incoming"]}
    assert incoming["b.md"]["status"] == "added"
    assert incoming["a.md"]["fields"] == [
        {"path": "description", "before": "first", "after": "second"}
    ]
    text = alice.memsync("diff", "--scope", "private", cwd=project).stdout
    assert "push would send 1 change(s)" in text
    assert "description: 'first' -> 'second'" in text


def test_log_lists_who_changed_which_memory(solo: tuple[Machine, Path, Path, Path]) -> None:
    alice, project, _, _ = solo
    live = memory_dir(alice, project)
    write_memory(live, "a.md", "alpha", "A\n")
    alice.memsync("push", cwd=project)
    (live / "a.md").write_text((live / "a.md").read_text() + "More.\n")
    alice.memsync("push", "-m", "memsync(acme-api): explain alpha", cwd=project)
    entries = json.loads(alice.memsync("log", "a.md", "--json", cwd=project).stdout)
    assert [e["subject"] for e in entries] == [
        "memsync(acme-api): explain alpha",
        "memsync(acme-api): add 1 memory from alice-laptop",
    ]
    assert entries[0]["files"] == [["M", "a.md"]]
    assert "alice-laptop user" in alice.memsync("log", cwd=project).stdout


def test_promote_moves_a_memory_to_the_team(solo: tuple[Machine, Path, Path, Path]) -> None:
    alice, project, _, team = solo
    live = memory_dir(alice, project)
    write_memory(live, "policy.md", "testing policy", "Real DB.\n", type_="feedback")
    (live / "MEMORY.md").write_text("- [testing policy](policy.md) — real DB\n")
    alice.memsync("push", cwd=project)
    alice.memsync("promote", "policy.md", cwd=project)
    assert not (live / "policy.md").exists()
    assert (live / "team" / "policy.md").exists()
    team_index = (live / "team" / "MEMORY.md").read_text()
    assert "(policy.md)" in team_index and team_index.endswith("\n"), team_index
    assert "policy.md" not in (live / "MEMORY.md").read_text()
    assert "acme-api/policy.md" in remote_files(team)


def test_promote_refuses_user_memories_and_secrets(solo: tuple[Machine, Path, Path, Path]) -> None:
    alice, project, _, _ = solo
    live = memory_dir(alice, project)
    write_memory(live, "me.md", "about me", "Vim user.\n", type_="user")
    result = alice.memsync("promote", "me.md", cwd=project, check=False)
    assert result.returncode == 1 and "type: user" in result.stderr
    key = "ghp_" + "x7Kq2M9vR4tW8yB3nL6pZ1cF5hJ0dG2sA4eQ"
    write_memory(live, "ci.md", "ci", f"Key {key}\n")
    result = alice.memsync("promote", "ci.md", cwd=project, check=False)
    assert result.returncode == 1
    assert key not in result.stderr + result.stdout
    said = " ".join(result.stderr.split())
    assert "ci.md cannot go to the team store, nothing was moved" in said
    assert "possible secret (github-pat)" in said and "memsync:allow-secret" in said
    assert (live / "ci.md").exists() and not (live / "team" / "ci.md").exists()
    # Its name and its private index line go with it: refused before anything moves
    # (an adversarial team review: both were moved, then the team push held them back)
    write_memory(live, "deploy.md", "deploy", "Deploys on Fridays.\n")
    index = live / "MEMORY.md"
    index.write_text(f"- [Deploy](deploy.md) — deploy with {key}\n", encoding="utf-8")
    for name, where in (
        ("deploy.md", "line in the private MEMORY.md"),
        (f"n-{key}.md", "file name"),
    ):
        if name != "deploy.md":
            write_memory(live, name, "n", "A fact.\n")
        result = alice.memsync("promote", name, cwd=project, check=False)
        said = " ".join(result.stderr.split())
        assert result.returncode == 1 and f"its {where} holds a possible secret" in said
        assert key not in result.stderr + result.stdout
        assert (live / name).exists() and not (live / "team" / name).exists()
    assert key in index.read_text(encoding="utf-8")  # the private index is as it was


def test_an_unconfigured_project_is_a_usage_error_but_silent_in_hooks(
    machines: list[Machine],
) -> None:
    alice = machines[0]
    project = alice.checkout_project("https://github.com/acme/web")
    result = alice.memsync("pull", cwd=project, check=False)
    assert result.returncode == 2
    assert "memsync init" in result.stderr
    hooked = alice.memsync("pull", "--hook", cwd=project, stdin="", check=False)
    assert hooked.returncode == 0 and hooked.stdout == "" and hooked.stderr == ""
    bogus = alice.memsync("pull", "--scope", "bogus", cwd=project, check=False)
    assert bogus.returncode == 2
    assert "'bogus' is not one of 'private', 'team', 'all'" in bogus.stderr


def test_a_held_lock_exits_4_naming_the_holder(solo: tuple[Machine, Path, Path, Path]) -> None:
    alice, project, _, _ = solo
    locks = alice.home / ".memsync" / "locks"
    [lock] = [p for p in locks.iterdir() if p.name.startswith("private")] or [None]
    assert lock is None or not lock.exists()
    lock_file = next(iter(sorted(locks.parent.glob("stores/private-*.git")))).name.replace(
        ".git", ".lock"
    )
    holder = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "command": "push",
        "since": time.time(),
    }
    (locks / lock_file).write_text(json.dumps(holder))
    config = alice.home / ".config" / "memsync" / "config.yaml"
    config.write_text(config.read_text().replace("lock_timeout: 30.0", "lock_timeout: 0.5"))
    result = alice.memsync("pull", "--scope", "private", cwd=project, check=False)
    assert result.returncode == 4
    assert f"pid {os.getpid()}" in result.stderr
    hooked = alice.memsync(
        "pull", "--hook", "--scope", "private", cwd=project, stdin="", check=False
    )
    assert hooked.returncode == 0 and "busy" in hooked.stderr


def test_a_clone_left_mid_operation_is_refused(solo: tuple[Machine, Path, Path, Path]) -> None:
    alice, project, _, _ = solo
    write_memory(memory_dir(alice, project), "a.md", "alpha", "A\n")
    alice.memsync("push", cwd=project)
    [clone] = (alice.home / ".memsync" / "stores").glob("private-*.git")
    (clone / "MERGE_HEAD").write_text("0" * 40 + "\n")
    result = alice.memsync("pull", "--scope", "private", cwd=project, check=False)
    assert result.returncode == 4 and "MERGE_HEAD" in result.stderr
    (clone / "MERGE_HEAD").unlink()
    git("update-ref", "--no-deref", "HEAD", git("rev-parse", "main", cwd=clone).strip(), cwd=clone)
    result = alice.memsync("pull", "--scope", "private", cwd=project, check=False)
    assert result.returncode == 4 and "detached HEAD" in result.stderr


def test_log_of_a_team_file_named_as_claude_code_shows_it(
    solo: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, _, _ = solo
    team = memory_dir(alice, project) / "team"
    write_memory(team, "policy.md", "policy", "Real DB.\n", type_="feedback")
    alice.memsync("push", cwd=project)
    for name in ("team/policy.md", str(team / "policy.md")):
        entries = json.loads(alice.memsync("log", name, "--json", cwd=project).stdout)
        assert [e["scope"] for e in entries] == ["team"], name
        assert entries[0]["files"] == [["A", "policy.md"]]


def test_a_large_pull_lists_a_few_files_and_counts_the_rest(
    solo: tuple[Machine, Path, Path, Path], machines: list[Machine]
) -> None:
    alice, project, private, team = solo
    live = memory_dir(alice, project)
    for i in range(30):
        write_memory(live, f"m{i:02}.md", f"memory {i}", f"Body {i}.\n")
    alice.memsync("push", "--scope", "private", cwd=project)
    bob = machines[2]
    pb = setup_machine(bob, private, team, "code/api")
    for path in memory_dir(bob, pb).glob("m*.md"):
        path.write_text(path.read_text() + "Edited.\n")
    bob.memsync("push", "--scope", "private", cwd=pb)
    out = alice.memsync("pull", "--scope", "private", cwd=project).stdout
    assert "pulled 30" in out
    assert out.count("  ~ ") == 20
    assert "… and 10 more" in out


def test_network_timeout_bounds_a_stalled_remote_outside_hooks(
    solo: tuple[Machine, Path, Path, Path],
) -> None:
    import socket
    import threading

    alice, project, _, _ = solo
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept_and_stall() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])  # never answers
            except OSError:
                continue

    thread = threading.Thread(target=accept_and_stall, daemon=True)
    thread.start()
    try:
        port = listener.getsockname()[1]
        config = alice.home / ".config" / "memsync" / "config.yaml"
        text = config.read_text()
        text = re.sub(
            r"(private:\n    scope: private\n    url: ).*",
            rf"\g<1>git://127.0.0.1:{port}/p.git",
            text,
        )
        config.write_text(text.replace("network_timeout: 60.0", "network_timeout: 1.5"))
        started = time.monotonic()
        result = alice.memsync("pull", "--scope", "private", cwd=project, check=False)
        assert result.returncode == 3, result.stderr
        assert time.monotonic() - started < 30  # git's own default would be 60 s
        assert "1.5" in result.stderr or "did not answer" in result.stderr
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        listener.close()


def test_a_hook_whose_stdin_never_closes_is_still_let_go(
    solo: tuple[Machine, Path, Path, Path],
) -> None:
    import subprocess
    import sys

    alice, project, _, _ = solo
    config = alice.home / ".config" / "memsync" / "config.yaml"
    config.write_text(config.read_text().replace("pull_timeout: 10.0", "pull_timeout: 1.0"))
    env = {**os.environ, **alice.env, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "memsync", "pull", "--hook"],
        cwd=project,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    proc.stdin.write(b'{"cwd": ')  # half a JSON document, and the pipe stays open
    proc.stdin.flush()
    try:
        code = proc.wait(timeout=30)  # stdin stays open: communicate() would close it
    finally:
        proc.kill()
    assert proc.stderr is not None
    assert code == 0
    assert b"stopped after" in proc.stderr.read()
    proc.stdin.close()


def test_promote_refuses_a_name_that_differs_only_by_case_from_a_team_memory(
    solo: tuple[Machine, Path, Path, Path],
) -> None:
    # An adversarial team review (T18): the team has `Style.md`, the private memory is
    # `style.md`; promote moved it, the team push skipped it as a case twin and the private
    # push deleted it: the memory was in no remote, and promote said "promoted", exit 0.
    alice, project, private, team = solo
    live = memory_dir(alice, project)
    write_memory(live / "team", "Style.md", "Style", "Team style: ruff.\n", type_="feedback")
    (live / "team" / "MEMORY.md").write_text("- [Style](Style.md) — team style\n")
    alice.memsync("push", "--scope", "team", cwd=project)
    write_memory(live, "style.md", "style", "Prefer small functions.\n", type_="feedback")
    (live / "MEMORY.md").write_text("- [Style](style.md) — my style notes\n")
    alice.memsync("push", "--scope", "private", cwd=project)
    result = alice.memsync("promote", "style.md", cwd=project, check=False)
    said = " ".join(result.stderr.split())
    assert result.returncode == 1, result.stdout + result.stderr
    assert "nothing was moved" in said and "style.md" in said and "Style.md" in said
    assert "differs only by case" in said and "Rename" in said
    assert "Traceback" not in result.stderr
    # Nothing moved: the private copy stays, locally and on the private remote.
    assert (live / "style.md").exists() and not (live / "team" / "style.md").exists()
    assert "(style.md)" in (live / "MEMORY.md").read_text()
    assert "acme-api/style.md" in remote_files(private)
    assert "acme-api/style.md" not in remote_files(team)


def test_promote_deletes_the_private_copy_only_once_the_team_remote_holds_it(
    solo: tuple[Machine, Path, Path, Path],
) -> None:
    # T18's rule: the private copy goes only when the team store really holds the memory.
    # The team remote is unreachable: promote moves the memory back and says why.
    alice, project, private, team = solo
    live = memory_dir(alice, project)
    write_memory(live, "style.md", "style", "Prefer small functions.\n", type_="feedback")
    (live / "MEMORY.md").write_text("- [Style](style.md) — my style notes\n")
    (live / "team" / "MEMORY.md").write_text("- [Deploy](deploy.md) — deploys\n")
    write_memory(live / "team", "deploy.md", "deploy", "Fridays.\n", type_="project")
    alice.memsync("push", cwd=project)
    team_index = (live / "team" / "MEMORY.md").read_bytes()
    team.rename(team.with_name("gone.git"))
    result = alice.memsync("promote", "style.md", cwd=project, check=False)
    said = " ".join(result.stderr.split())
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert "style.md cannot go to the team store, it was moved back" in said
    assert "the team push did not take it" in said and "memsync promote" in said
    assert (live / "style.md").exists() and not (live / "team" / "style.md").exists()
    assert "(style.md)" in (live / "MEMORY.md").read_text()
    assert (live / "team" / "MEMORY.md").read_bytes() == team_index
    assert "acme-api/style.md" in remote_files(private)
    team.with_name("gone.git").rename(team)
    alice.memsync("promote", "style.md", cwd=project)
    assert "acme-api/style.md" in remote_files(team)
    assert "acme-api/style.md" not in remote_files(private)


def test_a_memory_named_like_a_repository_file_in_a_subdir_dot_store_is_held_back_by_name(
    machines: list[Machine], tmp_path: Path
) -> None:
    # An adversarial team review (T13): with `--subdir .` the team store is the repository's
    # root, where README.md and CHANGELOG.md are the repository's files. Memories with those
    # names were never pushed, without a word, while their index lines were: the team's
    # `memsync check --all` then failed on dangling links, and `status` said nothing to do.
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    alice = machines[0]
    project = alice.checkout_project(ORIGIN, "src/api")
    alice.memsync(
        "init", "--private", str(private), "--team", str(team), "--subdir", ".", "--no-hooks",
        cwd=project,
    )  # fmt: skip
    shared = memory_dir(alice, project) / "team"
    write_memory(shared, "a.md", "a", "A.\n")
    write_memory(shared, "README.md", "readme", "The repo README is outdated.\n")
    write_memory(shared, "CHANGELOG.md", "changelog", "Every PR adds a line.\n")
    (shared / "MEMORY.md").write_text(
        "- [A](a.md) — a\n- [Readme](README.md) — readme\n- [Changelog](CHANGELOG.md) — log\n"
    )
    result = alice.memsync("push", "--scope", "team", cwd=project, check=False)
    said = " ".join((result.stdout + result.stderr).split())
    for name in ("README.md", "CHANGELOG.md"):
        assert f"skipped {name}: " in said  # named, with the reason and what to do
    assert "repository's own file" in said and "rename the memory" in said
    assert "Traceback" not in said
    assert "a.md" in remote_files(team)
    index = git("show", "main:MEMORY.md", cwd=team)
    assert "(a.md)" in index and "README.md" not in index and "CHANGELOG.md" not in index
    status = alice.memsync("status", "--scope", "team", "--exit-code", cwd=project, check=False)
    assert status.returncode == 1 and "README.md" in status.stdout + status.stderr
    # Nothing is lost: the memories and their lines stay in the live folder.
    assert (shared / "README.md").exists() and "(README.md)" in (shared / "MEMORY.md").read_text()
