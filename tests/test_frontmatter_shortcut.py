"""Frontmatter read without PyYAML gives exactly what the YAML loader gives.

`parse_frontmatter_text` answers two shapes itself so that `memsync check` never imports
PyYAML for ordinary memories: simple `key: value` lines (`yamlfast.simple_mapping`) and
simple lines the loader must reject (`yamlfast.certainly_invalid`: a value starting with a
backtick, or holding `: `), whose client retry is simple. These tests compare it with
`parse_with_yaml` (the loader and the retry, no shortcut) on generated and real frontmatter,
and check that the shortcut is taken where the speed-up needs it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memsync.model import yamlfast
from memsync.model.memory import (
    parse_frontmatter_text,
    parse_with_yaml,
    split_frontmatter,
)
from memsync.model.textcodec import decode

ROOT = Path(__file__).resolve().parent.parent

KEYS = ["name", "description", "type", "metadata", "true", "k-1"]
# The awkward pieces: reserved first characters, colons, comments, quotes, flows, blocks.
VALUES = [
    "project",
    "`src/app.py` is generated",
    "`unclosed",
    "@at",
    "@",
    "`",
    "use x: y",
    "x:y",
    "ends with colon:",
    "a: b: c",
    "a #c: d",
    "a#b: c",
    "rates: https://wiki.example.com/a#b",
    '"quoted: with a colon"',
    '"unclosed: x',
    "'single: x'",
    "'unclosed",
    "[a: b]",
    "{a: b}",
    "|",
    ">-",
    "&x a: b",
    "*x",
    "!tag a: b",
    "- a: b",
    "? a: b",
    "12",
    "true",
    "",
    "nbsp\u00a0x: y",
    "tab\tx: y",
]
LINES = [
    "metadata:",
    "  type: project",
    "    deeper: x",
    "  - item",
    "  continuation: of a value",
    "  continuation",
    "# comment: `x`",
    "",
    "---",
    "key:value",
    "\tname: tab",
]
_line = st.one_of(
    st.sampled_from(LINES),
    st.builds(
        lambda indent, k, v: f"{indent}{k}: {v}",
        st.sampled_from(["", "", "  ", "    "]),
        st.sampled_from(KEYS),
        st.one_of(st.sampled_from(VALUES), st.text(alphabet="`@:# ab\"'[{|>", max_size=8)),
    ),
)


def assert_same(text: str) -> None:
    """The shortcut and the loader agree on TEXT (fields, problem, lines)."""
    assert parse_frontmatter_text(text) == parse_with_yaml(text), text


@given(st.lists(_line, max_size=8), st.booleans())
@settings(max_examples=2500, suppress_health_check=[HealthCheck.too_slow])
@example(["name: a", "description: `x` is generated", "type: project"], True)
@example(["description: rates: https://example.com"], True)
@example(["name: a", "  b: `x`"], True)
@example(["name: a #c: d"], True)
@example(["description: |", "  `x`: y"], True)
@example(['description: "a', 'b: `x` "'], True)
def test_the_shortcut_reads_what_the_loader_reads(lines: list[str], final_newline: bool) -> None:
    text = "\n".join(lines) + ("\n" if final_newline else "")
    assert_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "name: a\ndescription: `x` is generated\n",
        "description: @handle owns it\n",
        "description: error rates: https://wiki.example.com/x\n",
        "metadata:\n  type: a\n  note: `x`\n",
    ],
)
def test_what_the_loader_rejects_is_known_without_it(text: str) -> None:
    assert yamlfast.certainly_invalid(text)
    reference = parse_with_yaml(text)
    assert reference.problem is not None or reference.lenient_line is not None  # loader failed
    assert_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "name: a\n",  # valid
        "name: a #c: d\n",  # the colon is in a comment
        "description: |\n  `x`: y\n",  # a block scalar takes the line in
        'description: "a\nb: `x` "\n',  # so does a quoted scalar over two lines
        "name: [a: b]\n",  # a flow mapping is valid
        "tags:\n  - `x`\n",  # not key lines
    ],
)
def test_anything_unsure_goes_to_the_loader(text: str) -> None:
    assert not yamlfast.certainly_invalid(text)


def _frontmatters() -> list[str]:
    folders = [ROOT / "tests" / "data", Path("/work/shared/corpora/realformat")]
    found = []
    for folder in folders:
        for path in sorted(folder.rglob("*.md")) if folder.is_dir() else ():
            frontmatter = split_frontmatter(decode(path.read_bytes())[0])[0]
            if frontmatter is not None:
                found.append(frontmatter)
    return found


def test_real_memories_read_the_same_both_ways() -> None:
    frontmatters = _frontmatters()
    assert frontmatters
    for text in frontmatters:
        assert_same(text)


def test_check_of_generated_memories_never_imports_pyyaml(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    try:
        from benchmarks.corpus import generate
    finally:
        sys.path.remove(str(ROOT))
    generate(tmp_path, 200, seed=3)
    probe = (
        "import sys\nfrom memsync.__main__ import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('YAML' if 'yaml' in sys.modules else 'NOYAML')\n"
    )
    env = {**os.environ, "NO_COLOR": "1"}
    result = subprocess.run(
        [sys.executable, "-c", probe, "check", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=tmp_path,
    )
    assert result.stderr.endswith("NOYAML"), result.stderr[-500:]
    assert "memory" in result.stdout + result.stderr  # the check ran and reported


def test_unusual_characters_are_the_readers_complement() -> None:
    # The class as the YAML reader's accepted ranges (slow to compile), against the complement.
    accepted = re.compile(
        r"[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
    )
    text = "".join(map(chr, range(0x110000)))
    assert accepted.findall(text) == yamlfast._UNUSUAL.findall(text)
