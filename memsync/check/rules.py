"""SPEC 6 validation rules: for one file (before a push) and for a whole memory directory."""

from __future__ import annotations

import bisect
import functools
import posixpath
import re
from collections.abc import Iterable, Mapping

from memsync.check.findings import IN_FILE_NAME, Finding, finding, skip_finding
from memsync.check.frontmatter import frontmatter_findings, recall_size
from memsync.check.indexsize import index_size
from memsync.model.index import (
    Index,
    IndexEntry,
    commented_lines,
    line_links,
    link_paths,
    parse_index_text,
)
from memsync.model.indexrefs import linked_from_text, outside_folder, repeats
from memsync.model.limits import (
    ARCHIVE_DIR,
    INDEX_NAME,
    MAX_INDEX_LINE_CHARS,
    MAX_MEMORY_BYTES,
    MEMORY_TYPES,
)
from memsync.model.memory import Memory, parse_memory
from memsync.model.safety import Skipped, personal_in_team, size_reason, unsafe_path_reason
from memsync.model.textcodec import decode

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.check.cache import FindingCache

_TYPES = ", ".join(MEMORY_TYPES)
# Git's conflict markers (default size 7). `=======` is also a Markdown setext underline,
# so it only counts inside an open conflict or where no paragraph line precedes it.
_OPEN_MARKER = re.compile(r"<{7}(?:[ \t].*)?")
_OTHER_MARKER = re.compile(r"(?:>{7}|\|{7})(?:[ \t].*)?")
_SEPARATOR = re.compile(r"={7}[ \t]*")
_MARKER_TEXTS = ("<" * 7, "=" * 7, ">" * 7, "|" * 7)
_CODE_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
# Every expression of the relative-date grammar (memsync.consolidate.dates) contains one of
# these words; tests/test_checks.py holds the corpus of that grammar to this. (`in` on
# lowered text is several times faster than a case-insensitive regex alternation.)
DATE_WORDS: tuple[str, ...] = ("day", "week", "month", "year", "fortnight", "tomorrow")
DATE_WORDS += ("night", "morning", "afternoon", "evening")
_EXTERNAL_LINK = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|#|//)")


# --- single files ---


def check_file(path: str, data: bytes, scope: str, *, index: bool = False) -> list[Finding]:
    """Every single-file rule for one memory (or the index when INDEX); PATH names it."""
    reason = unsafe_path_reason(path)
    if reason is not None:
        return [finding("unsafe-path", path, 1, f"unsafe path ({reason}): memsync never syncs it")]
    named = _secret_in_name(path)
    if len(data) > MAX_MEMORY_BYTES:
        return [*named, too_large(path, len(data))]
    if index:
        return [*named, *check_index(path, data)]
    return [*named, *check_memory(parse_memory(data, path), scope, archived=in_archive(path))]


def in_archive(path: str) -> bool:
    """True for a memory in its folder's `archive/` (PATH relative to the folder): no
    consolidation runs there, so its dates are not asked (a push and `check` agree)."""
    return path.split("/", 1)[0] == ARCHIVE_DIR


def _secret_in_name(path: str) -> list[Finding]:
    """A secret in the file's name: held back like one in its text, so the push (and its
    commit message, which names the files) carries the other files without it."""
    from memsync.check.secrets import scan_text

    return [
        finding("secret", path, 1, f"possible secret ({hit.rule_id}) {IN_FILE_NAME}: rename it")
        for hit in scan_text(path)[:1]
    ]


def too_large(path: str, size: int) -> Finding:
    """The finding for a memory of SIZE bytes, over the limit."""
    message = f"{size_reason(size)}: Claude Code skips it in team memory and memsync never syncs it"
    return finding("file-too-large", path, 1, message)


def _not_utf8(path: str, data: bytes, error: str) -> Finding:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return finding("not-utf8", path, line, f"{error}: memsync never syncs it; save as UTF-8")
    return finding("not-utf8", path, 1, error)  # pragma: no cover - only called on bad bytes


def check_memory(memory: Memory, scope: str, *, archived: bool = False) -> list[Finding]:
    """Frontmatter, type, scope, secret, conflict-marker and date rules for one memory; an
    ARCHIVED one (in the folder's `archive/`) is not consolidated, so its dates are not asked."""
    path = memory.path
    if memory.decode_error:
        return [_not_utf8(path, memory.raw, memory.decode_error)]
    found = frontmatter_findings(memory, scope)
    found.extend(conflict_markers(path, memory.text))
    found.extend(secret_findings(path, memory.text))
    if not archived:
        found.extend(relative_dates(path, memory.text))
    found.extend(recall_size(memory))
    return found


def fence_step(line: str, fence: str | None) -> tuple[bool, str | None]:
    """(LINE is a code fence, the fence open after it) for Markdown fenced code blocks."""
    match = _CODE_FENCE.match(line)
    if match is None:
        return False, fence
    mark = match.group(1)
    if fence is None:
        return True, mark
    closes = mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip(mark[0] + " ")
    return True, None if closes else fence


