"""Problems a pull brought from the team remote: a secret or a `type: user` memory that
someone committed there without memsync (plain git, the web UI).

memsync writes them into the live folder like any memory (the remote has them; refusing
them would not take them back), but the pull says so: which file, line and rule, with the
finding's redacted preview, and what fixes it (SPEC §4: problems already on the remote are
reported). The CLI report and the hook's `systemMessage` both read `remote_fix`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.check.findings import Finding
    from memsync.sync.binding import Binding

# The rules a team store blocks on a local edit that no one can fix by editing their copy.
TOLD_RULES = ("secret", "user-in-team")


def arrived_problems(
    scope: str, files: Mapping[str, bytes], written: Sequence[str]
) -> tuple[Finding, ...]:
    """The secrets and personal memories in the team store's files this pull WROTE."""
    if scope != "team" or not written:
        return ()
    from memsync.check.rules import check_file
    from memsync.model.safety import is_index_path

    found: list[Finding] = []
    for path in written:
        data = files.get(path)
        if data is None:
            continue
        for finding in check_file(path, data, scope, index=is_index_path(path)):
            if finding.rule in TOLD_RULES:
                found.append(finding)
    return tuple(found)


def remote_fix(finding: Finding) -> str:
    """What fixes a problem that is on the team remote (editing one's own copy does not)."""
    if finding.rule == "secret":
        return (
            "it is on the team remote, so every teammate has it: rotate the secret, then "
            "remove it from the team repository (edit the file and run `memsync push`)"
        )
    return (
        "it is on the team remote: move it to the private memory of the person it "
        "describes (or change its type), then remove it from the team repository"
    )


def arrived_lines(scope: str, findings: Sequence[Finding]) -> list[str]:
    """One line per problem the pull brought, for stderr and the hook's `systemMessage`."""
    return [
        f"memsync: {scope}: pulled from the team remote: {f.describe()}; {remote_fix(f)}"
        for f in findings
    ]


def on_remote(
    binding: Binding,
    commit: str | None,
    blocked: Sequence[Finding],
    files: Mapping[str, bytes | None],
) -> tuple[Finding, ...]:
    """BLOCKED, each secret whose line the store already holds at COMMIT (origin's branch:
    put there before memsync was used, or by another tool) said to be on the remote, with
    that fix (`on_remote_fix`): removing it from this machine's copy is not enough."""
    secrets = [f for f in blocked if f.rule == "secret" and f.line > 0 and f.path in files]
    if not secrets or commit is None:
        return tuple(blocked)
    from dataclasses import replace

    from memsync import git
    from memsync.check.findings import ON_REMOTE
    from memsync.sync.store import store_files

    entries = store_files(binding, commit)
    shas = {f.path: entries[f.path].sha for f in secrets if f.path in entries}
    blobs = git.read_blobs(binding.clone_dir, list(shas.values()))
    marked: list[Finding] = []
    for finding in blocked:
        stored = blobs.get(shas.get(finding.path, ""), b"").decode("utf-8", "replace")
        lines = (files.get(finding.path) or b"").decode("utf-8", "replace").splitlines()
        inside = finding in secrets and len(lines) >= finding.line
        line = lines[finding.line - 1].strip() if inside else ""
        there = line and line in {text.strip() for text in stored.splitlines()}
        said = f"{finding.message} ({ON_REMOTE})"
        marked.append(replace(finding, message=said) if there else finding)
    return tuple(marked)


def on_remote_fix() -> str:
    """What fixes a secret the remote already holds, found in an edit that would send it again."""
    return (
        "It is on the remote already (put there before memsync, or by another tool), so "
        "whoever clones it has it: rotate the secret, then delete that line; edits of this "
        "file wait until then, and the remote's history keeps it until purged "
        "(docs/SECRETS.md)."
    )
