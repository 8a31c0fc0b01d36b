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


def test_a_long_index_lines_cut_words_are_kept_when_no_description_has_them(
    tmp_path: Path,
) -> None:
    # The hook of a memory without `description` is the index line's own text: cut to 150
    # characters, its tail was in the report's diff and nowhere on disk.
    from memsync.consolidate.report import render_markdown

    folder = tmp_path / "memory"
    folder.mkdir()
    meta = "---\nname: {0}\n{1}metadata:\n  type: project\n---\n\n{2}\n"
    _write(folder / "db.md", meta.format("db", "", "Fail over by hand."), "2026-10-01T12:00:00")
    api = meta.format("api", "description: the API\n", "Versioned under /v2.")
    _write(folder / "api.md", api, "2026-10-01T12:00:00")
    tail = "the on-call alias ops-pager and the runbook in vault path ops/db-failover"
    db_line = (
        "- [DB](db.md) — the primary is db-prod-7 on port 8443, replicas db-prod-8 and "
        f"db-prod-9, {tail}"
    )
    api_line = "- [API](api.md) — " + "a hook written for the index, longer than 150, " * 3
    _write(folder / "MEMORY.md", f"{db_line}\n{api_line}\n", "2026-10-01T12:00:00")
    plan = make_plan(folder)
    report = render_markdown(plan)
    apply_plan(plan)
    assert tail not in (folder / "MEMORY.md").read_text(encoding="utf-8")
    kept = folder / "archive" / "index-lines.md"
    kept_text = kept.read_text(encoding="utf-8") if kept.is_file() else ""
    assert f"{db_line}\n" in kept_text and kept_text.endswith(f"{api_line}\n")
    assert f"    {db_line}" in report  # named in full, as kept
    index = plan.folders[0].index
    assert index is not None and index.shortened == ("db.md", "api.md")
    # api.md's hook is its line's own too (its description does not replace it): kept as well
    assert getattr(index, "cut_lines", None) == (db_line, api_line)
    again = make_plan(folder)
    assert not again.changed  # a second run keeps nothing twice


def test_a_weekday_in_a_subjects_phrase_takes_no_direction_from_its_present_verb() -> None:
    # Written on Saturday 2026-05-09: `The outage on Friday is fixed` was dated the Friday
    # ahead (2026-05-15), the `is` after the phrase read as a future. It says the outage's
    # state now; nothing says which Friday, so the phrase stays as written (SPEC 5).
    from datetime import date

    from memsync.consolidate.dates import resolve_relative_dates

    saturday = date(2026, 5, 9)
    for text in (
        "The outage on Friday is fixed now.",
        "The bug from Tuesday is fixed.",
        "The report from Wednesday is wrong.",
    ):
        assert resolve_relative_dates(text, saturday) == (text, []), text
        assert relative_dates("a.md", text) == []  # check does not flag what stays
    for text, converted in (
        ("The outage on Friday was bad.", "The outage on 2026-05-08 was bad."),
        ("The standup is on Monday.", "The standup is on 2026-05-11."),
        ("Ana is back from Monday.", "Ana is back from 2026-05-11."),
        ("Friday is my last day.", "2026-05-15 is my last day."),
    ):
        assert resolve_relative_dates(text, saturday)[0] == converted
    # Only the copula right after the phrase is its noun's (real.json, written Monday 07-27;
    # skipping every later `are` had left `flagged` to send it back a week).
    real = "Releases include the Fed decision on Wednesday, but there are no widely flagged prints."
    new, _ = resolve_relative_dates(real, date(2026, 7, 27))
    assert "the Fed decision on 2026-07-29, but" in new


def test_a_weekday_a_schedule_runs_on_is_every_weeks() -> None:
    # `The cron runs Monday at 9am` became one Monday: the clock read as an appointment ahead.
    from datetime import date

    from memsync.consolidate.dates import resolve_relative_dates

    saturday = date(2026, 5, 9)
    for text in (
        "The cron runs Monday at 9am.",
        "The backup runs on Sunday.",
        "It repeats Friday.",
    ):
        assert resolve_relative_dates(text, saturday) == (text, []), text
        assert relative_dates("a.md", text) == []
    ran = "The cron ran Saturday 11 PM and failed."  # one run, told in the past
    assert (
        resolve_relative_dates(ran, saturday)[0] == "The cron ran on 2026-05-09 11 PM and failed."
    )


def test_the_survivor_of_a_merge_was_written_when_its_newest_copy_was(tmp_path: Path) -> None:
    # Exact copies: the most complete one survives (here the indexed, older one); the memory
    # was last written when its newest copy was, and the file says so (SPEC 1: mtime).
    folder = tmp_path / "memory"
    folder.mkdir()
    text = "---\nname: deploy\ndescription: how we deploy\nmetadata:\n  type: project\n---\n\n{}\n"
    _write(folder / "deploy.md", text.format("Deploy with make ship."), "2026-09-01T10:00:00")
    _write(folder / "deploy-copy.md", text.format("Deploy with make ship."), "2026-10-05T10:00:00")
    _write(folder / "MEMORY.md", "- [Deploy](deploy.md) — how we deploy\n", "2026-09-01T10:00:00")
    plan = make_plan(folder)
    assert [(m.survivor, m.merged) for m in plan.folders[0].merges] == [
        ("deploy.md", ("deploy-copy.md",))
    ]
    apply_plan(plan)
    stamp = datetime.fromisoformat("2026-10-05T10:00:00").timestamp()
    assert (folder / "deploy.md").stat().st_mtime == stamp
    assert (folder / "archive" / "deploy-copy.md").stat().st_mtime == stamp
