"""An index line's hook is the index's own text: consolidate keeps it, never the description.

Found by running `memsync consolidate` on 55 real memory folders (docs/RELIABILITY.md): 995
index lines were rewritten from their memories' descriptions, 196 lines that fit cut to `…`,
and where Claude had updated the line but not the description, the index went back to a
stale state. The two examples below are real (frontmatter as published, body cut short).
"""

from __future__ import annotations

from pathlib import Path

from memsync.check.rules import check_index
from memsync.consolidate.engine import apply_plan, make_plan
from memsync.consolidate.report import render_markdown

# github.com/RostyslavArtiukh/telegram-like, .claude/memory/,
# commit 21ba5c8ab907175e4f7adf5729b528053126195f
PLAN = (
    "---\nname: quality-audit-plan\n"
    'description: "План на наступну сесію — повний аудит якості всього репо всіма агентами '
    '(баги, безпека, мертвий/устарілий код, дублювання, ненадійність) + виправлення"\n'
    "metadata: \n  node_type: memory\n  type: project\n"
    "  originSessionId: d1782314-ee0f-4cee-8d00-ff7d0debd513\n---\n\n"
    "**Мета (сформульовано 2026-07-05 ввечері, на наступну сесію):** підняти якість максимально.\n"
)
PLAN_LINE = (
    "- [quality_audit_plan.md](quality_audit_plan.md) — ВИКОНАНО → див. quality_audit_done "
    "(це був pre-execution план)"
)

# github.com/Kindra2804/mealana-erp, .claude/memory/,
# commit 7e46fb4a317a43f8381b321192b19f2894f5e165
CHARGEN = (
    "---\nname: project-chargen-nachverfolgung\n"
    'description: "Geplantes Feature — zentrale Chargen-Historie/Nachverfolgung (Artikelsuche → '
    'Charge-Dropdown → Lagerbewegungen), noch nicht gebaut"\n'
    "metadata: \n  node_type: memory\n  type: project\n"
    "  originSessionId: db02ffa8-aab5-44a1-a954-8cc195e7d369\n---\n\n"
    "Jacky möchte eine **Chargen-Nachverfolgbarkeit** (Traceability).\n"
)
CHARGEN_LINE = (
    "- [Chargen-Nachverfolgung](project_chargen_nachverfolgung.md) — FERTIG 2026-07-10: "
    "`lager/chargen_nachverfolgung.php`, bestehende LagerService-Methoden + Anzeige-Partial "
    "wiederverwendet, eigene lager-gegatete AJAX-Endpunkte"
)


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "quality_audit_plan.md").write_text(PLAN, encoding="utf-8")
    (folder / "project_chargen_nachverfolgung.md").write_text(CHARGEN, encoding="utf-8")
    index = f"# Memory\n\n{PLAN_LINE}\n{CHARGEN_LINE}\n"
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    return folder


def test_a_line_that_fits_keeps_its_hook_over_a_stale_description(tmp_path: Path) -> None:
    # The line says the plan was carried out; the description still says "plan for the next
    # session". It became `— План на наступну сесію — повний аудит якості всього репо…`.
    folder = _folder(tmp_path)
    apply_plan(make_plan(folder))
    text = (folder / "MEMORY.md").read_text(encoding="utf-8")
    assert f"\n{PLAN_LINE}\n" in text
    assert "План на наступну сесію" not in text
    assert not make_plan(folder).changed


def test_a_long_line_is_cut_from_its_own_hook_and_kept_whole_in_archive(tmp_path: Path) -> None:
    # 205 characters: it became `— Geplantes Feature — zentrale Chargen-Historie/…` (planned,
    # "not built yet") for a feature the line says is done, its words only in the report.
    folder = _folder(tmp_path)
    plan = make_plan(folder)
    report = render_markdown(plan)
    apply_plan(plan)
    text = (folder / "MEMORY.md").read_text(encoding="utf-8")
    (line,) = [ln for ln in text.splitlines() if "project_chargen_nachverfolgung.md" in ln]
    assert line.startswith("- [Chargen-Nachverfolgung](project_chargen_nachverfolgung.md) — FERTIG")
    assert line.endswith("…") and len(line) <= 150
    assert "Geplantes Feature" not in text
    kept = (folder / "archive" / "index-lines.md").read_text(encoding="utf-8")
    assert kept.endswith(f"{CHARGEN_LINE}\n")
    assert CHARGEN_LINE in report
    # Rewritten from its own hook, not from the frontmatter, as the report said before.
    assert "- lines rewritten (1): `project_chargen_nachverfolgung.md`" in report
    index = (folder / "MEMORY.md").read_bytes()
    assert not [f for f in check_index("MEMORY.md", index) if f.rule != "index-near-limit"]
    assert not make_plan(folder).changed


