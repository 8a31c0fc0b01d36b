"""The schema of memsync's configuration file, and its check (SPEC section 2).

The typed, frozen dataclasses below are the schema: a key they do not name or a value of
the wrong type is a ConfigValueError naming the dotted key and the expected type, so nothing
downstream ever sees an unchecked value. Reading and writing the file is `memsync.config`'s.
May import memsync.errors and memsync.model only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass, field, fields, is_dataclass, replace

from memsync.model.safety import SCOPES, Scope

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any, Literal


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
class StoreFolder:
    """Which store a project uses for one scope, and its folder in that store."""

    store: str
    subdir: str


@dataclass(frozen=True)
class ProjectIdentity:
    """What makes a code repository one project on every machine (SPEC section 2).

    The normalised origin URL, else the root commit every clone shares, else (outside
    git) the directory's name. Two identities are one project when they share an origin
    or a root commit (a repository that gained an origin, or moved forges, stays itself);
    a name alone matches only another name alone.
    """

    origin: str | None = None
    root_commit: str | None = None
    directory: str | None = None

    def same_project(self, other: ProjectIdentity) -> bool:
        """Whether OTHER names the same code repository."""
        if self.origin and self.origin == other.origin:
            return True
        if self.root_commit and self.root_commit == other.root_commit:
            return True
        strong = (self.origin, self.root_commit, other.origin, other.root_commit)
        return not any(strong) and self.directory == other.directory

    def describe(self) -> str:
        """`origin github.com/acme/api`, `root commit 3f2a9c1b7e4d`, or `directory web`."""
        if self.origin:
            return f"origin {self.origin}"
        if self.root_commit:
            return f"root commit {self.root_commit[:12]}"
        return f"directory {self.directory or '?'} (no git history)"


@dataclass(frozen=True)
class ProjectConfig:
    """A project root on this machine and its bindings."""

    root: str
    key: str
    private: StoreFolder | None = None
    team: StoreFolder | None = None
    identity: ProjectIdentity | None = None

    def binding(self, scope: Scope) -> StoreFolder | None:
        """The store folder for SCOPE, if configured."""
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


class ConfigValueError(ValueError):
    """A value in the config file that does not fit the schema, with its dotted key."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem


_MOST = 86_400
_TYPE_NAMES = {str: "a string", int: "a whole number", float: "a number", bool: "true or false"}


def _describe_type(hint: Any) -> str:
    """How the schema type HINT reads in an error message."""
    import types
    import typing
    from typing import Literal, Union

    if typing.get_origin(hint) is Literal:
        return "one of " + ", ".join(str(a) for a in typing.get_args(hint))
    if typing.get_origin(hint) in (Union, types.UnionType):
        return " or ".join(_describe_type(a) for a in typing.get_args(hint))
    if hint is type(None):
        return "empty"
    if is_dataclass(hint):
        return "a mapping of " + ", ".join(f.name for f in fields(hint))
    return _TYPE_NAMES.get(hint, str(hint))


def _shown(value: Any) -> str:
    """VALUE as an error message shows it: the value and what YAML made of it."""
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    kind = {str: "text", bool: "a boolean", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )
    return f"{value!r} ({kind})"


def _decode(hint: Any, value: Any, key: str) -> Any:
    """VALUE checked against the schema type HINT (a dataclass, scalar, Literal or union)."""
    import types
    import typing
    from typing import Literal, Union

    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        for option in options:
            if is_dataclass(option) and isinstance(value, Mapping):
                return _decode(option, value, key)  # its own errors name the inner key
        for option in options:
            if option is not type(None):
                try:
                    return _decode(option, value, key)
                except ConfigValueError:
                    continue
    elif origin is Literal:
        if value in typing.get_args(hint):
            return value
    elif is_dataclass(hint) and isinstance(hint, type):
        return _decode_dataclass(hint, value, key)
    elif hint is float:
        # YAML's `.inf` and `.nan` are floats; no setting means either.
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if math.isfinite(value):
                return float(value)
            raise ConfigValueError(key, f"must be a finite number, not {_shown(value)}")
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif isinstance(value, hint):
        return value
    raise ConfigValueError(key, f"must be {_describe_type(hint)}, not {_shown(value)}")


