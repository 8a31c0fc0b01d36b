"""Which scope a store repository holds, from memsync's config or the team scaffold.

One rule for `memsync check` on a checkout and `memsync review` on a repository.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from memsync.model.safety import Scope

SCAFFOLD_WORKFLOW = ".github/workflows/memsync-check.yml"


def store_scope(repo: Path, paths: Collection[str], attributes: bytes | None) -> Scope:
    """A store repository's scope: memsync's config for its origin, else team when scaffolded.

    The origin matches a configured store by normalised URL (any spelling); a repository
    memsync does not know is a team one when it carries the scaffold's check workflow
    (among PATHS) or `merge=memsync` in its `.gitattributes` (ATTRIBUTES), else private.
    """
    from memsync.config import load_config
    from memsync.model.paths import normalize_url, origin_url

    url = origin_url(repo)
    if url:
        wanted = normalize_url(url, repo)
        for store in load_config().stores.values():
            if normalize_url(store.url) == wanted:
                return store.scope
    if SCAFFOLD_WORKFLOW in paths or (attributes is not None and b"merge=memsync" in attributes):
        return "team"
    return "private"
