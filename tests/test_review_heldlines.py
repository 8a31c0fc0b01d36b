"""Fixes from an adversarial review with the real client: memsync's own archive file is a
valid memory, a case twin's index line stays local with it, and a percent-encoded link is
one file to `check` and `consolidate` alike (docs/RELIABILITY.md)."""

from __future__ import annotations

from pathlib import Path

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory

FRONTMATTER = (
    "---\n"
    "name: index-lines\n"
    "description: Lines memsync consolidate took out of MEMORY.md, kept here in full\n"
    "metadata:\n"
    "  type: reference\n"
    "---\n\n"
)
HEADING = (
    "# Index lines taken out of MEMORY.md\n\n"
    "memsync consolidate keeps here, in full, every MEMORY.md line it took out that no memory\n"
    "carries on: a line to a missing file, a line of a file without frontmatter that\n"
    "gave its room up to a memory, a merged-away duplicate's line and a memory's second line.\n\n"
)


def _stores(machines: list[Machine], tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    alice = setup_machine(machines[0], private, team, "src/api")
    bob = setup_machine(machines[2], private, team, "work/api")
    return private, team, alice, bob


def test_the_archived_index_lines_pass_the_team_check_and_push(
    machines: list[Machine], tmp_path: Path
) -> None:
    _, team, project, _ = _stores(machines, tmp_path)
    alice = machines[0]
    live = memory_dir(alice, project) / "team"
    write_memory(live, "ci.md", "ci", "CI runs on self-hosted runners.\n", description="runners")
    (live / "MEMORY.md").write_text("- [CI](ci.md) — runners\n- [Old](old.md) — superseded\n")
    alice.memsync("push", "--scope", "team", cwd=project)
    # What the scheduled workflow does: consolidate a checkout, then the required check.
    checkout = tmp_path / "checkout"
    git("clone", "-q", str(team), str(checkout), cwd=tmp_path)
    alice.memsync("consolidate", ".", "--all", "--yes", cwd=checkout)
    kept = (checkout / "acme-api" / "archive" / "index-lines.md").read_text()
    assert kept == FRONTMATTER + HEADING + "- [Old](old.md) — superseded\n"
    ci = alice.memsync("check", "--all", "--format", "github", cwd=checkout, check=False)
    assert (ci.returncode, ci.stdout) == (0, ""), ci.stdout
    again = alice.memsync("consolidate", ".", "--all", "--yes", cwd=checkout)
    assert "Nothing to consolidate in 1 memory folder." in again.stdout
    # In the live team folder: consolidated, then pushed whole, nothing held back.
    alice.memsync("consolidate", str(live), "--yes", cwd=project)
    pushed = alice.memsync("push", "--scope", "team", cwd=project)
    assert "pushed: MEMORY.md, archive/index-lines.md" in pushed.stdout, pushed.stdout
    stored = git("show", "main:acme-api/archive/index-lines.md", cwd=team)
    assert stored == kept


def test_an_older_index_lines_file_gets_frontmatter_and_keeps_its_lines(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    folder = tmp_path / "memory"
    write_memory(folder, "ci.md", "ci", "CI.\n", description="runners")
    (folder / "MEMORY.md").write_text("- [ci](ci.md) — runners\n")
    old = HEADING + "- [Gone](gone.md) — from an older memsync\n"
    (folder / "archive").mkdir()
    (folder / "archive" / "index-lines.md").write_text(old)
    done = alice.memsync("consolidate", str(folder), "--yes")
    assert "1 memsync file made valid in 1 of 1 memory folder." in done.stdout
    assert "archive/index-lines.md: frontmatter added, its lines kept" in done.stdout
    assert (folder / "archive" / "index-lines.md").read_text() == FRONTMATTER + old
    checked = alice.memsync("check", str(folder), "--scope", "team", check=False)
    assert "0 errors, 0 warnings" in checked.stdout, checked.stdout
    again = alice.memsync("consolidate", str(folder), "--yes")
    assert "Nothing to consolidate in 1 memory folder." in again.stdout
    # A dangling line later is appended under the same frontmatter.
    (folder / "MEMORY.md").write_text("- [ci](ci.md) — runners\n- [Late](late.md) — gone too\n")
    alice.memsync("consolidate", str(folder), "--yes")
    late = FRONTMATTER + old + "- [Late](late.md) — gone too\n"
    assert (folder / "archive" / "index-lines.md").read_text() == late


def test_a_case_twins_index_line_stays_local_with_it(
    machines: list[Machine], tmp_path: Path
) -> None:
    _, team, project, theirs = _stores(machines, tmp_path)
    alice, bob = machines[0], machines[2]
    live = memory_dir(alice, project) / "team"
    write_memory(live, "Deploy.md", "deploy", "Deploy via ArgoCD.\n", description="argo")
    (live / "MEMORY.md").write_text("- [Deploy](Deploy.md) — argo\n")
    alice.memsync("push", "--scope", "team", cwd=project)
    bob.memsync("pull", "--scope", "team", cwd=theirs)
    bob_live = memory_dir(bob, theirs) / "team"
    write_memory(bob_live, "deploy.md", "deploy-freeze", "Freeze on Dec 20.\n")
    index = "- [Deploy](Deploy.md) — argo\n- [Deploy freeze](deploy.md) — freeze dates\n"
    (bob_live / "MEMORY.md").write_text(index)
    pushed = bob.memsync("push", "--scope", "team", cwd=theirs, check=False)
    assert "differs only by case from Deploy.md" in pushed.stdout + pushed.stderr
    # The store's index has no line for a file it lacks; Bob's live index keeps it.
    assert git("show", "main:acme-api/MEMORY.md", cwd=team) == "- [Deploy](Deploy.md) — argo\n"
    assert (bob_live / "MEMORY.md").read_text() == index
    status = bob.memsync("status", "--scope", "team", cwd=theirs).stdout
    assert "held back  1 file(s) that push will not send:" in status, status
    assert "deploy.md:1: name differs only by case from Deploy.md" in status
    assert "~ MEMORY.md" not in status  # only the held line differs: nothing else to push
    # A teammate's check of the store passes: no line to a missing file.
    alice.memsync("pull", "--scope", "team", cwd=project)
    assert alice.memsync("check", "--scope", "team", cwd=project).returncode == 0
    # Renamed, the memory and its line go out together.
    (bob_live / "deploy.md").rename(bob_live / "deploy-freeze.md")
    fixed = index.replace("(deploy.md)", "(deploy-freeze.md)")
    (bob_live / "MEMORY.md").write_text(fixed)
    bob.memsync("push", "--scope", "team", cwd=theirs)
    assert git("show", "main:acme-api/MEMORY.md", cwd=team) == fixed


def test_a_percent_encoded_link_is_one_file_to_check_and_consolidate(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    folder = tmp_path / "memory"
    write_memory(folder, "with space.md", "with-space", "Body.\n", description="a note")
    (folder / "MEMORY.md").write_text("- [With space](with%20space.md) — old hook\n")
    assert alice.memsync("check", str(folder)).returncode == 0
    done = alice.memsync("consolidate", str(folder), "--yes")
    assert "dangling" not in done.stdout, done.stdout
    # The line stays as written: its title, link and hook (test_consolidate_hooks).
    assert (folder / "MEMORY.md").read_text() == "- [With space](with%20space.md) — old hook\n"
    assert not (folder / "archive").exists()
    again = alice.memsync("consolidate", str(folder), "--yes")
    assert "Nothing to consolidate in 1 memory folder." in again.stdout
