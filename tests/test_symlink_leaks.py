"""memsync never reads or writes through a symlink out of the memory folder (review F2-F5, F19)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

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
