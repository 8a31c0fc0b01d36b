"""Read-only views of a project's stores: status and semantic diff (history: sync/history)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memsync import git
from memsync.config import Config, load_config
from memsync.errors import RemoteUnavailableError
from memsync.model.index import IndexSize, measure_index
from memsync.model.limits import INDEX_NAME
from memsync.model.safety import Scope, TreeScan
from memsync.sync import store
from memsync.sync.binding import Binding, resolve_bindings
from memsync.sync.heldreview import held_here
from memsync.sync.inreview import AskPulls, ReviewPull, reviews_of
from memsync.sync.manifest import Manifest, binding_manifest, local_changes
from memsync.sync.outcome import BlockedFile, fix_for

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.check.findings import Finding
    from memsync.model.semdiff import MemoryChange


@dataclass(frozen=True)
class StoreStatus:
    """The state of one store for one project."""

    scope: str
    store: str
    remote: str
    branch: str
    folder: str
    live_dir: str
    cloned: bool
    ahead: int
    behind: int
    local_edits: tuple[str, ...]
    last_sync: float | None
    last_push: float | None
    index: IndexSize | None
    problems: tuple[str, ...]
    # Local edits validation keeps out of every commit, each with its fix.
    blocked: tuple[BlockedFile, ...] = ()
    # Which local edits add a file and which remove one (the others change one).
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    # Files of the local branch the memory folder lacks and memsync never wrote there (the
    # file system refused them): the next pull writes them.
    unwritten: tuple[str, ...] = ()
    # Of the commits ahead, those `push --review` sent: they wait on these review branches
    # (origin's, as of the last fetch or push) for their pull request to be merged.
    in_review: int = 0
    review_branches: tuple[str, ...] = ()
    # GitHub's answer for those branches (when status could ask): a closed one's commits are
    # no longer counted in review.
    review_pulls: tuple[ReviewPull, ...] = ()
    # Memories of a review the default branch undid: plain pushes leave them out until
    # `push --review` proposes them again (sync/heldreview).
    held_for_review: tuple[str, ...] = ()
    # The fetched folder is one `pull` refuses (moved by `project move`, or another
    # project's): its problem line says what to run instead.
    folder_refused: bool = False

    @property
    def pending(self) -> bool:
        """Anything not yet level: edits, unsent or unpulled commits, files not yet written."""
        unsent = self.ahead - self.in_review
        return bool(self.local_edits or unsent or self.behind or self.unwritten)

    @property
    def clean(self) -> bool:
        """Nothing pending, nothing blocked, no problem: what `status --exit-code` wants."""
        return not (self.pending or self.blocked or self.problems)


@dataclass(frozen=True)
class StoreDiff:
    """What push would send and what pull would bring, for one store."""

    scope: str
    store: str
    outgoing: tuple[MemoryChange, ...]
    incoming: tuple[MemoryChange, ...]
    fetched: bool
    fetch_error: str | None = None


def bindings_of(project_dir: Path, scopes: tuple[Scope, ...]) -> tuple[Config, list[Binding]]:
    """The config and PROJECT_DIR's bindings of SCOPES."""
    config = load_config()
    _, bindings = resolve_bindings(config, project_dir, scopes)
    return config, bindings


def _live_edits(scan: TreeScan | None, manifest: Manifest) -> dict[str, bytes | None]:
    """The live edits push would commit, from SCAN of the live folder: none when the folder is
    missing as a whole (None: push writes it again), and no deletion of a file the scan
    skipped (held back)."""
    from memsync.sync.storerun import without_unread_deletions

    if scan is None:
        return {}
    skipped = {skipped.path for skipped in scan.skipped}
    return without_unread_deletions(local_changes(dict(scan.files), manifest), skipped)


def _scan(binding: Binding) -> TreeScan:
    """The live files sync would send: the one memory rule, README.md at a root excluded."""
    from memsync.fsutil.scan import scan_directory

    if binding.linked_folder:  # sync refuses it (never read through): nothing in it is read
        from memsync.model.safety import Skipped

        reason = f"{binding.linked_folder}: replace it by a real folder"
        return TreeScan(files={}, skipped=(Skipped(".", reason),))
    return scan_directory(
        binding.live_dir, binding.scope, repository_root=not binding.prefix, live=True
    )


