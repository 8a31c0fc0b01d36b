"""Runs a labelled corpus of real relative-date lines through `consolidate`, end to end.

The corpus format is /work/shared/corpora/README.md's (`dates-real.json`): each case becomes one
memory file, committed in a fresh git repository with the author and committer date the line
really has in its source's history, and the whole folder is consolidated once. A phrase counts
as converted when it vanished from the case line and the value it became is one of its
acceptable outputs; anything else that changed is a false positive.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from memsync.consolidate.engine import apply_plan, make_plan
from memsync.consolidate.plan import Options

_FRONTMATTER = (
    "---\nname: case {n}\ndescription: labelled case {n}\nmetadata:\n  type: project\n---\n"
)


@dataclass(frozen=True)
class Case:
    """One labelled line: its memory body, the day it was written and committed, and labels."""

    ident: str
    written: str
    committed: str
    text: str
    phrases: tuple[tuple[str, tuple[str, ...]], ...]  # empty: a negative
    source: str


@dataclass
class Score:
    """Counts over a corpus run."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    negatives: int = 0
    negatives_changed: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        """Correct conversions over all conversions."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        """Correct conversions over all required conversions."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def load(path: Path) -> list[Case]:
    """The cases of a corpus file in the shared JSON format."""
    data = json.loads(path.read_text(encoding="utf-8"))
    cases = []
    for i, (written, committed, text, phrases, source) in enumerate(data["positives"]):
        labels = tuple((p.lower(), tuple(outs)) for p, outs in phrases)
        cases.append(Case(f"p{i:03d}", written, committed, text, labels, source))
    for i, (written, committed, text, source) in enumerate(data["negatives"]):
        cases.append(Case(f"n{i:03d}", written, committed, text, (), source))
    return cases


