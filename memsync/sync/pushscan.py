"""One scan of exactly what a push sends: new blobs, commit messages, file and branch names.

Run after merging and before every push. Git sends every object the remote does not
have, so the scan covers every blob of every commit not yet on origin (not only files
this machine edited: a merge can assemble a key from two clean halves), the messages of
those commits, every path they touch, and the name of the ref being pushed. Findings
name where (path, line, rule) with a redacted preview; a path that itself holds a secret
is shown redacted too.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from memsync import git
from memsync.check.findings import Finding
from memsync.config import Settings
from memsync.sync import store
from memsync.sync.binding import Binding

if TYPE_CHECKING:
    from memsync.sync.report import StoreReport

# Text beyond this is not scanned per blob: memories are far smaller (SPEC: 250,000 bytes).
MAX_SCAN_BYTES = 4_000_000


class PushRun(Protocol):
    """The parts of the sync engine's run a push vetting reads and records into."""

    binding: Binding
    settings: Settings
    review_branch: str | None
    report: StoreReport
    merged_local: frozenset[str]

    def note(self, **changes: object) -> None:
        """Record CHANGES in the run's report."""


def vet_push(run: PushRun, heads: store.Heads) -> tuple[str | None, str | None]:
    """(head, commit to push): unsent commits squashed where sync/outgoing says so, then
    scanned. When a secret blocks the push there is no commit to push, the head is the
    remote's and the local edits are pending again (the blocked commits were dropped)."""
    from memsync.sync.outgoing import drop_unpublished

    assert heads.local is not None
    local, notes = drop_unpublished(run.binding, heads.branch, heads.local, heads.remote)
    vetted = replace(heads, local=local)
    blocked, warned = refuse_secrets(run.binding, run.settings, vetted, run.review_branch)
    report = run.report
    warned = _not_yet_told(run.binding, warned, report.warnings)
    run.note(
        notes=report.notes + notes,
        blocked=report.blocked + blocked,
        warnings=report.warnings + warned,
    )
    if not blocked:
        _tell_merged_index_sizes(run, heads.remote, local)
        return local, local
    run.merged_local = frozenset()
    return heads.remote, None


def _tell_merged_index_sizes(run: PushRun, remote: str | None, local: str | None) -> None:
    """Replace what was said of the size of each index this push changes by what is said of
    it as merged: the pushed file, not this machine's edit of it (a 199-line index merged with
    a teammate's 4 new lines goes out with 203, which the client cuts)."""
    from memsync.check.indexsize import INDEX_SIZE_RULES, index_size
    from memsync.model.safety import is_index_path

    binding = run.binding
    before, after = store.store_files(binding, remote), store.store_files(binding, local)
    changed = [p for p, e in after.items() if is_index_path(p) and before.get(p) != e]
    if not changed:
        return
    blobs = git.read_blobs(binding.clone_dir, [after[p].sha for p in changed])
    merged = [
        finding
        for path in changed
        for finding in index_size(path, blobs[after[path].sha].decode("utf-8", "replace"))
    ]
    stale = {(path, rule) for path in changed for rule in INDEX_SIZE_RULES}
    kept = tuple(f for f in run.report.warnings if (f.path, f.rule) not in stale)
    run.note(warnings=kept + tuple(merged))


def refuse_secrets(
    binding: Binding, settings: Settings, heads: store.Heads, review_branch: str | None
) -> tuple[tuple[Finding, ...], tuple[Finding, ...]]:
    """(blocking findings, warnings) for pushing the local branch; drops blocked commits.

    Team stores always block; private stores follow `settings.private_secrets` (warn by
    default). On a block the unpushed commits are dropped from the local branch: their
    edits are still in the live files, so once the secret is removed the next run commits
    them afresh, and the blocked commits can never be pushed later.
    """
    if heads.local is None:
        return (), ()
    found = tuple(scan_outgoing(binding.clone_dir, heads.local, review_branch or heads.branch))
    if not found:
        return (), ()
    if binding.scope != "team" and settings.private_secrets != "block":
        return (), found
    repo, ref = binding.clone_dir, f"refs/heads/{heads.branch}"
    if heads.remote is None:
        git.delete_ref(repo, ref, heads.local)
    else:
        git.update_branch(repo, heads.branch, heads.remote, heads.local, "memsync: secret")
    return found, ()


def _not_yet_told(
    binding: Binding, warned: tuple[Finding, ...], told: tuple[Finding, ...]
) -> tuple[Finding, ...]:
    """WARNED without the lines TOLD already names: the commit of this run warned of them
    (by path in the memory folder), and a push retried after a lost race scans them again."""
    seen = {(store.store_path(binding, f.path), f.line) for f in told if f.rule == "secret"}
    seen |= {(f.path, f.line) for f in told if f.rule == "secret"}
    return tuple(f for f in warned if (f.path, f.line) not in seen)


def scan_outgoing(repo: Path, head: str, ref: str) -> list[Finding]:
    """Secrets in what pushing HEAD to REF would send to origin."""
    from memsync.check.secrets import redact, scan_text

    commits = git.unpushed_commits(repo, head)
    if not commits:
        return []
    findings: list[Finding] = []

    def add(where: str, text: str, label: str) -> None:
        for hit in scan_text(text):
            shown = redact(where)
            message = f"possible secret ({hit.rule_id}) in {label}: {hit.preview}"
            findings.append(Finding(shown, hit.line, "secret", "error", message, hit.column))

    add(f"branch {ref}", ref, "the branch name")
    for sha, message in git.commit_messages(repo, commits):
        add(f"commit {sha[:12]}", message, "a commit's author or message")
    blobs = git.unpushed_blobs(repo, head)
    for path in sorted(git.touched_paths(repo, commits)):
        add(path, path, "a file name")
    contents = git.read_blobs(repo, list(blobs.values()))
    for path, sha in sorted(blobs.items()):
        data = contents.get(sha)
        if data is not None:
            for text in _texts(data[:MAX_SCAN_BYTES]):
                add(path, text, "the file")
    return _unique(findings)


def _texts(data: bytes) -> list[str]:
    """DATA as UTF-8 text, and as UTF-16 too when it looks like it (NUL bytes)."""
    texts = [data.decode("utf-8", errors="replace")]
    if b"\0" in data:
        for encoding in ("utf-16", "utf-16-le", "utf-16-be"):
            try:
                texts.append(data.decode(encoding))
                break
            except UnicodeDecodeError:
                continue
    return texts


def _unique(findings: list[Finding]) -> list[Finding]:
    seen: dict[tuple[str, int, str], Finding] = {}
    for finding in findings:
        seen.setdefault((finding.path, finding.line, finding.message), finding)
    return list(seen.values())
