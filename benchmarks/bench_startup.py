"""Startup cost of `memsync --version` and `memsync check` against a bare interpreter.

    python benchmarks/bench_startup.py [--runs 9] [--sizes 200 2000]

Every command runs as a fresh subprocess (what a Claude Code hook or a pre-commit hook
pays), N times; the table shows the median and its ratio to `python -c pass` measured in
the same run, so machines of different speed give comparable ratios. The generated memory
directories are deterministic: frontmatter, a few paragraphs, a code block now and then,
and a MEMORY.md that lists every memory (over Claude Code's limits at 2,000, so that check
also reports index errors, as it would on such a directory).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memsync.check.run import run_check  # noqa: E402
from memsync.model.safety import scan_directory  # noqa: E402

WORDS = [
    *("database", "migration", "deploy", "review", "test", "mock", "fixture", "cache"),
    *("index", "token", "budget", "release", "branch", "schema", "latency", "retry"),
    *("queue", "worker", "config", "secret", "rotate", "owner", "oncall", "incident"),
    *("feature", "flag", "rollout", "metric", "alert", "dashboard", "backup", "restore"),
]
TYPES = ("user", "feedback", "project", "reference")


def make_memories(directory: Path, count: int, seed: int = 0) -> None:
    """COUNT plausible memories and their index in DIRECTORY."""
    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    index = ["# Memory index", ""]
    for i in range(count):
        name = " ".join(rng.choice(WORDS) for _ in range(3))
        description = " ".join(rng.choice(WORDS) for _ in range(10))
        paragraphs = []
        for _ in range(rng.randint(2, 5)):
            paragraphs.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(15, 40))))
        if i % 5 == 0:
            paragraphs.append("```sh\nmake test DB=postgres\n```")
        body = "\n\n".join(paragraphs)
        text = (
            f"---\nname: {name}\ndescription: {description}\ntype: {TYPES[i % 4]}\n---\n"
            f"{body}\n**Why:** {rng.choice(WORDS)}\n"
        )
        filename = f"memory-{i:04d}.md"
        (directory / filename).write_text(text, encoding="utf-8")
        index.append(f"- [{name}]({filename}) — {description[:80]}")
    (directory / "MEMORY.md").write_text("\n".join(index) + "\n", encoding="utf-8")


def median_seconds(command: list[str], runs: int, env: dict[str, str]) -> float:
    """Median wall time of RUNS fresh runs of COMMAND (after one warm-up run)."""
    times = []
    for attempt in range(runs + 1):
        start = time.perf_counter()
        proc = subprocess.run(command, env=env, capture_output=True, check=False)
        elapsed = time.perf_counter() - start
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed:\n{proc.stderr.decode()}")
        if attempt:  # the first run only warms the page cache
            times.append(elapsed)
    return statistics.median(times)


def in_process_seconds(directory: Path, runs: int, *, scan_only: bool = False) -> float:
    """Median time of the check (or only the SPEC 2 scan) without interpreter start-up."""

    def work() -> object:
        if scan_only:
            return scan_directory(directory, "team")
        return run_check(directory, cwd=directory)

    work()  # imports and caches once
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Generate the directories, time every command, print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 2000])
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="memsync-bench-") as tmp:
        rows: list[tuple[str, float]] = [
            ("python -c pass", median_seconds([python, "-c", "pass"], args.runs, env)),
            (
                "memsync --version",
                median_seconds([python, "-m", "memsync", "--version"], args.runs, env),
            ),
        ]
        core: list[tuple[str, int, float]] = []
        for size in args.sizes:
            directory = Path(tmp) / f"memories-{size}"
            make_memories(directory, size)
            command = [python, "-m", "memsync", "check", str(directory), "--format", "json"]
            rows.append(
                (f"memsync check ({size:,} memories)", median_seconds(command, args.runs, env))
            )
            scan = in_process_seconds(directory, args.runs, scan_only=True)
            core.append(("scan (read + SPEC 2 filter)", size, scan))
            core.append(("check (every rule)", size, in_process_seconds(directory, args.runs)))
    baseline = rows[0][1]
    print(f"Python {sys.version.split()[0]} on {sys.platform}, median of {args.runs} runs\n")
    print("| command | median | × `python -c pass` |")
    print("| --- | ---: | ---: |")
    for label, seconds in rows:
        print(f"| `{label}` | {seconds * 1000:.0f} ms | {seconds / baseline:.1f} |")
    print("\n| in process, without start-up | memories | median | per memory |")
    print("| --- | ---: | ---: | ---: |")
    for label, size, seconds in core:
        per = seconds / size * 1e6
        print(f"| {label} | {size:,} | {seconds * 1000:.1f} ms | {per:.0f} µs |")


if __name__ == "__main__":
    main()
