"""pull and push: move memory between live directories and store clones, merging as needed."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, replace
from pathlib import Path

from memsync import git
from memsync.config import Config, Settings
from memsync.errors import MemsyncError, RemoteUnavailableError, UsageError, UserMessageError
from memsync.model.safety import Skipped
from memsync.sync import store
from memsync.sync.binding import Binding, hostname
from memsync.sync.deadline import Deadline, backoff
from memsync.sync.filetimes import WriteTimes
from memsync.sync.identity import check_folder, missing_record
from memsync.sync.indexkeep import keep_index_entries
from memsync.sync.lock import store_lock
from memsync.sync.manifest import (
    hashes,
    local_changes,
    never_synced,
    restored,
    save_manifest,
    with_committed,
)
from memsync.sync.migrate import edits_to_commit, prepare
from memsync.sync.outgoing import commit_message
from memsync.sync.report import StoreReport
from memsync.sync.reviewed import landed_base, undone_lines
from memsync.sync.screen import screen_edits
from memsync.sync.storerun import StoreRun, scan_live, start_run, without_unread_deletions


def _commit_local(run: StoreRun) -> str | None:
    """Commit local edits on top of the local branch; returns the new head (or the old)."""
    binding = run.binding
    if run.manifest.previous is not None:
        # A new folder or store: the live edits are merged against its newest version.
        with contextlib.suppress(RemoteUnavailableError):
            _fetch(run)
        run.manifest = prepare(binding, run.manifest, run.live)
    heads = store.heads(binding)
    changes, base, current = edits_to_commit(binding, run.manifest, run.live, heads.local)
    # A synced memory saved as Latin-1, grown past the size limit or replaced by a symlink is
    # an edit held back, not a deletion: committed as one, every machine would lose it.
    changes = keep_index_entries(run, without_unread_deletions(changes, run.unreadable))
    if not changes:
        return heads.local
    allowed = screen_edits(run, changes, heads, current)
    if not allowed:
        return heads.local
    from memsync.sync.storemerge import describe, merge_local_edits, riding, trailers

    merged, decisions = merge_local_edits(binding, base, allowed, current, heads.local)
    run.merged_local = frozenset(allowed)
    if not merged:
        return heads.local
    author = git.identity(binding.clone_dir, hostname())
    new = heads.local
    groups = list(store.by_write_day(binding.live_dir, merged))
    record = missing_record(binding, current)
    for n, (authored, group) in enumerate(groups):
        message = commit_message(binding.project_key, group, current, run.message)
        message += trailers(riding(decisions, group, merged, n == len(groups) - 1), binding.prefix)
        files = {**group, **record} if n == 0 else group
        new = store.commit_files(
            binding, parent=new, changes=files, message=message, author=author, authored=authored
        )
    assert new is not None
    git.update_branch(binding.clone_dir, heads.branch, new, heads.local, "memsync: local edits")
    if run.manifest.previous is None:  # a migration records its new folder at the end
        shas = {path: entry.sha for path, entry in current.items()}
        recorded, run.recorded_over = with_committed(run.manifest, allowed, merged, shas)
        if run.recorded_over:
            run.manifest = recorded
            save_manifest(run.manifest_file, recorded)
    lines = tuple(map(describe, decisions))
    run.note(committed=tuple(sorted(merged)), decisions=run.report.decisions + lines)
    return new


def _fetch(run: StoreRun) -> None:
    from memsync.sync.rewritten import fetch_following_rewrites as fetch

    run.note(notes=run.report.notes + fetch(run.binding, run.network_time()))


def _integrate_remote(run: StoreRun) -> str | None:
    """Bring origin's branch into the local one: fast-forward or an in-process merge."""
    binding = run.binding
    heads = store.heads(binding)
    if heads.remote is None or heads.remote == heads.local:
        return heads.local
    check_folder(binding, store.store_files(binding, heads.remote))  # moved or foreign: stop
    if heads.local is None:
        git.update_branch(binding.clone_dir, heads.branch, heads.remote, None, "memsync: clone")
        return heads.remote
    landed = landed_base(binding, heads.local, heads.remote)  # a squash-merged review's too
    base = landed.base
    if base == heads.remote:
        return heads.local
    # Another machine's merge may have dropped this machine's value: say so here too.
    told = store.merged_elsewhere(binding, heads.local, heads.remote)
    if base == heads.local:
        git.update_branch(
            binding.clone_dir, heads.branch, heads.remote, heads.local, "memsync: fast-forward"
        )
        run.note(decisions=run.report.decisions + told)
        return heads.remote
    from memsync.sync.storemerge import merge_heads

    new, decisions = merge_heads(binding, heads.local, heads.remote, base)
    git.update_branch(binding.clone_dir, heads.branch, new, heads.local, "memsync: merge")
    run.note(decisions=run.report.decisions + told + decisions + undone_lines(binding, landed))
    if landed.kept:  # the team undid them: a plain push must not send them back
        from memsync.sync.heldreview import hold

        hold(binding, landed.kept, dict(landed.sent))
    return new


