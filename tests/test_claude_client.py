"""The real-client suite's setup: where the pinned Claude Code comes from, and when it cannot."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from testing import claude_client
from testing.claude_client import CLAUDE_CODE_VERSION, ClientUnavailable, cache_root, claude_binary


def test_without_npm_the_reason_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(claude_client.shutil, "which", lambda _: None)
    with pytest.raises(ClientUnavailable, match=r"npm is not installed: .*claude-code@2\.1\.330"):
        claude_binary(tmp_path)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX executable bits")
def test_an_installed_native_binary_is_used_without_npm(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(claude_client.shutil, "which", lambda _: None)
    platform_dir = (
        tmp_path
        / f"claude-code-{CLAUDE_CODE_VERSION}"
        / "node_modules"
        / claude_client._platform_package()
    )
    platform_dir.mkdir(parents=True)
    binary = platform_dir / "claude"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    assert claude_binary(tmp_path) == binary


def test_the_cache_is_shared_across_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMSYNC_TEST_CACHE", str(tmp_path / "c"))
    assert cache_root() == tmp_path / "c"
    monkeypatch.delenv("MEMSYNC_TEST_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert cache_root() == tmp_path / "x" / "memsync-tests"
    assert os.environ.get("MEMSYNC_TEST_CACHE") is None


def test_the_sites_memory_folder_counts_an_emoji_as_the_client_does(tmp_path: Path) -> None:
    from testing.claude_sites import memory_dir_of

    # The folder Claude Code 2.1.330 made for a project at `.../w1/my projé 🚀/api`.
    folder = memory_dir_of(tmp_path / "claude", tmp_path / "w1" / "my projé 🚀" / "api")
    assert folder.parent.name.endswith("-w1-my-proj-----api"), folder
