"""What may be pushed: SPEC section 6 rules applied to the memories a push sends."""

from __future__ import annotations

from dataclasses import dataclass

from memsync.config import Settings
from memsync.limits import INDEX_NAME


@dataclass(frozen=True)
class Problem:
    """A reason a file may not (or should not) be pushed; never contains a secret."""

    path: str
    line: int
    rule: str
    message: str

    def describe(self) -> str:
        """`team/ci.md:3: secret (github-pat): …`."""
        return f"{self.path}:{self.line}: {self.message} [{self.rule}]"


def validate_edit(
    path: str, data: bytes, scope: str, settings: Settings
) -> tuple[list[Problem], list[Problem]]:
    """(blocking problems, warnings) for one locally changed file about to be committed."""
    from memsync.checks import check_file

    errors: list[Problem] = []
    warnings: list[Problem] = []
    is_index = path.rsplit("/", 1)[-1] == INDEX_NAME
    for finding in check_file(path, data, scope, index=is_index):
        problem = Problem(finding.path, finding.line, finding.rule, finding.message)
        blocking = finding.severity == "error"
        if finding.rule == "secret" and scope == "private":
            blocking = settings.private_secrets == "block"
        elif scope == "private" and finding.rule != "conflict-marker":
            # Everything Claude Code can load must survive a private sync.
            blocking = False
        (errors if blocking else warnings).append(problem)
    return errors, warnings
