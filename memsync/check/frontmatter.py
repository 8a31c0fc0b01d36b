"""The rules on a memory's frontmatter and size, read as the client reads them.

`type` is `metadata.type`, else the top-level `type` (`memory_type`, the one accessor);
YAML the client reads only after its quoting retry is a warning; a memory over the 4 KB
that recall shows is a warning.
"""

from __future__ import annotations

from memsync.check.findings import Finding, Severity, finding
from memsync.model.limits import MEMORY_TYPES, RECALL_MAX_BYTES
from memsync.model.memory import FrontmatterProblem, Memory, key_line, memory_type, top_level_key
from memsync.model.safety import PERSONAL_ADVICE, personal_in_team

_TYPES = ", ".join(MEMORY_TYPES)


def recall_size(memory: Memory) -> list[Finding]:
    """A warning when recall would cut MEMORY: its line holding the first byte not shown."""
    if len(memory.raw) <= RECALL_MAX_BYTES:
        return []
    message = (
        f"{len(memory.raw):,} bytes: Claude Code's recall shows only the first "
        f"{RECALL_MAX_BYTES:,}; split it or move detail out"
    )
    line = memory.raw.count(b"\n", 0, RECALL_MAX_BYTES) + 1
    return [finding("memory-over-recall-size", memory.path, line, message)]


def frontmatter_findings(memory: Memory, scope: str) -> list[Finding]:
    """Frontmatter, type, scope and description rules for one parsed memory."""
    path, problem = memory.path, memory.problem
    if problem is FrontmatterProblem.MISSING:
        severity: Severity = "error" if scope == "team" else "warning"
        message = "no frontmatter: start the file with name, description and type between `---`"
        return [finding("frontmatter-missing", path, 1, message, severity=severity)]
    if problem is FrontmatterProblem.UNTERMINATED:
        message = "frontmatter has no closing `---` within the first 30 lines"
        return [finding("frontmatter-invalid", path, 1, message)]
    if problem is FrontmatterProblem.UNPARSABLE:
        message = f"frontmatter is not valid YAML: {memory.problem_detail}"
        return [finding("frontmatter-invalid", path, memory.problem_line or 2, message)]
    if problem is FrontmatterProblem.NOT_MAPPING:
        message = f"frontmatter must be `key: value` fields ({memory.problem_detail})"
        return [finding("frontmatter-not-mapping", path, 2, message)]
    found: list[Finding] = []
    if memory.lenient_line is not None:
        message = (
            "frontmatter is not valid YAML; Claude Code still reads it after quoting the value: "
            "put the value in double quotes"
        )
        found.append(finding("frontmatter-lenient", path, memory.lenient_line, message))
    fields = memory.fields
    value, where = memory_type(fields)
    label = ".".join(where or ("metadata", "type"))
    line = key_line(memory.frontmatter_text, where) or 1 if where else 1
    if value is None or value == "":
        message = f"no `type`: add `type:` under `metadata:` with one of {_TYPES}"
        found.append(finding("type-missing", path, line, message))
    elif value not in MEMORY_TYPES:
        message = f"unknown `{label}` {_shown(value)}: use one of {_TYPES}"
        found.append(finding("type-unknown", path, line, message))
    elif personal_in_team(value, scope):
        message = f"`{label}: user` {PERSONAL_ADVICE}"
        found.append(finding("user-in-team", path, line, message))
    description = fields.get("description")
    if "description" not in fields:
        found.append(finding("empty-description", path, 1, "no `description`"))
    elif not isinstance(description, str) or not description.strip():
        line = field_line(memory, "description")
        found.append(finding("empty-description", path, line, "`description` is empty"))
    return found


def _shown(value: object) -> str:
    """A frontmatter value in a message: short, and never a Python repr of a date or a list."""
    import json

    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return repr(text if len(text) <= 40 else text[:39] + "…")


def field_line(memory: Memory, key: str) -> int:
    """1-based file line of a top-level frontmatter KEY (the opening fence if not found)."""
    for number, line in enumerate((memory.frontmatter_text or "").split("\n"), 2):
        if top_level_key(line) == key:
            return number
    return 1