def store_status(
    project_dir: Path, scopes: tuple[Scope, ...], ask: AskPulls | None = None
) -> list[StoreStatus]:
    """Status of each store of the project, from local state only (no network), but that ASK
    is asked about the review branches that hold commits (`memsync status`: GitHub)."""
    config, bindings = bindings_of(project_dir, scopes)
    statuses = []
    for binding in bindings:
        cloned = (binding.clone_dir / "HEAD").is_file()
        ahead = behind = 0
        reviewing: tuple[int, tuple[str, ...], tuple[ReviewPull, ...]] = (0, (), ())
        branch = "main"
        local_head = remote_head = None
        if cloned:
            heads = store.heads(binding)
            branch, local_head, remote_head = heads.branch, heads.local, heads.remote
            if heads.local and heads.remote:
                ahead, behind = git.ahead_behind(binding.clone_dir, heads.local, heads.remote)
                if ahead and binding.scope == "team":
                    reviewing = reviews_of(binding, heads.local, heads.remote, ahead, ask)
            elif heads.local:
                ahead = git.count_commits(binding.clone_dir, heads.local)
        manifest, _ = binding_manifest(binding)
        scan = _scan(binding) if binding.live_dir.is_dir() else None
        live = dict(scan.files) if scan else {}
        index = live.get(INDEX_NAME)
        skipped_held = _skipped_held(binding, scan)
        held_paths = {item.path for item in skipped_held}
        skips = scan.skipped if scan else ()
        problems = [
            s.reason if s.path == "." else f"{s.path}: {s.reason}"
            for s in skips
            if s.path not in held_paths
        ]
        from memsync.sync.storerun import folder_blocked

        blocked_folder = folder_blocked(binding.live_dir)
        if blocked_folder is not None:
            problems.append(f"{blocked_folder.message}: {blocked_folder.hint}")
        refused = _refused_folder(binding, behind)
        if refused is not None:
            problems.append(refused)
        if cloned and (failed := store.unreached(binding)) is not None:
            from memsync.sync.outcome import unreached_problem

            answered = store.last_fetch(binding)
            problems.append(unreached_problem(*failed, answered, store.timeouts(binding)))
        size = measure_index(index.decode("utf-8", "replace")) if index is not None else None
        if size is not None and not size.fits:
            problems.append(
                f"{INDEX_NAME} has {size.lines} lines / {size.chars} characters: Claude Code loads "
                "200 lines / 25,000 characters (run `memsync consolidate`)"
            )
        edits = _live_edits(scan, manifest)
        blocked = _blocked(binding, edits, config) + skipped_held
        if blocked:
            from memsync.sync.holdback import without_held_edits

            held = {b.path for b in blocked}
            edits = without_held_edits(edits, held, manifest.files)
        statuses.append(
            StoreStatus(
                scope=binding.scope,
                store=binding.store.name,
                remote=binding.store.url,
                branch=branch,
                folder=binding.prefix or ".",
                live_dir=str(binding.live_dir),
                cloned=cloned,
                ahead=ahead,
                behind=behind,
                local_edits=tuple(sorted(edits)),
                added=tuple(
                    sorted(p for p, d in edits.items() if d is not None and p not in manifest.files)
                ),
                removed=tuple(sorted(p for p, d in edits.items() if d is None)),
                last_sync=manifest.last_sync,
                last_push=manifest.last_push,
                index=size,
                problems=tuple(problems),
                blocked=blocked,
                unwritten=_unwritten(binding, local_head, manifest, scan),
                in_review=reviewing[0],
                review_branches=reviewing[1],
                review_pulls=reviewing[2],
                folder_refused=refused is not None,
                held_for_review=held_here(binding, local_head, remote_head) if cloned else (),
            )
        )
    return statuses


def _refused_folder(binding: Binding, behind: int) -> str | None:
    """Why `pull` would refuse the fetched folder (another machine moved it), if it would."""
    if not behind:  # a move is a commit: with none fetched, the last pull saw the folder
        return None
    from memsync.errors import UserMessageError
    from memsync.sync.identity import check_folder

    try:
        check_folder(binding, store.store_files(binding, store.heads(binding).remote))
    except UserMessageError as refused:
        return f"{refused.message}. {refused.hint}" if refused.hint else refused.message
    return None


