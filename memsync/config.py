"""memsync's own configuration file and data directory (SPEC section 2).

The file is read against the schema of `memsync.configschema` (re-exported here), and an
unchanged file is rebuilt from a cache of what it validated to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path

from memsync.configschema import (
    Config,
    ConfigValueError,
    ProjectConfig,
    ProjectIdentity,
    Settings,
    StoreConfig,
    StoreFolder,
    config_from_data,
    config_to_data,
)
from memsync.dirs import config_path, data_dir
from memsync.errors import UsageError
from memsync.fsutil.reads import read_regular

_CONFIG_LIMIT = 1 << 20  # a config of a megabyte is no config
# Raise when validation tightens (2: finite numbers, timeouts at most a day).
_RULES_VERSION = 2

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any

__all__ = [  # the schema's names are re-exported: callers read the config from here
    "CONFIG_HEADER",
    "Config",
    "ConfigValueError",
    "ProjectConfig",
    "ProjectIdentity",
    "Settings",
    "StoreConfig",
    "StoreFolder",
    "config_from_data",
    "config_path",
    "config_to_data",
    "data_dir",
    "load_config",
    "save_config",
]

CONFIG_HEADER = """\
# memsync configuration: human-readable, safe to edit by hand.
# stores:   one entry per memory repository (scope private or team, remote url)
# projects: one entry per code project root on this machine: its key, the identity it
#           was bound with (origin URL, else root commit, else folder name) and, per scope,
#           which store it uses and the folder inside that store ("." = repository root)
# settings: hook time limits in seconds, what to do with secrets in private stores
#           (warn or block), bounded retries when another push wins the race, how long
#           a fetch or push may take outside hooks (network_timeout)
"""


# `init` reads the config too, so it refuses a broken one: only a file moved away is remade.
_BROKEN_CONFIG_HINT = (
    "Else move it away and run `memsync init` again in each project it configured "
    "(the stores keep every memory)."
)


def load_config(path: Path | None = None) -> Config:
    """Read and validate the config file; a missing file is an empty configuration.

    Every Claude Code session start reads the config. What a file's text validated to is
    kept in a JSON cache keyed by the text's digest and the schema, so an unchanged file
    costs neither the YAML parser (a fifth of that hook's start-up) nor the schema check
    (typing's hint evaluation, another twentieth): the cached form is rebuilt as it was.
    """
    path = path or config_path()
    try:
        # Not read_text: a FIFO in its place would hang every session start (hooks included).
        text = read_regular(path, follow=True, limit=_CONFIG_LIMIT).decode("utf-8")
    except FileNotFoundError:
        return Config()
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise UsageError(
            f"cannot read the config file {path}: not valid UTF-8 (line {line}, byte {exc.start})",
            hint="Save it as UTF-8, then run the command again.",
        ) from exc
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UsageError(f"cannot read the config file {path}: {reason}") from exc
    import json

    from memsync.model.digest import sha256_hex

    key = [sha256_hex(text.encode("utf-8")), _schema_id()]
    cache = data_dir() / "cache" / "config.json"
    try:
        cached = json.loads(read_regular(cache, limit=_CONFIG_LIMIT))
        if cached.get("key") == key:
            config = _rebuild(cached["config"])
            if isinstance(config, Config):
                return config
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        pass  # no cache, another file's or a damaged one: read the file itself
    try:
        config = config_from_data(_parsed(text, path))
    except ConfigValueError as exc:
        raise UsageError(
            f"the config file {path} is invalid: `{exc.key}` {exc.problem}",
            hint="Fix that key by hand (the file's header comment describes each section). "
            + _BROKEN_CONFIG_HINT,
        ) from exc
    try:
        from memsync.fsutil.atomic import atomic_write_text

        # Not fsynced: a cache lost to a crash is rebuilt from the config file.
        entry = {"key": key, "config": _flatten(config)}
        atomic_write_text(cache, json.dumps(entry), durable=False)
    except (OSError, TypeError, ValueError):
        pass  # no cache (read-only data dir): validate every time
    return config


_SCHEMA = (Settings, StoreConfig, StoreFolder, ProjectIdentity, ProjectConfig, Config)
_BY_NAME = {cls.__name__: cls for cls in _SCHEMA}


def _schema_id() -> str:
    """The schema's classes and fields and the version of its rules: a cache written by
    another version is not read (a config validated before the rules tightened, a
    `network_timeout` of a million seconds, would otherwise still load)."""
    shape = ";".join(f"{c.__name__}:{','.join(f.name for f in fields(c))}" for c in _SCHEMA)
    return f"{shape};rules:{_RULES_VERSION}"


def _flatten(value: Any) -> Any:
    """A validated config as JSON data: each dataclass as [class name, {field: value}]."""
    if is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        return [name, {f.name: _flatten(getattr(value, f.name)) for f in fields(value)}]
    if isinstance(value, Mapping):
        return {str(k): _flatten(v) for k, v in value.items()}
    return value


def _rebuild(value: Any) -> Any:
    """What `_flatten` wrote, rebuilt (TypeError or KeyError for anything else)."""
    if isinstance(value, list):
        name, values = value
        return _BY_NAME[name](**{k: _rebuild(v) for k, v in values.items()})
    if isinstance(value, dict):
        return {k: _rebuild(v) for k, v in value.items()}
    return value


def _parsed(text: str, path: Path) -> Any:
    """The YAML of TEXT."""
    import yaml

    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise UsageError(
            f"the config file {path} is not valid YAML: {exc}",
            hint="Fix it by hand. " + _BROKEN_CONFIG_HINT,
        ) from exc
    return data


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
