"""The administrator's managed settings, and settings files the client drops, decide the memory
folder and auto-memory as Claude Code 2.1.330 does (model/claudesettings.py). Probed with the
real client in a private mount namespace whose /etc was an overlay (docs/COMPATIBILITY.md);
these tests never touch /etc: they point MANAGED_SETTINGS_DIR at a temporary folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsync.model import claudesettings
from memsync.model.paths import claude_config_dir, memory_dir_for, sanitize_path
from memsync.sync.automemory import auto_memory_off


@pytest.fixture
def managed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "etc" / "claude-code"
    monkeypatch.setattr(claudesettings, "MANAGED_SETTINGS_DIR", folder)
    return folder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "work" / "api"
    root.mkdir(parents=True)
    return root


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")


def _dir(path: Path) -> dict[str, str]:
    return {"autoMemoryDirectory": str(path)}


def _default(root: Path) -> Path:
    return claude_config_dir() / "projects" / sanitize_path(str(root)) / "memory"


def test_managed_settings_beat_every_other_file_and_drop_ins_beat_the_managed_file(
    project: Path, managed: Path, tmp_path: Path
) -> None:
    _write(claude_config_dir() / "settings.json", _dir(tmp_path / "user"))
    _write(project / ".claude" / "settings.json", _dir(tmp_path / "shared"))
    _write(project / ".claude" / "settings.local.json", _dir(tmp_path / "local"))
    assert memory_dir_for(project) == tmp_path / "local"
    _write(managed / "managed-settings.json", _dir(tmp_path / "managed"))
    assert memory_dir_for(project) == tmp_path / "managed"
    drop_ins = managed / "managed-settings.d"
    _write(drop_ins / "10-a.json", _dir(tmp_path / "a"))
    assert memory_dir_for(project) == tmp_path / "a"
    _write(drop_ins / "9-b.json", _dir(tmp_path / "b"))  # by name: "9-b" comes after "10-a"
    assert memory_dir_for(project) == tmp_path / "b"
    # Hidden files, other suffixes and folders are not drop-ins; a drop-in without the key
    # leaves the weaker word.
    _write(drop_ins / ".z.json", _dir(tmp_path / "hidden"))
    _write(drop_ins / "z.txt", _dir(tmp_path / "text"))
    (drop_ins / "y.json").mkdir()
    _write(drop_ins / "x.json", {"model": "opus"})
    assert memory_dir_for(project) == tmp_path / "b"


def test_what_a_managed_file_sets_is_taken_as_from_any_file(
    project: Path, managed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(claude_config_dir() / "settings.json", _dir(tmp_path / "user"))
    file = managed / "managed-settings.json"
    _write(file, {"autoMemoryDirectory": "~/policy"})
    assert memory_dir_for(project) == Path.home() / "policy"
    _write(file, {"autoMemoryDirectory": "relative"})  # set, then ignored: the default
    assert memory_dir_for(project) == _default(project)
    for dropped in (None, 5):  # a key of the wrong type is dropped, the rest of the file kept
        _write(file, {"autoMemoryDirectory": dropped, "autoMemoryEnabled": False})
        assert memory_dir_for(project) == tmp_path / "user", dropped
        assert auto_memory_off(project, claude_config_dir()), dropped
    _write(file, "")  # empty: no settings
    assert memory_dir_for(project) == tmp_path / "user"
    _write(file, _dir(tmp_path / "managed"))
    monkeypatch.setenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", str(tmp_path / "override"))
    assert memory_dir_for(project) == tmp_path / "override"


def test_a_broken_managed_file_is_skipped_and_named_once(
    project: Path, managed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(claude_config_dir() / "settings.json", _dir(tmp_path / "user"))
    file = managed / "managed-settings.d" / "10-a.json"
    _write(file, "[]")
    assert memory_dir_for(project) == tmp_path / "user"
    assert memory_dir_for(project) == tmp_path / "user"
    err = capsys.readouterr().err
    said = f"memsync: ignoring Claude Code settings file {file}: it does not hold a JSON object"
    assert err.count(said) == 1, err
    assert "`claude -p` stops over it (fix or remove it)" in err  # it does not start, 2.1.330


def test_managed_autoMemoryEnabled_beats_the_persons_and_the_projects(
    project: Path, managed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claude = claude_config_dir()
    local = project / ".claude" / "settings.local.json"
    file = managed / "managed-settings.json"
    _write(local, {"autoMemoryEnabled": True})
    _write(file, {"autoMemoryEnabled": False})
    assert auto_memory_off(project, claude)
    _write(managed / "managed-settings.d" / "on.json", {"autoMemoryEnabled": True})
    assert not auto_memory_off(project, claude)
    (managed / "managed-settings.d" / "on.json").unlink()
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "0")  # the environment still wins
    assert not auto_memory_off(project, claude)
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
    _write(local, {"autoMemoryEnabled": False})
    _write(file, {"autoMemoryEnabled": True})
    assert not auto_memory_off(project, claude)
    _write(file, {"autoMemoryEnabled": "true"})  # not a boolean: dropped, the local file decides
    assert auto_memory_off(project, claude)
