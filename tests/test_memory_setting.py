"""The memory folder follows Claude Code's `autoMemoryDirectory` setting as 2.1.330 does
(model/claudesettings.py; probed against the real client, docs/COMPATIBILITY.md); the real
client's side is tests/realclient's `test_a_pull_lands_in_the_folder_autoMemoryDirectory_names`."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from memsync.model.paths import claude_config_dir, locate_project, memory_dir_for, sanitize_path
from memsync.sync.automemory import auto_memory_off
from testing.gitrepo import git, make_bare_remote
from testing.machines import make_machine, memory_dir, remote_files, setup_machine
from testing.memories import write_memory


def _settings(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"autoMemoryDirectory": value}), encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "work" / "api"
    root.mkdir(parents=True)
    return root


def _default(root: Path) -> Path:
    return claude_config_dir() / "projects" / sanitize_path(str(root)) / "memory"


def test_the_persons_setting_names_the_memory_folder(project: Path, tmp_path: Path) -> None:
    _settings(claude_config_dir() / "settings.json", str(tmp_path / "mem" / "x" / ".." / ""))
    assert memory_dir_for(project) == tmp_path / "mem"  # normalised, no trailing slash
    location = locate_project(project)
    assert location.memory_dir == tmp_path / "mem"
    assert location.team_dir == tmp_path / "mem" / "team"  # the client's team folder too


def test_a_home_prefix_is_expanded_and_what_the_client_ignores_is_ignored(
    project: Path, tmp_path: Path
) -> None:
    user = claude_config_dir() / "settings.json"
    _settings(user, "~/notes/mem")
    assert memory_dir_for(project) == Path.home() / "notes" / "mem"
    # Relative, `~` alone, the home folder itself, out of it, too short, not a string: default.
    for ignored in ("rel/mem", "~", "~/", "~/..", "~/../elsewhere", "/a", "", 5, None):
        _settings(user, ignored)
        assert memory_dir_for(project) == _default(project), ignored


def test_local_then_project_then_person_settings_decide(project: Path, tmp_path: Path) -> None:
    _settings(claude_config_dir() / "settings.json", str(tmp_path / "user"))
    _settings(project / ".claude" / "settings.json", str(tmp_path / "shared"))
    assert memory_dir_for(project) == tmp_path / "shared"
    local = project / ".claude" / "settings.local.json"
    _settings(local, str(tmp_path / "local"))
    assert memory_dir_for(project) == tmp_path / "local"
    # The strongest file that sets it decides, even to a value the client then ignores.
    _settings(local, "relative")
    assert memory_dir_for(project) == _default(project)


def test_project_settings_are_the_session_directorys(project: Path, tmp_path: Path) -> None:
    git("init", "-q", str(project), cwd=project.parent)
    _settings(project / ".claude" / "settings.json", str(tmp_path / "at-root"))
    inner = project / "pkg" / "inner"
    inner.mkdir(parents=True)
    # The client in pkg/inner reads pkg/inner/.claude, not the root's (seen with 2.1.330).
    assert locate_project(inner).memory_dir == _default(project)
    _settings(inner / ".claude" / "settings.local.json", str(tmp_path / "inner"))
    assert locate_project(inner).memory_dir == tmp_path / "inner"
    assert locate_project(project).memory_dir == tmp_path / "at-root"


def test_the_cowork_override_beats_the_setting_when_the_client_takes_it(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _settings(claude_config_dir() / "settings.json", str(tmp_path / "setting"))
    monkeypatch.setenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", str(tmp_path / "override") + "/")
    assert memory_dir_for(project) == tmp_path / "override"
    # The client expands no `~` there and takes no relative path: the setting decides.
    for ignored in ("~/override", "relative"):
        monkeypatch.setenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", ignored)
        assert memory_dir_for(project) == tmp_path / "setting", ignored


def test_a_malformed_settings_file_is_skipped_as_the_client_does_and_named_once(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _settings(claude_config_dir() / "settings.json", str(tmp_path / "user"))
    shared = project / ".claude" / "settings.json"
    shared.parent.mkdir()
    shared.write_text('{"autoMemoryDirectory": "/x",', encoding="utf-8")
    # The client then uses the person's setting (seen with 2.1.330).
    assert memory_dir_for(project) == tmp_path / "user"
    assert memory_dir_for(project) == tmp_path / "user"
    err = capsys.readouterr().err
    said = f"memsync: ignoring Claude Code settings file {shared}: it is not valid JSON"
    assert err.count(said) == 1, err
    assert "Claude Code ignores it too" in err
    shared.write_text("", encoding="utf-8")  # empty: empty settings, as for the client
    assert memory_dir_for(project) == tmp_path / "user"
    assert capsys.readouterr().err == ""


def test_memsync_syncs_the_configured_folder_and_survives_a_broken_settings_file(
    tmp_path: Path,
) -> None:
    alice = make_machine(tmp_path / "machines", "alice")
    private = make_bare_remote(tmp_path / "private.git")
    folder = alice.home / "notes" / "memory"
    _settings(alice.claude_dir / "settings.json", "~/notes/memory")
    project = setup_machine(alice, private, None, "src/api")
    assert memory_dir(alice, project) == folder
    write_memory(folder, "deploy.md", "deploy", "Deploys go through CI.\n")
    alice.memsync("push", cwd=project)
    assert any(name.endswith("/deploy.md") for name in remote_files(private))
    local = project / ".claude" / "settings.local.json"
    local.parent.mkdir(exist_ok=True)
    local.write_text("{oops", encoding="utf-8")
    said = f"memsync: ignoring Claude Code settings file {local}: it is not valid JSON"
    hook = alice.memsync("pull", "--hook", cwd=project, stdin="{}")
    assert hook.stderr.count(said) == 1, hook.stderr
    assert "failed" not in hook.stdout + hook.stderr
    status = alice.memsync("status", cwd=project)
    assert status.stderr.count(said) == 1, status.stderr
    assert memory_dir(alice, project) == folder  # the person's setting still counts


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")
def test_a_fifo_in_place_of_a_settings_file_hangs_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Opening a FIFO for reading waits for a writer: every hook and command would hang."""
    local = project / ".claude" / "settings.local.json"
    local.parent.mkdir()
    os.mkfifo(local)
    found: list[Path] = []
    worker = threading.Thread(target=lambda: found.append(memory_dir_for(project)), daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "reading the settings waited on the FIFO"
    assert found == [_default(project)]
    assert f"{local}: it is not a regular file" in capsys.readouterr().err
    assert auto_memory_off(project, claude_config_dir()) is False  # and no wait there either


def test_a_file_giving_a_memory_key_the_wrong_type_is_dropped_whole(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The client drops a settings file that fails its schema: every key in it, not one."""
    claude = claude_config_dir()
    _settings(claude / "settings.json", str(tmp_path / "user"))
    local = project / ".claude" / "settings.local.json"
    local.parent.mkdir()
    for value in (True, 5, None):
        local.write_text(json.dumps({"autoMemoryDirectory": value}), encoding="utf-8")
        assert memory_dir_for(project) == tmp_path / "user", value  # 2.1.330: the person's
    text = json.dumps({"autoMemoryDirectory": str(tmp_path / "local"), "autoMemoryEnabled": "no"})
    local.write_text(text, encoding="utf-8")
    assert memory_dir_for(project) == tmp_path / "user"
    local.write_text('{"autoMemoryDirectory": null, "autoMemoryEnabled": false}', encoding="utf-8")
    assert auto_memory_off(project, claude) is False  # its `false` went with it
    err = capsys.readouterr().err
    said = f"memsync: ignoring Claude Code settings file {local}: it sets autoMemoryDirectory to"
    assert err.count(said) == 1, err  # named once, for the first reason memsync met
    local.write_text('{"autoMemoryDirectory": ""}', encoding="utf-8")  # a string: set, ignored
    assert memory_dir_for(project) == _default(project)


def test_the_default_folder_is_nfc_normalised_as_the_client_writes_it(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decomposed = tmp_path / "cafe\u0301" / "claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(decomposed))
    folder = memory_dir_for(project)
    # 2.1.330 told the model `.../caf\u00e9/claude/projects/<key>/memory` for such a folder.
    assert str(folder) == str(tmp_path / "caf\u00e9" / "claude" / "projects") + "/" + (
        sanitize_path(str(project)) + "/memory"
    )


def test_a_remote_memory_folder_replaces_the_claude_folder_as_written(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = sanitize_path(str(project))
    monkeypatch.setenv("CLAUDE_CODE_REMOTE_MEMORY_DIR", str(tmp_path / "remote"))
    assert memory_dir_for(project) == tmp_path / "remote" / "projects" / key / "memory"
    monkeypatch.setenv("CLAUDE_CODE_REMOTE_MEMORY_DIR", "~/rel")  # no `~`: the session's folder
    assert memory_dir_for(project) == project / "~" / "rel" / "projects" / key / "memory"
    _settings(claude_config_dir() / "settings.json", str(tmp_path / "setting"))
    assert memory_dir_for(project) == tmp_path / "setting"  # the setting still beats it
    claude = claude_config_dir()
    monkeypatch.setenv("CLAUDE_CODE_REMOTE", "1")
    assert auto_memory_off(project, claude) is False  # remote, with a memory folder
    monkeypatch.delenv("CLAUDE_CODE_REMOTE_MEMORY_DIR")
    assert auto_memory_off(project, claude) is True  # remote with none: the client has no memory
    monkeypatch.setenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", str(tmp_path / "cowork"))
    assert auto_memory_off(project, claude) is False
    monkeypatch.setenv("CLAUDE_CODE_REMOTE", "0")
    monkeypatch.delenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE")
    assert auto_memory_off(project, claude) is False
