"""Frontmatter merged field by field: parsed values decide, each winner's own text is kept.

Nested mappings (`metadata:`) merge key by key in turn. `modified` takes the later stamp and
`originSessionId` the base's (else the smaller) without a reported conflict; the client's
first-stamp rewrite (keys moved into `metadata`, `name` slugified) is formatting, not a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memsync.merge.diff3 import merge3, merge_text
from memsync.merge.fieldvalues import (
    canonical,
    clean_block_merge,
    comment_folded,
    merge_list,
    parse_block,
    show,
)
from memsync.merge.nesting import align_layouts, later_timestamp, slug, split_nested
from memsync.model.memory import (
    METADATA,
    FieldBlock,
    join_fields,
    parse_yaml_mapping,
    split_fields,
)

# When a caller gives no time, a side counts as older than any timed change.
NO_TIME = -1
# Two changes of one value at the same second: which one stays is decided by the text alone.
TIE = "kept one by its text (every machine keeps the same one)"


@dataclass(frozen=True)
class FieldOutcome:
    """What the merge did with one key when it had to choose or combine."""

    key: str
    kind: str  # "field-conflict" | "field-list-merged" | "field-delete-modify"
    kept: str | None
    lost: str | None
    detail: str


@dataclass(frozen=True)
class FrontmatterMerge:
    """The merged frontmatter text and the choices made on the way."""

    text: str
    outcomes: tuple[FieldOutcome, ...]


@dataclass(frozen=True)
class _Side:
    """One side's frontmatter cut into per-key text blocks, with parsed values when known."""

    blocks: dict[str, str]
    order: list[str]
    tail: str
    values: dict[str, Any] | None  # None: the YAML did not parse, compare texts only
    time: int


def _side(text: str, values: dict[str, Any] | None, time: int | None) -> _Side | None:
    blocks: dict[str, str] = {}
    order: list[str] = []
    tail = ""
    for block in split_fields(text):
        if block.key is None:
            tail = block.text
        elif block.key in blocks:
            return None  # a duplicated key: the text cannot be cut per key
        else:
            blocks[block.key] = block.text
            order.append(block.key)
    if values is not None and set(values) != set(blocks):
        return None  # keys the line scanner and YAML disagree on (aliases, odd quoting)
    return _Side(blocks, order, tail, values, NO_TIME if time is None else time)


def _parse(text: str) -> dict[str, Any] | None:
    fields, problem, _, _ = parse_yaml_mapping(text)
    return None if problem else fields


def _value(side: _Side, key: str) -> Any:
    assert side.values is not None
    return side.values[key]


def _same_value(x: _Side, y: _Side, key: str) -> bool:
    if x.values is None or y.values is None:
        return x.blocks[key].strip() == y.blocks[key].strip()
    return canonical(_value(x, key)) == canonical(_value(y, key))


def _newer(a: _Side, b: _Side, key: str) -> tuple[_Side, _Side]:
    """(winner, loser) of a both-sided change: newer change, then text, never side order."""
    if (a.time, a.blocks[key]) >= (b.time, b.blocks[key]):
        return a, b
    return b, a


def _nested(
    key: str, base: _Side | None, a: _Side, b: _Side, *, first: _Side, path: tuple[str, ...]
) -> tuple[str, list[FieldOutcome]] | None:
    """KEY's mapping merged key by key, when both sides hold it as a block-style mapping."""
    if a.values is None or b.values is None:
        return None
    if not (isinstance(a.values[key], dict) and isinstance(b.values[key], dict)):
        return None
    a_block, b_block = split_nested(a.blocks[key], key), split_nested(b.blocks[key], key)
    base_block = None
    if base is not None and key in base.blocks:
        base_block = split_nested(base.blocks[key], key)
        if base_block is None and base.values is not None and base.values.get(key) is not None:
            return None
    if a_block is None or b_block is None:
        return None
    inner = _merge_mapping(
        base_block.inner if base_block else None,
        a_block.inner,
        b_block.inner,
        a_time=a.time,
        b_time=b.time,
        a_first=first is a,
        path=(*path, key),
    )
    if inner is None:
        return None
    # The key line and indent of a side that changed them, else the first side's.
    frames = [(x.head, x.indent) for x in (a_block, b_block, base_block) if x is not None]
    if base_block is not None and frames[1] == frames[2]:
        frame = a_block
    elif base_block is not None and frames[0] == frames[2]:
        frame = b_block
    else:
        frame = a_block if first is a else b_block
    return frame.render(inner.text), list(inner.outcomes)


