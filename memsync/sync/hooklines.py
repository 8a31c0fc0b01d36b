"""What a hook run says of its stores' reports: to the person (`systemMessage`) and on stderr.

Each line names the problem and what fixes it (SPEC section 3: nothing that needs the person
is only on stderr). `sync.hookmode` gives these lines with the hook's JSON.
"""

from __future__ import annotations

from collections.abc import Sequence

from memsync.errors import ExitCode
from memsync.sync.arrived import arrived_lines
from memsync.sync.hookcontext import short_names as names

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.check.findings import Finding
    from memsync.model.safety import Skipped
    from memsync.sync.noticetype import Notice
    from memsync.sync.report import StoreReport

DAY = 86_400.0


def person_lines(reports: Sequence[StoreReport], now: float | None = None) -> list[str]:
    """One line per problem that needs the person, each with what fixes it (SPEC §3)."""
    return [notice.text for notice in person_notices(reports, now)]


def person_notices(reports: Sequence[StoreReport], now: float | None = None) -> list[Notice]:
    """`person_lines`, each typed: an EVENT, or a STATE a later run may find gone
    (`sync.notices`: a session end's lines are told at the next start)."""
    import time

    from memsync.sync.noticetype import FILES, LOCK, RUN, Notice

    now = time.time() if now is None else now
    said: list[Notice] = []
    for report in reports:
        scope = report.scope

        def events(lines: Sequence[str], scope: str = scope) -> None:
            said.extend(Notice(line, scope) for line in lines)

        def states(lines: Sequence[str], scope: str = scope) -> None:
            said.extend(Notice(line, scope, RUN) for line in lines)

        if report.error:
            message, _, hint = report.error.partition("\n")
            line = f"memsync: {scope}: {message}" + (f" ({hint.strip()})" if hint else "")
            held = report.error_code == ExitCode.LOCKED
            said.append(Notice(line, scope, LOCK if held else RUN, unsent=report.ahead > 0))
        since = report.unreachable_since
        if report.timeouts:
            states([timeout_line(report)])
        if report.offline and since is not None and now - since > DAY:
            days = int((now - since) // DAY)
            states([
                f"memsync: {scope}: the remote has been unreachable for {days} day(s); "
                "memory is kept locally: check the network or the store URL (`memsync status`)"
            ])  # fmt: skip
        for finding in report.blocked:
            line = f"memsync: {scope}: not synced: {finding.describe()}; {_fix(finding)}"
            if finding.rule == "secret":  # a secret written into a memory: told, always
                events([line])
            else:
                said.append(Notice(line, scope, FILES, (finding.path,), report.live_dir))
        # A private store only warns (SPEC section 4): the secret went out, or waits committed,
        # and only the person can remove and rotate it. The finding holds a redacted preview.
        events([
            f"memsync: {scope}: {_secret_state(report)}: {finding.describe()}; {_fix(finding)}"
            for finding in _secrets(report)
        ])  # fmt: skip
        # An index the client cuts hides memories from every session: only the person can
        # decide what goes (a push measured the index it sent, as merged: sync/pushscan).
        events([
            f"memsync: {scope}: {finding.describe()}"
            for finding in report.warnings
            if finding.rule in ("index-too-many-lines", "index-too-many-chars")
        ])  # fmt: skip
        events(arrived_lines(scope, report.arrived))
        # A file the live folder would not take (disk full, read-only) is not unsafe.
        states(unwritten_lines(scope, report.unwritten))
        states(_skipped_lines(scope, [s for s in report.skipped if s not in report.unwritten]))
        events([
            f"memsync: {scope}: merge: {decision} (`memsync log` has both versions)"
            for decision in report.decisions
        ])  # fmt: skip
        events([f"memsync: {scope}: {note}" for note in report.notes])
        if report.pushed and report.sent_elsewhere:
            # Another project's memories left with this push: its person should know.
            from memsync.sync.report import SENT_ELSEWHERE

            events([f"memsync: {scope}: {SENT_ELSEWHERE}: {names(report.sent_elsewhere)}"])
    return said


def unwritten_lines(
    scope: str, unwritable: Sequence[Skipped], folder: str = "the memory folder"
) -> list[str]:
    """The files FOLDER would not take, by fix: a line each for space/permissions and for a
    folder in the way."""
    # A folder where a file goes needs moving, not space (sync/livefiles: "in the way").
    in_the_way = [s for s in unwritable if s.reason.endswith("is in the way")]
    refused = [s for s in unwritable if s not in in_the_way]
    lines = []
    for group, fix in (
        (refused, "free space or make the folder writable"),
        (in_the_way, "rename or move that folder: a synced memory goes there"),
    ):
        if group:
            lines.append(
                f"memsync: {scope}: could not write {len(group)} file(s) into {folder}: "
                f"{names([s.path for s in group])} ({group[0].reason}); {fix}, "
                "then run `memsync pull`"
            )
    return lines


def timeout_line(report: StoreReport) -> str:
    """What a run that ran out of time says: a killed fetch keeps nothing, so a remote slower
    than the hook's limit (or with more to send than it allows) stalls every hook the same."""
    count = report.timeouts
    row = f"; {count} runs in a row ran out of time" if count > 1 else ""
    return (
        f"memsync: {report.scope}: not synced, the remote did not answer in time "
        f"({(report.offline or '').rstrip('. ')}){row}. "
        "Memory here is kept, but nothing arrives or leaves until a sync finishes: run "
        "`memsync pull` once in a terminal, which may take longer (`network_timeout` in the "
        "config; raise it for a slow link or a very large file on the remote)"
    )


def _skipped_lines(scope: str, skipped: Sequence[Skipped]) -> list[str]:
    """One line per kind of skipped file (its rule), with that kind's reason and fix."""
    if not skipped:
        return []
    from memsync.check.findings import RULES_BY_ID, skip_finding

    groups: dict[str, list[Skipped]] = {}
    for item in skipped:
        groups.setdefault(skip_finding(item, item.path).rule, []).append(item)
    lines = []
    for rule, items in groups.items():
        reasons = sorted({item.reason for item in items})
        reason = "; ".join(reasons) if len(reasons) <= 3 else RULES_BY_ID[rule].title.lower()
        fix = _fix(skip_finding(items[0], items[0].path))
        # A file this machine will not read may sit in the memory folder or come from the
        # store: say where to look, not only the store.
        lines.append(
            f"memsync: {scope}: skipped {len(items)} unsafe file(s): "
            f"{names([item.path for item in items])} ({reason}); {fix} They are in the memory "
            "folder or the store (`memsync status` names each reason)"
        )
    return lines


def _secrets(report: StoreReport) -> list[Finding]:
    """The secrets REPORT warned of and synced anyway (a team store blocks them instead)."""
    return [finding for finding in report.warnings if finding.rule == "secret"]


def _secret_state(report: StoreReport) -> str:
    """Where a warned secret is now: on the remote, or in a local commit the next push sends."""
    if report.pushed:
        return "pushed a possible secret"
    return "committed a possible secret (the next push sends it)"


def _fix(finding: Finding) -> str:
    """The first sentence of the rule's own help: one definition of what fixes it."""
    from memsync.check.findings import ON_REMOTE, RULES_BY_ID

    if finding.rule == "secret" and ON_REMOTE in finding.message:
        from memsync.sync.arrived import on_remote_fix

        return on_remote_fix()
    rule = RULES_BY_ID.get(finding.rule)
    if rule is None:
        return "fix the file; the next sync sends it"
    first, dot, _ = rule.help.partition(". ")
    return first + ("." if dot else "")


def problem_lines(reports: Sequence[StoreReport]) -> list[str]:
    """One line per problem, for stderr (a terminal or a log)."""
    lines: list[str] = []
    for report in reports:
        if report.error:
            lines.append(f"memsync: {report.scope}: {report.error.splitlines()[0]}")
        elif report.offline:
            lines.append(f"memsync: {report.scope}: {report.offline} (kept locally)")
        lines.extend(f"memsync: {report.scope}: not synced: {p.describe()}" for p in report.blocked)
        state = _secret_state(report)
        lines.extend(f"memsync: {report.scope}: {state}: {p.describe()}" for p in _secrets(report))
        if report.skipped:
            listed = names([skipped.path for skipped in report.skipped], quote=False)
            count = len(report.skipped)
            lines.append(f"memsync: {report.scope}: skipped {count} file(s): {listed}")
    return lines
