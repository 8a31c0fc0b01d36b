"""What a new user's first hour with the README found (helper a1): two machines, real git.

Each test drives the `memsync` command on simulated machines sharing a bare remote over
file://, as tests/test_lost_base.py does.
"""

from __future__ import annotations

from pathlib import Path

from testing.gitrepo import make_bare_remote
from testing.machines import Machine, memory_dir, setup_machine
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
