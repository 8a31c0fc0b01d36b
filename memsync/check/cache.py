"""Findings remembered per file, so `memsync check` does not check an unchanged memory again.

`check` runs in pre-commit hooks and CI steps on folders that barely change between runs, and
most of its time goes to the secret scanner and the date grammar (compiling their patterns,
then matching), file by file. A file's single-file findings depend only on its bytes, its
path in the report, its scope and memsync's own code, so they are kept in
`<data dir>/cache/check.json` under the SHA-256 of the first three, with a fingerprint of the
code (the size and mtime of every memsync module): any change to memsync forgets them all.
The rules across files (index links, unindexed memories, duplicates) always run. What is
kept was redacted when it was found (`Finding` redacts every finding). Deleting the file
resets the cache; one that cannot be read or written only makes `check` slower.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from memsync.check.findings import Finding
from memsync.model.digest import sha256_hex

# Entries kept: enough for every memory of a large store, bounded for a file read each run.
MAX_ENTRIES = 20_000
_PACKAGE = Path(__file__).resolve().parent.parent


def code_fingerprint() -> str:
    """A digest of every memsync module's path, size and mtime: which code made a finding."""
    stats = []
    folders = [str(_PACKAGE)]
    while folders:  # os.scandir: a run pays for this on every check, pathlib costs more
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                    folders.append(entry.path)
                elif entry.name.endswith(".py"):
                    info = entry.stat()
                    stats.append(f"{entry.path}:{info.st_size}:{info.st_mtime_ns}")
    return sha256_hex("\n".join(sorted(stats)).encode("utf-8"))


class FindingCache:
    """The remembered findings of one run: read once, written back once if they changed."""

    def __init__(self, path: Path | None, code: str, entries: dict[str, list[list[object]]]):
        self._path = path
        self._code = code
        self._before = entries
        self._used: dict[str, list[list[object]]] = {}
        self.hits = 0

    @classmethod
    def open(cls, path: Path | None = None) -> FindingCache:
        """The cache at PATH (default: the data dir's); an unreadable one starts empty."""
        code = code_fingerprint()
        try:
            if path is None:
                from memsync.dirs import data_dir

                path = data_dir() / "cache" / "check.json"
            stored = json.loads(path.read_text(encoding="utf-8"))
            entries = stored["entries"] if stored.get("code") == code else {}
            if not isinstance(entries, dict):
                entries = {}
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            entries = {}
        return cls(path, code, entries)

    def findings(
        self, path: str, scope: str, data: bytes, compute: Callable[[], list[Finding]]
    ) -> list[Finding]:
        """PATH's findings for DATA in SCOPE: remembered, else COMPUTE's (then remembered)."""
        key = sha256_hex(f"{scope}\0{path}\0".encode() + data)
        rows = self._before.get(key)
        if rows is not None:
            try:
                found = [_finding(row) for row in rows]
            except (TypeError, ValueError):
                found = None  # another version's layout: check the file again
            if found is not None:
                self.hits += 1
                self._used[key] = rows
                return found
        found = compute()
        self._used[key] = [[f.path, f.line, f.rule, f.severity, f.message, f.column] for f in found]
        return found

    def save(self) -> None:
        """Write what this run used back (with older entries up to MAX_ENTRIES); never raises."""
        if self._path is None or all(self._before.get(k) == v for k, v in self._used.items()):
            return  # nothing new to remember
        entries = dict(self._used)
        for key, rows in self._before.items():
            if len(entries) >= MAX_ENTRIES:
                break
            entries.setdefault(key, rows)
        try:
            from memsync.fsutil.atomic import atomic_write_text

            self._path.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps({"code": self._code, "entries": entries})
            atomic_write_text(self._path, text, durable=False)  # a lost cache is rebuilt
        except OSError:
            return


def _finding(row: object) -> Finding:
    """A remembered finding (TypeError or ValueError for anything else)."""
    if not isinstance(row, list) or len(row) != 6:
        raise ValueError("not a remembered finding")
    path, line, rule, severity, message, column = row
    if not (isinstance(line, int) and isinstance(column, int)):
        raise ValueError("not a remembered finding")
    if severity not in ("error", "warning"):
        raise ValueError("not a remembered finding")
    return Finding.remembered((str(path), line, str(rule), severity, str(message), column))
