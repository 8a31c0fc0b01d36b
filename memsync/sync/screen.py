"""Which local edits may leave this machine: validation, secrets, and what rides with them.

Every edit about to be committed into a store clone is validated as `check` would (SPEC
§6): one with an error (a secret, `type: user` in a team store, conflict markers) is held
back, with the findings told to the person; a finding already on the remote says so
(`sync.arrived`). What is held back keeps its index line local too (`sync.holdback`), or
the store's index would link to nothing. Imports `memsync.check` (lazily: only when there
are edits) and the sync modules named here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from memsync import git
from memsync.sync import arrived, store
from memsync.sync.store import Heads
from memsync.sync.storerun import StoreRun

if TYPE_CHECKING:
    from memsync.check.findings import Finding


def screen_edits(
    run: StoreRun,
    changes: Mapping[str, bytes | None],
    heads: Heads,
    current: Mapping[str, git.TreeEntry],
) -> dict[str, bytes | None]:
    """The CHANGES that may be committed (deletions always may); the rest noted on RUN."""
    binding = run.binding
    allowed: dict[str, bytes | None] = {}
    blocked: list[Finding] = []
    warnings: list[Finding] = []
    for path, data in sorted(changes.items()):
        if data is None:
            allowed[path] = None
            continue
        from memsync.check.validate import validate_edit  # only when there are edits

        errors, warns = validate_edit(path, data, binding.scope, run.settings)
        warnings.extend(warns)
        if errors:
            blocked.extend(errors)
        else:
            allowed[path] = data
    told = arrived.on_remote(binding, heads.remote or heads.local, blocked, changes)
    run.note(blocked=told, warnings=run.report.warnings + tuple(warnings))
    if not allowed:
        return allowed
    # Held back for any reason, failing validation or skipped by the scan (a case twin of a
    # store file): its index line stays local with it, or the store's index links to nothing.
    held_back = {f.path for f in blocked} | run.unreadable
    if held_back:
        from memsync.sync.holdback import hold_back

        # The store's README.md at a `--subdir .` root is the repository's, not the memory.
        stored = [p for p in current if store.is_memory_file(binding, p)]
        allowed, run.held = hold_back(allowed, held_back, stored)
    return allowed
