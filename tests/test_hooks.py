"""Claude Code settings.json hook installation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memsync.errors import UserMessageError
from memsync.team import claudehooks as hooks
from memsync.team.claudehooks import HookState
from memsync.team.hookcommand import memsync_command_prefix, memsync_command_prefix_for

POSIX_ONLY = pytest.mark.skipif(
    sys.platform == "win32", reason="POSIX shell scripts, modes and symlinks"
)

PREFIX = "/opt/bin/memsync"
SETTINGS_EXAMPLE = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git status)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}],
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}
        ],
    },
    "env": {"FOO": "bar"},
}


def write(path: Path, data: object, indent: int | str = 2) -> str:
    text = json.dumps(data, indent=indent) + "\n"
    path.write_text(text, encoding="utf-8")
    return text


def install(path: Path, prefix: str = PREFIX) -> hooks.HookChange:
    change = hooks.plan_install(path, prefix)
    hooks.apply(change)
    return change


def test_install_into_missing_file_matches_claude_code_format(tmp_path: Path) -> None:
    path = tmp_path / "claude" / "settings.json"
    change = install(path)
    assert change.changed
    assert not change.existed
    assert json.loads(path.read_text()) == {
        "hooks": {
            "SessionStart": [
                {
                    "matcher": "",
                    "hooks": [
                        {"type": "command", "command": f"{PREFIX} pull --hook", "timeout": 15}
                    ],
                }
            ],
            "SessionEnd": [
                {"hooks": [{"type": "command", "command": f"{PREFIX} push --hook", "timeout": 30}]}
            ],
        }
    }
    assert path.read_text().endswith("}\n")
    assert "/dev/null" in change.diff()


def test_install_keeps_other_keys_hooks_and_order(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write(path, SETTINGS_EXAMPLE)
    install(path)
    data = json.loads(path.read_text())
    assert list(data) == ["model", "permissions", "hooks", "env"]
    assert data["permissions"] == SETTINGS_EXAMPLE["permissions"]
    assert list(data["hooks"]) == ["PreToolUse", "SessionStart", "SessionEnd"]
    assert data["hooks"]["PreToolUse"] == SETTINGS_EXAMPLE["hooks"]["PreToolUse"]  # type: ignore[index]
    start = data["hooks"]["SessionStart"]
    assert start[0] == {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}
    assert start[1]["hooks"][0]["command"] == f"{PREFIX} pull --hook"


def test_install_is_idempotent_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write(path, SETTINGS_EXAMPLE)
    install(path)
    first = path.read_text()
    again = hooks.plan_install(path, PREFIX)
    assert not again.changed
    assert again.diff() == ""
    hooks.apply(again)
    assert path.read_text() == first


def test_install_after_moving_the_binary_updates_instead_of_duplicating(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    install(path, "/old/venv/bin/memsync")
    assert hooks.hook_status(path, PREFIX) == {
        "SessionStart": HookState.OUTDATED,
        "SessionEnd": HookState.OUTDATED,
    }
    install(path, PREFIX)
    data = json.loads(path.read_text())
    commands = [
        entry["command"]
        for groups in data["hooks"].values()
        for group in groups
        for entry in group["hooks"]
    ]
    assert commands == [f"{PREFIX} pull --hook", f"{PREFIX} push --hook"]


def test_python_dash_m_entries_and_duplicates_are_recognised(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    old = {"type": "command", "command": "/usr/bin/python3 -m memsync pull --hook", "timeout": 60}
    dup = {"type": "command", "command": "'/a b/memsync' pull --hook"}
    write(
        path,
        {
            "hooks": {
                "SessionStart": [
                    {"matcher": "", "hooks": [old]},
                    {"matcher": "resume", "hooks": [{"type": "command", "command": "x"}, dup]},
                ]
            }
        },
    )
    assert hooks.hook_status(path, PREFIX)["SessionStart"] is HookState.OUTDATED
    install(path)
    start = json.loads(path.read_text())["hooks"]["SessionStart"]
    # The first entry is updated in place and keeps the user's timeout; the duplicate goes.
    assert start[0]["hooks"] == [
        {"type": "command", "command": f"{PREFIX} pull --hook", "timeout": 60}
    ]
    assert start[1] == {"matcher": "resume", "hooks": [{"type": "command", "command": "x"}]}
    assert hooks.hook_status(path, PREFIX) == {
        "SessionStart": HookState.INSTALLED,
        "SessionEnd": HookState.INSTALLED,
    }


def test_status_of_missing_file_and_partial_install(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    assert set(hooks.hook_status(path, PREFIX).values()) == {HookState.MISSING}
    install(path)
    data = json.loads(path.read_text())
    del data["hooks"]["SessionEnd"]
    write(path, data)
    assert hooks.hook_status(path, PREFIX) == {
        "SessionStart": HookState.INSTALLED,
        "SessionEnd": HookState.MISSING,
    }


def test_uninstall_restores_the_original_document(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    original = write(path, SETTINGS_EXAMPLE)
    install(path)
    change = hooks.plan_uninstall(path)
    assert change.changed
    assert "-" in change.diff()
    hooks.apply(change)
    assert path.read_text() == original
    assert not hooks.plan_uninstall(path).changed


def test_uninstall_of_only_memsync_hooks_leaves_no_empty_table(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write(path, {"model": "opus"})
    install(path)
    hooks.apply(hooks.plan_uninstall(path))
    assert json.loads(path.read_text()) == {"model": "opus"}


def test_uninstall_without_hooks_or_file_is_a_no_op(tmp_path: Path) -> None:
    missing = tmp_path / "settings.json"
    assert not hooks.plan_uninstall(missing).changed
    hooks.apply(hooks.plan_uninstall(missing))
    assert not missing.exists()
    path = tmp_path / "other.json"
    path.write_text('{"hooks": {}}')
    assert not hooks.plan_uninstall(path).changed


@pytest.mark.parametrize("indent", [4, "\t"])
def test_existing_indentation_is_kept(tmp_path: Path, indent: int | str) -> None:
    path = tmp_path / "settings.json"
    write(path, {"model": "opus", "nested": {"a": 1}}, indent=indent)
    install(path)
    text = path.read_text()
    assert text == json.dumps(json.loads(text), indent=indent) + "\n"


def test_non_ascii_is_written_as_is(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"statusLine": "café ☕"}\n', encoding="utf-8")
    install(path)
    assert "café ☕" in path.read_text(encoding="utf-8")
    # The person's own escapes are their formatting: kept byte for byte too.
    escaped = tmp_path / "escaped.json"
    write(escaped, {"statusLine": "café ☕"})
    install(escaped)
    assert '"statusLine": "caf\\u00e9 \\u2615"' in escaped.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"model": "opus",}', "not valid JSON (line 1"),
        ("[1, 2]", "not a JSON object"),
        ('{"hooks": []}', '"hooks" setting is not an object'),
        ('{"hooks": {"SessionEnd": {}}}', "hooks.SessionEnd is not a list"),
    ],
)
def test_unusable_settings_are_refused_and_left_untouched(
    tmp_path: Path, text: str, needle: str
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text)
    with pytest.raises(UserMessageError) as info:
        hooks.plan_install(path, PREFIX)
    assert needle in str(info.value)
    assert str(path) in str(info.value)
    assert path.read_text() == text


def test_empty_file_counts_as_empty_settings(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("")
    install(path)
    assert set(json.loads(path.read_text())) == {"hooks"}


def test_apply_refuses_when_the_file_changed_since_planning(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write(path, {"model": "opus"})
    change = hooks.plan_install(path, PREFIX)
    path.write_text('{"model": "sonnet"}\n')
    with pytest.raises(UserMessageError, match="changed while memsync"):
        hooks.apply(change)
    assert path.read_text() == '{"model": "sonnet"}\n'


@POSIX_ONLY
def test_apply_keeps_mode_and_writes_through_symlinks(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    write(real, {"model": "opus"})
    real.chmod(0o600)
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    install(link)
    assert link.is_symlink()
    assert "pull --hook" in real.read_text()
    assert real.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in real.parent.iterdir()] == ["settings.json"]  # no temp file left


@POSIX_ONLY
def test_command_prefix_prefers_an_absolute_memsync_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bindir = tmp_path / "bin with space"
    bindir.mkdir()
    exe = bindir / "memsync"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", str(bindir))
    assert memsync_command_prefix() == f"'{exe}'"
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert memsync_command_prefix() == f"{sys.executable} -m memsync"


def test_settings_locations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert hooks.user_settings_path() == tmp_path / "cfg" / "settings.json"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))  # what Path.home() reads on Windows
    assert hooks.user_settings_path() == tmp_path / ".claude" / "settings.json"
    assert hooks.project_settings_path(tmp_path) == tmp_path / ".claude" / "settings.local.json"


@POSIX_ONLY
def test_installed_command_runs_through_a_shell(tmp_path: Path) -> None:
    """The written command is a valid shell line even for paths with spaces."""
    exe = tmp_path / "my tools" / "memsync"
    exe.parent.mkdir()
    exe.write_text('#!/bin/sh\necho "$@" > "$(dirname "$0")/args"\n')
    exe.chmod(0o755)
    path = tmp_path / "settings.json"
    install(path, memsync_command_prefix_for(exe))
    command = json.loads(path.read_text())["hooks"]["SessionEnd"][0]["hooks"][0]["command"]
    subprocess.run(command, shell=True, check=True)
    assert (exe.parent / "args").read_text() == "push --hook\n"
