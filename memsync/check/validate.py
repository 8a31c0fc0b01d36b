"""What may be pushed: SPEC section 6 rules applied to the memories a push sends."""

from __future__ import annotations

from memsync.check.findings import Finding
from memsync.config import Settings
from memsync.model.safety import is_index_path

# Claude Code loads everything in a private store, so there only these block a push.
_PRIVATE_BLOCKING = frozenset({"conflict-marker"})


def validate_edit(
    path: str, data: bytes, scope: str, settings: Settings
) -> tuple[list[Finding], list[Finding]]:
    """(blocking findings, warnings) for one locally changed file about to be committed."""
    from memsync.check.rules import check_file

    errors: list[Finding] = []
    warnings: list[Finding] = []
    is_index = is_index_path(path)
    for finding in check_file(path, data, scope, index=is_index):
        blocking = finding.severity == "error"
        if scope == "private":
            if finding.rule == "secret":
                blocking = settings.private_secrets == "block"
            else:
                blocking = finding.rule in _PRIVATE_BLOCKING
        (errors if blocking else warnings).append(finding)
    return errors, warnings