def _stamp_rule(
    key: str, path: tuple[str, ...], base: _Side | None, a: _Side, b: _Side
) -> str | None:
    """The block text of a client stamp both sides changed: no one's edit, never a conflict."""
    if path not in ((), (METADATA,)) or a.values is None or b.values is None:
        return None
    if key == "modified":
        return (
            a.blocks[key]
            if later_timestamp(a.values[key], b.values[key]) is a.values[key]
            else b.blocks[key]
        )
    if key == "originSessionId":
        if base is not None and key in base.blocks:
            return base.blocks[key]
        smaller = min((show(a.values[key]), a.blocks[key]), (show(b.values[key]), b.blocks[key]))
        return smaller[1]
    return None


def _changed(side: _Side, base: _Side | None, key: str, path: tuple[str, ...]) -> bool:
    """Whether SIDE changed KEY's value (the client's slug of `name`, and its fold of an
    inline comment into a plain value, are formatting)."""
    if base is None or key not in base.blocks:
        return True
    if _same_value(side, base, key):
        return False
    if side.values is None or base.values is None:
        return True
    mine, before = side.values[key], base.values.get(key)
    # The client reads a plain value with an inline comment to the end of the line.
    read = [v for v in (before, comment_folded(base.blocks[key], key, before)) if v is not None]
    if isinstance(mine, str) and mine in read:
        return False
    if path == () and key == "name" and isinstance(mine, str):
        return mine not in {slug(value) for value in read if isinstance(value, str)}
    return True


def _merge_key(
    key: str,
    base: _Side | None,
    a: _Side,
    b: _Side,
    *,
    first: _Side,
    path: tuple[str, ...] = (),
) -> tuple[str | None, list[FieldOutcome]]:
    """The merged block text of KEY (None: deleted) and the choices made."""
    base_text = base.blocks.get(key) if base else None
    a_text, b_text = a.blocks.get(key), b.blocks.get(key)
    if b_text in (a_text, base_text):
        return a_text, []
    if a_text == base_text:
        return b_text, []
    label = ".".join((*path, key))
    if a_text is None or b_text is None:
        # Deleted on one side, edited on the other: the edit stays unless it was only cosmetic.
        kept_side = a if b_text is None else b
        if base is not None and key in base.blocks and not _changed(kept_side, base, key, path):
            return None, []
        kept_text = kept_side.blocks[key]
        return kept_text, [
            FieldOutcome(
                label,
                "field-delete-modify",
                kept_text.strip(),
                None,
                f"`{label}` was deleted on one side and changed on the other; kept the change",
            )
        ]
    nested = _nested(key, base, a, b, first=first, path=path)
    if nested is not None:
        return nested
    in_base = base is not None and key in base.blocks
    a_moved, b_moved = _changed(a, base, key, path), _changed(b, base, key, path)
    same = _same_value(a, b, key)
    shared_base = base_text or ""
    if not (same or a_moved or b_moved):
        # Cosmetic changes only (a comment the client folded into the value on one side,
        # dropped on the other): the value is settled, the newer text stands.
        return _newer(a, b, key)[0].blocks[key], []
    if same or a_moved != b_moved:
        # Equal values, or a real change against a cosmetic one: the value is settled;
        # keep both sides' text edits (comments, quoting) when they combine cleanly.
        source = a if same or a_moved else b
        if a.values is not None:
            text = clean_block_merge(shared_base, a_text, b_text, key, _value(source, key))
            if text is not None:
                return text, []
        return (_newer(a, b, key)[0] if same else source).blocks[key], []
    stamp = _stamp_rule(key, path, base, a, b)
    if stamp is not None:
        return stamp, []
    base_value = _value(base, key) if in_base and base and base.values is not None else None
    if (
        a.values is not None
        and b.values is not None
        and isinstance(_value(a, key), list)
        and isinstance(_value(b, key), list)
        and (base_value is None or isinstance(base_value, list))
    ):
        second = b if first is a else a
        text, detail = merge_list(
            key,
            base_value,
            (list(_value(first, key)), first.blocks[key]),
            (list(_value(second, key)), second.blocks[key]),
            shared_base,
        )
        kept = show(parse_block(text, key)[1])
        return text, [FieldOutcome(label, "field-list-merged", kept, None, detail)]
    winner, loser = _newer(a, b, key)
    # A tie once read `kept the same time, tie broken by content`: say what happened.
    what = (
        f"both sides changed `{label}`; kept the newer change"
        if winner.time != loser.time
        else f"both sides changed `{label}` at the same time; {TIE}"
    )
    return winner.blocks[key], [
        FieldOutcome(
            label,
            "field-conflict",
            _shown(winner, key),
            _shown(loser, key),
            what,
        )
    ]


