"""The frontmatter fast path (`yaml12.simple_mapping`) reads exactly what the full loader reads.

The fast path only answers for simple `key: value` frontmatter; everything else it hands to
the loader. These tests compare the two wherever the fast path answers, on generated text
built from the awkward pieces YAML has, and check that it does answer for what Claude Code
writes (else the speed-up is gone without any test noticing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memsync.model import yaml12
from memsync.model.memory import parse_memory, split_frontmatter
from memsync.model.textcodec import decode

ROOT = Path(__file__).resolve().parent.parent


def full_load(text: str) -> Any:
    """The loader without the fast path: its value, or the error it raises."""
    loader = yaml12._LOADER(text)
    try:
        return loader.get_single_data()
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
        return ("error", type(exc).__name__)
    finally:
        loader.dispose()


def typed(value: Any) -> Any:
    """VALUE with each scalar's type beside it (`1 == True` must not pass for equal)."""
    if isinstance(value, dict):
        return {"dict": [(typed(k), typed(v)) for k, v in value.items()]}
    if isinstance(value, list):
        return {"list": [typed(v) for v in value]}
    return (type(value).__name__, value)


def assert_same(text: str) -> bool:
    """The fast path agrees with the loader on TEXT; True when it answered at all."""
    fast = yaml12.simple_mapping(text)
    if fast is yaml12.NOT_SIMPLE:
        return False
    assert typed(fast) == typed(full_load(text)), text
    return True


KEYS = ["name", "description", "type", "metadata", "node_type", "true", "null", "k-1", "_x"]
VALUES = [
    "testing policy",
    "project",
    "2026-03-05",
    "2026-03-04T10:12:44.120Z",
    "2026-03-04 10:12:44",
    "yes",
    "no",
    "on",
    "true",
    "False",
    "null",
    "~",
    "12",
    "0o17",
    "0x1f",
    "017",
    "1_000",
    "1.5",
    ".inf",
    "1e5",
    "-5",
    "!!timestamp 2026-03-05",
    "`src/app.py` is generated",
    "use x: y",
    "a #comment",
    "a#b",
    "https://example.com/a#b",
    "ends with colon:",
    "a, b [c] {d}",
    "it's",
    'say "hi"',
    '"quoted: with a colon"',
    '"esc \\" and \\\\ "',
    '"bad \\n escape"',
    '"unclosed',
    "'it''s single-quoted'",
    "'unclosed",
    "&anchor value",
    "*alias",
    "|",
    ">-",
    "[1, 2]",
    "{a: b}",
    "- item",
    "? key",
    "%directive",
    "@at",
    "ünïcödé wörds",
    "emoji 🎉",
    "nbsp\u00a0inside",
    "",
    " leading space",
    "trailing space ",
]
LINES = [
    *(f"{k}: {v}" for k in KEYS for v in VALUES[::5]),
    *(f"  {k}: {v}" for k in KEYS[:4] for v in VALUES[::3]),
    *(f"    {k}: {v}" for k in KEYS[:3] for v in VALUES[::7]),
    "metadata:",
    "tags:",
    "  - alpha",
    "- top-level dash",
    "  continuation of a value",
    "# a comment line",
    "  # an indented comment",
    "",
    "   ",
    "---",
    "...",
    '"quoted key": 1',
    "'single key': two",
    ": broken",
    "\tname: tab-indented",
    "name:\ttab value",
    "ünïcödé: wörds",
    "key:value",
    "key:  two spaces",
    "name: x\r",
    "name: a\x85b",
    "name: a\u2028b",
    "name: \ufeffbom",
    "name: bell\x07",
]


@given(
    st.lists(
        st.one_of(
            st.sampled_from(LINES),
            st.builds(lambda k, v: f"{k}: {v}", st.sampled_from(KEYS), st.sampled_from(VALUES)),
            st.builds(lambda k, v: f"  {k}: {v}", st.sampled_from(KEYS), st.sampled_from(VALUES)),
            st.builds(lambda k, v: f"{k}: {v}", st.sampled_from(KEYS), st.text(max_size=20)),
        ),
        max_size=10,
    ),
    st.booleans(),
)
@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
@example(["name: a", "metadata:", "  type: project", "  modified: 2026-03-04T10:12:44.120Z"], True)
@example(["metadata:", "name: a"], False)
@example(["metadata:", "  type: a", "   deeper: b"], False)
@example(["metadata:", "  type: a", "other: b", "  type: c"], False)
@example(["name: a", "name: b", "metadata:", "  x: 1", "metadata: c"], True)
def test_the_fast_path_reads_what_the_loader_reads(lines: list[str], final_newline: bool) -> None:
    assert_same("\n".join(lines) + ("\n" if final_newline else ""))


