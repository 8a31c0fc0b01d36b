"""The MEMORY.md index: lossless round trip, tolerant entries, Claude Code's size limits."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memsync.model.index import (
    IndexEntry,
    IndexLine,
    format_entry,
    js_trim,
    line_links,
    measure_index,
    normalize_target,
    parse_entry,
    parse_index,
    parse_index_text,
    render_index,
    shorten,
    visible_part,
)
from memsync.model.indexrefs import linked_from_text
from memsync.model.limits import MAX_INDEX_CHARS, MAX_INDEX_LINE_CHARS, MAX_INDEX_LINES

_line = st.one_of(
    st.text(
        alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\n"),
        max_size=40,
    ),
    st.sampled_from(
        [
            "# Memory index",
            "- [Testing policy](testing.md) — real DB only",
            "* [Deploy](<deploy freeze.md>): no Friday deploys",
            "- [Bad link](",
            "",
            "   ",
        ]
    ),
)


@st.composite
def index_files(draw: st.DrawFn) -> bytes:
    """Bytes of an index with any BOM, newline convention and final newline."""
    lines = draw(st.lists(_line, max_size=15))
    style = draw(st.sampled_from(["\n", "\r\n", "mixed"]))
    out = ""
    for i, line in enumerate(lines):
        newline = style if style != "mixed" else draw(st.sampled_from(["\n", "\r\n"]))
        out += line + ("" if i == len(lines) - 1 and draw(st.booleans()) else newline)
    return (("\ufeff" if draw(st.booleans()) else "") + out).encode("utf-8")


@given(index_files())
@settings(max_examples=300)
@example(b"")
@example(b"\n")
@example(b"\r\n\r\n")
@example(b"- [a](a.md)")
def test_parse_then_render_gives_the_same_bytes(raw: bytes) -> None:
    assert render_index(parse_index(raw)) == raw


def test_index_keeps_prose_and_parses_entries() -> None:
    index = parse_index_text("# Index\n\n- [A](a.md) — first\nSome prose\n- [B](b.md)\n")
    assert [line.text for line in index.lines][:2] == ["# Index", ""]
    assert index.entries == [IndexEntry("A", "a.md", "first"), IndexEntry("B", "b.md", None)]
    assert index.targets == ["a.md", "b.md"]


def test_with_lines_keeps_the_conventions() -> None:
    index = parse_index("\ufeffold\r\n".encode())
    changed = index.with_lines([IndexLine("- [N](n.md)", parse_entry("- [N](n.md)"))])
    assert render_index(changed) == "\ufeff- [N](n.md)\r\n".encode()


@pytest.mark.parametrize(
    ("line", "entry"),
    [
        ("- [Title](file.md) — hook", IndexEntry("Title", "file.md", "hook")),
        ("- [Title](file.md) – en dash", IndexEntry("Title", "file.md", "en dash")),
        ("- [Title](file.md) - hyphen", IndexEntry("Title", "file.md", "hyphen")),
        ("- [Title](file.md) -- two", IndexEntry("Title", "file.md", "two")),
        ("- [Title](file.md): colon", IndexEntry("Title", "file.md", "colon")),
        ("- [Title](file.md) | pipe", IndexEntry("Title", "file.md", "pipe")),
        ("- [Title](file.md) plain words", IndexEntry("Title", "file.md", "plain words")),
        ("* [Star](s.md)", IndexEntry("Star", "s.md", None)),
        ("+ [Plus](p.md) —  ", IndexEntry("Plus", "p.md", None)),
        ("  - [Nested](sub/n.md) — x", IndexEntry("Nested", "sub/n.md", "x")),
        ("- [Angle](<with space.md>) — x", IndexEntry("Angle", "with space.md", "x")),
        ('- [T](t.md "a title") — x', IndexEntry("T", "t.md", "x")),
        ("- [T](./t.md#section) — x", IndexEntry("T", "t.md", "x")),
        (r"- [a \] b](t.md)", IndexEntry(r"a \] b", "t.md", None)),
        ("- [Empty]() — x", IndexEntry("Empty", "", "x")),
        ("- [T](t.md) — hook\r", IndexEntry("T", "t.md", "hook")),
    ],
)
def test_parse_entry_is_tolerant(line: str, entry: IndexEntry) -> None:
    assert parse_entry(line) == entry


@pytest.mark.parametrize(
    "line",
    [
        "# Heading",
        "Some prose with [a link](x.md)",
        "-[no space](x.md)",
        "- plain item",
        "",
        "- [x]",
    ],
)
def test_parse_entry_rejects_non_entries(line: str) -> None:
    assert parse_entry(line) is None


@pytest.mark.parametrize(
    ("target", "key"),
    [
        ("./a.md", "a.md"),
        ("<a b.md>", "a b.md"),
        ("a.md#x", "a.md"),
        ("a.md?y", "a.md"),
        ("x", "x"),
    ],
)
def test_normalize_target(target: str, key: str) -> None:
    assert normalize_target(target) == key


def test_format_entry_cleans_and_shortens() -> None:
    assert format_entry("A [b]  c", "a.md", None) == "- [A (b) c](a.md)"
    assert format_entry("T", "t.md", "  spaced   hook ") == "- [T](t.md) — spaced hook"
    long = format_entry("T", "t.md", "word " * 60)
    assert len(long) <= MAX_INDEX_LINE_CHARS
    assert long.endswith("…")
    assert parse_entry(long) is not None


def test_shorten_cuts_at_a_word_boundary() -> None:
    assert shorten("short", 10) == "short"
    assert shorten("alpha beta gamma delta", 15) == "alpha beta…"
    assert shorten("x" * 30, 10) == "x" * 9 + "…"


# --- Claude Code's view of the index size ---


def claude_code_truncate(raw: str) -> tuple[int, int, str]:
    """Claude Code's entrypoint truncation, transcribed: (line count, length, loaded text)."""
    trimmed = js_trim(raw)
    content_lines = trimmed.split("\n")
    line_count, char_count = len(content_lines), len(trimmed)
    if line_count <= MAX_INDEX_LINES and char_count <= MAX_INDEX_CHARS:
        return line_count, char_count, trimmed
    truncated = (
        "\n".join(content_lines[:MAX_INDEX_LINES]) if line_count > MAX_INDEX_LINES else trimmed
    )
    if len(truncated) > MAX_INDEX_CHARS:
        # lastIndexOf('\n', MAX): the last newline starting at or before index MAX.
        cut = max(
            (i for i, c in enumerate(truncated[: MAX_INDEX_CHARS + 1]) if c == "\n"), default=-1
        )
        truncated = truncated[: cut if cut > 0 else MAX_INDEX_CHARS]
    return line_count, char_count, truncated


