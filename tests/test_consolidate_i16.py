"""Issue 16 review: consolidation on folders as the import scenario leaves them."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from memsync.check.rules import relative_dates
from memsync.consolidate.engine import apply_plan, make_plan


def _write(path: Path, text: str, when: str) -> None:
    path.write_text(text, encoding="utf-8")
    stamp = datetime.fromisoformat(when).timestamp()
    os.utime(path, (stamp, stamp))


def test_a_heading_dated_with_slashes_or_dots_dates_the_lines_under_it(tmp_path: Path) -> None:
    # `## 2026/03/28` was no date: `Merged today` under it took the file's time (04-10).
    folder = tmp_path / "memory"
    folder.mkdir()
    log = (
        "---\nname: log\ndescription: work log\nmetadata:\n  type: project\n---\n\n"
        "## 2026-03-24\n\n- Deployed yesterday.\n\n"
        "## 2026/03/28\n\n- Merged today.\n\n"
        "## 2026.03.30 (Monday)\n\n- Reviewed the fix yesterday.\n"
    )
    _write(folder / "log.md", log, "2026-04-10T12:00:00")
    plan = make_plan(folder)
    assert [(d.old, d.written, d.source) for d in plan.folders[0].dates] == [
        ("yesterday", "2026-03-24", "heading `2026-03-24`"),
        ("today", "2026-03-28", "heading `2026/03/28`"),
        ("yesterday", "2026-03-30", "heading `2026.03.30 (Monday)`"),
    ]
    apply_plan(plan)
    text = (folder / "log.md").read_text(encoding="utf-8")
    assert "- Merged on 2026-03-28." in text
    assert "- Reviewed the fix on 2026-03-29." in text
    assert relative_dates("log.md", text) == []  # check agrees: nothing left to convert