def _materialize(run: StoreRun, head: str | None) -> None:
    """Write the store's files into the live directory, never over an edit made meanwhile."""
    binding = run.binding
    if _unchanged(run, head):
        # Session start with nothing new: no tree listing, no writes, no import of the writer.
        run.manifest = replace(run.manifest, last_sync=time.time())
        save_manifest(run.manifest_file, run.manifest)
        return
    from memsync.model.safety import filter_files
    from memsync.sync.arrived import arrived_problems
    from memsync.sync.holdback import committed_shas, with_held_lines
    from memsync.sync.livefiles import write_live

    entries = store.store_files(binding, head)
    check_folder(binding, entries)
    skipped = [
        Skipped(p, "not a regular file")
        for p, e in entries.items()
        if not _regular(e) and store.needs_verdict(binding, p)
    ]
    wanted = {p: e for p, e in entries.items() if _regular(e) and store.needs_verdict(binding, p)}
    live_shas = hashes(run.live)
    # Files the live directory already has need no blob read.
    files = {p: run.live[p] for p, e in wanted.items() if live_shas.get(p) == e.sha}
    missing = {p: e.sha for p, e in wanted.items() if p not in files}
    blobs = git.read_blobs(binding.clone_dir, list(missing.values()))
    files.update({p: blobs[sha] for p, sha in missing.items() if sha in blobs})
    scan = filter_files(files, binding.scope, known=run.manifest.files)
    skipped += scan.skipped
    # Pending: edits not merged (blocked); one the store had would freeze its live file.
    pending = set(local_changes(run.live, run.manifest)) - run.merged_local
    # A store file this machine will not take (`a.md` beside `A.md`) leaves its live file be.
    pending |= {skipped.path for skipped in scan.skipped} & set(run.live)
    pending |= never_synced(run.live, run.manifest, scan.files)
    times = WriteTimes(binding.clone_dir, head, binding.prefix)
    target = with_held_lines(scan.files, run.live, run.held)  # held-back memories' lines
    live = (binding.live_dir, target, run.live, run.manifest.files, pending)
    outcome = write_live(*live, time_of=times)
    shas = committed_shas(outcome.manifest, scan.files, run.held)
    clean = not (skipped or outcome.kept or outcome.failed or pending or run.held)
    run.manifest = replace(
        run.manifest, files=shas, commit=head, last_sync=time.time(), clean=clean
    )
    save_manifest(run.manifest_file, run.manifest)
    run.note(
        updated=outcome.written,
        created=tuple(p for p in outcome.written if p not in run.live),
        deleted=outcome.deleted,
        arrived=arrived_problems(binding.scope, scan.files, outcome.written),
        kept_local=outcome.kept,
        # One file skipped as a live file and as a store file (a case twin) is said once.
        skipped=tuple(
            dict.fromkeys((*run.report.skipped, *skipped, *(Skipped(*f) for f in outcome.failed)))
        ),
    )


def _unchanged(run: StoreRun, head: str | None) -> bool:
    """The last run left the live directory clean at HEAD and nothing was edited since."""
    manifest = run.manifest
    return (
        manifest.clean
        and head is not None
        and head == manifest.commit
        and hashes(run.live) == dict(manifest.files)
        and not run.report.skipped
    )


def _regular(entry: git.TreeEntry) -> bool:
    return entry.kind == "blob" and entry.mode in ("100644", "100755")


def _pull_body(run: StoreRun) -> None:
    scan_live(run)
    head = _commit_local(run)
    try:
        _fetch(run)
        head = _integrate_remote(run)
    except RemoteUnavailableError as exc:
        run.went_offline(exc)
    _materialize(run, head)
    _note_ahead(run)


def _note_ahead(run: StoreRun) -> None:
    from memsync.sync.outgoing import unsent_commits  # only reads refs when level

    run.note(ahead=unsent_commits(run.binding))


def _push_body(run: StoreRun) -> None:
    binding = run.binding
    scan_live(run)
    head = _commit_local(run)
    attempts = 0
    try:
        while True:
            attempts += 1
            began = time.monotonic()
            _fetch(run)
            head = _integrate_remote(run)
            # Files that failed validation were never committed (`_commit_local`): what is
            # committed is valid, and goes out now; the blocked files wait in the live folder.
            heads = store.heads(binding)
            if heads.local is None or heads.local == heads.remote:
                break
            from memsync.sync.outgoing import sent_elsewhere, sent_files
            from memsync.sync.pushscan import vet_push

            head, local = vet_push(run, heads)  # no commit to push when a secret blocks it
            if local is None and run.recorded_over:  # the dropped commits' edits are pending
                run.manifest = restored(run.manifest, run.recorded_over)
                save_manifest(run.manifest_file, run.manifest)
            if local is None or local == heads.remote:
                break  # blocked, or every unsent change was undone before this push
            from memsync.sync import heldreview
            from memsync.sync.reviewpush import moved_on, send

            tip = local
            if not run.review_branch:
                local = heldreview.hold_out(run, heads.remote, local)
                if local == heads.remote:
                    break  # only files held back for review are unsent
            landed = send(run, local, heads.branch)
            if landed is None:
                if attempts >= run.settings.push_retries:
                    raise moved_on(run, attempts)
                # Another machine won the race: back off, then fetch and merge again.
                pause = backoff(attempts, time.monotonic() - began)
                time.sleep(min(run.deadline.remaining(), pause))
                continue
            if not run.review_branch:
                from memsync.sync.rewritten import record_pushed

                record_pushed(binding, heads.branch, local)
                if local != tip:  # files held back: the branch keeps them, on what went out
                    head = heldreview.merge_back(run, heads.branch, tip, local)
            else:
                heldreview.release_here(binding)  # proposed again: this folder holds none back now
            sent = sent_files(binding, heads.remote, landed)
            elsewhere = sent_elsewhere(binding, heads.remote, landed)
            run.note(pushed=True, review_branch=run.review_branch, sent=sent)
            run.note(sent_elsewhere=elsewhere)
            break
    except RemoteUnavailableError as exc:
        run.went_offline(exc)
    finally:
        run.note(push_attempts=attempts)
        _materialize(run, head)
        _note_ahead(run)
    if run.report.pushed:
        run.manifest = replace(run.manifest, last_push=time.time())
        save_manifest(run.manifest_file, run.manifest)


