"""Three-way merge of one memory file: frontmatter by field, body by line, never a marker."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field

from memsync.merge.diff3 import Conflict, merge3_flag, merge_text
from memsync.merge.fields import NO_TIME, merge_frontmatter, parses_as_mapping
from memsync.merge.fieldvalues import canonical
from memsync.merge.words import prose_resolver
from memsync.model.memory import compose, parse_yaml_mapping, split_frontmatter
from memsync.model.textcodec import decode, encode


@dataclass(frozen=True)
class MergeDecision:
    """One choice the merge made that dropped a value or combined conflicting lines."""

    path: str
    kind: str  # see DECISION_KINDS
    field: str | None
    kept: str | None
    lost: str | None
    detail: str


DECISION_KINDS = {
    "field-conflict": "both sides changed a frontmatter field; the newer change won",
    "field-list-merged": "both sides changed a list field; merged as a set",
    "field-delete-modify": "a field deleted on one side and changed on the other was kept",
    "frontmatter-conflict": "frontmatter could not be merged by field; the newer one won",
    "frontmatter-lines-combined": "frontmatter merged line by line, both sides' lines kept",
    "body-conflict": "both sides changed the same body words or lines; both versions kept",
    "text-conflict": "both sides changed the same lines of a file; both versions kept",
    "delete-modify": "deleted on one side, changed on the other; the changed file stayed",
    "add-add-renamed": "two different files added under one name; the newer one was renamed",
    "binary-both-kept": "a binary file changed on both sides; both kept",
    "file-folder-both-kept": "a file on one side, a folder of that name on the other; both kept",
    "case-twins-both-kept": "two names differing only by case, one added on each side; the"
    " newer was renamed",
    "rename-rename": "both sides renamed a file differently; the newer name won",
    "index-entry-conflict": "both sides changed one index entry; the newer line won",
    "index-lines-combined": "both sides changed the same index lines; both kept",
    "index-entry-commented": "an index entry commented out on one side and changed on the"
    " other; kept commented out, with the change",
    "index-entry-deleted": "an index entry deleted on one side and changed on the other; the"
    " changed line stayed, or (its memory deleted, or linked from another line) was quoted whole",
    "index-not-utf8": "one side's index is not UTF-8; merged with U+FFFD for each byte it"
    " could not read",
}


@dataclass(frozen=True)
class FileMerge:
    """The merged content of one path (None: deleted) and what the merge decided."""

    path: str
    content: bytes | None
    extra_files: Mapping[str, bytes] = field(default_factory=dict)
    decisions: tuple[MergeDecision, ...] = ()


@dataclass(frozen=True)
class _Doc:
    """One side's file: its text and the encoding details to write back."""

    raw: bytes
    text: str
    bom: bool
    crlf: bool
    frontmatter: str | None
    body: str


def _doc(raw: bytes) -> _Doc:
    text, bom, crlf, _ = decode(raw)
    frontmatter, body, _ = split_frontmatter(text)
    return _Doc(raw, text, bom, crlf, frontmatter, body)


def is_binary(raw: bytes | None) -> bool:
    """Whether content cannot be merged as text: a NUL byte or invalid UTF-8."""
    if raw is None:
        return False
    if b"\0" in raw:
        return True
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def side_key(raw: bytes, time: int | None) -> tuple[int, bytes]:
    """How sides are ordered: older change first, then by content; never by who runs it."""
    return (NO_TIME if time is None else time, raw)


def ours_first(ours: bytes, theirs: bytes, ours_time: int | None, theirs_time: int | None) -> bool:
    """Whether OURS is the 'first' (older) side under the symmetric ordering rule."""
    return side_key(ours, ours_time) <= side_key(theirs, theirs_time)


def free_name(path: str, taken: Container[str] | Callable[[str], bool]) -> str:
    """`x-2.md` for `x.md` (then `x-3.md`, ...), the first name not TAKEN."""
    is_taken = taken if callable(taken) else taken.__contains__
    folder, name = posixpath.split(path)
    stem, ext = posixpath.splitext(name)
    n = 2
    while True:
        candidate = posixpath.join(folder, f"{stem}-{n}{ext}")
        if not is_taken(candidate):
            return candidate
        n += 1


def _conflict_decisions(
    path: str, kind: str, what: str, conflicts: tuple[Conflict[str], ...]
) -> list[MergeDecision]:
    return [_conflict_decision(path, kind, what, c) for c in conflicts]


