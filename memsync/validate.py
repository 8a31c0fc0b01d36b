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


_MARKERS = ("<<<<<<< ", ">>>>>>> ", "|||||||")


def file_problems(path: str, data: bytes, scope: str) -> list[tuple[str, Problem]]:
    """(severity, problem) for one file's own content, by the SPEC section 6 rules."""
    from memsync.limits import MAX_MEMORY_BYTES
    from memsync.memory import FrontmatterProblem, parse_memory
    from memsync.secrets import scan_text

    found: list[tuple[str, Problem]] = []

    def add(severity: str, line: int, rule: str, message: str) -> None:
        found.append((severity, Problem(path, line, rule, message)))

    if len(data) > MAX_MEMORY_BYTES:
        add("error", 1, "file-too-large", f"{len(data):,} bytes, over 250,000")
    memory = parse_memory(data, path)
    if memory.decode_error:
        add("error", 1, "not-utf8", memory.decode_error)
    for number, line in enumerate(memory.text.split("\n"), start=1):
        if line.startswith(_MARKERS) or line.rstrip() in ("<<<<<<<", ">>>>>>>", "======="):
            add("error", number, "conflict-marker", "a merge conflict marker")
    for finding in scan_text(memory.text, path):
        add("error", finding.line, "secret", f"a secret ({finding.rule_id}): {finding.preview}")
    if path.rsplit("/", 1)[-1] == INDEX_NAME:
        return found
    if memory.problem is FrontmatterProblem.MISSING:
        severity = "error" if scope == "team" else "warning"
        add(severity, 1, "frontmatter-missing", "no frontmatter")
    elif memory.problem is not None:
        add("error", memory.problem_line or 1, "frontmatter-invalid", memory.problem_detail or "")
    elif memory.type is None:
        add("error", 2, "type-missing", "no `type` field")
    elif not memory.type_is_valid:
        add("error", 2, "type-unknown", f"unknown type {memory.type!r}")
    elif memory.type == "user" and scope == "team":
        add("error", 2, "user-in-team", "`type: user` memories never go to a team store")
    return found


def validate_edit(
    path: str, data: bytes, scope: str, settings: Settings
) -> tuple[list[Problem], list[Problem]]:
    """(blocking problems, warnings) for one locally changed file about to be committed."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    for severity, problem in file_problems(path, data, scope):
        blocking = severity == "error"
        if problem.rule == "secret" and scope == "private":
            blocking = settings.private_secrets == "block"
        elif scope == "private" and problem.rule != "conflict-marker":
            # Everything Claude Code can load must survive a private sync.
            blocking = False
        (errors if blocking else warnings).append(problem)
    return errors, warnings
