"""The real-client suite's setup: where the pinned Claude Code comes from, and when it cannot."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from testing import claude_client
from testing.claude_client import (
    CLAUDE_CODE_VERSION,
    VERSION_ENV,
    ClientUnavailable,
    cache_root,
    claude_binary,
    client_version,
)


def test_without_npm_the_reason_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(VERSION_ENV, raising=False)
    monkeypatch.setattr(claude_client.shutil, "which", lambda _: None)
    with pytest.raises(ClientUnavailable, match=r"npm is not installed: .*claude-code@2\.1\.330"):
        claude_binary(tmp_path)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX executable bits")
def test_an_installed_native_binary_is_used_without_npm(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(VERSION_ENV, raising=False)
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


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX executable bits")
def test_the_pin_is_the_default_and_an_exact_version_can_replace_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(VERSION_ENV, raising=False)
    assert client_version() == CLAUDE_CODE_VERSION == "2.1.330"
    monkeypatch.setenv(VERSION_ENV, " ")
    assert client_version() == CLAUDE_CODE_VERSION
    monkeypatch.setenv(VERSION_ENV, "2.1.332")
    assert client_version() == "2.1.332"
    # Each version has its own install folder and npm spec.
    monkeypatch.setattr(claude_client.shutil, "which", lambda _: None)
    with pytest.raises(
        ClientUnavailable, match=r"cannot install @anthropic-ai/claude-code@2\.1\.332$"
    ):
        claude_binary(tmp_path)
    platform_dir = (
        tmp_path / "claude-code-2.1.332" / "node_modules" / claude_client._platform_package()
    )
    platform_dir.mkdir(parents=True)
    (platform_dir / "claude").write_text("#!/bin/sh\n")
    (platform_dir / "claude").chmod(0o755)
    assert claude_binary(tmp_path) == platform_dir / "claude"


@pytest.mark.parametrize("value", ["latest", "^2.1.330", "2.1", "2.1.332 ; rm -rf x"])
def test_a_version_that_is_not_exact_is_refused(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(VERSION_ENV, value)
    with pytest.raises(ClientUnavailable, match=f"{VERSION_ENV}=.* is not an exact version"):
        client_version()


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