def conflict_markers(path: str, text: str, first_line: int = 1) -> list[Finding]:
    """Git conflict markers outside fenced code blocks, one finding per conflict."""
    if not any(marker in text for marker in _MARKER_TEXTS):
        return []
    found: list[Finding] = []
    open_at: int | None = None
    fence: str | None = None
    previous_blank = True
    for number, raw in enumerate(text.split("\n"), first_line):
        line = raw.rstrip("\r")
        if open_at is None:
            is_fence, fence = fence_step(line, fence)
            if is_fence or fence is not None:
                continue
        if _OPEN_MARKER.fullmatch(line):
            if open_at is None:
                open_at = number
                found.append(finding("conflict-marker", path, number, "conflict marker `<<<<<<<`"))
        elif _OTHER_MARKER.fullmatch(line):
            if open_at is None:
                found.append(
                    finding("conflict-marker", path, number, f"conflict marker `{line[:7]}`")
                )
            if line.startswith(">"):
                open_at = None
        elif _SEPARATOR.fullmatch(line) and open_at is None and previous_blank:
            found.append(finding("conflict-marker", path, number, "conflict marker `=======`"))
        previous_blank = not line.strip()
    return found


def secret_findings(path: str, text: str, first_line: int = 1) -> list[Finding]:
    """Secrets (the redacted preview only, never the value)."""
    from memsync.check.secrets import scan_text

    return [
        finding(
            "secret",
            path,
            hit.line + first_line - 1,
            f"possible secret ({hit.rule_id}): {hit.preview}",
            column=hit.column,
        )
        for hit in scan_text(text, path)
    ]


def relative_date_positions(text: str) -> list[tuple[int, int, str]]:
    """Where consolidation would rewrite a relative date: (0-based line, column, expression)."""
    lowered = text.lower()
    if not any(word in lowered for word in DATE_WORDS):
        return []  # the grammar is costly (about 1 ms a memory) and most text has no date word
    from memsync.consolidate.dates import convertible_dates

    matches = convertible_dates(text)
    if not matches:
        return []
    # Line starts once, a bisect per match: counting newlines per match is quadratic in a log.
    starts = [0, *(i + 1 for i, ch in enumerate(text) if ch == "\n")]
    positions: list[tuple[int, int, str]] = []
    for match in matches:
        line = bisect.bisect_right(starts, match.start) - 1
        positions.append((line, match.start - starts[line], match.expression))
    return positions


def relative_dates(path: str, text: str, first_line: int = 1) -> list[Finding]:
    """A warning for each relative date expression in TEXT, which starts at FIRST_LINE."""
    positions = relative_date_positions(text)
    if positions:
        from memsync.consolidate.evidence import template_name

        if template_name(path):
            return []  # `YYYY-MM-DD.md`: a daily log's template, which consolidation leaves
    return [
        finding(
            "relative-date",
            path,
            line + first_line,
            f"relative date {expression!r}: write the absolute date",
            column=column + 1,
        )
        for line, column, expression in positions
    ]


# --- the index ---


def check_index(path: str, data: bytes) -> list[Finding]:
    """Size limits, long and duplicate lines, markers, secrets and dates in a MEMORY.md."""
    text, _, _, error = decode(data)
    if error:
        return [_not_utf8(path, data, error)]
    found = conflict_markers(path, text)
    found.extend(secret_findings(path, text))
    index = parse_index_text(text)
    lines = index.lines
    # Entry lines too: consolidate keeps an entry's hook as written and converts its dates.
    found.extend(relative_dates(path, "\n".join(ln.text for ln in lines)))
    found.extend(index_size(path, text))
    found.extend(_long_lines(path, index))
    said: dict[str, list[tuple[int, IndexEntry]]] = {}  # each file's entries that stay
    for number, line in enumerate(lines, 1):
        if line.entry is None or not line.entry.target:
            continue
        earlier = said.setdefault(line.entry.target, [])
        first = next((n for n, kept in earlier if repeats(line.entry, kept)), None)
        if first is None:  # a line that says something else is kept by consolidate
            earlier.append((number, line.entry))
            continue
        message = f"duplicate entry for {line.entry.target} (first on line {first})"
        found.append(finding("index-duplicate-line", path, number, message))
    return found


def _long_lines(path: str, index: Index) -> list[Finding]:
    """`index-line-too-long` for each line over 150 characters in the index's own form: an
    entry, or a table row or bold link to a `.md` file. Prose, headings and notes have no
    limit of their own in Claude Code (the index's 200 lines and 25,000 characters count
    them), and consolidate never shortens them: a warning there could never be cleared."""
    found: list[Finding] = []
    inside = commented_lines([line.text for line in index.lines])
    for number, line in enumerate(index.lines, 1):
        visible = line.text.rstrip("\r")
        if len(visible) <= MAX_INDEX_LINE_CHARS or number - 1 in inside:
            continue
        if line.entry is not None and line.entry.target.endswith(".md"):
            fix = "`memsync consolidate` cuts its hook and keeps the line whole in archive/"
        elif line.entry is not None or any(p.endswith(".md") for p in line_links(line.text)):
            fix = "shorten it by hand (`memsync consolidate` cuts only `- [T](file.md) — hook`)"
        else:
            continue
        message = f"index line has {len(visible)} characters (limit {MAX_INDEX_LINE_CHARS}): {fix}"
        found.append(finding("index-line-too-long", path, number, message))
    return found


