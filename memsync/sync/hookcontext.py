"""What a SessionStart hook tells the model: the index lines a pull brought, the team memory.

Claude Code read `MEMORY.md` before the hook ran and never loads `team/MEMORY.md` itself
(CLAUDE-CODE.md section 2): these sections are how the model learns of both in this session.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from memsync.sync.hookoutput import Section, clean_line, quote_name

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.check.findings import Finding
    from memsync.sync.report import StoreReport

MAX_NAMES = 4


def _read_index(path: Path) -> list[str]:
    """The lines of an index file as Claude Code loads it (no frontmatter, no HTML comment
    blocks), read only when it is a regular file within the size limit, never through a
    symlink (SPEC section 2), never blocking on a FIFO."""
    from memsync.fsutil.reads import read_regular_or_none

    data = read_regular_or_none(path)
    if data is None:
        return []
    from memsync.model.loaded import loaded_text

    # What the model is told the index holds is what the client would show it of the file.
    return loaded_text(data.decode("utf-8", "replace")).lstrip("\ufeff").splitlines()


def _team_link(live: Path) -> str | None:
    """Why the team index of LIVE is not read: the folder or its MEMORY.md is a symlink."""
    from memsync.fsutil.reads import contained

    if contained(live.parent, live.name) is None:
        return f"{live} is a symlink; {LINK_FIX} folder"
    if contained(live, "MEMORY.md") is None:
        return f"{live / 'MEMORY.md'} is a symlink; {LINK_FIX} file"
    return None


LINK_FIX = "memsync never reads through a symlink: replace it by a regular"


def _memory_paths(report: StoreReport, paths: Sequence[str]) -> list[str]:
    """The memories among PATHS, by the one memory rule of REPORT's scope: not the indexes."""
    from memsync.model.safety import Scope, is_index_path, is_memory_file

    scope: Scope = "team" if report.scope == "team" else "private"
    return [p for p in paths if is_memory_file(p, scope) and not is_index_path(p)]


def _changed_lines(
    report: StoreReport, index: list[str], loaded: frozenset[str] = frozenset()
) -> list[str]:
    """Index lines of the memories REPORT wrote and the lines not in LOADED (the index as the
    client loaded it, when the pull changed it), then the changes no index line names."""
    from memsync.model.index import parse_index_text

    updated = set(_memory_paths(report, report.updated))
    lines: list[str] = []
    named: set[str] = set()
    # Read as one index: an entry inside a comment the client loads as written is no entry.
    for line in parse_index_text("\n".join(index)).lines:
        entry = line.entry
        shown = clean_line(line.text)
        if entry is not None and (entry.target in updated or (loaded and shown not in loaded)):
            lines.append(shown)
            named.add(entry.target)
    lines.extend(f"- {quote_name(p)} (no index line)" for p in sorted(updated - named))
    lines.extend(f"- removed: {quote_name(p)}" for p in _memory_paths(report, report.deleted))
    return lines


TEAM_GUIDANCE = (
    "It is shared through git with everyone who works on this project (memsync syncs it at "
    "session start and end); Claude Code does not load it by itself, so its index follows.\n"
    "Save a memory there (a file in that folder plus a line in its MEMORY.md, in the same "
    "format as your own memory; Read that MEMORY.md before you change it, never rewrite it "
    "from the lines below) when it is a convention or fact every contributor should "
    "follow: build and test commands, code conventions, decisions and their reasons, where "
    "things are.\n"
    "Never save `user` memories (about one person) or anything secret (tokens, passwords, "
    "keys, personal data) there: those stay in your private memory."
)


def team_section(
    live: Path,
    updated: Sequence[str] = (),
    deleted: Sequence[str] = (),
    held: Sequence[Finding] = (),
) -> Section:
    """The team folder, when to save there, what this pull changed (the memories UPDATED
    and DELETED), what stays on this machine (HELD back), then the team index."""
    index_file = live / "MEMORY.md"
    link = _team_link(live)
    index = [] if link else [clean_line(ln) for ln in _read_index(index_file) if ln.strip()]
    heading = [f"Team memory: {live}", TEAM_GUIDANCE]
    if updated:
        heading.append(f"New or changed by this pull: {short_names(updated, most=20)}")
    if deleted:
        heading.append(f"Removed by this pull: {short_names(deleted, most=20)}")
    if held:
        # The index below lists them, yet the team does not have this version: the model
        # must not tell the person they were shared.
        heading.append(
            "Not shared: memsync holds these back on this machine until they are fixed (the "
            f"person was told why and how): {_held_names(held)}"
        )
    heading.append(f"Team index ({index_file}):")
    empty = f"(team index not shown: {link})" if link else _no_index(live)
    lines = tuple(index or [empty])
    return Section("\n".join(heading), lines, str(index_file), _lines_of(index, updated))