def _decode_dataclass(cls: type[Any], value: Any, key: str, **given: Any) -> Any:
    names = [f.name for f in fields(cls) if f.name not in given]
    if not isinstance(value, Mapping):
        expected = f"a mapping of {', '.join(names)}"
        raise ConfigValueError(key, f"must be {expected}, not {_shown(value)}")
    import typing

    # The annotations are strings; the schema's names for them. A scope is one of SCOPES.
    schema_names = {"Literal": typing.Literal, "Any": typing.Any, "Scope": typing.Literal[SCOPES]}
    hints = typing.get_type_hints(cls, localns=schema_names)
    for name in value:
        if name not in names:
            raise ConfigValueError(
                f"{key}.{name}", f"is not a known key (expected one of: {', '.join(names)})"
            )
    values = dict(given)
    for item in fields(cls):
        if item.name in given:
            continue
        if item.name in value:
            values[item.name] = _decode(hints[item.name], value[item.name], f"{key}.{item.name}")
        elif item.default is MISSING and item.default_factory is MISSING:
            raise ConfigValueError(
                f"{key}.{item.name}", f"is missing (expected {_describe_type(hints[item.name])})"
            )
    return cls(**values)


def _section(data: Mapping[str, Any], name: str) -> Mapping[Any, Any]:
    value = data.get(name)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigValueError(name, f"must be a mapping, not {_shown(value)}")
    return value


def config_from_data(data: Any) -> Config:
    """Validate plain data read from the YAML file into a Config (ConfigValueError if not)."""
    if not isinstance(data, Mapping):
        raise ConfigValueError("(top level)", f"must be a mapping, not {_shown(data)}")
    known = ("stores", "projects", "settings")
    for name in data:
        if name not in known:
            raise ConfigValueError(
                str(name), f"is not a known key (expected one of: {', '.join(known)})"
            )
    stores = {
        str(name): _decode_dataclass(StoreConfig, entry, f"stores.{name}", name=str(name))
        for name, entry in _section(data, "stores").items()
    }
    projects = {
        str(root): _decode_dataclass(ProjectConfig, entry, f"projects.{root}", root=str(root))
        for root, entry in _section(data, "projects").items()
    }
    for project in projects.values():
        for scope in SCOPES:
            folder = project.binding(scope)
            if folder is None:
                continue
            key = f"projects.{project.root}.{scope}.store"
            store = stores.get(folder.store)
            if store is None:
                defined = ", ".join(sorted(stores)) or "none"
                raise ConfigValueError(
                    key,
                    f"names a store {folder.store!r} that `stores:` does not define "
                    f"(defined: {defined})",
                )
            if store.scope != scope:
                raise ConfigValueError(
                    key, f"names the {store.scope} store {folder.store!r} for {scope} memory"
                )
    shared = scopes_sharing_a_repository(stores.values())
    if shared is not None:
        raise ConfigValueError(f"stores.{shared.name}.url", _SHARED_PROBLEM)
    settings = _decode_dataclass(Settings, data.get("settings") or {}, "settings")
    for name in ("pull_timeout", "push_timeout", "lock_timeout", "network_timeout", "push_retries"):
        if getattr(settings, name) <= 0:
            raise ConfigValueError(f"settings.{name}", "must be above 0")
        if getattr(settings, name) > _MOST:
            # A thread's wait overflows near 2**63 ns; no sync should wait a day anyway.
            raise ConfigValueError(f"settings.{name}", f"must be at most {_MOST:,} (a day)")
    return Config(stores=stores, projects=projects, settings=settings)


_SHARED_PROBLEM = (
    "is the private store's repository too: private memories (`type: user` ones, secrets a "
    "private store only warns about) would reach the team; give each its own repository"
)


def scopes_sharing_a_repository(stores: Iterable[StoreConfig]) -> StoreConfig | None:
    """The team store whose repository is also the private store's, if any (SPEC 1: `user`
    memories never reach a team repository)."""
    from memsync.model.paths import normalize_url

    private = {normalize_url(s.url) for s in stores if s.scope == "private"}
    return next((s for s in stores if s.scope == "team" and normalize_url(s.url) in private), None)


def config_to_data(config: Config) -> dict[str, Any]:
    """Plain data for the YAML file."""
    projects: dict[str, Any] = {}
    for root, project in sorted(config.projects.items()):
        entry: dict[str, Any] = {"key": project.key}
        if project.identity is not None:
            entry["identity"] = {k: v for k, v in vars(project.identity).items() if v}
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
