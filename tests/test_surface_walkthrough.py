"""Defects a new user's walkthrough found (docs/WALKTHROUGH.md), through the installed command.

Each test drives the `memsync` console script as a person would and asserts what they read.
"""

from __future__ import annotations

from pathlib import Path

from testing.machines import Machine, installed


def test_consolidate_dry_run_shows_rewritten_index_lines_before_and_after(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "deploy.md").write_text(
        "---\nname: Deploy freeze\ndescription: no deploys on fridays\n"
        "metadata:\n  type: project\n---\n\nNo deploys on Fridays.\n"
    )
    old = "- [deploy](deploy.md) — freeze started yesterday"
    (folder / "MEMORY.md").write_text(old + "\n")
    done = installed(alice, "consolidate", str(folder), "--dry-run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    new = "- [Deploy freeze](deploy.md) — no deploys on fridays"
    # Like every other rewritten line: the old one with `-`, the new one with `+`.
    at = lines.index(f"- {old}")
    assert lines[at + 1] == f"+ {new}"
    assert (folder / "MEMORY.md").read_text() == old + "\n"  # a dry run changes nothing
    as_json = installed(alice, "consolidate", str(folder), "--dry-run", "--json", cwd=tmp_path)
    assert '"before": "- [deploy](deploy.md)' in as_json.stdout
