"""Only regular files are read: a FIFO named like a memory never hangs a command."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from memsync.fsutil.reads import NotRegularFileError, read_regular, read_regular_or_none
from testing.machines import Machine, memory_dir, setup_machine

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")


def test_read_regular_refuses_fifos_symlinks_and_oversize(tmp_path: Path) -> None:
    fifo = tmp_path / "x.md"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFileError):
        read_regular(fifo)
    assert read_regular_or_none(fifo) is None
    real = tmp_path / "real.md"
    real.write_bytes(b"hello")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    assert read_regular(real) == b"hello"
    assert read_regular_or_none(link) is None
    assert read_regular(link, follow=True) == b"hello"
    with pytest.raises(OSError, match="over 3 bytes"):
        read_regular(real, limit=3)


def test_a_fifo_named_like_a_memory_hangs_no_command(
    machines: list[Machine],
    remotes: tuple[Path, Path],
) -> None:
    private, team = remotes
    alice = machines[0]
    project = setup_machine(alice, private, team, "src/api")
    live = memory_dir(alice, project)
    live.mkdir(parents=True, exist_ok=True)
    os.mkfifo(live / "x.md")
    for command in (["consolidate"], ["check"], ["push"], ["pull"], ["status"]):
        result = alice.memsync(*command, cwd=project, check=False)  # timeout=120 in helper
        assert result.returncode in (0, 1, 3), (command, result.stdout + result.stderr)
        assert "Traceback" not in result.stderr
