"""Relative dates at the boundaries a mutation run left open (docs/MUTATION.md, `dates` set).

Each case names the rule it pins: which way a bare weekday points, what a recurring line
above it means, where a quotation ends.
"""

from __future__ import annotations

from datetime import date

import pytest

from memsync.consolidate.dates import resolve_relative_dates

THURSDAY = date(2026, 3, 5)


@pytest.mark.parametrize(
    ("reason", "text", "resolved"),
    [
        (
            "`ahead of` a weekday points forward",
            "Freeze ahead of Friday.",
            "Freeze ahead of 2026-03-06.",
        ),
        (
            "a weekday with a clock time is an appointment: the next one, not the one after",
            "The interview Monday 10:30 AM.",
            "The interview on 2026-03-09 10:30 AM.",
        ),
        (
            "a recurring schedule on the line above does not make this line's weekday recurring",
            "Standup every Monday.\nMoved it Monday.",
            "Standup every Monday.\nMoved it on 2026-03-02.",
        ),
        (
            "a weekday in a past-tense clause is the last one",
            "Fixed the bug yesterday; deployed Monday.",
            "Fixed the bug on 2026-03-04; deployed on 2026-03-02.",
        ),
        (
            "closed quotations before the date leave it outside any quote",
            "\u201cDeploy\u201d is done; ship tomorrow, then \u201cnotes\u201d.",
            "\u201cDeploy\u201d is done; ship on 2026-03-06, then \u201cnotes\u201d.",
        ),
        (
            "a possessive keeps its article",
            "Ship it tomorrow\u2019s build.",
            "Ship it the 2026-03-06 build.",
        ),
        (
            "a part of the day after `yesterday`",
            "yesterday morning we fixed it",
            "on the morning of 2026-03-04 we fixed it",
        ),
        (
            "`today` with a part of the day",
            "Deploy today afternoon.",
            "Deploy on the afternoon of 2026-03-05.",
        ),
    ],
)
def test_resolved_at_the_boundaries(reason: str, text: str, resolved: str) -> None:
    assert resolve_relative_dates(text, THURSDAY)[0] == resolved, reason


@pytest.mark.parametrize(
    "text",
    [
        "We ship Monday to Friday.",
        "We ship Monday through Friday.",
        "Open Monday - Friday.",
        # Found by mutation testing: `until` converted only the end of the range.
        "We ship Monday until Friday.",
        "We paused on Monday till Friday.",
    ],
)
def test_a_weekday_range_is_a_schedule_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, THURSDAY)[0] == text


def test_until_a_weekday_alone_still_points_ahead() -> None:
    assert resolve_relative_dates("We ship until Friday.", THURSDAY)[0] == (
        "We ship until 2026-03-06."
    )
