"""Validation findings, the rule catalogue, and the report formats of `memsync check`."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from memsync import __version__
from memsync.model.limits import INDEX_NAME

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any, Literal

    from memsync.model.safety import Skipped

    Severity = Literal["error", "warning"]
else:
    Severity = str  # for annotations only

FORMATS = ("text", "json", "sarif", "github")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


# How a secret finding about a file's name says so (sync.outcome gives it its own fix).
IN_FILE_NAME = "in the file name"
# Said of a secret whose line the store's remote already holds (`sync.arrived.on_remote`).
ON_REMOTE = "already on the remote"


@dataclass(frozen=True)
class Rule:
    """One validation rule: a stable id, its severity, and what to do about it."""

    id: str
    severity: Severity
    title: str
    help: str


# fmt: off
RULES: tuple[Rule, ...] = (
    Rule("frontmatter-missing", "error", "Memory without frontmatter",
         "Start the file with `---`, `name:`, `description:`, `type:` and `---`. Claude Code "
         "loads it anyway, but cannot tell what it is for; in a team store this is an error, "
         "in a private one a warning."),
    Rule("frontmatter-invalid", "error", "Frontmatter is not valid YAML",
         "Fix the YAML between the `---` lines (quote values that contain `: ` or start with "
         "a special character) and close it with `---` within the first 30 lines."),
    Rule("frontmatter-lenient", "warning", "Frontmatter YAML only the client's retry reads",
         "The YAML does not parse as written (typically an unquoted `: ` inside a value); "
         "Claude Code reads it after quoting the value, other tools do not: put the value in "
         "double quotes."),
    Rule("frontmatter-not-mapping", "error", "Frontmatter is not a mapping",
         "The frontmatter must be `key: value` lines, not a list or a plain string."),
    Rule("type-missing", "error", "Memory without a type",
         "Add `type:` with one of user, feedback, project, reference."),
    Rule("type-unknown", "error", "Unknown memory type",
         "Use one of Claude Code's four types: user, feedback, project, reference."),
    Rule("user-in-team", "error", "Personal memory in a team store",
         "`type: user` memories describe one person and are always private: move the file to "
         "your private memory, or change its type if it is about the project."),
    Rule("secret", "error", "Possible secret",
         "Remove the credential (and rotate it if it was ever pushed). If it is not a secret, "
         "add `memsync:allow-secret` to the line."),
    Rule("conflict-marker", "error", "Conflict marker",
         "Resolve the merge by hand: keep the right lines and delete the `<<<<<<<`, "
         "`=======` and `>>>>>>>` lines."),
    Rule("file-too-large", "error", "File over 250,000 bytes",
         "memsync never syncs a file this large (Claude Code's team sync skips them too): "
         "split the memory into smaller ones."),
    Rule("unreadable-file", "error", "File memsync cannot read",
         "Make the file readable (`chmod u+r` it, or fix its owner): memsync never syncs a "
         "file it cannot read, and leaves the store's copy as it is."),
    Rule("not-utf8", "error", "File is not UTF-8",
         "Save the file as UTF-8: memsync never syncs other encodings."),
    Rule("unsafe-path", "error", "Unsafe path",
         "Rename or remove it: memsync never syncs symlinks, special files, or names with "
         "`..`, backslashes, control characters or absolute parts."),
    Rule("case-collision", "error", "Names that differ only by case",
         "Two files would be one on macOS and Windows: rename or merge one of them."),
    Rule("index-too-many-lines", "error", "Index over 200 lines",
         "Claude Code loads only the first 200 lines of MEMORY.md: run `memsync consolidate` "
         "or shorten the index."),
    Rule("index-too-many-chars", "error", "Index over 25,000 characters",
         "Claude Code loads only the first 25,000 characters of MEMORY.md: run `memsync "
         "consolidate` or shorten the index lines."),
    Rule("index-dangling-link", "error", "Index line links to a missing file",
         "Remove the line from MEMORY.md or restore the memory it points to."),
    Rule("index-outside-link", "warning", "Index line links out of the memory folder",
         "memsync never reads or syncs a file outside the memory folder: move the file into "
         "the folder and link it by its name if other machines need it."),
    Rule("index-missing-entry", "warning", "Memory not in the index",
         "Add a line `- [Title](file.md) — one-line hook` to MEMORY.md, or Claude Code will "
         "rarely recall it (`memsync consolidate` does this)."),
    Rule("index-line-too-long", "warning", "Index line over 150 characters",
         "Keep each index line a short hook under 150 characters; details belong in the memory."),
    Rule("index-duplicate-line", "warning", "Duplicate index line",
         "Keep one line per memory in MEMORY.md."),
    Rule("relative-date", "warning", "Relative date",
         "Write an absolute date (2026-03-05): `yesterday` means nothing a week later. "
         "`memsync consolidate` rewrites them."),
    Rule("duplicate-memory", "warning", "Duplicate memory",
         "Two memories have the same body: delete one (and its index line), or run "
         "`memsync consolidate`."),
    Rule("memory-over-recall-size", "warning", "Memory over 4,096 bytes",
         "Claude Code's recall shows only the first 4,096 bytes of a memory: split it into "
         "smaller memories or move detail elsewhere."),
    Rule("index-near-limit", "warning", "Index at 80 % of a limit",
         "MEMORY.md has 160 or more of its 200 lines, or 20,000 or more of its 25,000 "
         "characters (Claude Code then asks the model to compact it): run `memsync "
         "consolidate` or shorten the index."),
    Rule("empty-description", "warning", "Empty description",
         "Give the memory a one-line `description:`: Claude Code uses it to decide when the "
         "memory is relevant."),
)
# fmt: on
RULES_BY_ID: Mapping[str, Rule] = {rule.id: rule for rule in RULES}


@dataclass(frozen=True)
class Finding:
    """One problem: where it is (path relative to the report base, 1-based line) and why."""

    path: str
    line: int
    rule: str
    severity: Severity
    message: str
    column: int = 1

    def __post_init__(self) -> None:
        # Messages and paths quote file content (`unknown type 'AKIA…'`): every report
        # format (text, json, sarif, github) shows them redacted, never the secret.
        from memsync.check.secrets import redact

        object.__setattr__(self, "message", redact(self.message))
        object.__setattr__(self, "path", redact(self.path))

    @classmethod
    def remembered(cls, values: tuple[str, int, str, Severity, str, int]) -> Finding:
        """A finding as this class made it before (memsync.check.cache), from its VALUES in
        field order: already redacted, so not scanned again."""
        made = object.__new__(cls)
        names = ("path", "line", "rule", "severity", "message", "column")
        for name, value in zip(names, values, strict=True):
            object.__setattr__(made, name, value)
        return made

    def describe(self) -> str:
        """`team/ci.md:3: error: message [rule]`, on one line whatever the file is called."""
        from memsync.check.printable import escape_controls

        # A name holding `\n::warning::…` would start a line of its own: in a CI log, a
        # workflow command (found by an adversarial team review).
        path = escape_controls(self.path).replace("\n", "\\n").replace("\t", "\\t")
        return f"{path}:{self.line}: {self.severity}: {self.message} [{self.rule}]"


def finding(
    rule: str,
    path: str,
    line: int,
    message: str,
    *,
    column: int = 1,
    severity: Severity | None = None,
) -> Finding:
    """A finding of RULE with its default severity unless one is given."""
    return Finding(
        path=path,
        line=max(line, 1),
        rule=rule,
        severity=severity or RULES_BY_ID[rule].severity,
        message=message,
        column=max(column, 1),
    )


@dataclass(frozen=True)
class CheckedTree:
    """One directory that was checked, how its files are named, and in which scope."""

    root: str
    prefix: str
    scope: str


@dataclass(frozen=True)
class CheckReport:
    """Everything `memsync check` found, with paths relative to BASE."""

    base: str
    findings: tuple[Finding, ...]
    files_checked: int
    trees: tuple[CheckedTree, ...] = ()

    @property
    def counts(self) -> dict[str, int]:
        """Number of findings by severity."""
        errors = sum(1 for f in self.findings if f.severity == "error")
        return {"error": errors, "warning": len(self.findings) - errors}

    @property
    def has_errors(self) -> bool:
        """Whether any finding is an error (exit status 1)."""
        return any(f.severity == "error" for f in self.findings)


def sort_findings(findings: list[Finding]) -> tuple[Finding, ...]:
    """Findings in reading order: by file, line, column, then rule."""
    return tuple(sorted(set(findings), key=lambda f: (f.path, f.line, f.column, f.rule)))


def summary_line(report: CheckReport) -> str:
    """`2 errors, 1 warning in 14 files`."""
    counts = report.counts
    parts = [_plural(counts["error"], "error"), _plural(counts["warning"], "warning")]
    return f"{', '.join(parts)} in {_plural(report.files_checked, 'file')}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def render(report: CheckReport, fmt: str) -> str:
    """The report in one of FORMATS, ending with a newline."""
    import json  # only the machine formats need it: `check` in a hook prints text

    if fmt == "json":
        return json.dumps(to_json(report), indent=2, ensure_ascii=False) + "\n"
    if fmt == "sarif":
        return json.dumps(to_sarif(report), indent=2, ensure_ascii=False) + "\n"
    if fmt == "github":
        return "".join(github_command(f) + "\n" for f in report.findings)
    lines = [finding.describe() for finding in report.findings]
    lines.append(f"{summary_line(report)} ({report.base})")
    return "\n".join(lines) + "\n"


def to_json(report: CheckReport) -> dict[str, Any]:
    """Plain data for `--format json`."""
    return {
        "version": 1,
        "base": report.base,
        "files_checked": report.files_checked,
        "counts": report.counts,
        "trees": [vars(tree) for tree in report.trees],
        "findings": [
            {
                "path": f.path,
                "line": f.line,
                "column": f.column,
                "rule": f.rule,
                "severity": f.severity,
                "message": f.message,
            }
            for f in report.findings
        ],
    }


def to_sarif(report: CheckReport) -> dict[str, Any]:
    """A SARIF 2.1.0 log for GitHub code scanning: rules with help, results with locations."""
    index = {rule.id: i for i, rule in enumerate(RULES)}
    rules = [
        {
            "id": rule.id,
            "name": "".join(part.capitalize() for part in rule.id.split("-")),
            "shortDescription": {"text": rule.title},
            "fullDescription": {"text": rule.help},
            "help": {"text": rule.help, "markdown": rule.help},
            "defaultConfiguration": {"level": rule.severity},
            "properties": {"tags": ["memsync", "claude-code-memory"]},
        }
        for rule in RULES
    ]
    results = [
        {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": f.severity,
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": quote(f.path), "uriBaseId": "SRCROOT"},
                        "region": {"startLine": f.line, "startColumn": f.column},
                    }
                }
            ],
        }
        for f in report.findings
    ]
    base_uri = Path(report.base).resolve().as_uri().rstrip("/") + "/"
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "memsync",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"SRCROOT": {"uri": base_uri}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def github_command(finding: Finding) -> str:
    """A GitHub Actions workflow command that annotates the file and line."""
    title = RULES_BY_ID[finding.rule].title
    props = ",".join(
        f"{key}={_escape_property(value)}"
        for key, value in (
            ("file", finding.path),
            ("line", str(finding.line)),
            ("col", str(finding.column)),
            ("title", f"memsync: {title} [{finding.rule}]"),
        )
    )
    return f"::{finding.severity} {props}::{_escape_data(finding.message)}"


def _escape_data(text: str) -> str:
    # The runner's own escaping rules (toolkit/core/src/command.ts).
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


_REASON_LINE = re.compile(r"\(line (\d+)")


def skip_finding(skipped: Skipped, path: str) -> Finding:
    """The finding for a file the SPEC 2 filter refused: its rule carries the fix."""
    reason = skipped.reason
    never = f"{reason}: memsync never syncs it"
    if reason.startswith("over "):  # the index's fix is consolidation, not a split
        index = posixpath.basename(path) == INDEX_NAME
        return finding("index-too-many-chars" if index else "file-too-large", path, 1, never)
    if reason.startswith("unreadable"):
        return finding("unreadable-file", path, 1, never)
    if reason.startswith("not valid UTF-8"):
        where = _REASON_LINE.search(reason)
        line = int(where.group(1)) if where else 1
        return finding("not-utf8", path, line, f"{never}; save as UTF-8")
    if reason.startswith("differs only by"):
        return finding("case-collision", path, 1, f"name {reason}: memsync syncs only the first")
    return finding("unsafe-path", path, 1, never)
