"""memsync's own configuration file and data directory (SPEC section 2)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from memsync.errors import UsageError

Scope = Literal["private", "team"]
SCOPES: tuple[Scope, ...] = ("private", "team")

CONFIG_HEADER = """\
# memsync configuration: human-readable, safe to edit by hand.
# stores:   one entry per memory repository (scope private or team, remote url)
# projects: one entry per code project root on this machine: its key and, per scope,
#           which store it uses and the folder inside that store ("." = repository root)
# settings: hook time limits in seconds, what to do with secrets in private stores
#           (warn or block), bounded retries when another push wins the race, how long
#           a fetch or push may take outside hooks (network_timeout)
"""


@dataclass(frozen=True)
class Settings:
    """Tunables a user may change in the config file."""

    pull_timeout: float = 10.0
    push_timeout: float = 20.0
    private_secrets: Literal["warn", "block"] = "warn"
    push_retries: int = 10
    lock_timeout: float = 30.0
    # Outside hooks, how long one fetch or push may take before the remote counts as down.
    network_timeout: float = 60.0


@dataclass(frozen=True)
class StoreConfig:
    """One memory repository: its name in the config, scope and remote URL."""

    name: str
    scope: Scope
    url: str


@dataclass(frozen=True)
class Binding:
    """Which store a project uses for one scope, and its folder in that store."""

    store: str
    subdir: str


@dataclass(frozen=True)
class ProjectConfig:
    """A project root on this machine and its bindings."""

    root: str
    key: str
    private: Binding | None = None
    team: Binding | None = None

    def binding(self, scope: Scope) -> Binding | None:
        """The binding for SCOPE, if configured."""
        return self.private if scope == "private" else self.team


@dataclass(frozen=True)
class Config:
    """The whole configuration file."""

    stores: Mapping[str, StoreConfig] = field(default_factory=dict)
    projects: Mapping[str, ProjectConfig] = field(default_factory=dict)
    settings: Settings = field(default_factory=Settings)

    def with_store(self, store: StoreConfig) -> Config:
        """A copy with STORE added or replaced."""
        return replace(self, stores={**self.stores, store.name: store})

    def with_project(self, project: ProjectConfig) -> Config:
        """A copy with PROJECT added or replaced."""
        return replace(self, projects={**self.projects, project.root: project})


def config_path() -> Path:
    """`$MEMSYNC_CONFIG`, else the platform's user config dir."""
    configured = os.environ.get("MEMSYNC_CONFIG")
    if configured:
        return Path(configured).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir("memsync", appauthor=False)) / "config.yaml"


def data_dir() -> Path:
    """`$MEMSYNC_HOME`, else the platform's user data dir."""
    configured = os.environ.get("MEMSYNC_HOME")
    if configured:
        return Path(configured).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("memsync", appauthor=False))


def load_config(path: Path | None = None) -> Config:
    """Read the config file; a missing file is an empty configuration."""
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        raise UsageError(f"cannot read the config file {path}: {exc.strerror}") from exc
    data = _parsed(text, path)
    try:
        return _config_from_data(data)
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise UsageError(
            f"the config file {path} has an unexpected shape: {exc}",
            hint="Compare it with the layout described in its header comment.",
        ) from exc


def _parsed(text: str, path: Path) -> Any:
    """The YAML of TEXT, from a JSON cache keyed by its digest when it has not changed.

    Every Claude Code session start reads the config; importing and running the YAML
    parser is a fifth of that hook's start-up, while JSON is already loaded.
    """
    import hashlib
    import json

    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    cache = data_dir() / "cache" / "config.json"
    try:
        cached = json.loads(cache.read_text(encoding="utf-8"))
        if cached.get("sha256") == digest:
            return cached["data"]
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        pass
    import yaml

    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise UsageError(
            f"the config file {path} is not valid YAML: {exc}",
            hint="Fix it by hand, or move it away and run `memsync init` again.",
        ) from exc
    try:
        from memsync.fsutil.atomic import atomic_write_text

        # Not fsynced: a cache lost to a crash is rebuilt from the config file.
        atomic_write_text(cache, json.dumps({"sha256": digest, "data": data}), durable=False)
    except (OSError, TypeError, ValueError):
        pass  # no cache (read-only data dir, values JSON cannot hold): parse every time
    return data


def _config_from_data(data: Mapping[str, Any]) -> Config:
    stores = {}
    for name, entry in (data.get("stores") or {}).items():
        scope = entry["scope"]
        if scope not in SCOPES:
            raise ValueError(f"store {name!r}: scope must be private or team, not {scope!r}")
        stores[str(name)] = StoreConfig(name=str(name), scope=scope, url=str(entry["url"]))
    projects = {}
    for root, entry in (data.get("projects") or {}).items():
        bindings = {
            scope: Binding(store=str(entry[scope]["store"]), subdir=str(entry[scope]["subdir"]))
            for scope in SCOPES
            if entry.get(scope)
        }
        projects[str(root)] = ProjectConfig(root=str(root), key=str(entry["key"]), **bindings)
    raw_settings = data.get("settings") or {}
    known = set(Settings.__dataclass_fields__)
    unknown = set(raw_settings) - known
    if unknown:
        raise ValueError(f"unknown settings: {', '.join(sorted(unknown))}")
    settings = Settings(**raw_settings)
    if settings.private_secrets not in ("warn", "block"):
        raise ValueError("settings.private_secrets must be warn or block")
    return Config(stores=stores, projects=projects, settings=settings)


def config_to_data(config: Config) -> dict[str, Any]:
    """Plain data for the YAML file."""
    projects: dict[str, Any] = {}
    for root, project in sorted(config.projects.items()):
        entry: dict[str, Any] = {"key": project.key}
        for scope in SCOPES:
            binding = project.binding(scope)
            if binding is not None:
                entry[scope] = {"store": binding.store, "subdir": binding.subdir}
        projects[root] = entry
    return {
        "stores": {
            name: {"scope": store.scope, "url": store.url}
            for name, store in sorted(config.stores.items())
        },
        "projects": projects,
        "settings": dict(vars(config.settings)),
    }


def save_config(config: Config, path: Path | None = None) -> Path:
    """Write the config file atomically; returns its path."""
    import yaml

    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = CONFIG_HEADER + yaml.safe_dump(
        config_to_data(config), sort_keys=False, default_flow_style=False, allow_unicode=True
    )
    from memsync.fsutil.atomic import atomic_write_text

    atomic_write_text(path, text)
    return path
