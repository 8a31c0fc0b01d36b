"""Every performance measure of docs/BENCHMARKS.md in one run, with the machine's load.

    python benchmarks/run_paired.py [--quick] > run.md

Runs, one after the other and each in its own process: session start (bench_hook.py), start-up
of status and check (bench_startup.py), consolidation at 10,000 and 100,000 memories
(bench_consolidate.py) and duplicate recall (bench_dedupe.py), and prints their Markdown
with `uptime` before and after each. `--quick` uses fewer pairs and 1,000 / 10,000
memories (a smoke run, not a figure to record); `--pairs` and `--big-pairs` set the pairs.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.paired import load  # noqa: E402


def steps(quick: bool, pairs: int, big_pairs: int) -> list[tuple[str, list[str]]]:
    """(title, argv) of each benchmark."""
    sizes = ["1000", "10000"] if quick else ["10000", "100000"]
    return [
        ("Session start", ["bench_hook.py", "--pairs", str(pairs)]),
        ("Start-up of status and check", ["bench_startup.py", "--pairs", str(pairs)]),
        ("Consolidation", ["bench_consolidate.py", "--sizes", *sizes, "--pairs", str(big_pairs)]),
        ("Duplicates", ["bench_dedupe.py", "--threshold", "0.85", "--planted", "5000"]),
    ]


def main(argv: list[str] | None = None) -> int:
    """Run every step; exit 1 when a step failed or missed its goal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--pairs", type=int, default=21, help="pairs of each start-up measure")
    parser.add_argument("--big-pairs", type=int, default=3, help="pairs of consolidation runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.pairs, args.big_pairs = 5, 1
    print(f"{platform.system()} {platform.machine()}, Python {platform.python_version()}")
    print(f"load at start: {load()}\n")
    status = 0
    for title, step in steps(args.quick, args.pairs, args.big_pairs):
        proc = subprocess.run(
            [sys.executable, str(HERE / step[0]), *step[1:]],
            capture_output=True,
            text=True,
            check=False,
        )
        print(f"### {title}\n\n{proc.stdout.strip()}\n")
        if proc.returncode != 0:
            status = 1
            print(f"(exit {proc.returncode}) {proc.stderr.strip()[-1000:]}\n")
    print(f"load at end: {load()}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