def _shown(side: _Side, key: str) -> str:
    if side.values is None:
        return side.blocks[key].strip()
    return show(_value(side, key))


def _key_order(base: _Side | None, a: _Side, b: _Side, first: _Side, keys: set[str]) -> list[str]:
    f, s = (a, b) if first is a else (b, a)
    merged = merge3(base.order if base else [], f.order, s.order, a_first=True).items
    order: list[str] = []
    for key in [*merged, *f.order, *s.order]:
        if key in keys and key not in order:
            order.append(key)
    return order


def merge_frontmatter(
    base_text: str | None,
    a_text: str,
    b_text: str,
    *,
    a_time: int | None,
    b_time: int | None,
    a_first: bool,
) -> FrontmatterMerge | None:
    """Merge two edits of frontmatter text by key; None when either side is not a clean mapping."""
    if _parse(a_text) is None or _parse(b_text) is None:
        return None
    if b_text in (a_text, base_text) or a_text == base_text:
        return FrontmatterMerge(b_text if a_text == base_text else a_text, ())
    aligned_base, aligned_a, aligned_b = align_layouts([base_text, a_text, b_text])
    assert aligned_a is not None and aligned_b is not None
    return _merge_mapping(
        aligned_base, aligned_a, aligned_b, a_time=a_time, b_time=b_time, a_first=a_first, path=()
    )


def _merge_mapping(
    base_text: str | None,
    a_text: str,
    b_text: str,
    *,
    a_time: int | None,
    b_time: int | None,
    a_first: bool,
    path: tuple[str, ...],
) -> FrontmatterMerge | None:
    """One mapping's text (the frontmatter, or a nested block's body) merged key by key."""
    a_values, b_values = _parse(a_text), _parse(b_text)
    if a_values is None or b_values is None:
        return None
    a, b = _side(a_text, a_values, a_time), _side(b_text, b_values, b_time)
    if a is None or b is None:
        return None
    base = None
    if base_text is not None:
        base = _side(base_text, _parse(base_text), None) or _side(base_text, None, None)
    first = a if a_first else b
    blocks: dict[str, str] = {}
    outcomes: list[FieldOutcome] = []
    for key in sorted({*a.blocks, *b.blocks, *(base.blocks if base else ())}):
        text, found = _merge_key(key, base, a, b, first=first, path=path)
        if text is not None:
            blocks[key] = text
        outcomes.extend(found)
    order = _key_order(base, a, b, first, set(blocks))
    f, s = (a, b) if a_first else (b, a)
    tail = merge_text(base.tail if base else "", f.tail, s.tail, a_first=True).text
    pieces = [FieldBlock(key, blocks[key]) for key in order]
    if tail:
        pieces.append(FieldBlock(None, tail))
    text = join_fields(pieces)
    depth = len(path)

    def position(outcome: FieldOutcome) -> int:
        key = outcome.key.split(".")[depth]
        return order.index(key) if key in order else len(order)

    outcomes.sort(key=position)
    return FrontmatterMerge(text, tuple(outcomes))


def parses_as_mapping(text: str) -> bool:
    """Whether frontmatter text parses as a YAML mapping with no key written twice."""
    if _parse(text) is None:
        return False
    keys = [block.key for block in split_fields(text) if block.key is not None]
    return len(keys) == len(set(keys))