def _conflict_decision(path: str, kind: str, what: str, c: Conflict[str]) -> MergeDecision:
    lines = f"{c.start + 1}-{max(c.end, c.start + 1)}" if c.end - c.start > 1 else c.start + 1
    s = "s" if c.end - c.start > 1 else ""
    if c.level == "words":
        detail = (
            f"both sides changed the same words in {what} line{s} {lines} of the common"
            " version; kept both versions"
        )
    else:
        detail = (
            f"both sides changed the same {what} line{s} {lines} of the common version;"
            f" kept both ({len(c.first)} + {len(c.second)} lines)"
        )
    return MergeDecision(path, kind, None, "\n".join(c.merged), None, detail)


def _trivial(
    path: str, base: bytes | None, ours: bytes | None, theirs: bytes | None
) -> FileMerge | None:
    if theirs in (ours, base):
        return FileMerge(path, ours)
    if ours == base:
        return FileMerge(path, theirs)
    if ours is None or theirs is None:
        kept = theirs if ours is None else ours
        return FileMerge(
            path,
            kept,
            decisions=(
                MergeDecision(
                    path,
                    "delete-modify",
                    None,
                    path,
                    None,
                    "deleted on one side and changed on the other; kept the changed file",
                ),
            ),
        )
    return None


def _keep_both(
    path: str,
    first: bytes,
    second: bytes,
    *,
    taken: Container[str] | Callable[[str], bool],
    kind: str,
    what: str,
) -> FileMerge:
    other = free_name(path, taken)
    return FileMerge(
        path,
        first,
        {other: second},
        (
            MergeDecision(
                path,
                kind,
                None,
                other,
                None,
                f"{what}: kept the older one as {path} and the newer one as {other}",
            ),
        ),
    )


def _memory_name(doc: _Doc) -> tuple[bool, str | None]:
    """(is a valid memory, its normalized `name`)."""
    if doc.frontmatter is None:
        return False, None
    fields, problem, _, _ = parse_yaml_mapping(doc.frontmatter)
    if problem is not None:
        return False, None
    name = fields.get("name")
    return True, None if name is None else " ".join(str(name).split()).casefold()


@dataclass(frozen=True)
class _Sides:
    """Both sides of a real (non-trivial) text merge, in the symmetric order."""

    a: _Doc
    b: _Doc
    base: _Doc | None
    a_first: bool
    a_time: int | None
    b_time: int | None


def _prepare(
    path: str,
    base: bytes | None,
    ours: bytes | None,
    theirs: bytes | None,
    *,
    times: tuple[int | None, int | None],
    taken: Container[str] | Callable[[str], bool],
) -> FileMerge | _Sides:
    """The result when no text merge is needed (one-sided, delete/modify, binary), else sides."""
    trivial = _trivial(path, base, ours, theirs)
    if trivial is not None:
        return trivial
    assert ours is not None and theirs is not None
    a_first = ours_first(ours, theirs, *times)
    if is_binary(base) or is_binary(ours) or is_binary(theirs):
        first, second = (ours, theirs) if a_first else (theirs, ours)
        what = "a binary file changed on both sides"
        return _keep_both(path, first, second, taken=taken, kind="binary-both-kept", what=what)
    base_doc = _doc(base) if base is not None else None
    return _Sides(_doc(ours), _doc(theirs), base_doc, a_first, *times)


def _finish(path: str, text: str, sides: _Sides, decisions: list[MergeDecision]) -> FileMerge:
    first = sides.a if sides.a_first else sides.b
    ref = sides.base or first
    bom = merge3_flag(ref.bom, sides.a.bom, sides.b.bom)
    crlf = merge3_flag(ref.crlf, sides.a.crlf, sides.b.crlf)
    for doc in (sides.a, sides.b):
        if doc.text == text and doc.bom == bom and doc.crlf == crlf:
            # Bytes-identical to one side: keep its exact bytes (odd fences, mixed newlines).
            return FileMerge(path, doc.raw, decisions=tuple(decisions))
    return FileMerge(path, encode(text, bom=bom, crlf=crlf), decisions=tuple(decisions))


def _merge_whole_text(path: str, sides: _Sides, *, prose: bool = False) -> FileMerge:
    base_text = sides.base.text if sides.base else ""
    resolver = prose_resolver if prose else None
    merged = merge_text(
        base_text, sides.a.text, sides.b.text, a_first=sides.a_first, resolver=resolver
    )
    decisions = _conflict_decisions(path, "text-conflict", "text", merged.conflicts)
    return _finish(path, merged.text, sides, decisions)


def merge_text_file(
    path: str,
    base: bytes | None,
    ours: bytes | None,
    theirs: bytes | None,
    *,
    ours_time: int | None = None,
    theirs_time: int | None = None,
    taken: Container[str] | Callable[[str], bool] = (),
) -> FileMerge:
    """Merge any file line by line (binary: keep both); nothing one side kept is lost."""
    sides = _prepare(path, base, ours, theirs, times=(ours_time, theirs_time), taken=taken)
    if isinstance(sides, FileMerge):
        return sides
    return _merge_whole_text(path, sides)


