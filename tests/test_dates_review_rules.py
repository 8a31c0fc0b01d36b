"""Rules found by an adversarial review of the relative-date grammar (/work/rev/import's
bug5, bug6, bug7, bug14, bug15): standing rules and recurring events, reported future,
weekday ranges after `next <weekday>`, and single-quoted quotations."""

from __future__ import annotations

from datetime import date

import pytest

from memsync.consolidate.dates import convertible_dates, resolve_relative_dates

WEDNESDAY = date(2026, 11, 18)


def _agrees(text: str) -> None:
    """`check` flags exactly what `consolidate` rewrites."""
    rewritten = [(r.start, r.end) for r in resolve_relative_dates(text, WEDNESDAY)[1]]
    assert [(m.start, m.end) for m in convertible_dates(text)] == rewritten


@pytest.mark.parametrize(
    "text",
    [
        # bug5: a policy's duration, a habitual present, a nightly job (SPEC section 5)
        "Access tokens expire in 2 days.",
        "Password reset links expire in one day.",
        "Invoices are due in 30 days.",
        "Each invite link expires in 7 days.",
        "Monday is the team's no-meeting day.",
        "Friday is our demo day.",
        "Our demo day is Friday.",
        "The nightly job processes yesterday's logs.",
        "The on-call handoff happens Monday at 10:00.",
        "Standup takes place Monday at 9:30.",
    ],
)
def test_standing_rules_and_recurring_events_are_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, WEDNESDAY) == (text, [])
    assert convertible_dates(text) == []


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        # One token, one deadline, one run: a day
        ("The token expires in 2 days.", "The token expires on 2026-11-20."),
        ("The report is due in 3 days.", "The report is due on 2026-11-21."),
        ("Release is due in 2 weeks.", "Release is due on 2026-12-02."),
        ("The bucket is deleted in ten days.", "The bucket is deleted on 2026-11-28."),
        ("Access tokens will expire in 2 days.", "Access tokens will expire on 2026-11-20."),
        ("Friday is my last day.", "2026-11-20 is my last day."),
        (
            "The nightly job failed on yesterday's logs.",
            "The nightly job failed on the 2026-11-17 logs.",
        ),
        ("- Phone interview Monday 10:30 AM", "- Phone interview on 2026-11-23 10:30 AM"),
        ("Call with Dana Monday at 10:00.", "Call with Dana on 2026-11-23 at 10:00."),
    ],
)
def test_one_off_days_beside_the_standing_rules_still_convert(text: str, converted: str) -> None:
    assert resolve_relative_dates(text, WEDNESDAY)[0] == converted
    _agrees(text)


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        # bug15: `would` in the weekday's clause points ahead, whatever the reporting verb
        ("Sam said he would call Monday.", "Sam said he would call on 2026-11-23."),
        (
            "I told Sam I would send the contract Friday.",
            "I told Sam I would send the contract on 2026-11-20.",
        ),
        ("Sam said he will call Monday.", "Sam said he will call on 2026-11-23."),
        # Past stays past: a counterfactual, or no `would` at all
        ("Sam would have called Monday.", "Sam would have called on 2026-11-16."),
        ("Sam called Monday.", "Sam called on 2026-11-16."),
    ],
)
def test_reported_future_points_ahead(text: str, converted: str) -> None:
    assert resolve_relative_dates(text, WEDNESDAY)[0] == converted
    _agrees(text)


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        # bug6: the end of a range is counted from its start, not from the day of writing
        (
            "Ana covers on-call next Monday through Wednesday.",
            "Ana covers on-call on 2026-11-23 through 2026-11-25.",
        ),
        # bug7: both ends in one run, so a second run finds nothing
        ("Dana is out next Monday until Thursday.", "Dana is out on 2026-11-23 until 2026-11-26."),
        ("We were out last Friday to Monday.", "We were out on 2026-11-13 to 2026-11-16."),
        ("Ana is away this Monday - Wednesday.", "Ana is away on 2026-11-16 - 2026-11-18."),
    ],
)
def test_a_range_after_a_relative_weekday_ends_after_its_start(text: str, converted: str) -> None:
    new_text, _ = resolve_relative_dates(text, WEDNESDAY)
    assert new_text == converted
    assert resolve_relative_dates(new_text, date(2026, 11, 30)) == (new_text, [])
    _agrees(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ana covers on-call Monday through Wednesday.",
        # A clock time made the end an appointment ahead, its start left alone
        "Ana covers Monday through Wednesday 10am.",
        "Office hours: Monday - Friday 9am",
        "Support runs Monday thru Friday 9am.",
    ],
)
def test_a_range_whose_start_is_left_alone_is_left_alone(text: str) -> None:
    """`Monday through Wednesday` with no tense for `Monday`: half a range is no range."""
    assert resolve_relative_dates(text, WEDNESDAY) == (text, [])
    assert convertible_dates(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # bug14: single quotes quote the writer's words as double quotes do
        "He wrote 'we ship tomorrow' in the channel.",
        "Dana's Slack status: 'back next week'",
        "'ship it tomorrow', he said.",
        "He wrote ‘we ship tomorrow’ in the channel.",
    ],
)
def test_text_in_single_quotes_is_a_quotation(text: str) -> None:
    assert resolve_relative_dates(text, WEDNESDAY) == (text, [])
    assert convertible_dates(text) == []


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        # Apostrophes are no quotes
        ("Sam's team don't ship tomorrow.", "Sam's team don't ship on 2026-11-19."),
        ("The users' logs from yesterday are gone.", "The users' logs from 2026-11-17 are gone."),
        ("Dana's status changed yesterday.", "Dana's status changed on 2026-11-17."),
        ("He said 'ok' and we ship tomorrow.", "He said 'ok' and we ship on 2026-11-19."),
        ("We ship tomorrow, the team's call.", "We ship on 2026-11-19, the team's call."),
    ],
)
def test_apostrophes_are_no_quotes(text: str, converted: str) -> None:
    assert resolve_relative_dates(text, WEDNESDAY)[0] == converted
    _agrees(text)


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        # SPEC 5's own examples, opening a sentence (a team review: `check` and `consolidate`
        # left them while the same words mid-sentence converted).
        ("Since Monday the build is red.", "Since 2026-11-16 the build is red."),
        ("On Monday we will migrate.", "On 2026-11-23 we will migrate."),
        ("Until Friday the freeze holds.", "Until 2026-11-20 the freeze holds."),
        # A capitalised word that is no preposition still makes a name.
        ("Good Friday is a holiday.", "Good Friday is a holiday."),
        ("Cyber Monday sales were up.", "Cyber Monday sales were up."),
    ],
)
def test_a_preposition_opening_the_sentence_still_points_the_weekday(
    text: str, converted: str
) -> None:
    assert resolve_relative_dates(text, WEDNESDAY)[0] == converted
    _agrees(text)
