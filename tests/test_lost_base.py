"""A rebinding (a folder moved, a store at a new URL) keeps the merge base (F14, F15).

Two machines on a bare remote over file://, real git. A migration merges what is live
into the new folder against the last version this machine shared: a file it never
touched takes the other machine's version, its own edit merges three-way. Without that
base, a replaced line came back beside its replacement on every machine.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, memory_dir, remote_files, setup_machine
from testing.memories import write_memory

REPLACED = "Deploys run on Friday."


def _body(text: str) -> str:
    """A memory's body: what follows its frontmatter."""
    return text.split("\n---\n", 1)[1].strip()


def _two_machines(machines: list[Machine], tmp_path: Path) -> tuple[Path, Path, Path]:
    """Both machines synced with n.md saying REPLACED; (remote, laptop's, desktop's project)."""
    laptop, desktop, _ = machines
    remote = make_bare_remote(tmp_path / "remotes" / "private.git")
    p1 = setup_machine(laptop, remote, None, "src/api")
    write_memory(memory_dir(laptop, p1), "n.md", "n", REPLACED + "\n")
    laptop.memsync("push", cwd=p1)
    p2 = setup_machine(desktop, remote, None, "work/api")
    assert _body((memory_dir(desktop, p2) / "n.md").read_text()) == REPLACED
    return remote, p1, p2