# --- a whole directory ---


def check_files(
    files: Mapping[str, bytes],
    scope: str,
    skipped: Iterable[Skipped] = (),
    *,
    prefix: str = "",
    cache: FindingCache | None = None,
) -> list[Finding]:
    """All SPEC 6 rules over one memory tree (relative paths -> bytes) and its skipped files;
    CACHE, if given, remembers each file's own findings (memsync.check.cache)."""
    skipped = tuple(skipped)
    found = [skip_finding(item, prefix + item.path) for item in skipped]
    memories: dict[str, Memory] = {}
    indexes: dict[str, bytes] = {}
    for path, data in sorted(files.items()):
        shown = prefix + path
        if posixpath.basename(path) == INDEX_NAME:
            indexes[path] = data
            rules = functools.partial(check_index, shown, data)
        else:
            memory = memories[path] = parse_memory(data, shown)
            rules = functools.partial(check_memory, memory, scope, archived=in_archive(path))
        found.extend(_secret_in_name(shown))
        found.extend(cache.findings(shown, scope, data, rules) if cache else rules())
    known = set(files) | {item.path for item in skipped}
    linked = set()
    for index_path, data in indexes.items():
        targets, dangling = _index_links(index_path, data, known, prefix)
        found.extend(dangling)
        if index_path == INDEX_NAME:
            linked = targets
    index_name = prefix + INDEX_NAME
    has_index = INDEX_NAME in indexes
    found.extend(_unindexed(memories, linked, index_name, scope, has_index=has_index))
    found.extend(_duplicates(memories))
    return found


_OUTSIDE = (
    "outside the memory folder: memsync never reads or syncs a file there, so other machines "
    "may not have it; Claude Code still shows the line and consolidate keeps it. To share the "
    "file, move it into the folder and link it by its name"
)


def _index_links(
    index_path: str, data: bytes, known: set[str], prefix: str
) -> tuple[set[str], list[Finding]]:
    """(files the index links to, findings for links to missing files)."""
    text, _, _, error = decode(data)
    if error:
        return set(), []
    base = posixpath.dirname(index_path)
    index = parse_index_text(text)
    # A table row or a bold link (`**[T](t.md)**`) indexes its memory too, as for consolidate.
    targets: set[str] = linked_from_text(index, base)
    found: list[Finding] = []
    for number, line in enumerate(index.lines, 1):
        entry = line.entry
        if entry is None or _EXTERNAL_LINK.match(entry.target):
            continue
        if not entry.target:
            message = f"entry {entry.title!r} has an empty link"
            found.append(finding("index-dangling-link", prefix + index_path, number, message))
            continue
        resolved = set(link_paths(entry.target, base))
        targets |= resolved
        if resolved & known or not any(r.endswith(".md") for r in resolved):
            continue  # present, or not a memory (an image, a directory): not ours to judge
        rule, message = "index-dangling-link", "which does not exist: remove the line or restore it"
        if outside_folder(resolved):  # never read there: whether it exists is unknown
            rule, message = "index-outside-link", _OUTSIDE
        found.append(
            finding(rule, prefix + index_path, number, f"links to {entry.target}, {message}")
        )
    return targets, found


def _unindexed(
    memories: Mapping[str, Memory],
    linked: set[str],
    index_name: str,
    scope: str,
    *,
    has_index: bool,
) -> list[Finding]:
    found: list[Finding] = []
    for path, memory in memories.items():
        if path in linked or path.split("/", 1)[0] == ARCHIVE_DIR:
            continue  # archived memories leave the index on purpose
        if personal_in_team(memory.type, scope):
            continue  # never to be indexed there: `user-in-team` says where it goes
        where = index_name if has_index else f"{index_name} (there is none)"
        message = f"not listed in {where}: Claude Code will rarely recall it"
        found.append(finding("index-missing-entry", memory.path, 1, message))
    return found


def _duplicates(memories: Mapping[str, Memory]) -> list[Finding]:
    # The one definition of an exact duplicate: what `consolidate` merges as one.
    from memsync.consolidate.wording import day_in_name, normalize_body

    first_with: dict[tuple[str, str | None], Memory] = {}
    found: list[Finding] = []
    for memory in memories.values():
        if memory.decode_error:
            continue
        normalized = normalize_body(memory.body)
        if not normalized:
            continue
        original = first_with.setdefault((normalized, day_in_name(memory.path)), memory)
        if original is not memory:
            message = f"same body as {original.path}"
            found.append(finding("duplicate-memory", memory.path, memory.body_start_line, message))
    return found
