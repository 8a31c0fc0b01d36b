"""Auto-memory on or off as Claude Code 2.1.330 decides it (sync/automemory.py); the real
client's side is tests/realclient's `test_with_auto_memory_turned_off_...`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsync.sync.automemory import auto_memory_off


def _settings(path: Path, **values: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(values), encoding="utf-8")


def test_the_environment_then_local_then_project_then_user_settings_decide(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", raising=False)
    monkeypatch.delenv("CLAUDE_CODE_SIMPLE", raising=False)
    claude, project = tmp_path / "claude", tmp_path / "project"
    project.mkdir()
    assert not auto_memory_off(project, claude)  # on by default
    _settings(claude / "settings.json", autoMemoryEnabled=False)
    assert auto_memory_off(project, claude)
    _settings(project / ".claude" / "settings.json", autoMemoryEnabled=True)
    assert not auto_memory_off(project, claude)
    _settings(project / ".claude" / "settings.local.json", autoMemoryEnabled=False)
    assert auto_memory_off(project, claude)
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "false")  # forced on
    assert not auto_memory_off(project, claude)
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", " YES ")
    _settings(project / ".claude" / "settings.local.json", autoMemoryEnabled=True)
    assert auto_memory_off(project, claude)
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
    monkeypatch.setenv("CLAUDE_CODE_SIMPLE", "1")
    assert auto_memory_off(project, claude)


def test_a_broken_or_odd_settings_file_says_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", raising=False)
    monkeypatch.delenv("CLAUDE_CODE_SIMPLE", raising=False)
    claude = tmp_path / "claude"
    _settings(claude / "settings.json", autoMemoryEnabled=False)
    local = tmp_path / ".claude" / "settings.local.json"
    for text in ("{not json", '["autoMemoryEnabled"]', '{"autoMemoryEnabled": "true"}', "[" * 5000):
        local.parent.mkdir(exist_ok=True)
        local.write_text(text, encoding="utf-8")
        assert auto_memory_off(tmp_path, claude), text


def test_a_settings_file_is_read_up_to_its_size_limit(tmp_path: Path) -> None:
    from memsync.sync.automemory import MAX_SETTINGS_BYTES

    claude = tmp_path / "claude"  # the environment is clean (tests/conftest.py)
    claude.mkdir()
    text = '{"autoMemoryEnabled": false}'
    (claude / "settings.json").write_text(text.ljust(MAX_SETTINGS_BYTES), encoding="utf-8")
    assert auto_memory_off(tmp_path, claude)  # exactly at the limit: read whole
    (claude / "settings.json").write_text(text.ljust(MAX_SETTINGS_BYTES + 1), encoding="utf-8")
    assert not auto_memory_off(tmp_path, claude)  # a byte over: not read


def test_only_a_true_or_false_word_in_the_environment_decides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claude = tmp_path / "claude"
    _settings(claude / "settings.json", autoMemoryEnabled=False)
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "maybe")  # neither: settings decide
    assert auto_memory_off(tmp_path, claude)
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", " Off ")
    assert not auto_memory_off(tmp_path, claude)
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
    _settings(claude / "settings.json", autoMemoryEnabled=True)
    for word in (" True ", "YES", "on"):
        monkeypatch.setenv("CLAUDE_CODE_SIMPLE", word)
        assert auto_memory_off(tmp_path, claude), word
    monkeypatch.setenv("CLAUDE_CODE_SIMPLE", "0")
    assert not auto_memory_off(tmp_path, claude)