def merge_memory(
    path: str,
    base: bytes | None,
    ours: bytes | None,
    theirs: bytes | None,
    *,
    ours_time: int | None = None,
    theirs_time: int | None = None,
    taken: Container[str] | Callable[[str], bool] = (),
) -> FileMerge:
    """Three-way merge of one memory file; the result does not depend on which side is ours."""
    sides = _prepare(path, base, ours, theirs, times=(ours_time, theirs_time), taken=taken)
    if isinstance(sides, FileMerge):
        return sides
    a, b, base_doc = sides.a, sides.b, sides.base
    if base_doc is None:
        (a_ok, a_name), (b_ok, b_name) = _memory_name(a), _memory_name(b)
        if (a_ok or b_ok) and (a_ok != b_ok or a_name != b_name):
            first, second = (a.raw, b.raw) if sides.a_first else (b.raw, a.raw)
            what = "two different memories were added under this name"
            return _keep_both(path, first, second, taken=taken, kind="add-add-renamed", what=what)
    if a.frontmatter is None or b.frontmatter is None:
        return _merge_whole_text(path, sides, prose=True)
    decisions: list[MergeDecision] = []
    base_body = ""
    if base_doc is not None:
        base_body = base_doc.body if base_doc.frontmatter is not None else base_doc.text
    frontmatter = _merge_frontmatter(path, sides, decisions)
    body = merge_text(base_body, a.body, b.body, a_first=sides.a_first, resolver=prose_resolver)
    decisions += _conflict_decisions(path, "body-conflict", "body", body.conflicts)
    return _finish(path, compose(frontmatter, body.text), sides, decisions)


def _merge_frontmatter(path: str, sides: _Sides, decisions: list[MergeDecision]) -> str:
    """Frontmatter by field; by line when it cannot be cut per key; else the newer whole."""
    a_fm, b_fm = sides.a.frontmatter, sides.b.frontmatter
    base = sides.base.frontmatter if sides.base else None
    assert a_fm is not None and b_fm is not None
    if b_fm in (a_fm, base):
        return a_fm
    if a_fm == base:
        return b_fm
    by_field = merge_frontmatter(
        base, a_fm, b_fm, a_time=sides.a_time, b_time=sides.b_time, a_first=sides.a_first
    )
    if by_field is not None and parses_as_mapping(by_field.text):
        decisions.extend(
            MergeDecision(path, o.kind, o.key, o.kept, o.lost, o.detail) for o in by_field.outcomes
        )
        return by_field.text
    by_line = merge_text(base or "", a_fm, b_fm, a_first=sides.a_first)
    both_parse = parses_as_mapping(a_fm) and parses_as_mapping(b_fm)
    if not both_parse or parses_as_mapping(by_line.text):
        decisions.extend(
            _conflict_decisions(
                path, "frontmatter-lines-combined", "frontmatter", by_line.conflicts
            )
        )
        return by_line.text
    # Both sides are valid YAML that cannot be combined into valid YAML: keep the newer whole.
    a_key = (NO_TIME if sides.a_time is None else sides.a_time, a_fm)
    b_key = (NO_TIME if sides.b_time is None else sides.b_time, b_fm)
    winner, loser = (a_fm, b_fm) if a_key >= b_key else (b_fm, a_fm)
    decisions.append(
        MergeDecision(
            path,
            "frontmatter-conflict",
            None,
            winner,
            loser,
            "both sides changed the frontmatter in ways that do not combine; kept the newer one",
        )
    )
    return winner


def merge_file(
    path: str,
    base: bytes | None,
    ours: bytes | None,
    theirs: bytes | None,
    *,
    ours_time: int | None = None,
    theirs_time: int | None = None,
    taken: Container[str] | Callable[[str], bool] = (),
) -> FileMerge:
    """Merge one non-index file: memories by field and line, anything else by line."""
    merge = merge_memory if is_memory_path(path) else merge_text_file
    return merge(
        path, base, ours, theirs, ours_time=ours_time, theirs_time=theirs_time, taken=taken
    )


def is_memory_path(path: str) -> bool:
    """Whether PATH names a memory file (a `.md` other than the index)."""
    from memsync.model.safety import is_index_path, is_memory_file

    return is_memory_file(path, "team", repository_root=True) and not is_index_path(path)


def is_index_path(path: str) -> bool:
    """Whether PATH names a MEMORY.md index."""
    from memsync.model.safety import is_index_path as rule

    return rule(path)


__all__ = [
    "DECISION_KINDS",
    "FileMerge",
    "MergeDecision",
    "canonical",
    "free_name",
    "is_binary",
    "is_index_path",
    "is_memory_path",
    "merge_file",
    "merge_memory",
    "merge_text_file",
    "ours_first",
    "side_key",
]