def _git(repo: Path, *args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def build(cases: list[Case], folder: Path, *, frontmatter: bool = True) -> None:
    """One memory file per case in FOLDER (a new git repository), each committed on its day."""
    folder.mkdir(parents=True, exist_ok=True)
    _git(folder, "init", "-q")
    by_day: dict[str, list[Case]] = {}
    for case in cases:
        by_day.setdefault(case.committed, []).append(case)
    for day in sorted(by_day):  # one commit a day: blame gives each line its day
        for case in by_day[day]:
            head = _FRONTMATTER.format(n=case.ident) if frontmatter else ""
            (folder / case.ident).mkdir(exist_ok=True)
            _case_file(folder, case).write_text(f"{head}\n{case.text}\n", encoding="utf-8")
        stamp = f"{day}T12:00:00+0000"
        env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
        _git(folder, "add", "-A", env=env)
        identity = ["-c", "user.name=corpus", "-c", "user.email=corpus@example.invalid"]
        _git(folder, *identity, "commit", "-q", "-m", day, env=env)


def _accepts(outputs: tuple[str, ...], value: str) -> bool:
    for out in outputs:
        if out in (value, "unchanged"):
            if out == value:
                return True
            continue
        if ".." in out:
            low, high = (date.fromisoformat(x) for x in out.split(".."))
            span = _span(value)
            if span is not None and low <= span[0] and span[1] <= high:
                return True
    return False


def _span(value: str) -> tuple[date, date] | None:
    """The days an ISO value names: a day, or (reduced precision) a whole month or year.

    A week token counts by its Monday, as the corpus README's literal tokens always have.
    """
    if "-W" in value:
        year, week = value.split("-W")
        monday = date.fromisocalendar(int(year), int(week), 1)
        return monday, monday
    if re.fullmatch(r"\d{4}", value):
        return date(int(value), 1, 1), date(int(value), 12, 31)
    if re.fullmatch(r"\d{4}-\d{2}", value):
        year, month = int(value[:4]), int(value[5:])
        if not 1 <= month <= 12:
            return None
        following = date(year + month // 12, month % 12 + 1, 1)
        return date(year, month, 1), following - timedelta(days=1)
    try:
        day = date.fromisoformat(value)
    except ValueError:
        return None
    return day, day


def run(cases: list[Case], folder: Path, *, frontmatter: bool = True) -> Score:
    """Build, consolidate and score CASES in FOLDER."""
    build(cases, folder, frontmatter=frontmatter)
    # One project folder per case: cases never merge with each other, nothing is archived.
    plan = make_plan(folder, all_projects=True, options=Options(allow_archive="none"))
    apply_plan(plan)
    changes: dict[str, list[Any]] = {}
    for unit in plan.folders:
        for change in unit.dates:
            changes.setdefault(unit.root.name, []).append(change)
    return score(cases, folder, changes)


def _case_file(folder: Path, case: Case) -> Path:
    return folder / case.ident / f"{case.ident}.md"


def score(cases: list[Case], folder: Path, changes: dict[str, list[Any]]) -> Score:
    """Compare every consolidated case file with its labels."""
    result = Score()
    for case in cases:
        body = _case_file(folder, case).read_text(encoding="utf-8")
        body = body.split("\n---\n", 1)[1] if body.startswith("---\n") else body
        old_lines = case.text.split("\n")
        new_lines = body.strip("\n").split("\n")
        found = changes.get(case.ident, [])
        context_kept = new_lines[:-1] == old_lines[:-1]
        if not case.phrases:
            result.negatives += 1
            if found or not context_kept or new_lines[-1] != old_lines[-1]:
                result.negatives_changed += 1
                result.fp += max(len(found), 1)
                result.failures.append(f"{case.ident} changed: {new_lines[-1]!r}")
            continue
        last = new_lines[-1].lower()
        used: set[int] = set()
        for label, outputs in case.phrases:
            optional = label.startswith("?")
            phrase = label.lstrip("?")
            match = next(
                (
                    i
                    for i, c in enumerate(found)
                    if i not in used and (phrase in c.old.lower() or c.old.lower() in phrase)
                ),
                None,
            )
            if match is not None:
                used.add(match)
                # "unchanged" accepts the phrase left as it is (the corpus README), so another
                # occurrence of it pinned by a date beside it may stay on the line.
                left_ok = phrase not in last or "unchanged" in outputs
                if _accepts(outputs, found[match].value) and left_ok:
                    result.tp += 1
                else:
                    result.fp += 1
                    result.fn += not optional
                    result.failures.append(
                        f"{case.ident} {phrase!r} -> {found[match].value} (wants {outputs})"
                    )
            elif not optional and not ("unchanged" in outputs and phrase in last):
                result.fn += 1
                result.failures.append(f"{case.ident} missed {phrase!r}: {new_lines[-1]!r}")
        # The phrase must vanish from the line (the corpus README), so every occurrence of it is
        # converted: a second `today` given an accepted value is part of that, not an extra.
        extra = [
            c
            for i, c in enumerate(found)
            if i not in used and not _repeats_a_label(case.phrases, c.old.lower(), c.value)
        ]
        if extra or not context_kept:
            result.fp += max(len(extra), 1)
            result.failures.append(f"{case.ident} also changed {[c.old for c in extra]}")
    return result


def _repeats_a_label(
    phrases: tuple[tuple[str, tuple[str, ...]], ...], old: str, value: str
) -> bool:
    word = re.sub(r"['’]s$", "", old)  # `today's` repeats the label `today`
    return any(
        label.lstrip("?") in (old, word) and _accepts(outputs, value) for label, outputs in phrases
    )


def day_after(day: str, days: int) -> str:
    """ISO day DAYS after DAY (labels in tests)."""
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def assert_unchanged(text: str, written: date) -> None:
    """Assert that resolving TEXT written on WRITTEN changes nothing."""
    from memsync.consolidate.dates import resolve_relative_dates

    assert resolve_relative_dates(text, written) == (text, [])


def assert_converts(text: str, written: date, expected: str) -> None:
    """Assert that resolving TEXT written on WRITTEN rewrites it to hold EXPECTED."""
    from memsync.consolidate.dates import resolve_relative_dates

    new, replacements = resolve_relative_dates(text, written)
    assert replacements and expected in new, new