def _run_store(
    binding: Binding, settings: Settings, deadline: Deadline, command: str, options: RunOptions
) -> StoreReport:
    run = start_run(binding, settings, deadline)
    run.message = options.message
    run.review_branch = options.review_branch if binding.scope == "team" else None
    body = _pull_body if command == "pull" else _push_body
    try:
        if binding.linked_folder:
            raise UserMessageError(
                binding.linked_folder,
                hint=f"Replace it by a real folder: move the files you want to share into a "
                f"folder {binding.live_dir} (or remove the link), then rerun.",
            )
        lock_wait = deadline.left(settings.lock_timeout)  # none left: the lock if it is free
        with store_lock(binding.lock_path, timeout=lock_wait, command=command, store=binding.label):
            created = store.ensure_clone(binding)
            store.check_state(binding)
            if created:
                _adopt_branch(run)
            before = store.heads(binding)
            try:
                body(run)
            finally:
                store.note_unreached(binding, run.report.offline)
                # Packs pile up only when objects arrive (fetch) or are written (commit,
                # merge): a session start that found nothing new skips git's maintenance.
                if store.heads(binding) != before:
                    git.maintain(binding.clone_dir)
    except MemsyncError as exc:
        run.note(error=str(exc), error_code=int(exc.exit_code))
    return run.report


def _adopt_branch(run: StoreRun) -> None:
    # Unreachable now: the branch is settled by the first run that reaches the remote.
    with contextlib.suppress(RemoteUnavailableError):
        store.adopt_remote_branch(run.binding, run.network_time())
        _fetch(run)  # before the first local commit: no second root commit
        _integrate_remote(run)


@dataclass(frozen=True)
class RunOptions:
    """Per-command options of pull/push: a commit subject, a review branch for team pushes."""

    message: str | None = None
    review_branch: str | None = None


def run_stores(
    bindings: list[Binding],
    settings: Settings,
    deadline: Deadline,
    command: str,
    options: RunOptions | None = None,
) -> list[StoreReport]:
    """Pull or push every binding, each store in its own thread (fetches overlap)."""
    options = options or RunOptions()
    if len(bindings) == 1:
        return [_run_store(bindings[0], settings, deadline, command, options)]
    import threading

    # Plain threads: concurrent.futures costs more to import than it saves here.
    reports: list[StoreReport | None] = [None] * len(bindings)
    errors: list[BaseException] = []

    def work(index: int) -> None:
        try:
            reports[index] = _run_store(bindings[index], settings, deadline, command, options)
        except BaseException as exc:  # re-raised in the caller, as a future would
            errors.append(exc)

    # Daemons: on Ctrl-C the main thread's handler ends the run (every step is crash-safe)
    # instead of the interpreter waiting for them, and a second Ctrl-C printing a traceback.
    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(len(bindings))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return [r for r in reports if r is not None]


def sync_project(
    project_dir: Path,
    scopes: tuple[str, ...],
    command: str,
    *,
    hook: bool = False,
    options: RunOptions | None = None,
    config: Config | None = None,
    deadline: Deadline | None = None,
) -> list[StoreReport]:
    """Pull or push (`sync` = push, which pulls first) the stores of one project, by DEADLINE
    (a hook's: its limit from when it started) or, in a hook, within the limit from now."""
    from memsync.config import load_config
    from memsync.model.safety import SCOPES
    from memsync.sync.binding import resolve_bindings

    config = config or load_config()
    wanted = tuple(s for s in SCOPES if s in scopes)
    _, bindings = resolve_bindings(config, project_dir, wanted)
    if not bindings:
        raise UsageError(
            f"no {' or '.join(wanted)} store is configured for this project",
            hint="Run `memsync init --team URL` to add a team store.",
        )
    limit = None
    if hook:
        limit = config.settings.pull_timeout if command == "pull" else config.settings.push_timeout
    deadline = deadline or Deadline.after(limit)
    return run_stores(bindings, config.settings, deadline, command, options)