# Values the fast path answers for, and the near misses next to them.
PLAIN = ["project", "2026-03-05", "yes", "1_000", "a, b [c] {d}", "it's", "a#b", "x:y", "é"]
_plain = st.one_of(
    *[st.sampled_from(PLAIN)] * 4,
    st.text(st.characters(codec="utf-8", exclude_characters="\n"), max_size=12),
)


@st.composite
def nearly_simple(draw: st.DrawFn) -> str:
    """Frontmatter the client writes (top-level keys, a `metadata:` block), at most one line
    of it replaced by an awkward one."""
    keys = st.sampled_from([k for k in KEYS if k not in ("true", "null")])
    lines = [f"{draw(keys)}: {draw(_plain)}" for _ in range(draw(st.integers(0, 4)))]
    if draw(st.booleans()):
        indent = " " * draw(st.integers(1, 4))
        lines.append("metadata:")
        lines += [f"{indent}{draw(keys)}: {draw(_plain)}" for _ in range(3)]
    if lines and draw(st.booleans()):
        lines[draw(st.integers(0, len(lines) - 1))] = draw(st.sampled_from(LINES))
    return "\n".join(lines) + "\n"


@given(nearly_simple())
@settings(max_examples=2000, suppress_health_check=[HealthCheck.too_slow])
def test_the_fast_path_agrees_on_nearly_simple_frontmatter(text: str) -> None:
    assert_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "name: a\ndescription: b\ntype: feedback\nupdated: 2026-04-23\n",
        # What the client writes on its first save of a private memory.
        "name: package-manager\ndescription: This project uses pnpm, never npm or yarn\n"
        "metadata:\n  node_type: memory\n  type: project\n"
        "  originSessionId: 0b6c1f0e-6d1e-4c43-9c1a-3f1f2f0e9a11\n"
        "  modified: 2026-03-04T10:12:44.120Z\n",
        'name: a\ndescription: "quoted: with a colon"\n# a comment\n\ntype: user\n',
        "name: a\ndescription: 'it''s quoted'\nmetadata:\n    type: reference\n",
        "name: a\nmetadata: \n  type: project\nempty:  \n",  # the client's `metadata: `
        "",
        "# only a comment\n",
    ],
)
def test_what_claude_code_writes_takes_the_fast_path(text: str) -> None:
    assert assert_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "name: a\ntags:\n  - x\n",
        "name: a\nn: 12\n",
        "name: a\nflag: true\n",
        "name: a\nv: null\n",
        "description: `code` first\n",
        "description: a: b\n",
        "name: a\n  bad: indent\n",
        "metadata:\n  type: a\n    deeper: b\n",
        "name: a # comment\n",
        "name:\ta\n",
        "true: a\n",
        "a: &x b\nc: *x\n",
        "k: " + "y" * 10 + "\n" + "a: b\n" * 4000,  # over the node bound: the loader says so
    ],
)
def test_anything_else_goes_to_the_loader(text: str) -> None:
    assert yaml12.simple_mapping(text) is yaml12.NOT_SIMPLE


def test_bounds_still_hold_with_the_fast_path() -> None:
    too_many = "".join(f"k{n}: v\n" for n in range(5000))
    with pytest.raises(yaml12.FrontmatterTooComplex, match="10,000 values"):
        yaml12.load(too_many)
    with pytest.raises(yaml12.FrontmatterTooComplex, match="65,536 characters"):
        yaml12.load("name: " + "y" * 70_000 + "\n")


def test_real_and_generated_memories_read_the_same_both_ways() -> None:
    folders = [ROOT / "tests" / "data", Path("/work/shared/corpora/realformat")]
    answered = total = 0
    for folder in folders:
        for path in sorted(folder.rglob("*.md")) if folder.is_dir() else ():
            text = decode(path.read_bytes())[0]
            frontmatter = split_frontmatter(text)[0]
            if frontmatter is None:
                continue
            total += 1
            answered += assert_same(frontmatter)
    assert total == 0 or answered > 0


def test_a_memory_parses_the_same_through_the_fast_path() -> None:
    raw = (
        b"---\nname: n\ndescription: `x` is generated\nmetadata:\n  type: project\n"
        b"  modified: 2026-03-04T10:12:44.120Z\n---\nbody\n"
    )
    memory = parse_memory(raw, "m.md")
    # The backtick needs the client's quoting retry, which the fast path then reads.
    assert memory.problem is None and memory.lenient_line == 3
    assert memory.fields == {
        "name": "n",
        "description": "`x` is generated",
        "metadata": {"type": "project", "modified": "2026-03-04T10:12:44.120Z"},
    }
    assert memory.type == "project"
