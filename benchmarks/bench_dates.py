"""Precision and recall of relative-date detection on the labelled corpus.

Compares memsync's closed grammar with a naive `dateparser.search_dates` baseline (skipped when
dateparser is not installed; it is never a runtime dependency of memsync).

    python benchmarks/bench_dates.py [--corpus tests/data/dates/sentences.tsv] [--markdown]

A found expression counts as a true positive when it overlaps a labelled expression and its
value agrees with the label (same day; for a week, month or year label: a date inside it).
Anything else found is a false positive; labelled expressions not found are false negatives.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memsync.consolidate.dates import resolve_relative_dates  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "dates" / "sentences.tsv"
_ISO = re.compile(r"^\d{4}-\d{2}(?:-\d{2})?$")


@dataclass(frozen=True)
class Row:
    """One labelled sentence."""

    ident: str
    source: str
    written: date
    text: str
    labels: tuple[tuple[int, int, str], ...]  # (start, end, value)
    expected: str


@dataclass
class Score:
    """Counts for one detector."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    changed_negatives: int = 0
    negatives: int = 0
    seconds: float = 0.0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def load_corpus(path: Path = CORPUS) -> list[Row]:
    """Parse the TSV corpus; label spans are located in order of appearance."""
    rows: list[Row] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        ident, source, written, text, exprs, expected, *_ = line.split("\t")
        labels: list[tuple[int, int, str]] = []
        cursor = 0
        for item in filter(None, exprs.split("|")):
            expr, value = item.rsplit("=", 1)
            start = text.index(expr, cursor)
            labels.append((start, start + len(expr), value))
            cursor = start + len(expr)
        rows.append(Row(ident, source, date.fromisoformat(written), text, tuple(labels), expected))
    return rows


def agrees(label: str, expression: str, found: date | str) -> bool:
    """Whether a found value (a canonical string or a date) agrees with a label value."""
    if isinstance(found, str):
        return found == label
    if "W" in label:
        year, week = label.split("-W")
        return found.isocalendar()[:2] == (int(year), int(week))
    parts = [int(p) for p in label.split("-")]
    if len(parts) == 1:
        return found.year == parts[0]
    if len(parts) == 2:
        return (found.year, found.month) == (parts[0], parts[1])
    day = date(*parts)
    if "weekend" in expression.lower():
        return 0 <= (found - day).days <= 1
    return found == day


def score(rows: Iterable[Row], detect: Callable[[Row], list[tuple[int, int, date | str]]]) -> Score:
    """Score a detector returning (start, end, value) per found expression."""
    result = Score()
    started = time.perf_counter()
    for row in rows:
        found = detect(row)
        matched: set[int] = set()
        for start, end, value in found:
            hit = next(
                (
                    i
                    for i, (ls, le, lv) in enumerate(row.labels)
                    if i not in matched
                    and start < le
                    and ls < end
                    and agrees(lv, row.text[ls:le], value)
                ),
                None,
            )
            if hit is None:
                result.fp += 1
            else:
                matched.add(hit)
                result.tp += 1
        result.fn += len(row.labels) - len(matched)
        if not row.labels:
            result.negatives += 1
            result.changed_negatives += bool(found)
    result.seconds = time.perf_counter() - started
    return result


def memsync_detector(row: Row) -> list[tuple[int, int, date | str]]:
    """memsync's grammar."""
    _, replacements = resolve_relative_dates(row.text, row.written)
    return [(r.start, r.end, r.value) for r in replacements]


def dateparser_detector() -> Callable[[Row], list[tuple[int, int, date | str]]] | None:
    """A naive `search_dates` over the whole sentence, or None when dateparser is missing."""
    try:
        from dateparser.search import search_dates
    except ImportError:
        return None

    def detect(row: Row) -> list[tuple[int, int, date | str]]:
        base = datetime(row.written.year, row.written.month, row.written.day, 12, 0)
        found = search_dates(row.text, languages=["en"], settings={"RELATIVE_BASE": base}) or []
        out: list[tuple[int, int, date | str]] = []
        cursor = 0
        for substring, when in found:
            start = row.text.find(substring, cursor)
            if start < 0:
                start = row.text.find(substring)
            if start < 0 or _ISO.match(substring.strip()):
                continue  # an absolute ISO date: rewriting it would be a no-op
            out.append((start, start + len(substring), when.date()))
            cursor = start + len(substring)
        return out

    return detect


def exact_outputs(rows: Iterable[Row]) -> tuple[int, int]:
    """(rows whose rewritten sentence equals the expected one, rows)."""
    total = ok = 0
    for row in rows:
        total += 1
        ok += resolve_relative_dates(row.text, row.written)[0] == row.expected
    return ok, total


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    rows = load_corpus(args.corpus)
    detectors: list[tuple[str, Callable[[Row], list[tuple[int, int, date | str]]]]] = [
        ("memsync grammar", memsync_detector)
    ]
    baseline = dateparser_detector()
    if baseline is None:
        print("dateparser not installed: baseline skipped", file=sys.stderr)
    else:
        detectors.append(("dateparser.search_dates (naive)", baseline))
    labels = sum(len(r.labels) for r in rows)
    sources = sorted({r.source for r in rows})
    print(
        f"corpus: {len(rows)} sentences, {labels} labelled expressions, "
        f"{sum(not r.labels for r in rows)} must stay unchanged; sources: {', '.join(sources)}"
    )
    ok, total = exact_outputs(rows)
    print(f"memsync rewritten sentence identical to the expected one: {ok}/{total}")
    header = "| detector | subset | precision | recall | TP | FP | FN | negatives changed | time |"
    print(header)
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, detect in detectors:
        for subset in ["all", *sources]:
            chosen = [r for r in rows if subset in ("all", r.source)]
            s = score(chosen, detect)
            print(
                f"| {name} | {subset} | {s.precision:.3f} | {s.recall:.3f} | {s.tp} | {s.fp} | "
                f"{s.fn} | {s.changed_negatives}/{s.negatives} | {s.seconds:.2f} s |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
