"""The memory file model: lossless round trips, tolerant parsing, field blocks."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from memsync.model.memory import (
    FieldBlock,
    FrontmatterProblem,
    compose,
    join_fields,
    key_line,
    memory_type,
    parse_memory,
    quote_problematic_values,
    render_memory,
    split_fields,
    split_frontmatter,
    top_level_key,
)
from memsync.model.textcodec import decode, encode

# Lines that YAML frontmatter really contains, including the awkward ones.
YAML_LINES = [
    "name: testing policy",
    'description: "quoted: with a colon"',
    "description: 'it''s single-quoted'",
    "type: feedback",
    "type: project",
    "type: weird",
    "# a comment line",
    "key: value # trailing comment",
    "tags:",
    "  - alpha",
    "  - 'beta: gamma'",
    "- top-level dash",
    "multi: |",
    "  literal line one",
    "  literal line two",
    "folded: >-",
    "  folded text",
    "empty:",
    "",
    "   ",
    '"quoted key": 1',
    "'single key': two",
    "date: 2026-03-05",
    "url: https://example.com/a#b",
    ": broken",
    "[unclosed",
    "key: [1, 2",
    "\tname: tab-indented",
    "ünïcödé: wörds",
    "nested:",
    "  inner: value",
]

_text_line = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\n"), max_size=30
)
_body_line = st.one_of(
    _text_line,
    st.sampled_from(["---", "# Heading", "**Why:** because", "", "```", "- [x](y.md)"]),
)
_fm_line = st.one_of(st.sampled_from(YAML_LINES), _text_line)


@st.composite
def memory_files(draw: st.DrawFn, plain_fences: bool = False) -> bytes:
    """Bytes of a plausible (or deliberately odd) memory file."""
    lines: list[str] = []
    if draw(st.booleans()):
        fence = "---" if plain_fences else draw(st.sampled_from(["---", "--- ", "---\t"]))
        lines.append(fence)
        lines.extend(draw(st.lists(_fm_line, max_size=12)))
        if draw(st.integers(0, 9)):  # mostly terminated
            lines.append(fence)
    lines.extend(draw(st.lists(_body_line, max_size=12)))
    style = draw(st.sampled_from(["lf", "crlf", "mixed"]))
    if plain_fences and style == "mixed":
        style = "lf"
    out = ""
    for i, line in enumerate(lines):
        newline = {"lf": "\n", "crlf": "\r\n"}.get(style) or draw(st.sampled_from(["\n", "\r\n"]))
        last = i == len(lines) - 1
        out += line + ("" if last and not draw(st.booleans()) else newline)
    bom = "\ufeff" if draw(st.booleans()) else ""
    return (bom + out).encode("utf-8")


@given(memory_files())
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@example(b"---\r\nname: a\n---\r\nbody")
@example(b"\xef\xbb\xbf---\r\ntype: user\r\n---\r\n")
def test_parse_then_render_unchanged_gives_the_same_bytes(raw: bytes) -> None:
    memory = parse_memory(raw, "m.md")
    assert memory.raw == raw
    assert render_memory(memory, memory.frontmatter_text, memory.body) == raw


@given(memory_files(plain_fences=True))
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_compose_and_encode_rebuild_the_bytes(raw: bytes) -> None:
    # Without render_memory's shortcut: the parsed parts alone must be enough, except that a
    # closing fence ending the file without a newline gains one (a harmless normalization).
    memory = parse_memory(raw)
    assume(not (memory.frontmatter_text is not None and not memory.body and raw[-1:] != b"\n"))
    rebuilt = encode(
        compose(memory.frontmatter_text, memory.body), bom=memory.bom, crlf=memory.crlf
    )
    assert rebuilt == raw


# A line that ends in a bare CR written into an LF file reads back as a CRLF line break:
# that ambiguity is in the bytes, so edits here never end a line with one.
_edit_line = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\n\r"),
    max_size=30,
)


@given(memory_files(plain_fences=True), _edit_line)
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_an_edited_body_keeps_bom_newlines_and_frontmatter(raw: bytes, extra: str) -> None:
    memory = parse_memory(raw)
    new_body = memory.body + extra + "\n"
    out = render_memory(memory, memory.frontmatter_text, new_body)
    again = parse_memory(out)
    assert again.body == new_body
    assert again.frontmatter_text == memory.frontmatter_text
    assert again.bom == memory.bom
    assert out.startswith(b"\xef\xbb\xbf") == memory.bom
    if memory.crlf:
        assert b"\n" not in out.replace(b"\r\n", b"")


def test_a_well_formed_memory_parses_its_fields() -> None:
    raw = b"---\nname: testing policy\ndescription: real db\ntype: feedback\n---\nBody.\n"
    memory = parse_memory(raw, "testing.md")
    assert memory.problem is None
    assert (memory.name, memory.description, memory.type) == (
        "testing policy",
        "real db",
        "feedback",
    )
    assert memory.type_is_valid
    assert memory.body == "Body.\n"
    assert memory.body_start_line == 6


def test_bom_and_crlf_are_stripped_for_parsing_and_remembered() -> None:
    raw = "\ufeff---\r\ntype: user\r\n---\r\nHello\r\n".encode()
    memory = parse_memory(raw)
    assert memory.bom and memory.crlf
    assert memory.type == "user"
    assert memory.body == "Hello\n"


def test_mixed_newline_fences_still_delimit_frontmatter() -> None:
    # Claude Code normalizes every CRLF, so a file with both kinds still has frontmatter.
    raw = b"---\r\nname: a\r\ntype: project\n---\r\nbody\n"
    memory = parse_memory(raw)
    assert not memory.crlf
    assert memory.problem is None
    assert memory.type == "project"
    assert render_memory(memory, memory.frontmatter_text, memory.body) == raw


@pytest.mark.parametrize(
    ("raw", "problem", "line"),
    [
        (b"Just a body\n", FrontmatterProblem.MISSING, 1),
        (b"", FrontmatterProblem.MISSING, 1),
        (b"---\nname: a\nbody without end\n", FrontmatterProblem.UNTERMINATED, 1),
        (b"---\nname: n\nmeta:\n  k: [unclosed\n---\nbody\n", FrontmatterProblem.UNPARSABLE, 5),
        (b"---\nname: a\n  bad: indent\n---\n", FrontmatterProblem.UNPARSABLE, 3),
        (b"---\n- a\n- b\n---\nbody\n", FrontmatterProblem.NOT_MAPPING, 2),
        (b"---\njust a string\n---\n", FrontmatterProblem.NOT_MAPPING, 2),
    ],
)
def test_broken_files_load_flagged_and_keep_their_bytes(
    raw: bytes, problem: FrontmatterProblem, line: int
) -> None:
    memory = parse_memory(raw, "x.md")
    assert memory.problem is problem
    assert memory.problem_line == line
    assert memory.fields == {}
    assert render_memory(memory, memory.frontmatter_text, memory.body) == raw


def test_frontmatter_closing_fence_must_come_within_the_scanned_lines() -> None:
    late = b"---\n" + b"".join(b"k%d: v\n" % i for i in range(40)) + b"---\nbody\n"
    assert parse_memory(late).problem is FrontmatterProblem.UNTERMINATED
    early = b"---\n" + b"".join(b"k%d: v\n" % i for i in range(20)) + b"---\nbody\n"
    assert parse_memory(early).problem is None


def test_empty_frontmatter_is_an_empty_mapping() -> None:
    memory = parse_memory(b"---\n---\nbody\n")
    assert memory.problem is None
    assert memory.fields == {}
    assert memory.type is None
    assert not memory.type_is_valid


def test_unknown_type_loads_and_is_not_valid() -> None:
    memory = parse_memory(b"---\nname: n\ntype: opinion\n---\nx\n")
    assert memory.problem is None
    assert memory.type == "opinion"
    assert not memory.type_is_valid


def test_non_string_fields_are_not_reported_as_strings() -> None:
    memory = parse_memory(b"---\nname: 12\ndescription: [a]\ntype: null\ndate: 2026-03-05\n---\n")
    assert memory.name is None and memory.description is None and memory.type is None
    assert memory.fields["date"] == "2026-03-05"  # YAML 1.2, as the client reads it


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-03-05", "2026-03-05"),
        ("2026-03-04T10:12:44.120Z", "2026-03-04T10:12:44.120Z"),
        ("2026-03-04 10:12:44", "2026-03-04 10:12:44"),
        ("yes", "yes"),
        ("no", "no"),
        ("on", "on"),
        ("off", "off"),
        ("y", "y"),
        ("true", True),
        ("False", False),
        ("null", None),
        ("~", None),
        ("12", 12),
        ("0o17", 15),
        ("0x1f", 31),
        ("017", 17),  # YAML 1.1 read this as octal 15
        ("1_000", "1_000"),
        ("1.5", 1.5),
        ("!!timestamp 2026-03-05", "2026-03-05"),
    ],
)
def test_frontmatter_is_yaml_1_2_like_the_client(value: str, expected: object) -> None:
    memory = parse_memory(f"---\nname: n\nv: {value}\n---\n".encode())
    assert memory.problem is None
    assert memory.fields["v"] == expected
    assert type(memory.fields["v"]) is type(expected)
    assert not any(isinstance(v, datetime.date) for v in memory.fields.values())


def test_nested_type_wins_and_top_level_is_the_fallback() -> None:
    nested = (
        b"---\nname: n\ntype: user\nmetadata:\n  type: project\n"
        b"  modified: 2026-03-04T10:12:44.120Z\n---\n"
    )
    memory = parse_memory(nested)
    assert memory.type == "project" and memory.type_is_valid
    assert memory.modified == "2026-03-04T10:12:44.120Z"
    assert memory_type(memory.fields) == ("project", ("metadata", "type"))
    assert key_line(memory.frontmatter_text, ("metadata", "type")) == 5
    assert key_line(memory.frontmatter_text, ("type",)) == 3
    old = parse_memory(b"---\nname: n\ntype: user\nmodified: 2026-01-01\n---\n")
    assert old.type == "user" and old.modified == "2026-01-01"
    assert memory_type(old.fields) == ("user", ("type",))
    # `metadata: ` with a trailing space and nothing else, as real files have it
    empty = parse_memory(b"---\nname: n\nmetadata: \ntype: feedback\n---\n")
    assert empty.type == "feedback"
    assert memory_type({"metadata": {"type": None}, "type": "x"}) == ("x", ("type",))
    assert memory_type({}) == (None, None)
    assert key_line("a: 1\nmetadata:\n  b: 2\nc:\n  type: x\n", ("metadata", "type")) is None


@pytest.mark.parametrize(
    ("frontmatter", "words"),
    [
        ("x:\n  - " + "[" * 30_000, "nested more than 64 levels"),
        ("x:\n  k: " + "{a: " * 100, "nested more than 64 levels"),
        (
            # indented, so the client's quoting retry does not turn it into plain strings
            "x:\n  a: &a [x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"  {n}: &{n} [{', '.join(['*' + p] * 9)}]\n"
                for p, n in zip("abcdefg", "bcdefgh", strict=True)
            ),
            "more than 10,000 values once aliases are expanded",
        ),
        ("x: " + "y" * 70_000, "over 65,536 characters"),
    ],
)
def test_hostile_frontmatter_is_invalid_never_a_crash(frontmatter: str, words: str) -> None:
    raw = f"---\n{frontmatter}\n---\nbody\n".encode()
    memory = parse_memory(raw, "evil.md")
    assert memory.problem is FrontmatterProblem.UNPARSABLE
    assert words in (memory.problem_detail or "")
    assert memory.raw == raw and memory.body == "body\n"


def test_the_clients_quoting_retry_reads_an_unquoted_colon() -> None:
    memory = parse_memory(b"---\nname: n\ndescription: use case: foo # not a comment\n---\n")
    assert memory.problem is None
    assert memory.lenient_line == 3
    assert memory.description == "use case: foo # not a comment"
    assert parse_memory(b"---\nname: n\ndescription: plain\n---\n").lenient_line is None
    # already quoted values and indented lines are left alone, as the client does
    assert quote_problematic_values('a: "x: y"\n  b: c: d\nc: \\"q\\" [z')[0] == (
        'a: "x: y"\n  b: c: d\nc: "\\\\\\"q\\\\\\" [z"'
    )


def test_non_utf8_loads_flagged_and_keeps_its_bytes() -> None:
    raw = b"---\nname: caf\xe9\ntype: project\n---\nbody \xff\n"
    memory = parse_memory(raw)
    assert memory.decode_error is not None
    assert "byte 13" in memory.decode_error
    assert memory.raw == raw
    assert render_memory(memory, memory.frontmatter_text, memory.body) == raw


def test_decode_reports_bom_crlf_and_errors() -> None:
    assert decode(b"a\r\nb\r\n") == ("a\nb\n", False, True, None)
    assert decode(b"a\r\nb\n") == ("a\r\nb\n", False, False, None)
    assert decode("\ufeffx".encode()) == ("x", True, False, None)


# --- split_fields / join_fields ---

_frontmatter_texts = st.lists(st.one_of(st.sampled_from(YAML_LINES), _text_line), max_size=15).map(
    lambda lines: "".join(line + "\n" for line in lines)
)


@given(_frontmatter_texts)
@settings(max_examples=300)
@example("description: a\x0cb\n")
@example("name: x\u2028\ntype: project\n")
def test_split_then_join_fields_is_the_identity(text: str) -> None:
    assert join_fields(split_fields(text)) == text


def test_split_fields_attaches_comments_and_continuations() -> None:
    text = "# who\nname: a\ntags:\n  - x\n- y\n# kind\ntype: user\n# trailing\n"
    blocks = split_fields(text)
    assert blocks == [
        FieldBlock("name", "# who\nname: a\n"),
        FieldBlock("tags", "tags:\n  - x\n- y\n"),
        FieldBlock("type", "# kind\ntype: user\n"),
        FieldBlock(None, "# trailing\n"),
    ]


def test_split_fields_of_a_value_with_a_form_feed_keeps_one_block() -> None:
    # str.splitlines would also break at \x0c, U+2028 and friends, which YAML does not.
    assert split_fields("description: a\x0cb\ntype: project\n") == [
        FieldBlock("description", "description: a\x0cb\n"),
        FieldBlock("type", "type: project\n"),
    ]


def test_join_fields_adds_a_missing_final_newline_to_a_block() -> None:
    assert join_fields([FieldBlock("a", "a: 1"), FieldBlock("b", "b: 2\n")]) == "a: 1\nb: 2\n"


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("name: x\n", "name"),
        ("name:\n", "name"),
        ("'it''s': 1\n", "it's"),
        ('"a:b": 1\n', "a:b"),
        ("key:value\n", None),
        ("  indented: x\n", None),
        ("# comment: x\n", None),
        ("- item: x\n", None),
        ("url: http://x\n", "url"),
        ("", None),
    ],
)
def test_top_level_key(line: str, key: str | None) -> None:
    assert top_level_key(line) == key


def test_split_frontmatter_without_any_newline() -> None:
    assert split_frontmatter("---") == (None, "---", FrontmatterProblem.UNTERMINATED)
    assert split_frontmatter("---\n---") == ("", "", None)
