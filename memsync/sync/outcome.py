"""What one pull or push did to one store, in words: the one-line outcome and the fixes.

The command line prints these; they are plain text (no markup), so any front end can
show them. Every outcome is stated, never implied: "nothing to do" only when the store
is level with its remote, nothing is blocked and nothing failed.
"""

from __future__ import annotations

from dataclasses import dataclass

from memsync.errors import ExitCode

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.check.findings import Finding
    from memsync.sync.report import StoreReport

# Blocked files named in the one-line outcome; the rest are counted (all are listed below it).
_NAMED = 2


def when(timestamp: float | None) -> str:
    """A local date and time, or "never"."""
    import time

    if timestamp is None:
        return "never"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(timestamp))


def unreached_problem(message: str, at: float, answered: float | None, timeouts: int = 0) -> str:
    """`memsync status`'s problem line for a remote the last pull or push could not reach
    (TIMEOUTS: how many runs in a row ran out of time, `sync.store.timeouts`)."""
    if timeouts > 1:
        message = f"{message.rstrip('. ')}; {timeouts} runs in a row ran out of time"
    return (
        f"the remote was unreachable at the last pull or push ({when(at)}; it last answered"
        f" {when(answered)}): {message.rstrip('. ')}. Memories are kept locally: check the"
        " network or the store URL, then run `memsync pull`"
    )


@dataclass(frozen=True)
class BlockedFile:
    """A local edit validation kept out of every commit: where, why, and how to fix it."""

    path: str
    line: int
    rule: str
    message: str
    fix: str


def fix_for(finding: Finding, command: str = "memsync push") -> str:
    """What to do about a finding that blocks a file, ending with the command to run."""
    from memsync.check.findings import IN_FILE_NAME, ON_REMOTE, RULES

    help_text = next((rule.help for rule in RULES if rule.id == finding.rule), "")
    if finding.rule == "secret" and IN_FILE_NAME in finding.message:
        help_text = "Rename the file: no line can allow a secret in its name."
    if finding.rule == "secret" and ON_REMOTE in finding.message:
        from memsync.sync.arrived import on_remote_fix

        help_text = on_remote_fix()
    check = f"`memsync check` shows every finding; then run `{command}`."
    return f"{help_text} {check}".strip()


def blocked_files(report: StoreReport) -> tuple[BlockedFile, ...]:
    """The report's blocked files with their fixes, one entry per finding."""
    return tuple(BlockedFile(f.path, f.line, f.rule, f.message, fix_for(f)) for f in report.blocked)


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _blocked_part(report: StoreReport) -> str | None:
    if not report.blocked:
        return None
    by_file: dict[str, list[str]] = {}
    for finding in report.blocked:
        by_file.setdefault(finding.path, []).append(finding.rule)
    named = [f"{path} ({', '.join(dict.fromkeys(rules))})" for path, rules in by_file.items()]
    more = len(named) - _NAMED
    text = ", ".join(named[:_NAMED]) + (f" and {more} more" if more > 0 else "")
    return f"blocked: {text}; kept local, not committed"


def _why_not_pushed(report: StoreReport, command: str) -> str:
    if report.offline:
        return "the remote is unreachable"
    if report.error:
        return "the push failed"
    if report.review_branch:
        return f"sent to review branch {report.review_branch} instead"
    if report.held_review and command != "pull":
        return "held back for review: `memsync push --review` proposes them"
    if command == "pull":
        return "pull never pushes: run `memsync push`"
    return "run `memsync push` again"


def outcome(report: StoreReport, command: str) -> str:
    """One line: pulled N, pushed N, ahead by N and why, blocked, unreachable, locked."""
    parts: list[str] = []
    if report.error:
        first = report.error.splitlines()[0]
        if report.error_code == ExitCode.LOCKED and "locked by" in first:
            parts.append("locked by " + first.split("locked by", 1)[1].strip())
        else:
            parts.append(f"failed: {first}")
    if report.offline:
        # The message is git's own ("remote unreachable: git fetch said: …"): say it once.
        parts.append(f"unreachable: {report.offline.removeprefix('remote unreachable: ')}")
    pulled = len(report.updated) + len(report.deleted)
    if pulled:
        parts.append(f"pulled {pulled}")
    if report.pushed:
        sent = len(report.sent)
        tries = f" after {report.push_attempts} tries" if report.push_attempts > 1 else ""
        where = f" to {report.review_branch}" if report.review_branch else ""
        # Commits that change no memory file: a merge of what the remote had, or the project
        # folder's identity record a first sync sends.
        idle = " (the project's folder; no memory yet)" if command == "init" else ""
        count = f" {sent}" if sent else idle or " (no memory file changed)"
        parts.append(f"pushed{count}{where}{tries}")
    if report.ahead and not (report.pushed and report.review_branch):
        commits = _count(report.ahead, "commit")
        parts.append(f"ahead by {commits}, not pushed: {_why_not_pushed(report, command)}")
    blocked = _blocked_part(report)
    if blocked:
        parts.append(blocked)
    unwritten = report.unwritten
    if unwritten:  # synced, the folder refused them: not "skipped"
        parts.append(f"{_count(len(unwritten), 'file')} not written to the memory folder (below)")
    if len(report.skipped) > len(unwritten):
        skipped = len(report.skipped) - len(unwritten)
        parts.append(f"skipped {_count(skipped, 'file')} (listed below)")
    kept = kept_edits(report)
    if kept:
        parts.append(f"{_count(len(kept), 'file')} edited during the sync kept as you left it")
    return "; ".join(parts) or "nothing to do"


def kept_edits(report: StoreReport) -> tuple[str, ...]:
    """Live files left alone because they changed during the run (not the blocked ones, nor
    the skipped ones: those are held back, and reported as such)."""
    skipped = {item.path for item in report.skipped}
    kept = tuple(p for p in report.kept_local if p not in skipped)
    if not report.blocked:
        return kept
    from memsync.check.secrets import redact

    # A finding's path is shown redacted: a file whose name holds a token is blocked too.
    blocked = {finding.path for finding in report.blocked}
    return tuple(p for p in kept if p not in blocked and redact(p) not in blocked)
