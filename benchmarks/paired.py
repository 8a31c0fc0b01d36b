"""Paired timing: run A and B alternately (A B A B …) and report the ratios A/B of each pair.

On a shared machine the load changes from second to second; a pair measures A and B under
nearly the same load, so the ratio of a pair is far steadier than either time. The report
gives the median ratio and its spread (lowest, quartiles, highest) over the pairs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Paired:
    """The times of A and B, pair by pair."""

    name: str
    a_label: str
    b_label: str
    a: tuple[float, ...]
    b: tuple[float, ...]
    goal: float | None = None  # the ratio A/B must not exceed this

    @property
    def ratios(self) -> list[float]:
        """A/B for each pair."""
        return [x / y for x, y in zip(self.a, self.b, strict=True)]

    @property
    def median(self) -> float:
        """The median ratio."""
        return statistics.median(self.ratios)

    def spread(self) -> tuple[float, float, float, float]:
        """(lowest, first quartile, third quartile, highest) ratio."""
        ratios = sorted(self.ratios)
        if len(ratios) < 4:
            return ratios[0], ratios[0], ratios[-1], ratios[-1]
        q1, _, q3 = statistics.quantiles(ratios, n=4)
        return ratios[0], q1, q3, ratios[-1]

    @property
    def ok(self) -> bool | None:
        """Whether the median is within the goal (None without a goal)."""
        return None if self.goal is None else self.median <= self.goal

    def row(self) -> str:
        """One Markdown table row: what, median times, median ratio, spread, goal."""
        low, q1, q3, high = self.spread()
        goal = "" if self.goal is None else f"≤ {self.goal:g}"
        verdict = {True: "met", False: "**missed**", None: ""}[self.ok]
        return (
            f"| {self.name} | {statistics.median(self.a) * 1000:.0f} ms"
            f" | {statistics.median(self.b) * 1000:.0f} ms ({self.b_label})"
            f" | **{self.median:.2f}×** | {low:.2f}–{high:.2f} (IQR {q1:.2f}–{q3:.2f})"
            f" | {len(self.a)} | {goal} {verdict} |"
        )


HEADER = (
    "| measure | A (median) | B (median) | A/B median | spread (min–max) | pairs | goal |\n"
    "| --- | ---: | ---: | ---: | --- | ---: | --- |"
)


def paired(
    name: str,
    a: Callable[[], object],
    b: Callable[[], object],
    *,
    pairs: int,
    labels: tuple[str, str] = ("A", "B"),
    goal: float | None = None,
    warmup: int = 1,
) -> Paired:
    """Time A and B alternately, PAIRS times each, after WARMUP untimed rounds."""
    for _ in range(warmup):
        a()
        b()
    times_a: list[float] = []
    times_b: list[float] = []
    for index in range(pairs):
        # Alternate which goes first, so neither always runs right after the other.
        order = ((a, times_a), (b, times_b)) if index % 2 == 0 else ((b, times_b), (a, times_a))
        for fn, out in order:
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return Paired(name, labels[0], labels[1], tuple(times_a), tuple(times_b), goal)


def command(
    argv: Sequence[str],
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    stdin: str = "",
    ok: Sequence[int] = (0,),
) -> Callable[[], None]:
    """A callable that runs ARGV to completion and fails loudly on an unexpected exit."""

    def run() -> None:
        proc = subprocess.run(
            list(argv),
            cwd=cwd,
            env=dict(env) if env is not None else None,
            input=stdin.encode(),
            capture_output=True,
            check=False,
        )
        if proc.returncode not in ok:
            raise RuntimeError(
                f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr.decode()[-2000:]}"
            )

    return run


def load() -> str:
    """The machine's load as `uptime` prints it."""
    try:
        return subprocess.run(
            ["uptime"], capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        one, five, fifteen = os.getloadavg()
        return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"
