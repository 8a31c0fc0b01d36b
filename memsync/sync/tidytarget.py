"""What `memsync consolidate` works on: the folder, and the store history that dates its lines.

Without a PATH it is this project's memory folder (or, with `--all`, the store checkout around
the current directory). A live memory folder is not itself in git, but the store clone that
syncs it is: its `git blame` dates each line by when it was written, not by file times.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memsync.errors import MemsyncError, UsageError


@dataclass(frozen=True)
class ConsolidateTarget:
    """The folder to consolidate and, for a synced live folder, (store clone, project prefix)."""

    path: Path
    history: tuple[Path, str] | None


def consolidate_target(path: Path | None, all_projects: bool, project: Path) -> ConsolidateTarget:
    """Resolve what to consolidate: PATH, the store checkout around PROJECT, or its memory."""
    folder = path if path is not None else _default_folder(all_projects, project)
    return ConsolidateTarget(folder, None if all_projects else store_history(folder))


def _default_folder(all_projects: bool, project: Path) -> Path:
    from memsync.model.paths import find_git_root, memory_dir_for, project_root

    if all_projects:
        # As with `memsync check --all`: the store checkout is the git work tree around here.
        found = find_git_root(project)
        if found is None:
            raise UsageError(
                f"--all consolidates every project folder of a store checkout, and "
                f"{project.resolve()} is not inside a git work tree",
                hint="Run it inside a clone of a memory repository, or pass its PATH.",
            )
        return found[0]
    memory = memory_dir_for(project_root(project), project)
    if not memory.is_dir():
        raise UsageError(
            f"no memory folder for this project at {memory}",
            hint="Pass the folder to consolidate, e.g. `memsync consolidate PATH`.",
        )
    return memory


def store_history(path: Path) -> tuple[Path, str] | None:
    """The store clone and prefix holding the history of PATH when it is a synced live memory
    folder (not itself in git); None for anything else or without a usable configuration."""
    from memsync.config import load_config
    from memsync.model.paths import find_git_root
    from memsync.model.safety import SCOPES

    if not path.is_dir() or find_git_root(path) is not None:
        return None
    try:
        config = load_config()
    except (MemsyncError, OSError):
        return None  # no usable configuration: consolidate without the store's history
    from memsync.sync.binding import resolve_bindings

    target = path.resolve()
    for root in config.projects:
        try:
            _, bindings = resolve_bindings(config, Path(root), SCOPES)
        except (MemsyncError, OSError):
            continue
        for binding in bindings:
            if binding.live_dir.resolve() == target and binding.clone_dir.is_dir():
                return binding.clone_dir, binding.prefix
    return None
