"""The consolidation pass (SPEC section 5): plan every change, then apply it.

Per memory folder: relative dates become ISO dates counted from when each line was written,
duplicates are merged, the index is rebuilt and, when it cannot fit Claude Code's limits, the
least recently updated memories move to `archive/`. Planning reads only; `apply_plan` writes.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from memsync import git
from memsync.consolidate.apply import apply_plan
from memsync.consolidate.apply import digest as _digest
from memsync.consolidate.dates import (
    DateMatch,
    Replacement,
    convertible_dates,
    left_lines,
    resolve_relative_dates,
)
from memsync.consolidate.evidence import template_name
from memsync.consolidate.folder import (
    MemoryFile,
    folder_scope,
    frontmatter_date,
    git_times,
    memory_folders,
    read_file,
    scan_folder,
    updated_key,
    written_dates,
)
from memsync.consolidate.indexfit import ARCHIVE_ORDER, IndexMemory, IndexRebuild, rebuild_index
from memsync.consolidate.indexlines import (
    FRONTMATTER_ADDED,
    INDEX_LINES,
    archive_destination,
    archive_move,
    dangling_text,
    lacks_frontmatter,
)
from memsync.consolidate.plan import DateChange, FolderPlan, Options, Plan
from memsync.consolidate.problems import (
    grafted_cut,
    left_out,
    links_in_the_way,
    not_utf8,
    over_limit,
    personal_in_team_folder,
    shallow_clone,
)
from memsync.consolidate.versions import plan_merges, survivors
from memsync.errors import UsageError
from memsync.model.index import Index, IndexLine, link_paths, parse_entry, parse_index
from memsync.model.limits import ARCHIVE_DIR, INDEX_NAME
from memsync.model.memory import Memory, compose, parse_memory, parse_yaml_mapping
from memsync.model.safety import encoding_reason, personal_in_team
from memsync.model.textcodec import encode

__all__ = ["apply_plan", "make_plan", "plan_folder"]  # apply_plan: its home is apply.py


def plan_folder(root: Path, options: Options, *, label: str | None = None) -> FolderPlan:
    """Everything consolidation would change in ROOT; reads files and git, writes nothing."""
    linked = links_in_the_way(root, (INDEX_NAME, ARCHIVE_DIR, INDEX_LINES))
    if linked:  # the index or archive/ read or written through a link: the folder is left
        return FolderPlan(root=root, label=label or root.name, problems=tuple(linked))
    # An index consolidation rewrites but cannot read whole would lose every byte it cannot
    # decode (sync holds such a file back): the folder is left.
    undecodable = [
        not_utf8(root / rel, why)
        for rel in (INDEX_NAME, INDEX_LINES)
        if (why := encoding_reason(read_file(str(root / rel))[0])) is not None
    ]
    if undecodable:
        return FolderPlan(root=root, label=label or root.name, problems=tuple(undecodable))
    scope = folder_scope(root, options.scope)
    found, others, skipped = scan_folder(root, scope)
    repo, prefix, commit_times = git_times(root)
    outside = None
    history_of = dict(options.histories).get(root.resolve()) if repo is None else None
    if history_of is not None:
        (repo, prefix), outside = history_of, root
    files: dict[str, MemoryFile] = {}
    dates: list[DateChange] = []
    # A shallow clone (or a `git replace --graft` with no parents) blames every older line on
    # a commit whose parents it cut: the day such a line was written is unknown, its dates are
    # left and reported (UNKNOWN: `a.md:3`).
    shallow = git.shallow_commits(repo) if repo is not None else frozenset()
    grafted = git.grafted_cuts(repo) if repo is not None else frozenset()
    cuts = shallow | grafted
    unknown: list[str] = []
    mtimes: dict[str, float] = {}  # when each memory was written: its rewrite keeps it
    for rel, path, mtime in found:
        mtimes[rel] = mtime
        raw, why = read_file(path)
        memory = parse_memory(raw, rel)
        why = why or memory.decode_error
        if why is not None:
            skipped.append(f"{rel}: {why}")
            others.append(rel)
            continue
        history = _History(repo, prefix, outside, cuts)
        new_memory, changes = _rewrite_dates(memory, mtime, history, unknown)
        record = MemoryFile.of(new_memory, _digest(raw), mtime, commit_times.get(rel))
        if changes:
            record.new_raw = new_memory.raw
            dates += changes
        files[rel] = record
    index_path = root / INDEX_NAME
    index_raw = index_path.read_bytes() if index_path.is_file() else None
    existing = None
    if index_raw is not None:
        mtime = index_path.stat().st_mtime
        history = _History(repo, prefix, outside, cuts)
        existing, index_dates = _index_prose_dates(index_raw, mtime, history, unknown)
        dates += index_dates
    indexed = {p for t in existing.targets for p in link_paths(t)} if existing else set()
    # Files merged away leave FILES; what their dates became still goes to the archive.
    converted = {rel: f.new_raw for rel, f in files.items() if f.new_raw is not None}
    merges, removed = plan_merges(root, files, indexed, options.threshold)
    # A personal memory in a team folder gets no line (a line it has stays): `check` says
    # where it belongs, and so does the report.
    personal = [p for p, f in files.items() if personal_in_team(f.type, scope)]
    memories = [
        IndexMemory(f.path, f.name, f.description, f.type, updated_key(f))
        for f in files.values()
        if not personal_in_team(f.type, scope)
    ]
    rebuild = rebuild_index(
        existing,
        memories,
        exists=[*others, *personal],
        allow_archive=options.allow_archive,
        merged=survivors(merges),
    )
    allocated: set[str] = set()
    archives = [archive_move(root, files[p], allocated) for p in rebuild.archived]
    problems = []
    if unknown and repo is not None:
        problems.append(shallow_clone(repo, unknown) if shallow else grafted_cut(repo, unknown))
    if personal:
        problems.append(personal_in_team_folder(personal))
    if not rebuild.fits:
        problems.append(over_limit(rebuild.after, options.allow_archive))
    if rebuild.left_out:
        typed = any(files[p].type for p in rebuild.left_out)
        problems.append(left_out(rebuild.left_out, typed and options.allow_archive != "all"))
    new_index = _render_new_index(existing, rebuild)
    writes: dict[str, bytes] = {}
    times: dict[str, float] = {}
    moves: list[tuple[str, str]] = []
    originals: dict[str, bytes | None] = dict(removed)
    deleted: list[str] = []
    retired: list[tuple[str, str]] = []  # merged-away files and where in archive/ they went
    for rel, digest in sorted(removed.items()):
        destination = archive_destination(root, rel, digest, allocated)
        retired.append((rel, destination))
        if (root / destination).is_file():
            deleted.append(rel)  # the same content is already archived there
        elif rel in converted:
            # Its dates were made absolute (and reported): the archived copy says so too.
            writes[destination], originals[destination] = converted[rel], None
            times[destination] = mtimes[rel]
            deleted.append(rel)
        else:
            moves.append((rel, destination))
            originals[destination] = None
    kept_lines = dangling_text(root, rebuild)
    repaired = []
    if kept_lines is not None:
        writes[INDEX_LINES], originals[INDEX_LINES] = kept_lines
        if lacks_frontmatter(root / INDEX_LINES):
            repaired.append(f"{INDEX_LINES}: {FRONTMATTER_ADDED}")
    for move in archives:
        item = files[move.path]
        originals[move.path] = item.digest
        if (root / move.destination).is_file():
            deleted.append(move.path)  # the same content is already archived there
        elif item.new_raw is not None:
            writes[move.destination] = item.new_raw
            originals[move.destination], times[move.destination] = None, mtimes[move.path]
            deleted.append(move.path)
        else:
            moves.append((move.path, move.destination))
            originals[move.destination] = None
    archived = {a.path for a in archives}
    for merge in merges:  # a survivor was last written when the newest of its copies was
        group = [merge.survivor, *merge.merged]
        mtimes[merge.survivor] = max(mtimes.get(path, 0.0) for path in group)
    for rel, item in files.items():
        if rel not in archived and item.new_raw is not None:
            writes[rel], originals[rel], times[rel] = item.new_raw, item.digest, mtimes[rel]
    index_changed = new_index != index_raw and not (index_raw is None and not memories)
    if index_changed:
        writes[INDEX_NAME] = new_index
        originals[INDEX_NAME] = None if index_raw is None else _digest(index_raw)
    return FolderPlan(
        root=root,
        label=label or root.name,
        dates=tuple(dates),
        merges=tuple(merges),
        archives=tuple(archives),
        retired=tuple(retired),
        index=rebuild,
        index_changed=index_changed,
        writes=writes,
        times=times,
        moves=tuple(moves),
        deletes=tuple(sorted(set(deleted))),
        originals=originals,
        skipped=tuple(skipped),
        problems=tuple(problems),
        repaired=tuple(repaired),
    )


@dataclass(frozen=True)
class _History:
    """Where a folder's lines are blamed: its repository (None: none), the folder's path in
    it, the live folder outside it (None: the folder is in it) and its shallow cuts."""

    repo: Path | None
    prefix: str
    outside: Path | None
    shallow: frozenset[str]


def _resolve(
    path: str,
    text: str,
    found: list[DateMatch],
    times: tuple[float, tuple[date, str] | None],
    *,
    history: _History,
    unknown: list[str],
) -> tuple[str, list[Replacement], Callable[[int], str]]:
    """TEXT (the file PATH, with the relative dates FOUND) rewritten, its rewrites and what
    dated each line; lines whose day is unknown are added to UNKNOWN (`path:line`). TIMES:
    the file's modification time and frontmatter date."""
    contents = None if history.outside is None else history.outside / path
    when, source, latest = written_dates(
        path,
        *times,
        history.repo,
        history.prefix,
        lines=text.split("\n"),
        contents=contents,
        shallow=history.shallow,
    )
    new_text, replacements = resolve_relative_dates(text, when, latest)
    unknown += [f"{path}:{n + 1}" for n in left_lines(text, found, replacements, when)]
    return new_text, replacements, source


