"""memsync never reads or writes through a symlink out of the memory folder (review F2-F5, F19)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from testing.machines import Machine, memory_dir, remote_files, setup_machine
from testing.memories import write_memory


def test_a_symlinked_team_folder_is_refused_nothing_read_or_written_through_it(
    machines: list[Machine], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    """Review F4: a `team/` linking outside was followed: its files pushed, pulls written there."""
    private, team = remotes
    laptop, desktop, _ = machines
    p1 = setup_machine(laptop, private, team, "src/api")
    p2 = setup_machine(desktop, private, team, "elsewhere/api")
    write_memory(memory_dir(desktop, p2) / "team", "fromb.md", "from b", "From B.\n")
    desktop.memsync("push", cwd=p2)
    outside = tmp_path / "outside"
    write_memory(outside, "ot.md", "outside", "OUTSIDE-CONTENT\n")
    live = memory_dir(laptop, p1)
    write_memory(live, "mine.md", "mine", "A private fact.\n")
    team_dir = live / "team"
    shutil.rmtree(team_dir, ignore_errors=True)
    team_dir.symlink_to(outside)
    for command in ("push", "pull"):
        result = laptop.memsync(command, cwd=p1, check=False)
        said = result.stdout + result.stderr
        assert result.returncode != 0, said
        assert f"{team_dir} is a symlink" in said, said
        assert "Replace it by a real folder" in said, said
        assert "Traceback" not in said
    assert not any("ot.md" in f for f in remote_files(team))
    assert sorted(p.name for p in outside.iterdir()) == ["ot.md"]  # nothing pulled into it
    assert "acme-api/mine.md" in remote_files(private)  # the private store still syncs
    payload = json.dumps({"cwd": str(p1), "hook_event_name": "SessionStart", "source": "startup"})
    result = laptop.memsync("pull", "--hook", cwd=laptop.home, stdin=payload, check=False)
    assert result.returncode == 0
    output = json.loads(result.stdout)
    assert f"{team_dir} is a symlink" in output["systemMessage"]
    assert "OUTSIDE-CONTENT" not in result.stdout
    assert sorted(p.name for p in outside.iterdir()) == ["ot.md"]


def _folder_with_duplicates(root: Path) -> None:
    write_memory(root, "a1.md", "a1", "Body a1.\n")
    write_memory(root, "dupa.md", "dupa", "identical body\n")
    write_memory(root, "dupb.md", "dupb", "identical body\n")


def _tree(root: Path) -> dict[str, bytes | str]:
    """Every file below ROOT with its bytes, every symlink with its target."""
    return {
        p.relative_to(root).as_posix(): str(p.readlink()) if p.is_symlink() else p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() or p.is_symlink()
    }


def test_consolidate_never_reads_or_replaces_a_symlinked_index(
    machines: list[Machine], tmp_path: Path
) -> None:
    """Review F2: a MEMORY.md linking outside was read, its lines copied to archive/ and
    the link replaced by a regular file, which push then sent."""
    laptop = machines[0]
    live = tmp_path / "memory"
    _folder_with_duplicates(live)
    outside = tmp_path / "outside-notes.md"
    outside.write_text("- [A1](a1.md) — first\n- [Creds](creds.md) — OUTSIDE-PRIVATE-LINE\n")
    (live / "MEMORY.md").symlink_to(outside)
    before = _tree(live)
    result = laptop.memsync("consolidate", str(live), "--yes", check=False)
    said = result.stdout + result.stderr
    assert "Traceback" not in said
    assert (live / "MEMORY.md").is_symlink() and _tree(live) == before  # nothing changed
    assert "OUTSIDE-PRIVATE-LINE" not in said
    assert f"{live / 'MEMORY.md'} is a symlink" in said, said
    assert "replace it by a regular file" in said
    assert "memsync never reads or writes through a symlink" in said


def test_consolidate_never_moves_memories_through_a_symlinked_archive(
    machines: list[Machine], tmp_path: Path
) -> None:
    """Review F19: a merged-away memory and dangling index lines went through `archive/`
    linking outside the folder: kept only there, never synced."""
    laptop = machines[0]
    live = tmp_path / "memory"
    _folder_with_duplicates(live)
    (live / "MEMORY.md").write_text("- [A1](a1.md) — first\n- [Gone](gone.md) — dangling\n")
    outside = tmp_path / "outside-archive"
    outside.mkdir()
    (live / "archive").symlink_to(outside)
    before = _tree(live)
    result = laptop.memsync("consolidate", str(live), "--yes", check=False)
    said = result.stdout + result.stderr
    assert "Traceback" not in said
    assert list(outside.iterdir()) == [] and _tree(live) == before
    assert f"{live / 'archive'} is a symlink" in said, said
    assert "replace it by a regular folder" in said
    # archive/ a real folder, its index-lines.md a link out: not read, not replaced.
    (live / "archive").unlink()
    (live / "archive").mkdir()
    (outside / "lines.md").write_text("OUTSIDE-LINE\n")
    (live / "archive" / "index-lines.md").symlink_to(outside / "lines.md")
    before = _tree(live)
    result = laptop.memsync("consolidate", str(live), "--yes", check=False)
    said = result.stdout + result.stderr
    assert _tree(live) == before and (live / "archive" / "index-lines.md").is_symlink()
    assert f"{live / 'archive' / 'index-lines.md'} is a symlink" in said, said


def test_a_link_made_between_plan_and_apply_stops_consolidation_before_any_write(
    tmp_path: Path,
) -> None:
    from memsync.consolidate.engine import apply_plan, make_plan
    from memsync.errors import UserMessageError

    live = tmp_path / "memory"
    _folder_with_duplicates(live)
    (live / "MEMORY.md").write_text("- [A1](a1.md) — first\n")
    plan = make_plan(live)
    assert any(d.startswith("archive/") for _, d in plan.folders[0].moves)
    outside = tmp_path / "outside"
    outside.mkdir()
    (live / "archive").symlink_to(outside)
    before = _tree(live)
    with pytest.raises(UserMessageError, match=f"{live / 'archive'} is a symlink"):
        apply_plan(plan)
    assert _tree(live) == before and list(outside.iterdir()) == []


def test_scaffold_never_writes_through_a_symlinked_folder(
    machines: list[Machine], tmp_path: Path
) -> None:
    """Review F5: `.github` linking out of the repository: the workflows were written there."""
    laptop = machines[0]
    victim, repo = tmp_path / "outside-victim", tmp_path / "teamclone"
    victim.mkdir()
    repo.mkdir()
    (repo / ".github").symlink_to("../outside-victim")
    result = laptop.memsync("scaffold", str(repo), "--memsync-spec", "memsync", check=False)
    said = result.stdout + result.stderr
    assert list(victim.iterdir()) == []
    assert "Traceback" not in said
    for name in ("workflows/memsync-check.yml", "workflows/memsync-consolidate.yml"):
        assert (
            f"kept     .github/{name} (.github is a symbolic link; memsync never writes "
            "through a symlink: replace it by a real folder)"
        ) in said, said
    assert (repo / ".gitattributes").is_file()  # the other files are written
    # Its own record's folder a link: refused as a whole, nothing written anywhere.
    (repo / ".github").unlink()
    shutil.rmtree(repo / ".memsync")
    (repo / ".memsync").symlink_to("../outside-victim")
    (repo / ".gitattributes").unlink()
    result = laptop.memsync("scaffold", str(repo), "--memsync-spec", "memsync", check=False)
    said = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in said
    assert f"{repo / '.memsync'} is a symbolic link" in said, said
    assert list(victim.iterdir()) == [] and not (repo / ".gitattributes").exists()


def test_status_names_a_symlinked_team_folder_and_reads_nothing_through_it(
    machines: list[Machine], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    """Review F4: `status` and `check` said nothing of a linked team folder."""
    private, team = remotes
    laptop = machines[0]
    project = setup_machine(laptop, private, team, "src/api")
    outside = tmp_path / "outside"
    write_memory(outside, "ot.md", "outside", "OUTSIDE-CONTENT\n")
    team_dir = memory_dir(laptop, project) / "team"
    shutil.rmtree(team_dir, ignore_errors=True)
    team_dir.symlink_to(outside)
    result = laptop.memsync("status", cwd=project, check=False)
    said = result.stdout + result.stderr
    assert f"the team folder {team_dir} is a symlink" in said, said
    assert "ot.md" not in said
    data = json.loads(laptop.memsync("status", "--json", cwd=project, check=False).stdout)
    (shared,) = [s for s in data if s["scope"] == "team"]
    assert shared["local_edits"] == [] and shared["removed"] == []


def test_check_reports_a_symlinked_team_folder_and_reads_nothing_through_it(
    tmp_path: Path,
) -> None:
    """Review F4: `check` followed the linked team folder and reported nothing."""
    from memsync.check.run import run_check

    live = tmp_path / "memory"
    write_memory(live, "a1.md", "a1", "Body a1.\n")
    (live / "MEMORY.md").write_text("- [A1](a1.md) — first\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "bad.md").write_text("no frontmatter at all\n")
    (live / "team").symlink_to(outside)
    report = run_check(live, cwd=tmp_path)
    assert [(f.path, f.rule, f.severity) for f in report.findings] == [
        ("memory/team", "unsafe-path", "error")
    ]
    assert "symlink" in report.findings[0].message


def test_an_archived_copy_that_is_a_symlink_is_never_taken_for_the_memory(
    tmp_path: Path,
) -> None:
    """A link `archive/dupb.md` to a file of the same content outside: the merged-away
    memory must still be archived in the folder, never deleted as `already archived`."""
    from memsync.consolidate.engine import apply_plan, make_plan

    live = tmp_path / "memory"
    _folder_with_duplicates(live)
    (live / "MEMORY.md").write_text("- [A1](a1.md) — first\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "dupb.md").write_bytes((live / "dupb.md").read_bytes())
    (live / "archive").mkdir()
    (live / "archive" / "dupb.md").symlink_to(outside / "dupb.md")
    plan = make_plan(live)
    apply_plan(plan)
    archived = sorted(p.name for p in (live / "archive").iterdir() if not p.is_symlink())
    gone = "dupa.md" if not (live / "dupa.md").exists() else "dupb.md"
    assert not (live / gone).exists()
    assert f"{Path(gone).stem}-2.md" in archived or gone in archived, archived
    assert (live / "archive" / "dupb.md").is_symlink()  # the link left as it was


def test_pull_hook_never_sends_a_symlinked_team_index_to_the_model(
    machines: list[Machine], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    """Review F3, end to end: `team/MEMORY.md` linking to a file outside reached the model."""
    private, team = remotes
    laptop = machines[0]
    project = setup_machine(laptop, private, team, "src/api")
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:OUTSIDE-SECRET:/root:/bin/bash\n")
    team_dir = memory_dir(laptop, project) / "team"
    team_dir.mkdir(exist_ok=True)
    (team_dir / "MEMORY.md").unlink(missing_ok=True)
    (team_dir / "MEMORY.md").symlink_to(secret)
    payload = json.dumps({"cwd": str(project), "hook_event_name": "SessionStart"})
    result = laptop.memsync("pull", "--hook", cwd=laptop.home, stdin=payload, check=False)
    assert result.returncode == 0
    assert "OUTSIDE-SECRET" not in result.stdout + result.stderr
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert f"team index not shown: {team_dir / 'MEMORY.md'} is a symlink" in context
    assert (team_dir / "MEMORY.md").is_symlink()


def test_promote_never_reads_or_writes_through_a_symlinked_index_or_team_folder(
    machines: list[Machine], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    """Same class as F2/F4: promote read a linked team/MEMORY.md, wrote its lines into a
    regular team index (then pushed), and moved the memory into a linked team folder."""
    private, team = remotes
    laptop = machines[0]
    project = setup_machine(laptop, private, team, "src/api")
    live = memory_dir(laptop, project)
    write_memory(live, "policy.md", "testing policy", "Real DB.\n", type_="feedback")
    (live / "MEMORY.md").write_text("- [testing policy](policy.md) — real DB\n")
    laptop.memsync("push", cwd=project)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "MEMORY.md").write_text("- [Creds](creds.md) — OUTSIDE-PRIVATE-LINE\n")
    team_dir = live / "team"
    team_dir.mkdir(exist_ok=True)
    (team_dir / "MEMORY.md").unlink(missing_ok=True)
    for link, target in ((team_dir / "MEMORY.md", outside / "MEMORY.md"), (team_dir, outside)):
        if link == team_dir:
            shutil.rmtree(team_dir)
        link.symlink_to(target)
        result = laptop.memsync("promote", "policy.md", cwd=project, check=False)
        said = result.stdout + result.stderr
        assert result.returncode == 1 and "Traceback" not in said, said
        assert f"{link} is a symlink" in said and "nothing was moved" in said, said
        assert (live / "policy.md").is_file() and link.is_symlink()
        assert sorted(p.name for p in outside.iterdir()) == ["MEMORY.md"]
        assert not any("OUTSIDE" in f or "policy" in f for f in remote_files(team))
