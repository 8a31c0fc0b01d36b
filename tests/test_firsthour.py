"""What a new user's first hour with the README found (helper a1): two machines, real git.

Each test drives the `memsync` command on simulated machines sharing a bare remote over
file://, as tests/test_lost_base.py does.
"""

from __future__ import annotations

from pathlib import Path

from testing.gitrepo import make_bare_remote
from testing.machines import Machine, memory_dir, remote_files, setup_machine
from testing.memories import write_memory


def _two_machines(machines: list[Machine], tmp_path: Path) -> tuple[Path, Path, Path]:
    """Both machines synced with n.md; (remote, laptop's project, desktop's project)."""
    laptop, desktop, _ = machines
    remote = make_bare_remote(tmp_path / "remotes" / "private.git")
    p1 = setup_machine(laptop, remote, None, "src/api")
    write_memory(memory_dir(laptop, p1), "n.md", "n", "Deploys run on Friday.\n")
    laptop.memsync("push", cwd=p1)
    p2 = setup_machine(desktop, remote, None, "work/api")
    return remote, p1, p2


def test_status_after_another_machine_moved_the_folder_says_to_follow_it(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    _, p1, p2 = _two_machines(machines, tmp_path)
    laptop.memsync("project", "move", "api", cwd=p1)
    refused = desktop.memsync("pull", cwd=p2, check=False)  # fetches, then refuses
    assert refused.returncode == 1
    status = desktop.memsync("status", "--exit-code", cwd=p2, check=False)
    # It said "1 behind (as of the last fetch); run `memsync pull`", which fails.
    assert status.returncode == 1
    assert "run `memsync pull`" not in status.stdout, status.stdout
    assert "was moved to api" in status.stdout, status.stdout
    assert "memsync init --subdir api" in status.stdout, status.stdout


def _deleted_then_moved(machines: list[Machine], tmp_path: Path) -> tuple[Path, Path, Path]:
    """gone.md synced on both machines, then deleted on the laptop, pushed, and the folder
    moved to api/ there; the desktop has pulled neither. (remote, laptop's, desktop's)."""
    laptop, desktop, _ = machines
    remote, p1, p2 = _two_machines(machines, tmp_path)
    write_memory(memory_dir(laptop, p1), "gone.md", "gone", "Soon deleted.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)
    assert (memory_dir(desktop, p2) / "gone.md").is_file()
    (memory_dir(laptop, p1) / "gone.md").unlink()
    laptop.memsync("push", cwd=p1)
    laptop.memsync("project", "move", "api", cwd=p1)
    return remote, p1, p2


def test_a_memory_deleted_before_another_machine_moved_the_folder_stays_deleted(
    machines: list[Machine], tmp_path: Path
) -> None:
    # Seen as `promote` on one machine, then `project move`: the other machine, following
    # the move with the promoted memory still in its private folder, pushed it back.
    laptop, desktop, _ = machines
    remote, p1, p2 = _deleted_then_moved(machines, tmp_path)
    followed = desktop.memsync("init", "--subdir", "api", "--no-hooks", cwd=p2)
    output = followed.stdout + followed.stderr
    assert "api/gone.md" not in remote_files(remote), output
    assert not (memory_dir(desktop, p2) / "gone.md").exists(), output
    assert (memory_dir(desktop, p2) / "n.md").is_file()
    laptop.memsync("pull", cwd=p1)
    assert not (memory_dir(laptop, p1) / "gone.md").exists()


def test_a_memory_edited_here_and_deleted_before_the_move_is_kept(
    machines: list[Machine], tmp_path: Path
) -> None:
    _, desktop, _ = machines
    remote, _, p2 = _deleted_then_moved(machines, tmp_path)
    write_memory(memory_dir(desktop, p2), "gone.md", "gone", "Edited here: still wanted.\n")
    desktop.memsync("init", "--subdir", "api", "--no-hooks", cwd=p2)
    assert "api/gone.md" in remote_files(remote)  # an edit wins over a deletion
    assert "still wanted" in (memory_dir(desktop, p2) / "gone.md").read_text()


def test_promote_of_a_user_memory_says_it_stays_private(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    project = setup_machine(alice, private, team, "src/api")
    write_memory(memory_dir(alice, project), "me.md", "about me", "Vim user.\n", type_="user")
    refused = alice.memsync("promote", "me.md", cwd=project, check=False)
    said = " ".join(refused.stderr.split())
    assert refused.returncode == 1 and "[user-in-team]" in said, said
    # The check rule's fix, for a file already in team/, told to move this private file to
    # the private memory it is in.
    assert "move the file to your private memory" not in said, said
    assert "stay in your private memory" in said and "memsync promote me.md" in said, said


def test_log_of_a_moved_project_keeps_the_history_before_the_move(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, _, _ = machines
    _, p1, _ = _two_machines(machines, tmp_path)
    laptop.memsync("project", "move", "api", cwd=p1)
    for args in (["n.md"], []):
        shown = laptop.memsync("log", *args, cwd=p1).stdout
        # It stopped at the move: the commit that wrote n.md was not listed.
        assert "+ n.md" in shown and "→ n.md" in shown, shown
        assert "from acme-api/ to api/" in shown, shown


def test_command_help_bodies_fit_an_80_column_terminal() -> None:
    # typer keeps a docstring's line breaks: a body line wider than the terminal wrapped
    # and left one word alone on a line (`memsync push -h`: "… stays in the" / "live").
    import inspect

    from memsync.cli.app import build_app

    app = build_app()
    callbacks = [c.callback for c in app.registered_commands]
    callbacks += [
        c.callback for g in app.registered_groups for c in g.typer_instance.registered_commands
    ]
    for callback in callbacks:
        doc = inspect.cleandoc(callback.__doc__ or "") if callback else ""
        body = doc.split("\n\n", 1)[1] if "\n\n" in doc else ""
        for line in body.splitlines():
            assert len(line) <= 76, (callback.__name__, line)


def test_status_with_commits_to_push_into_a_moved_folder_does_not_say_push(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    _, p1, p2 = _two_machines(machines, tmp_path)
    write_memory(memory_dir(desktop, p2), "m.md", "m", "Committed here, not pushed.\n")
    desktop.memsync("pull", cwd=p2)  # commits the edit locally
    laptop.memsync("project", "move", "api", cwd=p1)
    assert desktop.memsync("pull", cwd=p2, check=False).returncode == 1
    status = desktop.memsync("status", cwd=p2).stdout
    # "1 ahead, 1 behind; run `memsync push`": push refuses the moved folder too.
    assert "run `memsync push`" not in status and "was moved to api" in status, status
    assert "memsync init --subdir api" in status, status


def test_following_a_move_of_the_private_folder_only_keeps_the_team_folder(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    p1 = setup_machine(laptop, private, team, "src/api")
    write_memory(memory_dir(laptop, p1) / "team", "t.md", "t", "Team fact.\n")
    laptop.memsync("push", cwd=p1)
    p2 = setup_machine(desktop, private, team, "work/api")
    laptop.memsync("project", "move", "api", "--scope", "private", cwd=p1)
    assert desktop.memsync("pull", cwd=p2, check=False).returncode == 1  # told to follow
    followed = desktop.memsync("init", "--subdir", "api", "--no-hooks", cwd=p2)
    output = followed.stdout + followed.stderr
    # The team's binding moved too: a copy of the team memory in a new folder api/, the
    # laptop still on acme-api/, the team's memory split between the two machines.
    assert not any(f.startswith("api/") for f in remote_files(team)), output
    assert "the team store keeps its folder acme-api/" in output, output
    assert "api/.memsync-project" in remote_files(private)
    write_memory(memory_dir(laptop, p1) / "team", "u.md", "u", "Another team fact.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)
    assert (memory_dir(desktop, p2) / "team" / "u.md").is_file()