def _rewrite_dates(
    memory: Memory, mtime: float, history: _History, unknown: list[str]
) -> tuple[Memory, list[DateChange]]:
    """MEMORY with its relative dates made absolute; blame only when it has one."""
    found = convertible_dates(memory.text)
    if template_name(memory.path) or not found:
        return memory, []
    times = mtime, frontmatter_date(memory)
    new_text, replacements, source = _resolve(
        memory.path, memory.text, found, times, history=history, unknown=unknown
    )
    new_text, replacements = _keep_frontmatter_valid(memory, new_text, replacements)
    if not replacements:
        return memory, []
    raw = encode(new_text, bom=memory.bom, crlf=memory.crlf)
    changes = [_date_change(memory.path, rep, source) for rep in replacements]
    return parse_memory(raw, memory.path), changes


def _index_prose_dates(
    raw: bytes, mtime: float, history: _History, unknown: list[str]
) -> tuple[Index, list[DateChange]]:
    """The index with relative dates in its text made absolute: headings, prose and entry
    lines, whose hook stays as written (`indexfit`), so its dates are resolved here."""
    index = parse_index(raw)
    found = convertible_dates(index.text())
    if not found:
        return index, []
    new_text, replacements, source = _resolve(
        INDEX_NAME, index.text(), found, (mtime, None), history=history, unknown=unknown
    )
    rewritten = new_text.split("\n")
    lines = [
        line
        if rewritten[number] == line.text
        else IndexLine(rewritten[number], line.entry and parse_entry(rewritten[number]))
        for number, line in enumerate(index.lines)
    ]
    changes = [_date_change(INDEX_NAME, r, source) for r in replacements]
    return index.with_lines(lines), changes


