"""What pull, push and status say, through the installed `memsync` command (issue 17, 1-2).

Each store's one line states what happened; a push sends every valid edit and holds back
only the files that fail validation, which stay local, never in a pushed commit, and are
listed with their fix; `status --exit-code` is non-zero while anything is pending.
"""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

import pytest

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, installed, memory_dir, remote_files, setup_machine
from testing.memories import write_memory

# Built at run time so no credential-shaped literal is ever committed.
FAKE_TOKEN = "ghp_" + "x7Kq2M9vR4tW8yB3nL6pZ1cF5hJ0dG2sA4eQ"


@pytest.fixture
def solo(machines: list[Machine], tmp_path: Path) -> tuple[Machine, Path, Path, Path]:
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    alice = machines[0]
    project = setup_machine(alice, private, team, "src/api")
    return alice, project, private, team


def line_of(out: str, scope: str) -> str:
    """The one-line outcome of SCOPE's store."""
    return next(line for line in out.splitlines() if line.startswith(f"{scope} ("))


def all_history_paths(remote: Path) -> set[str]:
    """Every path any commit of the remote ever contained."""
    out = git("log", "--all", "--format=", "--name-only", cwd=remote)
    return {line for line in out.splitlines() if line}


def test_each_store_line_says_what_happened(
    solo: tuple[Machine, Path, Path, Path], machines: list[Machine]
) -> None:
    alice, project, private, team = solo
    done = installed(alice, "push", cwd=project)
    assert done.returncode == 0, done.stderr
    assert line_of(done.stdout, "private").endswith(": nothing to do")
    assert line_of(done.stdout, "team").endswith(": nothing to do")

    live = memory_dir(alice, project)
    write_memory(live, "a.md", "alpha", "A\n")
    pulled = installed(alice, "pull", "--scope", "private", cwd=project)
    assert pulled.returncode == 0
    # Pull commits the edit locally and says why it did not leave the machine.
    assert "ahead by 1 commit, not pushed: pull never pushes: run `memsync push`" in (
        line_of(pulled.stdout, "private")
    )

    pushed = installed(alice, "push", "--scope", "private", cwd=project)
    assert line_of(pushed.stdout, "private").endswith(": pushed 1")
    assert "a.md" in pushed.stdout

    bob = machines[2]
    pb = setup_machine(bob, private, team, "code/api")
    other = memory_dir(bob, pb)
    write_memory(other, "b.md", "beta", "B\n")
    (other / "a.md").write_text((other / "a.md").read_text() + "more\n")
    bob.memsync("push", "--scope", "private", cwd=pb)
    (other / "a.md").unlink()
    bob.memsync("push", "--scope", "private", cwd=pb)
    # b.md is new here (+), a.md was removed (-); an old file changed would be `~`.
    got = installed(alice, "pull", "--scope", "private", cwd=project)
    assert line_of(got.stdout, "private").endswith(": pulled 2")
    assert "  + b.md" in got.stdout and "  - a.md" in got.stdout


