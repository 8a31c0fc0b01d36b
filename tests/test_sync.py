"""End-to-end sync between simulated machines over real git remotes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from testing.gitrepo import git_bytes, remote_head
from testing.machines import ORIGIN, Machine, memory_dir, remote_files, setup_machine
from testing.memories import write_memory


def test_init_without_arguments_uses_a_local_bare_remote(machines: list[Machine]) -> None:
    alice = machines[0]
    project = alice.checkout_project(ORIGIN)
    result = alice.memsync("init", "--no-hooks", cwd=project)
    assert "private" in result.stdout
    default_remote = alice.home / ".memsync" / "remotes" / "private.git"
    assert (default_remote / "HEAD").is_file()
    live = memory_dir(alice, project)
    write_memory(live, "testing.md", "testing policy", "Use a real database.\n")
    alice.memsync("push", cwd=project)
    assert "acme-api/testing.md" in remote_files(default_remote)
    # Re-running init is safe and keeps the memory.
    alice.memsync("init", "--no-hooks", cwd=project)
    assert (live / "testing.md").read_text().endswith("Use a real database.\n")


def test_memory_follows_a_person_across_machines(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    private, _ = remotes
    laptop, desktop, _ = machines
    p1 = setup_machine(laptop, private, None, "src/api")
    p2 = setup_machine(desktop, private, None, "work/checkouts/api-clone")
    live1, live2 = memory_dir(laptop, p1), memory_dir(desktop, p2)
    assert live1 != live2
    write_memory(live1, "deploy.md", "deploy freeze", "No deploys on Friday.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)
    assert (live2 / "deploy.md").read_bytes() == (live1 / "deploy.md").read_bytes()

    # A deletion propagates.
    (live2 / "deploy.md").unlink()
    desktop.memsync("push", cwd=p2)
    laptop.memsync("pull", cwd=p1)
    assert not (live1 / "deploy.md").exists()


def test_local_edits_survive_a_pull_and_machines_converge(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    private, _ = remotes
    laptop, desktop, _ = machines
    p1 = setup_machine(laptop, private, None, "src/api")
    p2 = setup_machine(desktop, private, None, "code/api")
    live1, live2 = memory_dir(laptop, p1), memory_dir(desktop, p2)
    shared = write_memory(live1, "style.md", "code style", "Use black.\nPrefer pathlib.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)

    # Laptop edits the description, desktop edits the body of the same memory.
    shared.write_text(
        shared.read_text().replace("description: code style", "description: how we write Python")
    )
    laptop.memsync("push", cwd=p1)
    other = live2 / "style.md"
    other.write_text(other.read_text().replace("Use black.", "Use ruff format."))
    write_memory(live2, "only-desktop.md", "desktop note", "Local only.\n")
    desktop.memsync("pull", cwd=p2)
    merged = other.read_text()
    assert "description: how we write Python" in merged
    assert "Use ruff format." in merged
    assert (live2 / "only-desktop.md").exists()

    desktop.memsync("push", cwd=p2)
    laptop.memsync("pull", cwd=p1)
    for name in ("style.md", "only-desktop.md"):
        assert (live1 / name).read_bytes() == (live2 / name).read_bytes()
    assert "<<<<<<<" not in (live1 / "style.md").read_text()


def test_a_push_with_nothing_new_makes_no_commit(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    private, _ = remotes
    laptop = machines[0]
    project = setup_machine(laptop, private, None, "src/api")
    live = memory_dir(laptop, project)
    # CRLF and a BOM must round-trip without producing changes on the next run.
    (live / "crlf.md").write_bytes(
        b"\xef\xbb\xbf---\r\nname: crlf\r\ndescription: windows file\r\n"
        b"type: project\r\n---\r\nBody\r\n"
    )
    laptop.memsync("push", cwd=project)
    head = remote_head(private)
    laptop.memsync("push", cwd=project)
    laptop.memsync("sync", cwd=project)
    assert remote_head(private) == head
    blob = git_bytes("show", "main:acme-api/crlf.md", cwd=private)
    assert blob == (live / "crlf.md").read_bytes()
    assert blob.startswith(b"\xef\xbb\xbf---\r\n")


def test_offline_push_keeps_work_and_the_next_run_sends_it(
    machines: list[Machine], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    private, _ = remotes
    laptop = machines[0]
    project = setup_machine(laptop, private, None, "src/api")
    live = memory_dir(laptop, project)
    parked = tmp_path / "parked.git"
    shutil.move(private, parked)
    write_memory(live, "offline.md", "offline note", "Written on a plane.\n")
    result = laptop.memsync("push", cwd=project, check=False)
    assert result.returncode == 3, result.stderr
    assert "unreachable" in result.stderr.lower()
    assert (live / "offline.md").exists()
    hooked = laptop.memsync("push", "--hook", cwd=project, stdin="{}", check=False)
    assert hooked.returncode == 0
    shutil.move(parked, private)
    laptop.memsync("push", cwd=project)
    assert "acme-api/offline.md" in remote_files(private)


def test_a_memory_folder_gone_as_a_whole_is_restored_not_deleted_everywhere(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """A reset or a restore without ~/.claude removes the folder, not the memories: pushing
    that as 21 deletions emptied the remote and then every machine (an adversarial review)."""
    private, _ = remotes
    laptop, desktop, _ = machines
    p1 = setup_machine(laptop, private, None, "src/api")
    p2 = setup_machine(desktop, private, None, "elsewhere/api")
    live = memory_dir(laptop, p1)
    for n in range(3):
        write_memory(live, f"m{n}.md", f"m{n}", f"Fact {n}.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)
    before = {p.name: p.read_bytes() for p in live.iterdir() if p.is_file()}
    shutil.rmtree(live)
    result = laptop.memsync("push", cwd=p1)
    assert "the memory folder was missing; restored it from the store" in result.stdout
    assert {p.name: p.read_bytes() for p in live.iterdir() if p.is_file()} == before
    assert {f"acme-api/m{n}.md" for n in range(3)} <= set(remote_files(private))
    desktop.memsync("pull", cwd=p2)
    assert sorted(p.name for p in memory_dir(desktop, p2).glob("m*.md")) == [
        "m0.md",
        "m1.md",
        "m2.md",
    ]
    # Deleting memories one by one still deletes them everywhere
    (live / "m0.md").unlink()
    laptop.memsync("push", cwd=p1)
    assert "acme-api/m0.md" not in remote_files(private)


def test_a_synced_memory_that_turns_unreadable_is_held_back_not_deleted_everywhere(
    machines: list[Machine], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    """Saved as Latin-1, grown past the size limit or replaced by a symlink, a synced memory
    was committed as deleted and vanished from every machine (an adversarial review)."""
    private, _ = remotes
    laptop, desktop, _ = machines
    p1 = setup_machine(laptop, private, None, "src/api")
    p2 = setup_machine(desktop, private, None, "elsewhere/api")
    live = memory_dir(laptop, p1)
    for name in ("latin", "big", "link"):
        write_memory(live, f"{name}.md", name, f"The {name} fact.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)
    synced = {
        name: git_bytes("show", f"main:acme-api/{name}.md", cwd=private)
        for name in ("latin", "big", "link")
    }
    latin = (live / "latin.md").read_bytes().replace(b"The latin fact.", b"caf\xe9 au lait")
    (live / "latin.md").write_bytes(latin)
    with (live / "big.md").open("ab") as big:
        big.write(b"x" * 300_000)
    (live / "link.md").unlink()
    (tmp_path / "elsewhere.md").write_text("outside\n")
    (live / "link.md").symlink_to(tmp_path / "elsewhere.md")
    result = laptop.memsync("push", cwd=p1)
    assert "skipped latin.md: not valid UTF-8" in result.stderr
    assert "skipped big.md: over 250,000 bytes" in result.stderr
    for name, data in synced.items():
        assert git_bytes("show", f"main:acme-api/{name}.md", cwd=private) == data
    assert (live / "latin.md").read_bytes() == latin and (live / "link.md").is_symlink()
    desktop.memsync("pull", cwd=p2)
    for name, data in synced.items():
        assert (memory_dir(desktop, p2) / f"{name}.md").read_bytes() == data


def test_a_case_twin_of_a_synced_memory_deletes_it_nowhere(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    private, _ = remotes
    laptop, desktop, _ = machines
    p1 = setup_machine(laptop, private, None, "src/api")
    p2 = setup_machine(desktop, private, None, "elsewhere/api")
    write_memory(memory_dir(laptop, p1), "deploy.md", "deploy", "Deploys on Fridays.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)
    write_memory(memory_dir(laptop, p1), "Deploy.md", "Deploy", "Another deploy note.\n")
    result = laptop.memsync("push", cwd=p1)
    assert "differs only by case" in result.stderr
    assert "acme-api/deploy.md" in remote_files(private)
    desktop.memsync("pull", cwd=p2)
    assert (memory_dir(desktop, p2) / "deploy.md").read_text().endswith("Deploys on Fridays.\n")


def test_hook_mode_reads_cwd_from_stdin_and_summarizes(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    private, team = remotes
    laptop, desktop, _ = machines
    p1 = setup_machine(laptop, private, team, "src/api")
    p2 = setup_machine(desktop, private, team, "elsewhere/api")
    team1 = memory_dir(laptop, p1) / "team"
    write_memory(
        team1, "testing-policy.md", "testing policy", "Hit a real database.\n", type_="feedback"
    )
    laptop.memsync("push", cwd=p1)
    payload = json.dumps({"session_id": "x", "cwd": str(p2), "hook_event_name": "SessionStart"})
    result = desktop.memsync("pull", "--hook", cwd=desktop.home, stdin=payload)
    assert result.returncode == 0
    output = json.loads(result.stdout)
    context = output["hookSpecificOutput"]["additionalContext"]
    assert output["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert f"Team memory: {memory_dir(desktop, p2) / 'team'}" in context
    assert 'New or changed by this pull: "testing-policy.md"' in context
    assert "systemMessage" not in output  # nothing needs the person


def test_team_push_blocks_secrets_and_user_memories(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    private, team = remotes
    laptop = machines[0]
    project = setup_machine(laptop, private, team, "src/api")
    team_dir = memory_dir(laptop, project) / "team"
    head = remote_head(team)
    token = "ghp_" + "x7Kq2M9vR4tW8yB3nL6pZ1cF5hJ0dG2sA4eQ"
    write_memory(team_dir, "ci.md", "ci access", f"Use token {token} for CI.\n")
    result = laptop.memsync("push", "--scope", "team", cwd=project, check=False)
    assert result.returncode == 1
    assert token not in result.stdout + result.stderr
    assert "ci.md" in result.stdout + result.stderr
    assert remote_head(team) == head
    (team_dir / "ci.md").unlink()
    write_memory(team_dir, "me.md", "about me", "I like tabs.\n", type_="user")
    result = laptop.memsync("push", "--scope", "team", cwd=project, check=False)
    assert result.returncode == 1
    assert remote_head(team) == head


def test_init_imports_existing_memories_and_never_overwrites_them(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    private, _ = remotes
    laptop, desktop, _ = machines
    p1 = setup_machine(laptop, private, None, "src/api")
    write_memory(memory_dir(laptop, p1), "notes.md", "laptop notes", "From the laptop.\n")
    laptop.memsync("push", cwd=p1)
    # The desktop used Claude Code before memsync: its memory directory already has files.
    p2 = desktop.checkout_project(ORIGIN, "code/api")
    with desktop.active():
        from memsync.model.paths import locate_project

        live = locate_project(p2).memory_dir
    write_memory(live, "notes.md", "desktop notes", "From the desktop.\n")
    write_memory(live, "only-here.md", "desktop only", "Kept.\n")
    desktop.memsync("init", "--private", str(private), "--no-hooks", cwd=p2)
    texts = {p.name: p.read_text() for p in live.glob("*.md")}
    assert "From the desktop." in "".join(texts.values())
    assert "From the laptop." in "".join(texts.values())
    assert "only-here.md" in texts
    laptop.memsync("pull", cwd=p1)
    mine = {p.name: p.read_bytes() for p in memory_dir(laptop, p1).glob("*.md")}
    assert mine == {p.name: p.read_bytes() for p in live.glob("*.md")}


def test_something_else_where_the_store_clone_goes_is_named_with_the_fix(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """A file where the clone should be made every run exit 70 (NotADirectoryError on the
    rename of the fresh clone): an adversarial bad-input review."""
    from testing.hookprobe import bindings_of

    private, _ = remotes
    laptop = machines[0]
    project = setup_machine(laptop, private, None, "src/api")
    clone = bindings_of(laptop, project)[0].clone_dir
    shutil.rmtree(clone)
    clone.write_text("not a clone\n")
    result = laptop.memsync("pull", cwd=project, check=False)
    assert result.returncode == 4 and "Traceback" not in result.stderr
    assert f"the private store clone {clone} is not a git clone memsync made" in result.stderr
    assert f"mv {clone} {clone}.bak" in result.stderr
    clone.rename(clone.with_name(clone.name + ".bak"))
    write_memory(memory_dir(laptop, project), "after.md", "after", "Back in business.\n")
    laptop.memsync("push", cwd=project)
    assert "acme-api/after.md" in remote_files(private)


def test_a_push_into_a_remote_made_anew_is_no_unpushed_edit_after_a_later_rewrite(
    machines: list[Machine], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    """The private remote recreated empty, B pushes into it, an admin later rewrites the
    history, A replaces a line: B took its pushed commit for an unpushed edit, re-applied it
    and brought the replaced line back (an adversarial sync review)."""
    from testing.gitrepo import git

    private, _ = remotes
    laptop, desktop, _ = machines
    p1 = setup_machine(laptop, private, None, "src/api")
    p2 = setup_machine(desktop, private, None, "elsewhere/api")
    write_memory(memory_dir(laptop, p1), "a1.md", "a1", "a1 fact\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)
    shutil.rmtree(private)
    git("init", "-q", "--bare", "-b", "main", str(private), cwd=tmp_path)
    write_memory(memory_dir(desktop, p2), "b1.md", "b1", "b1 fact\n")
    desktop.memsync("push", cwd=p2)
    laptop.memsync("pull", cwd=p1)
    admin = tmp_path / "admin"
    git("clone", "-q", str(private), str(admin), cwd=tmp_path)
    git("checkout", "-q", "--orphan", "purged", cwd=admin)
    git("rm", "-q", "-f", "acme-api/a1.md", cwd=admin)
    git("commit", "-q", "-m", "purge a1", cwd=admin)
    git("push", "-q", "--force", "origin", "purged:main", cwd=admin)
    laptop.memsync("pull", cwd=p1)
    b1 = memory_dir(laptop, p1) / "b1.md"
    b1.write_text(b1.read_text().replace("b1 fact\n", "b1 fact, corrected on A\n"))
    laptop.memsync("push", cwd=p1)
    result = desktop.memsync("pull", cwd=p2)
    assert "no unpushed local edits to re-apply" in result.stdout
    remote = git_bytes("show", "main:acme-api/b1.md", cwd=private)
    assert remote.endswith(b"b1 fact, corrected on A\n") and b"b1 fact\n" not in remote
    assert (memory_dir(desktop, p2) / "b1.md").read_bytes() == remote
    assert "acme-api/a1.md" not in remote_files(private)


def test_a_synced_subfolder_replaced_by_a_symlink_deletes_nothing(
    machines: list[Machine], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    """The scan skips the folder, not each file in it: its memories were pushed as deleted
    (found by a review of the held-back-file fix)."""
    private, _ = remotes
    laptop, desktop, _ = machines
    p1 = setup_machine(laptop, private, None, "src/api")
    p2 = setup_machine(desktop, private, None, "elsewhere/api")
    live = memory_dir(laptop, p1)
    write_memory(live / "notes", "a.md", "a", "Fact a.\n")
    write_memory(live / "notes", "b.md", "b", "Fact b.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("pull", cwd=p2)
    shutil.move(str(live / "notes"), str(tmp_path / "notes"))  # moved to a synced drive
    (live / "notes").symlink_to(tmp_path / "notes")
    laptop.memsync("push", cwd=p1)
    assert {"acme-api/notes/a.md", "acme-api/notes/b.md"} <= set(remote_files(private))
    desktop.memsync("pull", cwd=p2)
    assert (memory_dir(desktop, p2) / "notes" / "b.md").read_text().endswith("Fact b.\n")


def test_status_and_diff_say_what_push_would_do_with_skipped_files_and_a_missing_folder(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """Push holds back an unreadable memory and writes a missing folder again; status and diff
    still listed them as deletions it would send (a review of both fixes)."""
    private, _ = remotes
    laptop = machines[0]
    project = setup_machine(laptop, private, None, "src/api")
    live = memory_dir(laptop, project)
    write_memory(live, "m0.md", "m0", "Fact 0.\n")
    write_memory(live, "latin.md", "latin", "Fact l.\n")
    laptop.memsync("push", cwd=project)
    (live / "latin.md").write_bytes((live / "latin.md").read_bytes() + b"caf\xe9\n")
    for _ in range(2):
        status = json.loads(laptop.memsync("status", "--json", cwd=project).stdout)
        assert status[0]["removed"] == [] and status[0]["local_edits"] == []
        diff = json.loads(laptop.memsync("diff", "--json", cwd=project).stdout)
        assert all(not store["outgoing"] for store in diff), diff
        if live.exists():
            shutil.rmtree(live)  # the second round: the folder gone as a whole


def test_a_token_in_one_file_name_holds_back_that_file_only(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """The commit message names the files: a token in one name blocked the whole team push
    (an adversarial team review). That file is held back; the others go out."""
    private, team = remotes
    laptop = machines[0]
    project = setup_machine(laptop, private, team, "src/api")
    live = memory_dir(laptop, project) / "team"
    key = "ghp_" + "x7Kq2M9vR4tW8yB3nL6pZ1cF5hJ0dG2sA4eQ"
    write_memory(live, "good.md", "good", "A fact.\n", type_="feedback")
    write_memory(live, f"note-{key}.md", "note", "Another fact.\n", type_="feedback")
    result = laptop.memsync("push", "--scope", "team", cwd=project, check=False)
    assert "possible secret (github-pat) in the file name" in result.stdout + result.stderr
    assert key not in result.stdout + result.stderr
    files = remote_files(team)
    assert "acme-api/good.md" in files and not any(key in name for name in files)
    assert git_bytes("log", "--format=%B", "main", cwd=team).find(key.encode()) < 0