@st.composite
def big_indexes(draw: st.DrawFn) -> str:
    """Index text near the limits: many lines, long lines, surrounding whitespace."""
    count = draw(st.integers(0, 260))
    width = draw(st.integers(1, 400))
    lines = [("é" if i % 7 == 0 else "x") * draw(st.integers(0, width)) for i in range(count)]
    pad = draw(st.sampled_from(["", "\n\n", "  \n", "\ufeff", "\t"]))
    return pad + "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n \n"]))


@given(big_indexes())
@settings(max_examples=200, deadline=None)
@example("x" * MAX_INDEX_CHARS + "\n" + "y")
@example("a\n" + "x" * (MAX_INDEX_CHARS - 2) + "\nyy")
@example("\n".join(["x" * 124] * 201))
def test_measure_and_visible_part_match_claude_code(text: str) -> None:
    lines, chars, loaded = claude_code_truncate(text)
    size = measure_index(text)
    if js_trim(text):
        assert (size.lines, size.chars) == (lines, chars)
    else:
        assert (size.lines, size.chars) == (0, 0)
    assert visible_part(text) == loaded
    assert size.fits == (loaded == js_trim(text))


def test_limits_are_200_lines_then_25000_characters() -> None:
    assert measure_index("a\n" * 200).fits
    over = measure_index("a\n" * 201)
    assert over.over_lines and not over.over_chars
    # Trailing and leading blank lines are trimmed before counting.
    assert measure_index("\n\n" + "a\n" * 200 + "\n\n\n").lines == 200
    assert measure_index("x" * MAX_INDEX_CHARS).fits
    wide = measure_index("x" * (MAX_INDEX_CHARS + 1))
    assert wide.over_chars and not wide.over_lines
    # Characters are Python str characters: one per code point.
    assert measure_index("é" * MAX_INDEX_CHARS).fits
    assert measure_index("").lines == 0


def test_visible_part_cuts_lines_first_then_at_a_line_break() -> None:
    text = "\n".join(f"line {i}" for i in range(300))
    assert visible_part(text).split("\n")[-1] == "line 199"
    lines = ["y" * 149] * 200  # 200 lines of 150 chars with the break: 29,999 chars
    visible = visible_part("\n".join(lines))
    assert len(visible) <= MAX_INDEX_CHARS
    assert visible.endswith("y")
    assert visible.count("\n") == MAX_INDEX_CHARS // 150 - 1


def test_js_trim_differs_from_python_strip() -> None:
    assert js_trim("\ufeff a \u3000") == "a"
    assert js_trim("\x1ca\x85") == "\x1ca\x85"


def test_line_links_is_the_one_reading_of_a_link_on_a_line() -> None:
    line = "| [Deploy](deploy.md) | **[Old](old%20notes.md)** `[code](code.md)` [no\\](no.md) |"
    assert line_links(line) == {"deploy.md", "old%20notes.md", "old notes.md"}
    assert line_links('see [T](<t t.md> "title") and [U](https://x.dev/u.md)', "team") == {
        "team/t t.md"
    }
    index = parse_index_text("- [A](a.md)\n1. [B](b.md)\n<!-- [C](c.md) -->\n`[D](d.md)`\n")
    # A comment hides C; D is named in code, which the model reads as it would a link.
    assert linked_from_text(index) == {"b.md", "d.md"}