def _held_names(held: Sequence[Finding]) -> str:
    """Each held-back file once, quoted, with the rules it broke: `"db.md" (secret)`."""
    rules: dict[str, list[str]] = {}
    for finding in held:
        found = rules.setdefault(finding.path, [])
        if finding.rule not in found:
            found.append(finding.rule)
    shown = [f"{quote_name(path)} ({', '.join(r)})" for path, r in list(rules.items())[:20]]
    more = len(rules) - len(shown)
    return ", ".join(shown) + (f", +{more} more" if more > 0 else "")


def _lines_of(index: list[str], memories: Sequence[str]) -> frozenset[int]:
    """Positions of INDEX's entries that link to MEMORIES."""
    if not memories:
        return frozenset()  # the usual session start: no index parser to import (BENCHMARKS.md)
    from memsync.model.index import parse_index_text

    wanted = set(memories)
    lines = parse_index_text("\n".join(index)).lines
    return frozenset(
        n for n, line in enumerate(lines) if line.entry and line.entry.target in wanted
    )


def _no_index(live: Path) -> str:
    """What stands for a team index that shows no line: the memories the folder holds, else
    the model takes the folder for empty (an index memsync skips, or none written yet)."""
    import os

    from memsync.fsutil.reads import read_regular_or_none
    from memsync.fsutil.scan import memory_names

    held = sorted(name for name in memory_names(live, "team") if name != "MEMORY.md")
    if not held:
        return "(no team memories yet)"
    index = live / "MEMORY.md"
    if not os.path.lexists(index):
        why = "no team index yet"
    elif read_regular_or_none(index) is None:  # memsync skips it: it says why elsewhere
        why = f"team index not shown: {index} is not a regular file of at most 250,000 bytes"
    else:
        why = "the team index lists none of them"
    return f"({why}; the folder holds {len(held)}: {short_names(held, most=20)})"


def pull_sections(reports: Sequence[StoreReport], *, resumed: bool = False) -> list[Section]:
    """Model context after a pull: changed index lines, then the team memory. A RESUMED
    session's transcript already holds the team memory its first start was given: it gets
    the team block again only when this pull changed team memory."""
    sections: list[Section] = []
    for report in reports:
        if not report.live_dir:
            continue
        live = Path(report.live_dir)
        if report.scope == "team":
            updated = _memory_paths(report, report.updated)
            deleted = _memory_paths(report, report.deleted)
            if not resumed or updated or deleted:
                sections.append(team_section(live, updated, deleted, report.blocked))
        else:
            section = _private_section(report, live)
            if section is not None:
                sections.append(section)
    return sections


def _private_section(report: StoreReport, live: Path) -> Section | None:
    """What the pull changed in the private memory the client had already loaded: the index
    lines it brought (a retitle alone included), or None when it changed nothing there."""
    index_file = live / "MEMORY.md"
    # Only the top index is loaded: a change to it makes the loaded copy stale.
    index_changed = "MEMORY.md" in report.changed_live
    if not index_changed and not _memory_paths(report, report.changed_live):
        return None
    if index_changed:
        from memsync.sync.indexkeep import loaded_index_file

        loaded = frozenset(clean_line(ln) for ln in _read_index(loaded_index_file(live)))
        heading = (
            "memsync brought memory changes from other machines after this session loaded "
            f"MEMORY.md, so the copy loaded above is out of date: Read {index_file} before "
            "you change it, never rewrite it from that copy. Index lines of the new or "
            f"changed memories in {live} (Read a file for its content):"
        )
    else:
        loaded = frozenset()
        heading = (
            "memsync brought changes to these memories from other machines after this session "
            "loaded MEMORY.md (the index itself is unchanged). Their index lines in "
            f"{live} (Read a file for its content):"
        )
    lines = _changed_lines(report, _read_index(index_file), loaded)
    # Every line here is a change: it keeps its room ahead of the team lines a pull changed.
    return Section(heading, tuple(lines), str(index_file), frozenset(range(len(lines))))


def short_names(paths: Sequence[str], quote: bool = True, most: int = MAX_NAMES) -> str:
    """PATHS as a short list: the first MOST, then how many more."""
    shown = [quote_name(p) if quote else Path(p).name for p in paths[:most]]
    more = len(paths) - len(shown)
    return ", ".join(shown) + (f", +{more} more" if more > 0 else "")