def test_a_push_sends_valid_edits_and_holds_back_only_the_failing_file(
    solo: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, _, team = solo
    shared = memory_dir(alice, project) / "team"
    write_memory(shared, "ok.md", "deploys", "Deploys go out on Tuesdays.\n")
    write_memory(shared, "me.md", "about me", "I like vim.\n", type_="user")
    write_memory(shared, "ci.md", "ci token", f"The CI token is {FAKE_TOKEN}\n")

    done = installed(alice, "push", cwd=project)
    assert done.returncode == 1  # needs you: two files are held back
    summary = line_of(done.stdout, "team")
    assert "pushed 1" in summary
    assert "blocked: ci.md (secret), me.md (user-in-team); kept local, not committed" in summary
    # Each held-back file is listed with its rule and the fix.
    assert "blocked me.md:" in done.stdout and "[user-in-team]" in done.stdout
    assert "memsync:allow-secret" in done.stdout  # the secret rule's fix
    assert "then run `memsync push`" in done.stdout
    assert FAKE_TOKEN not in done.stdout + done.stderr
    assert "kept your local version" not in done.stdout  # the old, false explanation
    # The valid edit reached the team; the others are in no commit at all.
    history = all_history_paths(team)
    assert "acme-api/ok.md" in remote_files(team)
    assert "acme-api/me.md" not in history and "acme-api/ci.md" not in history
    assert (shared / "me.md").exists() and (shared / "ci.md").exists()

    status = installed(alice, "status", "--exit-code", cwd=project)
    assert status.returncode == 1
    assert "held back  2 file(s) that push will not send" in status.stdout
    assert "me.md:" in status.stdout and "fix:" in status.stdout
    data = json.loads(installed(alice, "status", "--json", cwd=project).stdout)
    team_status = next(s for s in data if s["scope"] == "team")
    assert {b["rule"] for b in team_status["blocked"]} == {"secret", "user-in-team"}
    assert team_status["clean"] is False

    (shared / "me.md").unlink()
    (shared / "ci.md").write_text((shared / "ci.md").read_text().replace(FAKE_TOKEN, "in vault"))
    fixed = installed(alice, "push", cwd=project)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert line_of(fixed.stdout, "team").endswith(": pushed 1")
    clean = installed(alice, "status", "--exit-code", cwd=project)
    assert clean.returncode == 0, clean.stdout
    assert "nothing to do" in clean.stdout


def test_status_exit_code_reports_pending_edits(solo: tuple[Machine, Path, Path, Path]) -> None:
    alice, project, _, _ = solo
    assert installed(alice, "status", "--exit-code", cwd=project).returncode == 0
    write_memory(memory_dir(alice, project), "a.md", "alpha", "A\n")
    pending = installed(alice, "status", "--exit-code", cwd=project)
    assert pending.returncode == 1 and "1 edit(s) not yet pushed" in pending.stdout
    # Without --exit-code status only informs.
    assert installed(alice, "status", cwd=project).returncode == 0


def test_status_exit_code_reports_a_remote_the_last_pull_could_not_reach(
    solo: tuple[Machine, Path, Path, Path],
) -> None:
    # F20: the remote gone, the pull exits 3; status said "nothing to do" and exited 0.
    alice, project, private, _ = solo
    write_memory(memory_dir(alice, project), "a.md", "alpha", "A\n")
    alice.memsync("push", cwd=project)
    gone = private.with_name("gone.git")
    private.rename(gone)
    assert alice.memsync("pull", cwd=project, check=False).returncode == 3
    status = installed(alice, "status", "--exit-code", "--scope", "private", cwd=project)
    assert status.returncode == 1, status.stdout
    assert "nothing to do" not in status.stdout
    [problem] = [line for line in status.stdout.splitlines() if "problem" in line]
    assert "the remote was unreachable at the last pull or push" in problem, problem
    assert "does not appear to be a git repository" in problem, problem  # git's reason
    # The remote back: the next pull reaches it and status is clean again.
    gone.rename(private)
    alice.memsync("pull", cwd=project)
    assert installed(alice, "status", "--exit-code", cwd=project).returncode == 0


def test_a_file_added_and_deleted_before_any_push_never_reaches_the_remote(
    solo: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, _, team = solo
    shared = memory_dir(alice, project) / "team"
    write_memory(shared, "oops.md", "oops", "Meant to stay private.\n")
    write_memory(shared, "keep.md", "keep", "Worth sharing.\n")
    # Pull commits local edits without pushing them.
    alice.memsync("pull", "--scope", "team", cwd=project)
    (shared / "oops.md").unlink()
    done = installed(alice, "push", "--scope", "team", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "not in the pushed history (added, then deleted before any push): oops.md" in (
        done.stdout
    )
    history = all_history_paths(team)
    assert "acme-api/keep.md" in history
    assert "acme-api/oops.md" not in history


def test_an_edit_of_a_memory_renamed_elsewhere_is_pushed_as_made(
    solo: tuple[Machine, Path, Path, Path], machines: list[Machine]
) -> None:
    # A merge review: B's edit of deploy.md, which A had renamed and pushed, was reported as
    # "added, then deleted before any push" (it was pushed at init) and squashed away, and
    # with it the merge commit's decision trailers.
    alice, project, private, _ = solo
    mine = memory_dir(alice, project)
    write_memory(mine, "deploy.md", "deploy", "Deploys run on Fridya.\n")
    alice.memsync("push", "--scope", "private", cwd=project)
    bob = machines[2]
    theirs_project = setup_machine(bob, private, None, "code/api")
    theirs = memory_dir(bob, theirs_project)
    (mine / "deploy.md").rename(mine / "deploy-process.md")
    alice.memsync("push", "--scope", "private", cwd=project)
    write_memory(theirs, "deploy.md", "deploy", "Deploys run on Friday.\nNever on a holiday.\n")
    done = installed(bob, "sync", "--scope", "private", cwd=theirs_project)
    assert done.returncode == 0, done.stderr
    assert "not in the pushed history" not in done.stdout
    assert "from bob-laptop" in git("log", "--format=%s", "main", cwd=private)
    merged = (theirs / "deploy-process.md").read_text()
    assert "Never on a holiday." in merged and not (theirs / "deploy.md").exists()


def test_a_push_after_every_unsent_change_was_undone_has_nothing_to_send(
    solo: tuple[Machine, Path, Path, Path],
) -> None:
    # A walkthrough's session: the start's pull commits a draft, the session deletes it with
    # its index line. Every push and sync then crashed with an IndexError (exit 70).
    alice, project, private, _ = solo
    memory = memory_dir(alice, project)
    write_memory(memory, "ok.md", "ok", "Fine.\n")
    (memory / "MEMORY.md").write_text("- [Ok](ok.md) — ok\n")
    alice.memsync("push", "--scope", "private", cwd=project)
    pushed = git("rev-parse", "main", cwd=private).strip()
    write_memory(memory, "draft.md", "draft", "A draft.\n")
    (memory / "MEMORY.md").write_text("- [Ok](ok.md) — ok\n- [Draft](draft.md) — d\n")
    alice.memsync("pull", "--scope", "private", cwd=project)
    (memory / "draft.md").unlink()
    (memory / "MEMORY.md").write_text("- [Ok](ok.md) — ok\n")
    for command in ("push", "sync"):
        done = installed(alice, command, "--scope", "private", cwd=project)
        assert done.returncode == 0, done.stderr
        assert "unexpected error" not in done.stdout + done.stderr
    first = installed(alice, "push", "--scope", "private", cwd=project)
    assert line_of(first.stdout, "private").endswith("nothing to do")
    assert git("rev-parse", "main", cwd=private).strip() == pushed  # no empty commit
    assert installed(alice, "status", "--exit-code", cwd=project).returncode == 0


def test_unreachable_quotes_git_and_locked_names_the_pid(
    solo: tuple[Machine, Path, Path, Path], tmp_path: Path
) -> None:
    alice, project, private, _ = solo
    write_memory(memory_dir(alice, project), "a.md", "alpha", "A\n")
    moved = tmp_path / "elsewhere.git"
    private.rename(moved)
    done = installed(alice, "push", "--scope", "private", cwd=project)
    assert done.returncode == 3
    summary = line_of(done.stdout, "private")
    assert "unreachable: git fetch said:" in summary
    assert "remote unreachable" not in summary  # said once, not "unreachable: remote unreachable"
    assert ".;" not in done.stderr  # git's sentence ends before memsync's clause starts
    assert "does not appear to be a git repository" in summary
    assert "ahead by 1 commit, not pushed: the remote is unreachable" in summary
    assert "(git -c protocol.version=0)" not in done.stdout + done.stderr
    moved.rename(private)

    locks = alice.home / ".memsync" / "locks"
    [clone] = (alice.home / ".memsync" / "stores").glob("private-*.git")
    holder = {"pid": os.getpid(), "host": socket.gethostname(), "command": "push"}
    (locks / clone.name.replace(".git", ".lock")).write_text(
        json.dumps({**holder, "since": time.time()})
    )
    config = alice.home / ".config" / "memsync" / "config.yaml"
    config.write_text(config.read_text().replace("lock_timeout: 30.0", "lock_timeout: 0.5"))
    locked = installed(alice, "push", "--scope", "private", cwd=project)
    assert locked.returncode == 4
    assert (
        line_of(locked.stdout, "private")
        .split(": ", 1)[1]
        .startswith(f"locked by pid {os.getpid()} on {socket.gethostname()} (push")
    )


def test_status_reports_memories_a_full_disk_kept_out_of_the_folder(
    machines: list[Machine], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pull the disk refused left memories out of the folder: status said "nothing to do"
    and `--exit-code` 0 (an adversarial client review). A memory the person deleted stays a
    deletion to push, never one to write again."""
    import errno

    from memsync.sync import livefiles
    from memsync.sync.engine import sync_project

    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    alice, bob = machines[0], machines[1]
    pa = setup_machine(alice, private, None, "src/api")
    pb = setup_machine(bob, private, None, "code/api")
    for name in ("kept", "full-1", "full-2"):
        write_memory(memory_dir(alice, pa), f"{name}.md", name, f"Fact {name}.\n")
    alice.memsync("push", cwd=pa)
    real_stage = livefiles.stage

    def disk_full(path: Path, data: bytes, **kwargs: object) -> Path:
        if path.name.startswith("full-"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_stage(path, data, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(livefiles, "stage", disk_full)
    with bob.active():
        reports = sync_project(pb, ("private",), "pull")
    assert {s.path for s in reports[0].skipped} == {"full-1.md", "full-2.md"}
    said = "2 memories not yet written to the memory folder; run `memsync pull`"
    status = installed(bob, "status", "--exit-code", cwd=pb)
    assert status.returncode == 1 and said in status.stdout, status.stdout
    live = memory_dir(bob, pb)
    (live / "kept.md").unlink()  # the person's own deletion
    status = installed(bob, "status", cwd=pb)
    assert said in status.stdout, status.stdout
    assert "1 edit(s) not yet pushed" in status.stdout and "- kept.md" in status.stdout
    data = json.loads(installed(bob, "status", "--json", cwd=pb).stdout)[0]
    assert data["unwritten"] == ["full-1.md", "full-2.md"] and data["removed"] == ["kept.md"]
    # Space again: the pull writes them and commits the deletion, for the push to send.
    monkeypatch.setattr(livefiles, "stage", real_stage)
    bob.memsync("pull", cwd=pb)
    assert (live / "full-1.md").is_file() and not (live / "kept.md").exists()
    after = installed(bob, "status", cwd=pb).stdout
    assert "not yet written" not in after, after
    assert "1 ahead, 0 behind (as of the last fetch); run `memsync push`" in after
