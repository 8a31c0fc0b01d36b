"""Where memsync keeps its own files: the config file and the data directory (SPEC section 2).

Apart from `memsync.config`, which re-exports them, commands that only need the data
directory (`check`'s cache) read it here without loading the config schema.
May import nothing of memsync.
"""

from __future__ import annotations

import os
from pathlib import Path


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