def _date_change(path: str, rep: Replacement, source: Callable[[int], str]) -> DateChange:
    return DateChange(
        path,
        rep.line + 1,
        rep.old,
        rep.new,
        rep.value,
        rep.written.isoformat(),
        rep.told_by or source(rep.line),
    )


def _keep_frontmatter_valid(
    memory: Memory, new_text: str, replacements: list[Any]
) -> tuple[str, list[Any]]:
    """Drop the rewrite of a frontmatter description when the YAML would change meaning."""
    if memory.frontmatter_text is None:
        return new_text, replacements
    fm_lines = memory.frontmatter_text.count("\n") + 2
    new = parse_memory(new_text.encode("utf-8"), memory.path)
    if new.frontmatter_text == memory.frontmatter_text:
        return new_text, replacements
    fields, problem, _, _ = parse_yaml_mapping(new.frontmatter_text or "")
    expected = {k: v for k, v in memory.fields.items() if k != "description"}
    if (
        problem is None
        and {k: v for k, v in fields.items() if k != "description"} == expected
        and isinstance(fields.get("description"), str)
    ):
        return new_text, replacements
    kept = [r for r in replacements if r.line >= fm_lines]
    return compose(memory.frontmatter_text, new.body), kept


def _render_new_index(existing: Index | None, rebuild: IndexRebuild) -> bytes:
    if existing is None:
        return encode(rebuild.text)
    return encode(rebuild.text, bom=existing.bom, crlf=existing.crlf)


def make_plan(
    path: Path, *, all_projects: bool = False, options: Options | None = None, dry_run: bool = False
) -> Plan:
    """Plan consolidation of PATH (a memory folder, or with ALL_PROJECTS a store checkout)."""
    options = options or Options()
    if options.allow_archive not in ARCHIVE_ORDER:
        raise UsageError(
            f"--allow-archive {options.allow_archive}: not one of {', '.join(ARCHIVE_ORDER)}"
        )
    folders = []
    with _no_cycle_collection():
        for folder in memory_folders(path, all_projects=all_projects):
            relative = folder.relative_to(path).as_posix()
            label = relative if relative != "." else path.name or "."
            folders.append(plan_folder(folder, options, label=label))
    return Plan(tuple(folders), dry_run)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Planning without the cyclic garbage collector: what it allocates (records, token ids,
    index lines) lives until the plan is done, and each collection walks that whole growing
    heap again, so it cost more the larger the store (28 % of the CPU at 10,000 memories,
    30 % at 100,000); reference counting still frees everything else, and peak memory did
    not change (docs/BENCHMARKS.md, Consolidation)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
