"""Piped output is written as rich would print it, without loading rich."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.cli import render

_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\t"), max_size=40
)
_SEGMENTS = st.lists(st.one_of(_TEXT, st.tuples(_TEXT, st.sampled_from(["bold", "red"]))))


def _rich_output(segments: list[str | tuple[str, str]]) -> str:
    from rich.console import Console
    from rich.text import Text

    from memsync.check.printable import printable

    buffer = io.StringIO()
    console = Console(file=buffer, highlight=False, soft_wrap=True, emoji=False)
    text = Text()
    for segment in segments:
        if isinstance(segment, str):
            text.append(printable(segment))
        else:
            text.append(printable(segment[0]), style=segment[1])
    console.print(text)
    return buffer.getvalue()


@settings(max_examples=400, deadline=None)
@given(_SEGMENTS)
def test_plain_lines_are_what_rich_prints_off_a_terminal(
    segments: list[str | tuple[str, str]],
) -> None:
    buffer = io.StringIO()
    real = sys.stdout
    sys.stdout = buffer
    try:
        render.line(*segments, target=render.Plain(stderr=False))
    finally:
        sys.stdout = real
    assert buffer.getvalue() == _rich_output(segments)


def test_a_tab_goes_through_rich_which_expands_it(capsys: pytest.CaptureFixture[str]) -> None:
    render.line("a\tb", ("c\td", "bold"), target=render.Plain(stderr=False))
    assert capsys.readouterr().out == _rich_output(["a\tb", ("c\td", "bold")])


def test_forced_colour_and_terminals_get_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    assert isinstance(render.console(), render.Plain)  # pytest captures: not a terminal
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert not isinstance(render.console(), render.Plain)
    monkeypatch.delenv("FORCE_COLOR")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    assert not isinstance(render.console(stderr=True), render.Plain)


def test_a_piped_status_never_loads_rich(tmp_path: Path) -> None:
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write(f'rich={\"rich\" in sys.modules}'))\n"
        "from memsync.cli import render\n"
        "out = render.console()\n"
        "render.line(('scope', 'bold'), ' store ', ('name', 'cyan'), target=out)\n"
        "render.line('memsync: failed', stderr=True)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert proc.stdout == "scope store name\n"
    assert proc.stderr == "memsync: failed\nrich=False"
