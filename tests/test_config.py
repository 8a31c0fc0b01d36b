"""memsync's configuration file: round trip, hand edits, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.config import (
    CONFIG_HEADER,
    StoreFolder,
    Config,
    ProjectConfig,
    Settings,
    StoreConfig,
    config_path,
    data_dir,
    load_config,
    save_config,
)
from memsync.errors import ExitCode, UsageError


def _sample() -> Config:
    config = Config(settings=Settings(pull_timeout=5.0, private_secrets="block"))
    config = config.with_store(StoreConfig("mine", "private", "git@github.com:alice/memory.git"))
    config = config.with_store(StoreConfig("acme", "team", "https://github.com/acme/memory"))
    return config.with_project(
        ProjectConfig(
            root="/home/alice/src/api",
            key="acme-api",
            private=StoreFolder("mine", "acme-api"),
            team=StoreFolder("acme", "."),
        )
    )


def test_paths_follow_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMSYNC_CONFIG", str(tmp_path / "c.yaml"))
    monkeypatch.setenv("MEMSYNC_HOME", str(tmp_path / "data"))
    assert config_path() == tmp_path / "c.yaml"
    assert data_dir() == tmp_path / "data"


def test_platform_dirs_when_not_overridden(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MEMSYNC_CONFIG")
    monkeypatch.delenv("MEMSYNC_HOME")
    assert config_path().name == "config.yaml"
    assert "memsync" in config_path().parts
    assert "memsync" in data_dir().parts


def test_a_missing_file_is_an_empty_configuration(tmp_path: Path) -> None:
    config = load_config(tmp_path / "absent.yaml")
    assert config == Config()
    assert config.settings.pull_timeout == 10.0


def test_save_then_load_round_trips(tmp_path: Path) -> None:
    path = save_config(_sample(), tmp_path / "sub" / "config.yaml")
    assert load_config(path) == _sample()
    assert [p.name for p in path.parent.iterdir()] == ["config.yaml"]  # no temp file left


def test_saved_file_is_commented_and_readable(tmp_path: Path) -> None:
    text = save_config(_sample()).read_text(encoding="utf-8")
    assert text.startswith(CONFIG_HEADER)
    assert "acme-api" in text and "git@github.com:alice/memory.git" in text
    assert "!!python" not in text


def test_default_location_is_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMSYNC_CONFIG", str(tmp_path / "deep" / "memsync.yaml"))
    save_config(_sample())
    assert (tmp_path / "deep" / "memsync.yaml").is_file()
    assert load_config().stores["mine"].scope == "private"


def test_hand_edits_are_read(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(
        "# my notes\nstores:\n  t: {scope: team, url: 'u'}\nprojects:\n"
        "  /p:\n    key: k\n    team: {store: t, subdir: sub}\nsettings:\n  push_retries: 2\n",
        encoding="utf-8",
    )
    config = load_config(path)
    project = config.projects["/p"]
    assert project.binding("team") == StoreFolder("t", "sub")
    assert project.binding("private") is None
    assert config.settings.push_retries == 2


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("stores: [unclosed\n", "not valid YAML"),
        ("stores:\n  s: {scope: public, url: u}\n", "scope must be private or team"),
        ("settings:\n  colour: red\n", "unknown settings: colour"),
        ("settings:\n  private_secrets: ignore\n", "warn or block"),
        ("projects:\n  /p: {team: {store: t, subdir: s}}\n", "unexpected shape"),
        ("stores: 3\n", "unexpected shape"),
    ],
)
def test_bad_files_are_usage_errors_naming_the_file(
    tmp_path: Path, text: str, fragment: str
) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_config(path)
    assert fragment in str(caught.value)
    assert str(path) in caught.value.message
    assert caught.value.exit_code == ExitCode.USAGE


def test_unreadable_config_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "dir.yaml").mkdir()
    with pytest.raises(UsageError, match="cannot read"):
        load_config(tmp_path / "dir.yaml")


def test_empty_file_is_an_empty_configuration(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("# nothing yet\n", encoding="utf-8")
    assert load_config(path) == Config()
