"""A weekday in brackets beside a day word is the writer's own word for that day
(`coverage tomorrow (Tue)`): the line was written the day before that weekday, whatever the
commit or the note's heading says, so the rewrite never contradicts the bracket beside it
(`on 2026-03-13 (Tue)` for a Friday). Figures in docs/BENCHMARKS.md."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memsync.consolidate.dates import resolve_relative_dates
from testing import dates_corpus

THURSDAY = date(2026, 3, 12)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # heldout25 p001: a daily note headed with the Tuesday, written the Monday evening
        (
            "# 2026-03-10 — Daily Notes\n- Also needs emergency coverage tomorrow (Tue) 10am-2pm",
            "# 2026-03-10 — Daily Notes\n"
            "- Also needs emergency coverage on 2026-03-10 (Tue) 10am-2pm",
        ),
        ("- shipped yesterday (Monday), merged", "- shipped on 2026-03-09 (Monday), merged"),
        ("- Today (Wed) no major data", "- On 2026-03-11 (Wed) no major data"),
        ("- off today (Thurs.) and tomorrow", "- off on 2026-03-12 (Thurs.) and on 2026-03-13"),
    ],
)
def test_a_weekday_beside_the_word_tells_its_day(text: str, expected: str) -> None:
    new_text, replacements = resolve_relative_dates(text, THURSDAY)
    assert new_text == expected
    assert replacements[0].told_by is not None and "(" in replacements[0].told_by


@pytest.mark.parametrize(
    "text",
    [
        "- meet tomorrow (Sunset Blvd) at noon",  # a place, not a weekday
        "- review tomorrow (Monitor dashboards first)",  # a word that only starts like one
        "- due in 3 days (Sun)",  # a count of days: the bracket may be the deadline's own day
    ],
)
def test_a_bracket_that_names_no_weekday_of_the_word_leaves_the_written_day(text: str) -> None:
    _, replacements = resolve_relative_dates(text, THURSDAY)
    assert replacements and all(rep.told_by is None for rep in replacements)
    assert all(rep.written == THURSDAY for rep in replacements)


def test_through_consolidate_and_git_the_bracket_beats_the_commit_day(tmp_path: Path) -> None:
    # committed two days after the note's heading: blame and heading both miss the evening
    # before; the bracket does not
    text = "# 2026-03-10 — Daily Notes\n- Also needs emergency coverage tomorrow (Tue) 10am-2pm"
    labels = (("tomorrow", ("2026-03-10",)),)
    case = dates_corpus.Case("p000", "2026-03-09", "2026-03-12", text, labels, "x")
    score = dates_corpus.run([case], tmp_path / "memory")
    assert (score.tp, score.fp, score.fn) == (1, 0, 0), score.failures
