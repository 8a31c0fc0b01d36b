"""What memsync last wrote into a live memory directory, to tell local edits from remote ones."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memsync.fsutil.atomic import atomic_write_text
from memsync.git import blob_sha


@dataclass(frozen=True)
class Manifest:
    """Per file, the blob id the live file had when memsync last synced it."""

    live_dir: str
    store: str
    subdir: str
    files: Mapping[str, str] = field(default_factory=dict)
    commit: str | None = None
    last_sync: float | None = None
    last_push: float | None = None
    # The live directory holds exactly the store's files at COMMIT (nothing kept, skipped or
    # refused), so a run that finds COMMIT unchanged and no local edit has nothing to write.
    clean: bool = False


def manifest_path(data_dir: Path, store: str, live_dir: Path) -> Path:
    """Where the manifest of one live directory for one store is kept."""
    import hashlib

    digest = hashlib.sha256(str(live_dir).encode("utf-8")).hexdigest()[:20]
    return data_dir / "manifests" / store / f"{digest}.json"


def load_manifest(path: Path, live_dir: Path, store: str, subdir: str) -> Manifest:
    """Read a manifest; a missing or corrupt one means nothing was synced yet."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("subdir") != subdir:
            # The project now maps to another folder of the store: start afresh.
            raise ValueError("subdir changed")
        return Manifest(
            live_dir=str(live_dir),
            store=store,
            subdir=subdir,
            files={str(k): str(v) for k, v in data["files"].items()},
            commit=data.get("commit"),
            last_sync=data.get("last_sync"),
            last_push=data.get("last_push"),
            clean=data.get("clean") is True,
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return Manifest(live_dir=str(live_dir), store=store, subdir=subdir)


def save_manifest(path: Path, manifest: Manifest) -> None:
    """Write a manifest atomically (a crash leaves the old one or the new one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "live_dir": manifest.live_dir,
        "store": manifest.store,
        "subdir": manifest.subdir,
        "commit": manifest.commit,
        "last_sync": manifest.last_sync,
        "last_push": manifest.last_push,
        "clean": manifest.clean,
        "files": dict(sorted(manifest.files.items())),
    }
    atomic_write_text(path, json.dumps(data, indent=1))


def hashes(files: Mapping[str, bytes]) -> dict[str, str]:
    """Blob ids of file contents."""
    return {path: blob_sha(data) for path, data in files.items()}
