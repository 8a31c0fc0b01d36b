"""Rebuilding MEMORY.md: one line per memory, headings and prose kept, within Claude's limits.

`rebuild_index` is pure: dangling and repeated lines out, missing memories in, long lines
shortened, and (when allowed) the least recently updated memories archived until it fits;
new lines that cannot fit are left out, files without frontmatter before any memory.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from memsync.consolidate.entrylines import cut_line, entry_line, kept_line
from memsync.model.index import (
    Index,
    IndexEntry,
    IndexLine,
    IndexSize,
    link_paths,
    measure_index,
    parse_entry,
    parse_index_text,
)
from memsync.model.indexrefs import linked_from_text, outside_folder, repeats
from memsync.model.limits import ARCHIVE_DIR, MAX_INDEX_LINE_CHARS

# Which memory types may leave the index, in the order they go, per `--allow-archive` value.
ARCHIVE_ORDER: dict[str, tuple[str, ...]] = {
    "project-reference": ("project", "reference"),
    "all": ("project", "reference", "feedback", "user"),
    "none": (),
}


@dataclass(frozen=True)
class IndexMemory:
    """What the index needs to know about one memory."""

    path: str  # relative to the memory folder, `/`-separated
    title: str | None  # frontmatter `name`
    hook: str | None  # frontmatter `description`
    type: str | None
    updated: tuple[float, ...]  # when it was last updated, sortable: the archive order


@dataclass(frozen=True)
class IndexRebuild:
    """The new index text and what changed."""

    text: str
    added: tuple[str, ...]
    dangling: tuple[str, ...]
    duplicates: tuple[str, ...]
    dangling_lines: tuple[str, ...]  # in full: their text is kept in archive/ and reported
    duplicate_lines: tuple[str, ...]
    rewritten: tuple[str, ...]
    shortened: tuple[str, ...]
    archived: tuple[str, ...]
    # Memories with no line that the index had no room for (they stay where they are).
    left_out: tuple[str, ...]
    # Lines of files without frontmatter given up for a memory with a type (kept in archive/).
    crowded_lines: tuple[str, ...]
    before: IndexSize
    after: IndexSize
    # (old line, new line) of every line rewritten in place, so a report shows both.
    rewrites: tuple[tuple[str, str], ...] = ()
    # Removed lines other than dangling and crowded ones whose text goes to archive/: a merged
    # version's second line that says something else than the line kept (nothing a person
    # wrote is lost; a repeat loses nothing and is not kept twice). A memory's own second line
    # that says something else stays in the index.
    kept_lines: tuple[str, ...] = ()
    # Lines of merged-away memories now pointing at their survivor, as written (kept in archive/).
    merged_lines: tuple[str, ...] = ()
    # Long lines as written whose hook, cut to fit, is said nowhere else (no `description`).
    cut_lines: tuple[str, ...] = ()

    @property
    def fits(self) -> bool:
        """Whether Claude Code loads the whole new index."""
        return self.after.fits


def _is_memory_link(target: str) -> bool:
    return target.endswith(".md") and "://" not in target and not target.startswith("mailto:")


def rebuild_index(
    existing: Index | None,
    memories: Sequence[IndexMemory],
    *,
    exists: Sequence[str] = (),
    allow_archive: str = "project-reference",
    merged: Mapping[str, str] | None = None,
) -> IndexRebuild:
    """The index for MEMORIES: existing prose and order kept, one entry per memory, limits met.

    EXISTS lists other files in the folder that links may point to (not memories, not
    dangling). MERGED maps each memory merged away to the one it was merged into: its line
    is a line of that memory. When the result is over Claude Code's limits, the least recently
    updated memories of the types ALLOW_ARCHIVE names are left out, in order, and listed as
    archived.
    """
    merged = merged or {}
    known = {m.path: m for m in memories}
    other_files = set(exists)
    folders = tuple(p for p in exists if p.endswith("/"))  # unread: what they hold is there
    lines: list[IndexLine] = []
    seen: set[str] = set()
    dangling: list[str] = []
    duplicates: list[str] = []
    rewritten: list[str] = []
    rewrites: list[tuple[str, str, str]] = []  # path, old line, new line
    shortened: list[str] = []
    dangling_lines: list[str] = []
    duplicate_lines: list[str] = []
    kept_lines: list[str] = []
    # Each memory's lines kept so far, and whether its first is a merged-away version's.
    first_line: dict[str, tuple[list[IndexEntry], bool]] = {}
    merged_lines: list[str] = []
    cut_lines: list[str] = []
    for line in existing.lines if existing else ():
        entry = line.entry
        if entry is None or not _is_memory_link(entry.target):
            lines.append(line)
            continue
        # The files the link may name, read as `check` reads it (`with%20space.md`).
        paths = link_paths(entry.target)
        memory = next((known[p] for p in paths if p in known), None)
        # A merged-away version's line is its survivor's: it may be the one with the place and
        # the title a person chose (the survivor is often an unindexed copy).
        survivor = next((merged[p] for p in paths if p in merged), None)
        moved = memory is None and survivor in known
        if moved:
            memory = known[str(survivor)]
        if memory is None:
            archived_link = paths[0].startswith(f"{ARCHIVE_DIR}/")
            there = any(p in other_files or p.startswith(folders) for p in paths)
            if there and not archived_link:
                lines.append(line)
            elif outside_folder(paths):
                # A link out of the folder (`../../../plans/x.md`, Claude Code's plan files) was
                # written on purpose and the client shows it: kept, never followed; a long one
                # is cut from its own hook as a memory's line is, and kept whole in archive/.
                new = cut_line(line.text, entry, entry.target)
                if new != line.text:
                    rewritten.append(entry.target)
                    shortened.append(entry.target)
                    rewrites.append((entry.target, line.text, new))
                    cut_lines.append(line.text)
                lines.append(IndexLine(new, parse_entry(new)))
            else:
                dangling.append(paths[-1])  # the file it names, as `retired` has it
                dangling_lines.append(line.text)
            continue
        if memory.path in seen:
            said, was_moved = first_line[memory.path]
            repeat = any(repeats(entry, kept) for kept in said)
            if not (moved or was_moved or repeat):
                said.append(entry)  # a line that says something else stays (a repeat goes)
            else:
                duplicates.append(memory.path)
                duplicate_lines.append(line.text)
                if not repeat:  # a version's line: kept in archive/
                    kept_lines.append(line.text)
                continue
        else:
            seen.add(memory.path)
            first_line[memory.path] = ([entry], moved)
        new, own_words_cut = kept_line(line.text, entry, memory, moved)
        if moved:
            merged_lines.append(line.text)
        if new != line.text:
            rewritten.append(memory.path)
            rewrites.append((memory.path, line.text, new))
            if len(line.text) > MAX_INDEX_LINE_CHARS:
                shortened.append(memory.path)
                if own_words_cut:  # said nowhere else: the line as written is kept in archive/
                    cut_lines.append(line.text)
        parsed = parse_entry(new)
        # Keyed by the memory's path, whatever the spelling, for archiving and room-making.
        lines.append(IndexLine(new, parsed and replace(parsed, target=memory.path)))
    # A memory a table row or a bold link (`**[T](t.md)**`) names is indexed too: Claude
    # writes such lines, and a second line for it only repeated it (55 real folders: 16).
    linked = linked_from_text(existing) if existing else set()
    missing = [path for path in sorted(known) if path not in seen and path not in linked]
    base = existing or parse_index_text("")
    before = measure_index(existing.text()) if existing else measure_index("")
    wanted = [path for path in missing if known[path].type]
    index, archived, typed = _place(base, lines, wanted, known, allow_archive)
    # A new memory with a type comes before a file without frontmatter that already has a
    # line (a daily log indexed while there was room): such lines give their room up, oldest
    # first, before any memory is archived or left out; their text is kept like a dangling
    # line's (archive/index-lines.md).
    # (when it was updated, its path), oldest first; a memory's lines go together.
    squatters = sorted(
        {
            (known[ln.entry.target].updated, ln.entry.target)
            for ln in lines
            if ln.entry and ln.entry.target in known and not known[ln.entry.target].type
        }
    )
    gave_up: list[str] = []
    crowded: list[IndexLine] = []
    while (len(typed) < len(wanted) or archived) and squatters:
        # As many memories at once as memories still want a line (at least one): few passes.
        count = max(1, len(wanted) - len(typed))
        gone = {path for _, path in squatters[:count]}
        gave_up += [path for _, path in squatters[:count]]
        squatters = squatters[count:]
        crowded += [ln for ln in lines if ln.entry and ln.entry.target in gone]
        lines = [ln for ln in lines if not (ln.entry and ln.entry.target in gone)]
        index, archived, typed = _place(base, lines, wanted, known, allow_archive)
    # A file without frontmatter (an agent's daily log) takes only the room that is left:
    # it never costs a memory with a type its line.
    untyped = _most_that_fit(index, [p for p in missing if not known[p].type], known)
    index = _with_entries(index, list(index.lines), untyped, known)
    added = sorted([*typed, *untyped])
    return IndexRebuild(
        text=index.text(),
        added=tuple(added),
        left_out=tuple(sorted([p for p in missing if p not in set(added)] + gave_up)),
        crowded_lines=tuple(line.text for line in crowded),
        dangling=tuple(dangling),
        duplicates=tuple(duplicates),
        dangling_lines=tuple(dangling_lines),
        duplicate_lines=tuple(duplicate_lines),
        # A memory archived leaves the index: its line is removed, not rewritten.
        rewritten=tuple(p for p in dict.fromkeys(rewritten) if p not in archived),
        shortened=tuple(p for p in dict.fromkeys(shortened) if p not in archived),
        archived=tuple(archived),
        before=before,
        after=measure_index(index.text()),
        rewrites=tuple((old, new) for path, old, new in rewrites if path not in archived),
        kept_lines=tuple(kept_lines),
        merged_lines=tuple(merged_lines),
        cut_lines=tuple(cut_lines),
    )


def _place(
    base: Index,
    lines: Sequence[IndexLine],
    wanted: Sequence[str],
    known: dict[str, IndexMemory],
    allow_archive: str,
) -> tuple[Index, list[str], list[str]]:
    """LINES with entries for WANTED (memories with a type and no line): the index, what was
    archived, and which of WANTED got a line. Older `project`/`reference` memories may be
    archived to make room (SPEC section 5); when even that cannot make the index fit, only the
    new lines that fit are added and nothing moves: an index within the limits stays so."""
    index, archived = _fit(_with_entries(base, lines, wanted, known), known, allow_archive)
    if measure_index(index.text()).fits:
        return index, archived, list(wanted)
    without = _with_entries(base, lines, [], known)
    chosen = _most_that_fit(without, wanted, known) if measure_index(without.text()).fits else []
    return _with_entries(base, lines, chosen, known), [], chosen


def _entry(memory: IndexMemory) -> IndexLine:
    text = entry_line(memory.title or Path(memory.path).stem, memory.path, memory.hook)
    return IndexLine(text, parse_entry(text))


def _with_entries(
    base: Index, lines: Sequence[IndexLine], paths: Sequence[str], known: dict[str, IndexMemory]
) -> Index:
    """BASE with LINES and an entry for each of PATHS at the end, before trailing blank lines."""
    lines = list(lines)
    tail = len(lines)
    while tail and not lines[tail - 1].text.strip():
        tail -= 1
    lines[tail:tail] = [_entry(known[path]) for path in paths]
    return base.with_lines(lines) if lines else Index(lines=(), final_newline=True)


def _most_that_fit(
    index: Index, candidates: Sequence[str], known: dict[str, IndexMemory]
) -> list[str]:
    """Which of CANDIDATES (no line in INDEX yet) fit in the room INDEX leaves, the most
    important first: by type (`user`, `feedback`, `project`, `reference`, none), newest first."""
    size = measure_index(index.text())
    if not size.fits or not candidates:
        return []
    rank = {kind: i for i, kind in enumerate(("user", "feedback", "project", "reference"))}
    order = sorted(candidates, key=lambda p: (rank.get(known[p].type or "", 4), _newest(known[p])))
    lines, chars = size.lines, size.chars
    chosen: list[str] = []
    for path in order:
        cost = len(_entry(known[path]).text) + 1
        if lines + 1 <= size.line_limit and chars + cost <= size.char_limit:
            chosen.append(path)
            lines, chars = lines + 1, chars + cost
    chosen.sort()
    # The running count is exact but for trimming at the ends; check the real size once.
    while (
        chosen and not measure_index(_with_entries(index, index.lines, chosen, known).text()).fits
    ):
        chosen.pop()
    return chosen


def _newest(memory: IndexMemory) -> tuple[float, ...]:
    return tuple(-part for part in memory.updated)


def _fit(
    index: Index, known: dict[str, IndexMemory], allow_archive: str
) -> tuple[Index, list[str]]:
    """Leave the oldest memories of the allowed types out until the index fits."""
    size = measure_index(index.text())
    if size.fits:
        return index, []
    order = ARCHIVE_ORDER.get(allow_archive, ARCHIVE_ORDER["project-reference"])
    rank = {kind: i for i, kind in enumerate(order)}
    victims = sorted(
        (m for m in known.values() if m.type in rank),
        key=lambda m: (rank[m.type or ""], m.updated, m.path),
    )
    lines = list(index.lines)
    position: dict[str, list[int]] = {}  # a memory may keep two lines that say two things
    for i, line in enumerate(lines):
        if line.entry:
            position.setdefault(line.entry.target, []).append(i)
    removed: set[int] = set()
    archived: list[str] = []
    lines_count, chars = size.lines, size.chars
    for memory in victims:
        if lines_count <= size.line_limit and chars <= size.char_limit:
            break
        if memory.path not in position:
            continue
        archived.append(memory.path)
        for at in position[memory.path]:
            removed.add(at)
            lines_count -= 1
            chars -= len(lines[at].text) + 1
    kept = index.with_lines([line for i, line in enumerate(lines) if i not in removed])
    # The running count is exact for entry lines in the middle; check the real size once.
    while not measure_index(kept.text()).fits and len(archived) < len(victims):
        done = set(archived)
        memory = next(m for m in victims if m.path not in done)
        archived.append(memory.path)
        kept = kept.with_lines([ln for ln in kept.lines if not _links(ln, memory.path)])
    if not measure_index(kept.text()).fits:
        return index, []  # archiving cannot make it fit: move nothing, say so (SPEC section 5)
    return kept, archived


def _links(line: IndexLine, path: str) -> bool:
    return line.entry is not None and line.entry.target == path