# github.com/iselind/dotfiles, claude/memory/, commit 0a4fa80a13b8b916be6d941404545b62799ed50e
NETRC = (
    "---\nname: netrc-off-limits\ndescription: Never read or access ~/.netrc under any "
    "circumstances\nmetadata:\n  type: feedback\n---\n\n"
    "**Rule:** Do not read, access, or reference ~/.netrc under any circumstances whatsoever.\n"
)
NETRC_ROW = (
    "| [netrc_off_limits.md](netrc_off_limits.md) | feedback | Never read or access ~/.netrc — "
    "user has PAT for Jira auth there |"
)
# github.com/erikkins/abecap, docs/claude-memory/, commit cbc8e77622f4790cc145ef7a51b9df22edd9723f
CACHE = (
    "---\nname: Never re-fetch data from external providers\ndescription: Any data pulled from "
    "Alpaca, yfinance, or future paid providers must be cached durably (S3 parquet) and re-read "
    "from cache forever after.\ntype: feedback\n"
    "originSessionId: 1081317d-f863-470f-ab07-65ddc614e856\n---\n"
    "When fetching data from any external provider, persist it to durable storage on first fetch.\n"
)
CACHE_LINE = (
    "- **[Never re-fetch from data providers](feedback_data_provider_cache.md)** — anything "
    "pulled from Alpaca/yfinance/etc. must be cached durably"  # cut here to 142 characters
)


def test_a_table_row_or_a_bold_link_indexes_its_memory(tmp_path: Path) -> None:
    # Both folders' memories got a second, plain line appended after the table (13 in
    # iselind/dotfiles), and `check` warned `index-missing-entry` for each (34 in erikkins).
    from memsync.check.run import run_check

    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "netrc_off_limits.md").write_text(NETRC, encoding="utf-8")
    (folder / "feedback_data_provider_cache.md").write_text(CACHE, encoding="utf-8")
    index = (
        "# Memory index\n\n| File | Type | Summary |\n|------|------|---------|\n"
        f"{NETRC_ROW}\n\n## Feedback\n{CACHE_LINE}\n"
        "<!-- - **[Old](gone.md)** -->\n"
    )
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    plan = make_plan(folder)
    assert not plan.changed
    assert (folder / "MEMORY.md").read_text(encoding="utf-8") == index
    report = run_check(folder, cwd=tmp_path)
    assert [f.rule for f in report.findings if f.rule.startswith("index")] == []
    # A memory linked only from inside a comment is not indexed; one named in a code span is
    # (the model reads the name: test_consolidate_index_lines.py).
    (folder / "MEMORY.md").write_text(
        f"<!-- {NETRC_ROW} -->\nSee `[x](feedback_data_provider_cache.md)`.\n", encoding="utf-8"
    )
    index_plan = make_plan(folder).folders[0].index
    assert index_plan is not None
    assert index_plan.added == ("netrc_off_limits.md",)


# github.com/8w6hmdgchz-cmd/apex-spiral, memory/dreaming/deep/, commit
# 05f25d9c63e87e52580b828baed74aed9cd643fd: both files hold exactly this text.
DEEP_SLEEP = (
    "# Deep Sleep\n\n- Repaired recall artifacts: rewrote recall store.\n"
    "- Ranked 0 candidate(s) for durable promotion.\n"
    "- Promoted 0 candidate(s) into MEMORY.md.\n"
)


def test_two_days_logs_with_one_text_stay_two_records(tmp_path: Path) -> None:
    # The 2026-05-23 log was merged into the 2026-05-22 one as an exact duplicate and moved
    # to archive/: the folder no longer said the agent ran that day. Nor are they near
    # duplicates (one word changed), and `check` does not call them duplicates.
    from memsync.check.run import run_check

    folder = tmp_path / "memory"
    (folder / "dreaming" / "deep").mkdir(parents=True)
    for day in ("2026-05-22", "2026-05-23"):
        (folder / "dreaming" / "deep" / f"{day}.md").write_text(DEEP_SLEEP, encoding="utf-8")
    (folder / "dreaming" / "deep" / "2026-05-24.md").write_text(
        DEEP_SLEEP.replace("rewrote", "rebuilt"), encoding="utf-8"
    )
    (folder / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    (fp,) = make_plan(folder).folders
    assert fp.merges == ()
    report = run_check(folder, cwd=tmp_path)
    assert [f for f in report.findings if f.rule == "duplicate-memory"] == []
    # A copy of one day's log is still one record.
    (folder / "dreaming" / "deep" / "2026-05-22 copy.md").write_text(DEEP_SLEEP, encoding="utf-8")
    (fp,) = make_plan(folder).folders
    (merge,) = fp.merges
    copies = {"dreaming/deep/2026-05-22.md", "dreaming/deep/2026-05-22 copy.md"}
    assert {merge.survivor, *merge.merged} == copies
