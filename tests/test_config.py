"""memsync's configuration file: round trip, hand edits, clear errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from memsync.config import (
    CONFIG_HEADER,
    Config,
    ProjectConfig,
    Settings,
    StoreConfig,
    StoreFolder,
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
        (
            "stores:\n  s: {scope: public, url: u}\n",
            "`stores.s.scope` must be one of private, team, not 'public'",
        ),
        ("settings:\n  colour: red\n", "`settings.colour` is not a known key (expected one of"),
        (
            "settings:\n  private_secrets: ignore\n",
            "`settings.private_secrets` must be one of warn, block",
        ),
        (
            "projects:\n  /p: {team: {store: t, subdir: s}}\n",
            "`projects./p.key` is missing (expected a string)",
        ),
        ("stores: 3\n", "`stores` must be a mapping, not 3"),
        ("settings:\n  pull_timeout: ten\n", "`settings.pull_timeout` must be a number, not 'ten'"),
        ("settings:\n  push_retries: 2.5\n", "`settings.push_retries` must be a whole number"),
        ("settings:\n  push_retries: yes\n", "must be a whole number, not True (a boolean)"),
        ("settings:\n  lock_timeout: -1\n", "`settings.lock_timeout` must be above 0"),
        # YAML's infinities and NaN: a watchdog that overflows, a hook that gives up at once
        ("settings:\n  pull_timeout: .inf\n", "`settings.pull_timeout` must be a finite number"),
        ("settings:\n  network_timeout: .nan\n", "must be a finite number, not nan"),
        (
            "settings:\n  push_timeout: 1000000000\n",
            "`settings.push_timeout` must be at most 86,400",
        ),
        ("setings:\n  pull_timeout: 3\n", "`setings` is not a known key"),
        ("- a\n- b\n", "`(top level)` must be a mapping, not a list"),
        (
            "stores:\n  s: {scope: team, url: u, branch: main}\n",
            "`stores.s.branch` is not a known key (expected one of: scope, url)",
        ),
        (
            "stores:\n  s: {scope: team, url: u}\n"
            "projects:\n  /p: {key: k, team: {store: x, subdir: k}}\n",
            "`projects./p.team.store` names a store 'x' that `stores:` does not define",
        ),
        (
            "stores:\n  s: {scope: team, url: u}\n"
            "projects:\n  /p: {key: k, private: {store: s, subdir: k}}\n",
            "names the team store 's' for private memory",
        ),
        (
            "projects:\n  /p: {key: k, identity: {origin: 5}}\n",
            "`projects./p.identity.origin` must be a string or empty, not 5",
        ),
        ("stores:\n  s: [1]\n", "`stores.s` must be a mapping of scope, url, not a list"),
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


def test_identity_round_trips_and_only_known_fields_are_written(tmp_path: Path) -> None:
    from memsync.config import ProjectIdentity

    identity = ProjectIdentity(origin=None, root_commit="ab" * 20)
    config = _sample().with_project(
        ProjectConfig(root="/p", key="web", private=StoreFolder("mine", "web"), identity=identity)
    )
    path = save_config(config, tmp_path / "c.yaml")
    assert "root_commit: abab" in path.read_text(encoding="utf-8")
    assert "origin" not in path.read_text(encoding="utf-8").split("/p:")[1]
    assert load_config(path) == config


def test_identities_match_on_origin_or_root_commit_and_names_only_alone() -> None:
    from memsync.config import ProjectIdentity as Id

    assert Id(origin="github.com/a/b", root_commit="1").same_project(Id(origin="github.com/a/b"))
    # A repository that gained an origin (or moved forges) keeps its root commit.
    assert Id(root_commit="1").same_project(Id(origin="gitlab.com/a/b", root_commit="1"))
    assert not Id(root_commit="1", directory="web").same_project(
        Id(root_commit="2", directory="web")
    )
    assert not Id(directory="web").same_project(Id(root_commit="2", directory="web"))
    assert Id(directory="web").same_project(Id(directory="web"))
    assert Id(root_commit="3f2a9c1b7e4d00").describe() == "root commit 3f2a9c1b7e4d"
    assert Id(origin="github.com/a/b").describe() == "origin github.com/a/b"
    assert "no git history" in Id(directory="web").describe()


@dataclass(frozen=True)
class Cached:
    """A saved config read once, so its cache is written: the file, the cache, its entry."""

    path: Path
    cache: Path
    entry: dict[str, Any]

    def write(self, **changed: object) -> None:
        """Replace keys of the cache entry."""
        self.cache.write_text(json.dumps({**self.entry, **changed}), encoding="utf-8")


@pytest.fixture
def cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cached:
    home = tmp_path / "home"
    monkeypatch.setenv("MEMSYNC_HOME", str(home))
    path = save_config(_sample(), tmp_path / "config.yaml")
    assert load_config(path) == _sample()
    cache = home / "cache" / "config.json"
    return Cached(path, cache, json.loads(cache.read_text(encoding="utf-8")))


def _edited(entry: dict[str, Any]) -> Any:
    """The entry's config with pull_timeout 7.0, to tell a cached read from a parsed one."""
    config = json.loads(json.dumps(entry["config"]))
    config[1]["settings"][1]["pull_timeout"] = 7.0
    return config


def test_an_unchanged_file_is_read_from_the_cache_without_yaml_or_typing(cached: Cached) -> None:
    assert cached.entry["config"][0] == "Config"
    cached.write(config=_edited(cached.entry))
    assert load_config(cached.path).settings.pull_timeout == 7.0
    code = (
        # Only what memsync loads counts (a coverage run's start-up loads typing itself).
        "import sys\nbefore = set(sys.modules)\n"
        "from pathlib import Path\nfrom memsync.config import load_config\n"
        f"config = load_config(Path({str(cached.path)!r}))\n"
        "new = set(sys.modules) - before\n"
        "print(config.settings.pull_timeout, 'typing' in new, 'yaml' in new)\n"
    )
    env = {**os.environ, "MEMSYNC_HOME": str(cached.cache.parent.parent)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert done.stdout.split() == ["7.0", "False", "False"], done.stderr


@pytest.mark.parametrize(
    "damage",
    [
        ["Nope", {}],
        ["Config", {"settings": ["Settings", {"colour": "red"}]}],
        ["Config"],
        "not a config",
        {"stores": {}},
    ],
)
def test_a_damaged_cache_is_ignored_and_rewritten(cached: Cached, damage: object) -> None:
    cached.write(config=damage)
    assert load_config(cached.path) == _sample()
    assert json.loads(cached.cache.read_text(encoding="utf-8")) == cached.entry


def test_a_cache_of_another_file_or_schema_is_not_read(cached: Cached) -> None:
    digest, schema = cached.entry["key"]
    # Validated by a version with looser rules (same fields): read the file again
    assert schema.endswith(";rules:2")
    cached.write(key=[digest, schema.rsplit(";rules:", 1)[0]], config=_edited(cached.entry))
    assert load_config(cached.path).settings.pull_timeout == 5.0
    for key in ([digest, schema + ",extra"], ["0" * 64, schema]):
        cached.write(key=key, config=_edited(cached.entry))
        assert load_config(cached.path).settings.pull_timeout == 5.0
    # A hand edit changes the digest: the file is read again, not the cache.
    text = cached.path.read_text(encoding="utf-8")
    cached.path.write_text(text.replace("5.0", "6.0"), encoding="utf-8")
    assert load_config(cached.path).settings.pull_timeout == 6.0