def test_following_a_move_after_the_refused_push_sends_the_edit_and_not_the_old_folder(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    remote, p1, p2 = _two_machines(machines, tmp_path)
    live2 = memory_dir(desktop, p2)
    write_memory(live2, "n.md", "n", "Deploys run on Monday.\n")  # not pushed yet
    laptop.memsync("project", "move", "api", cwd=p1)
    # The push commits the edit into the old folder, then finds it moved: told to follow.
    refused = desktop.memsync("push", cwd=p2, check=False)
    assert refused.returncode == 1
    assert "memsync init --subdir api" in refused.stdout + refused.stderr
    followed = desktop.memsync("init", "--subdir", "api", "--no-hooks", cwd=p2)
    output = followed.stdout + followed.stderr
    # Merged against an empty base, both lines were kept, and the old folder's n.md was
    # "deleted on one side and changed on the other" and came back.
    assert "kept both" not in output and "deleted on one side" not in output, output
    assert _body(git("show", "main:api/n.md", cwd=remote)) == "Deploys run on Monday."
    old = [f for f in remote_files(remote) if f.startswith("acme-api/")]
    assert old == ["acme-api/.memsync-project"], old
    assert _body((live2 / "n.md").read_text()) == "Deploys run on Monday."
    laptop.memsync("pull", cwd=p1)
    assert _body((memory_dir(laptop, p1) / "n.md").read_text()) == "Deploys run on Monday."


def test_a_new_url_of_the_same_store_takes_the_other_machines_edit_of_an_untouched_file(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    remote, p1, p2 = _two_machines(machines, tmp_path)
    moved = tmp_path / "remotes" / "moved.git"
    git("clone", "-q", "--mirror", str(remote), str(moved), cwd=tmp_path)
    write_memory(memory_dir(laptop, p1), "n.md", "n", "Deploys run on Monday.\n")
    laptop.memsync("init", "--private", f"file://{moved}", "--no-hooks", cwd=p1)
    live2 = memory_dir(desktop, p2)
    write_memory(live2, "m.md", "m", "Only the desktop wrote this.\n")  # n.md untouched
    switched = desktop.memsync("init", "--private", f"file://{moved}", "--no-hooks", cwd=p2)
    output = switched.stdout + switched.stderr
    assert "kept both" not in output and "pushed: m.md\n" in output, output
    assert _body((live2 / "n.md").read_text()) == "Deploys run on Monday."
    assert _body(git("show", "main:acme-api/n.md", cwd=moved)) == "Deploys run on Monday."
    laptop.memsync("pull", cwd=p1)
    assert REPLACED not in (memory_dir(laptop, p1) / "n.md").read_text()


def _to_empty_store(
    machines: list[Machine], tmp_path: Path, desktop_body: str | None
) -> tuple[Path, str]:
    """The laptop edits n.md and moves the memory to a new, empty store; the desktop (with
    DESKTOP_BODY as its own unpushed edit of n.md, if any) follows. (new store, output)."""
    laptop, desktop, _ = machines
    _, p1, p2 = _two_machines(machines, tmp_path)
    fresh = make_bare_remote(tmp_path / "remotes" / "fresh.git")
    write_memory(memory_dir(laptop, p1), "n.md", "n", "Deploys run on Monday.\nTag first.\n")
    laptop.memsync("init", "--private", f"file://{fresh}", "--no-hooks", cwd=p1)
    if desktop_body is not None:
        write_memory(memory_dir(desktop, p2), "n.md", "n", desktop_body)
    followed = desktop.memsync("init", "--private", f"file://{fresh}", "--no-hooks", cwd=p2)
    return fresh, followed.stdout + followed.stderr


def test_following_to_a_new_empty_store_takes_the_first_machines_edit(
    machines: list[Machine], tmp_path: Path
) -> None:
    fresh, output = _to_empty_store(machines, tmp_path, None)
    assert "kept both" not in output and "pushed" not in output, output
    live2 = memory_dir(machines[1], machines[1].home / "work" / "api")
    both = "Deploys run on Monday.\nTag first."
    assert _body((live2 / "n.md").read_text()) == both
    assert _body(git("show", "main:acme-api/n.md", cwd=fresh)) == both


def test_a_concurrent_edit_across_a_store_switch_merges_against_the_old_version(
    machines: list[Machine], tmp_path: Path
) -> None:
    # The desktop changed another line of the old version: the new store never held that
    # version, so its base comes from the old clone, and both edits are kept, merged.
    fresh, output = _to_empty_store(machines, tmp_path, REPLACED + "\nAsk Dana first.\n")
    assert "kept both" not in output, output
    body = _body(git("show", "main:acme-api/n.md", cwd=fresh))
    assert body == "Deploys run on Monday.\nTag first.\nAsk Dana first.", body


def test_the_same_line_edited_on_both_sides_across_a_switch_keeps_both(
    machines: list[Machine], tmp_path: Path
) -> None:
    fresh, _ = _to_empty_store(machines, tmp_path, "Deploys run on Tuesday.\n")
    body = _body(git("show", "main:acme-api/n.md", cwd=fresh))
    # A genuine conflict: neither machine's sentence is lost.
    assert "Monday" in body and "Tuesday" in body, body


def test_following_a_move_keeps_another_projects_unpushed_memory(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    remote, p1, p2 = _two_machines(machines, tmp_path)
    other = setup_machine(desktop, remote, None, "work/other", "git@github.com:Acme/Other.git")
    write_memory(memory_dir(desktop, p2), "n.md", "n", "Deploys run on Monday.\n")
    laptop.memsync("project", "move", "api", cwd=p1)
    assert desktop.memsync("push", cwd=p2, check=False).returncode == 1  # told to follow
    # Another project's memory committed while the store is unreachable: not pushed either.
    away = remote.with_name("away.git")
    remote.rename(away)
    write_memory(memory_dir(desktop, other), "o.md", "o", "Only in the desktop's clone.\n")
    assert desktop.memsync("push", cwd=other, check=False).returncode == 3
    away.rename(remote)
    followed = desktop.memsync("init", "--subdir", "api", "--no-hooks", cwd=p2)
    output = followed.stdout + followed.stderr
    assert "kept both" not in output and "deleted on one side" not in output, output
    assert _body(git("show", "main:api/n.md", cwd=remote)) == "Deploys run on Monday."
    assert "Only in the desktop's clone." in git("show", "main:acme-other/o.md", cwd=remote)
    old = [f for f in remote_files(remote) if f.startswith("acme-api/")]
    assert old == ["acme-api/.memsync-project"], old


def _damage_record(machine: Machine) -> Path:
    (record,) = machine.home.rglob("manifests/live-*.json")
    record.write_text("{{{garbage", encoding="utf-8")
    return record


def test_a_damaged_record_merges_the_own_edit_against_the_last_synced_version(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    remote, p1, p2 = _two_machines(machines, tmp_path)
    record = _damage_record(laptop)
    live1 = memory_dir(laptop, p1)
    write_memory(live1, "n.md", "n", "Deploys run on Monday.\n")
    pushed = laptop.memsync("push", cwd=p1)
    output = " ".join((pushed.stdout + pushed.stderr).split())
    # Read as "nothing synced", the edit was merged against an empty base: both kept.
    assert "kept both" not in output, output
    assert f"was unreadable ({record})" in output, output
    assert _body((live1 / "n.md").read_text()) == "Deploys run on Monday."
    assert _body(git("show", "main:acme-api/n.md", cwd=remote)) == "Deploys run on Monday."
    assert '"n.md"' in record.read_text(encoding="utf-8")  # a new record was written
    desktop.memsync("pull", cwd=p2)
    assert _body((memory_dir(desktop, p2) / "n.md").read_text()) == "Deploys run on Monday."


def test_a_damaged_record_takes_the_other_machines_edit_of_an_untouched_file(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    remote, p1, p2 = _two_machines(machines, tmp_path)
    write_memory(memory_dir(desktop, p2), "n.md", "n", "Deploys run on Monday.\n")
    desktop.memsync("push", cwd=p2)
    _damage_record(laptop)
    synced = laptop.memsync("sync", cwd=p1)
    assert "kept both" not in synced.stdout + synced.stderr, synced.stdout
    assert _body((memory_dir(laptop, p1) / "n.md").read_text()) == "Deploys run on Monday."
    assert _body(git("show", "main:acme-api/n.md", cwd=remote)) == "Deploys run on Monday."


def _deleted_then_switched(
    machines: list[Machine], tmp_path: Path, desktop_edit: str | None
) -> tuple[Path, Path]:
    """The laptop syncs m.md, deletes it from its live folder, then moves to a mirror of the
    store at a new URL (the desktop there first, with DESKTOP_EDIT of m.md if any). (the
    laptop's live folder, the mirror)."""
    laptop, desktop, _ = machines
    remote, p1, p2 = _two_machines(machines, tmp_path)
    live1 = memory_dir(laptop, p1)
    write_memory(live1, "m.md", "m", "Old advice.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)
    moved = tmp_path / "remotes" / "moved.git"
    git("clone", "-q", "--mirror", str(remote), str(moved), cwd=tmp_path)
    if desktop_edit is not None:
        desktop.memsync("init", "--private", f"file://{moved}", "--no-hooks", cwd=p2)
        write_memory(memory_dir(desktop, p2), "m.md", "m", desktop_edit)
        desktop.memsync("push", cwd=p2)
    (live1 / "m.md").unlink()
    laptop.memsync("init", "--private", f"file://{moved}", "--no-hooks", cwd=p1)
    return live1, moved


def test_a_memory_deleted_before_a_store_switch_stays_deleted(
    machines: list[Machine], tmp_path: Path
) -> None:
    live1, moved = _deleted_then_switched(machines, tmp_path, None)
    # The migration merged only what was live: the new URL's copy came back.
    assert not (live1 / "m.md").exists()
    assert "acme-api/m.md" not in remote_files(moved)
    assert "acme-api/n.md" in remote_files(moved)


def test_a_memory_deleted_before_a_switch_and_edited_elsewhere_is_kept(
    machines: list[Machine], tmp_path: Path
) -> None:
    live1, moved = _deleted_then_switched(machines, tmp_path, "New advice.\n")
    assert _body((live1 / "m.md").read_text()) == "New advice."
    assert _body(git("show", "main:acme-api/m.md", cwd=moved)) == "New advice."


def _back_to_the_first_store(
    machines: list[Machine], tmp_path: Path, stale: bool, forget: tuple[str, ...] = ()
) -> Path:
    """The laptop moves to another store, edits n.md to Wednesday there, then moves back to
    the first one, which still says REPLACED (if STALE, its clone also kept an unpushed commit
    of an older edit, Monday, from before the first move; FORGET names the stores, `other`
    and/or `private`, whose clones the person deleted before moving back). The laptop's
    live folder."""
    laptop, _, _ = machines
    remote, p1, _ = _two_machines(machines, tmp_path)
    live1 = memory_dir(laptop, p1)
    if stale:
        away = remote.with_name("away.git")
        remote.rename(away)
        write_memory(live1, "n.md", "n", "Deploys run on Monday.\n")
        assert laptop.memsync("push", cwd=p1, check=False).returncode == 3  # kept locally
        away.rename(remote)
    other = make_bare_remote(tmp_path / "remotes" / "other.git")
    laptop.memsync("init", "--private", f"file://{other}", "--no-hooks", cwd=p1)
    write_memory(live1, "n.md", "n", "Deploys run on Wednesday.\n")
    laptop.memsync("push", cwd=p1)
    for name in forget:
        (clone,) = (laptop.home / ".memsync" / "stores").glob(f"*{name}*.git")
        shutil.rmtree(clone)
    back = laptop.memsync("init", "--private", f"file://{remote}", "--no-hooks", cwd=p1)
    assert "kept both" not in back.stdout + back.stderr, back.stdout
    assert _body(git("show", "main:acme-api/n.md", cwd=remote)) == "Deploys run on Wednesday."
    return live1


def test_moving_back_to_a_store_used_before_keeps_the_edits_made_since(
    machines: list[Machine], tmp_path: Path
) -> None:
    # The old store's older version was read as another machine's later edit: it won.
    live1 = _back_to_the_first_store(machines, tmp_path, stale=False)
    assert _body((live1 / "n.md").read_text()) == "Deploys run on Wednesday."


def test_moving_back_to_a_store_whose_clone_kept_an_unpushed_edit_keeps_the_later_one(
    machines: list[Machine], tmp_path: Path
) -> None:
    live1 = _back_to_the_first_store(machines, tmp_path, stale=True)
    assert _body((live1 / "n.md").read_text()) == "Deploys run on Wednesday."


def test_a_deletion_the_move_refused_to_push_stays_deleted_in_the_new_folder(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    remote, p1, p2 = _two_machines(machines, tmp_path)
    write_memory(memory_dir(laptop, p1), "m.md", "m", "Old advice.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)
    live2 = memory_dir(desktop, p2)
    (live2 / "m.md").unlink()
    laptop.memsync("project", "move", "api", cwd=p1)
    # The push commits the deletion into the old folder, then finds it moved: told to follow.
    assert desktop.memsync("push", cwd=p2, check=False).returncode == 1
    desktop.memsync("init", "--subdir", "api", "--no-hooks", cwd=p2)
    # The record no longer listed m.md: the moved folder's copy came back.
    assert not (live2 / "m.md").exists()
    assert "api/m.md" not in remote_files(remote)
    assert "api/n.md" in remote_files(remote)


def test_moving_back_after_deleting_the_clone_of_the_store_left_keeps_the_later_edit(
    machines: list[Machine], tmp_path: Path
) -> None:
    # Without the other store's clone, nothing said Friday was older than Wednesday: the two
    # were merged with no base, and Friday came back beside Wednesday ("kept both").
    live1 = _back_to_the_first_store(machines, tmp_path, stale=False, forget=("other",))
    assert _body((live1 / "n.md").read_text()) == "Deploys run on Wednesday."


def test_moving_back_without_either_clone_keeps_the_later_edit(
    machines: list[Machine], tmp_path: Path
) -> None:
    # The laptop's own commit of Friday in the first store tells it moved on from Friday.
    live1 = _back_to_the_first_store(machines, tmp_path, stale=False, forget=("other", "private"))
    assert _body((live1 / "n.md").read_text()) == "Deploys run on Wednesday."


def test_moving_back_without_the_clone_leaves_no_stale_unpushed_edit(
    machines: list[Machine], tmp_path: Path
) -> None:
    live1 = _back_to_the_first_store(machines, tmp_path, stale=True, forget=("other",))
    assert _body((live1 / "n.md").read_text()) == "Deploys run on Wednesday."


def test_moving_back_to_an_older_concurrent_edit_keeps_both(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    remote, p1, p2 = _two_machines(machines, tmp_path)
    other = make_bare_remote(tmp_path / "remotes" / "other.git")
    laptop.memsync("init", "--private", f"file://{other}", "--no-hooks", cwd=p1)
    # The desktop, still on the first store, edits n.md an hour before the laptop does.
    edited = write_memory(memory_dir(desktop, p2), "n.md", "n", "Deploys run on Thursday.\n")
    an_hour_ago = time.time() - 3600
    os.utime(edited, (an_hour_ago, an_hour_ago))
    desktop.memsync("push", cwd=p2)
    live1 = memory_dir(laptop, p1)
    write_memory(live1, "n.md", "n", "Deploys run on Wednesday.\n")
    laptop.memsync("push", cwd=p1)
    back = laptop.memsync("init", "--private", f"file://{remote}", "--no-hooks", cwd=p1)
    # The live file was unchanged since its last sync, so the desktop's older Thursday was
    # read as a later edit of it and replaced Wednesday without a word.
    assert "n.md: both sides changed" in back.stdout and "kept both" in back.stdout, back.stdout
    body = _body((live1 / "n.md").read_text())
    assert "Wednesday" in body and "Thursday" in body, body
    assert _body(git("show", "main:acme-api/n.md", cwd=remote)) == body