def _unwritten(
    binding: Binding, head: str | None, manifest: Manifest, scan: TreeScan | None
) -> tuple[str, ...]:
    """Files at HEAD the live folder (SCAN) lacks and memsync never wrote there: a pull the
    file system refused (disk full, read-only). The manifest tells them from a file the
    person deleted: that one it records as written, and it stays a deletion to push."""
    if head is None or (scan is not None and manifest.clean and manifest.commit == head):
        return ()  # the last run left the folder holding exactly HEAD's files: no tree read
    # A folder missing as a whole is written again by the next run (`_live_edits`).
    present = set(scan.files) | {s.path for s in scan.skipped} if scan else set()
    written = manifest.files if scan else {}
    from memsync.model.safety import filter_files, fold_key

    entries = store.store_files(binding, head)
    # Of names one file system would merge, pull writes only the first (`finish_scan`).
    first: dict[str, str] = {}
    for path in sorted(p for p in entries if store.needs_verdict(binding, p)):
        first.setdefault(fold_key(path), path)
    wanted = {
        path: entry
        for path, entry in entries.items()
        if entry.kind == "blob"
        and path not in present
        and path not in written
        and first.get(fold_key(path)) == path
    }
    if not wanted:
        return ()
    # A store file no machine writes (unsafe, not UTF-8) is not waiting for a pull.
    blobs = git.read_blobs(binding.clone_dir, [entry.sha for entry in wanted.values()])
    files = {path: blobs[e.sha] for path, e in wanted.items() if e.sha in blobs}
    safe = filter_files(files, binding.scope, repository_root=not binding.prefix)
    return tuple(sorted(safe.files))


def _skipped_held(binding: Binding, scan: TreeScan | None) -> tuple[BlockedFile, ...]:
    """The live memories the scan skips (a case twin, not UTF-8, too large, a symlink): push
    holds them back, their index lines too, so status lists them with what is held back."""
    from memsync.model.safety import REPOSITORY_FILE_REASON

    files = [
        s
        for s in (scan.skipped if scan else ())
        if store.is_memory_file(binding, s.path) or s.reason == REPOSITORY_FILE_REASON
    ]
    if not files:
        return ()
    from memsync.check.findings import skip_finding  # only when a file was skipped

    found = [skip_finding(item, item.path) for item in files]
    return tuple(BlockedFile(f.path, f.line, f.rule, f.message, fix_for(f)) for f in found)


def _blocked(
    binding: Binding, edits: dict[str, bytes | None], config: Config
) -> tuple[BlockedFile, ...]:
    """The local edits the next push would hold back, as `push` decides it."""
    if not any(data is not None for data in edits.values()):
        return ()  # nothing to validate: the rules (and the secret scanner) stay unloaded
    from memsync.check.validate import validate_edit
    from memsync.sync.arrived import on_remote

    errors: list[Finding] = []
    for path, data in sorted(edits.items()):
        if data is not None and store.is_memory_file(binding, path):
            errors += validate_edit(path, data, binding.scope, config.settings)[0]
    if any(f.rule == "secret" for f in errors):  # one the remote has already: said so, as push
        heads = store.heads(binding)
        errors = list(on_remote(binding, heads.remote or heads.local, errors, edits))
    return tuple(BlockedFile(f.path, f.line, f.rule, f.message, fix_for(f)) for f in errors)


def store_diff(project_dir: Path, scopes: tuple[Scope, ...], *, fetch: bool) -> list[StoreDiff]:
    """Semantic diff of what push would send and pull would bring, per store."""
    from memsync.model.semdiff import diff_memories  # `diff` only: status never loads it

    _, bindings = bindings_of(project_dir, scopes)
    diffs = []
    for binding in bindings:
        if not (binding.clone_dir / "HEAD").is_file():
            continue
        error = None
        if fetch:
            try:
                git.fetch(binding.clone_dir, git.DEFAULT_TIMEOUT)
            except RemoteUnavailableError as exc:
                error = exc.message
        heads = store.heads(binding)
        base = None
        if heads.local and heads.remote:
            base = git.merge_base(binding.clone_dir, heads.local, heads.remote)
        base_files = store.read_folder(binding, base)
        remote_files = store.read_folder(binding, heads.remote)
        local_files = store.read_folder(binding, heads.local)

        manifest, _ = binding_manifest(binding)
        # Uncommitted live edits are part of what push would send.
        scan = _scan(binding) if binding.live_dir.is_dir() else None
        for path, data in _live_edits(scan, manifest).items():
            if data is None:
                local_files.pop(path, None)
            else:
                local_files[path] = data
        diffs.append(
            StoreDiff(
                scope=binding.scope,
                store=binding.store.name,
                outgoing=tuple(diff_memories(base_files if heads.remote else {}, local_files)),
                incoming=tuple(diff_memories(base_files, remote_files)) if heads.remote else (),
                fetched=fetch and error is None,
                fetch_error=error,
            )
        )
    return diffs
