"""The consolidation report in pieces: the same text as in one go, cut only where a cut is safe
for redaction, and the CLI redacts every piece it prints."""

from __future__ import annotations

import json
import os
import random
import string
import sys
from datetime import datetime
from pathlib import Path

import pytest

from memsync.check.printable import json_printable, printable
from memsync.consolidate import report
from memsync.consolidate.engine import make_plan
from memsync.consolidate.plan import Plan
from testing.memories import write_memory

LEDGER = (
    "Review rota for the payments service, one person per slot:\n"
    "- Slot 1 (Monday): Alice reviews the ledger changes\n"
    "- Slot 2 (Wednesday): Bruno reviews the ledger changes\n"
    "- Slot 3 (Friday): Chen reviews the ledger changes, key {key}\n"
    "Swap slots only after telling the team channel before the change.\n"
)


def _aws(seed: str) -> str:
    return "AKIA" + "".join(random.Random(seed).choices(string.ascii_uppercase + "234567", k=16))


def _age(path: Path, day: str) -> None:
    stamp = datetime.fromisoformat(f"{day}T12:00:00").timestamp()
    os.utime(path, (stamp, stamp))


def _folder(tmp_path: Path, key: str) -> Path:
    """A folder whose plan has every part: a merge with superseded lines and dropped values,
    a relative date, index lines added, rewritten and dangling, a skipped file."""
    folder = tmp_path / "memory"
    old = write_memory(folder, "rota.md", "review rota", LEDGER.format(key=key))
    newer = LEDGER.format(key=key).replace(f"Chen reviews the ledger changes, key {key}", "Dana")
    new = write_memory(folder, "rota-copy.md", "review rota", newer, description="who reviews")
    _age(old, "2026-09-01")
    _age(new, "2026-10-01")
    for n in range(40):
        write_memory(folder, f"note-{n:02d}.md", f"note {n}", f"Note {n} shipped yesterday.\n")
    (folder / "bad.md").write_bytes(b"---\nname: bad\n---\n\xff\xfe not text\n")
    (folder / "MEMORY.md").write_text(
        "# Memory\n\n- [rota](rota.md) — who reviews\n- [gone](gone.md) — a missing one\n"
        "- [note 1](note-01.md) — old title\n",
        encoding="utf-8",
    )
    return folder


@pytest.fixture
def plan(tmp_path: Path) -> Plan:
    return make_plan(_folder(tmp_path, _aws("report")), dry_run=True)


@pytest.mark.parametrize("chunk", [1, 200, 10**9])
def test_json_in_pieces_is_the_json_of_the_plan(
    plan: Plan, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report, "CHUNK_CHARS", chunk)
    whole = json.dumps(report.plan_to_json(plan), indent=2, ensure_ascii=False) + "\n"
    pieces = list(report.json_chunks(plan))
    assert "".join(pieces) == whole
    assert len(pieces) == 1 if chunk == 10**9 else len(pieces) > 10
    folder = json.loads(whole)["folders"][0]
    assert folder["merges"][0]["superseded"] and folder["dates"] and folder["skipped"]


@pytest.mark.parametrize("chunk", [1, 200])
def test_markdown_in_pieces_is_the_markdown_in_one_piece(
    plan: Plan, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report, "CHUNK_CHARS", 10**9)
    [whole] = report.markdown_chunks(plan)
    monkeypatch.setattr(report, "CHUNK_CHARS", chunk)
    pieces = list(report.markdown_chunks(plan))
    assert "".join(pieces) == whole == report.render_markdown(plan)
    assert len(pieces) > 10 and whole.endswith("byte 18\n")
    # A piece ends with a whole line, never with blank space (the end is trimmed once).
    assert all(p.endswith("\n") or not p[-1].isspace() for p in pieces)


def test_lines_of_one_memory_stay_in_one_piece(plan: Plan, monkeypatch: pytest.MonkeyPatch) -> None:
    """A secret wrapped over two lines of a memory reaches the redaction in one text."""
    monkeypatch.setattr(report, "CHUNK_CHARS", 1)
    [merge] = plan.folders[0].merges
    assert merge.superseded
    lines = [f"    {line}" for line in merge.superseded]
    assert any("\n".join(lines) in p for p in report.markdown_chunks(plan))
    whole = "".join(report.json_chunks(plan))
    start = whole.index('"superseded": [')
    superseded = whole[start : whole.index("]", start) + 1]
    assert merge.superseded[0] in superseded
    assert any(superseded in p for p in report.json_chunks(plan))


@pytest.mark.parametrize("fmt", ["markdown", "json"])
def test_the_cli_redacts_every_piece_it_prints(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fmt: str,
) -> None:
    from memsync.cli.app import main

    key = _aws(fmt)
    folder = _folder(tmp_path, key)
    monkeypatch.setattr(report, "CHUNK_CHARS", 64)
    monkeypatch.setattr(sys, "stdin", open(os.devnull))  # noqa: SIM115 - closed by pytest
    target = tmp_path / "report" / f"plan.{fmt}"
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        main(["consolidate", str(folder), "--dry-run", "--format", fmt, "--report", str(target)])
    out = capsys.readouterr().out
    assert done.value.code in (0, None)
    assert key not in out and "(aws-access-token: AKIA…(redacted 16 chars))" in out
    assert "rota.md" in out and "note-01.md" in out
    plan = make_plan(folder, dry_run=True)
    monkeypatch.setattr(report, "CHUNK_CHARS", 10**9)
    written = target.read_text(encoding="utf-8")
    # `--report` is the weekly workflow's pull request body: redacted like the terminal.
    assert key not in written and "(aws-access-token: AKIA…(redacted 16 chars))" in written
    whole = "".join(report.json_chunks(plan) if fmt == "json" else report.markdown_chunks(plan))
    assert written == (json_printable(whole) if fmt == "json" else printable(whole))
    if fmt == "json":
        json.loads(written)  # still valid JSON
