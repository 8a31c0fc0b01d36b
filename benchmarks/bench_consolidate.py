"""`memsync consolidate --dry-run` at two sizes, paired, on realistic generated memories.

    python benchmarks/bench_consolidate.py [--sizes 10000 100000] [--pairs 3] [--tmpdir DIR]

Both stores come from benchmarks/corpus.py (English prose in the four types, code spans,
links, planted exact, near and paraphrased duplicates, look-alikes that must stay apart,
relative dates), all memories in one folder, so the duplicate search and the index see every
one of them. The command runs as a user runs it, in a fresh process, alternately on the big
and the small store (big small big small …); each pair gives the ratio big/small of wall
time and of CPU time. Peak memory is the command's maximum RSS (GNU `time`, else `wait4`).
From the JSON plan: the planted pairs merged, by kind, and look-alikes merged by mistake.

Stores are written to a RAM disk when there is one (/dev/shm), so the figures are memsync's
work rather than the disk's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import Store, generate  # noqa: E402
from benchmarks.paired import load  # noqa: E402


@dataclass(frozen=True)
class Run:
    """One process: wall and CPU seconds, peak RSS in MiB, and its JSON plan."""

    wall: float
    cpu: float
    rss_mib: float
    plan: dict[str, object]


# A child spawned by this process inherits, in its maxrss, this process's resident memory (the
# stores are held here): GNU time, itself small, reports the command's own peak.
TIME = Path("/usr/bin/time")


def consolidate(store: Path) -> Run:
    """`memsync consolidate --dry-run --format json STORE` in a fresh process."""
    argv = [sys.executable, "-m", "memsync", "consolidate", "--dry-run", "--format", "json"]
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as peak:
        timed = [str(TIME), "-f", "%M", "-o", peak.name] if TIME.is_file() else []
        started = time.perf_counter()
        proc = subprocess.Popen([*timed, *argv, str(store)], stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        stderr = proc.stderr.read().decode() if proc.stderr else ""
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"consolidate {store} failed: {stderr[-2000:]}")
        rss_kib = int(peak.read().split()[-1]) if timed else usage.ru_maxrss
        out.seek(0)
        plan = json.loads(out.read())
    # wait4 counts the command's CPU time too (GNU time waited for it).
    return Run(wall, usage.ru_utime + usage.ru_stime, rss_kib / 1024, plan)


def found(store: Store, plan: dict[str, object]) -> dict[str, tuple[int, int]]:
    """(merged, planted) pairs by kind; `apart` counts look-alikes merged by mistake."""
    together: set[frozenset[str]] = set()
    for folder in plan["folders"]:  # type: ignore[attr-defined]
        for merge in folder["merges"]:
            names = [merge["survivor"], *merge["merged"]]
            stems = [Path(n).stem for n in names]
            together.update(frozenset((a, b)) for a in stems for b in stems if a != b)
    planted = store.planted
    return {
        kind: (sum(frozenset(p) in together for p in pairs), len(pairs))
        for kind, pairs in (
            ("exact", planted.exact),
            ("near", planted.near),
            ("paraphrase", planted.paraphrase),
            ("apart", planted.apart),
        )
    }


def main(argv: list[str] | None = None) -> int:
    """Generate both stores, run the pairs, print a Markdown report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=[10_000, 100_000])
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument(
        "--tmpdir", default="/dev/shm" if Path("/dev/shm").is_dir() else None, help="where"
    )
    args = parser.parse_args(argv)
    small_n, big_n = sorted(args.sizes)
    with tempfile.TemporaryDirectory(prefix="memsync-consolidate-", dir=args.tmpdir) as tmp:
        small = generate(Path(tmp) / f"s{small_n}", small_n, seed=1)
        big = generate(Path(tmp) / f"s{big_n}", big_n, seed=1)
        print(f"load before: {load()}")
        runs: dict[int, list[Run]] = {small_n: [], big_n: []}
        for index in range(args.pairs):
            order = (big, small) if index % 2 == 0 else (small, big)
            for store in order:
                runs[store.memories].append(consolidate(store.root))
        print(f"load after: {load()}\n")
        wall = [b.wall / s.wall for b, s in zip(runs[big_n], runs[small_n], strict=True)]
        cpu = [b.cpu / s.cpu for b, s in zip(runs[big_n], runs[small_n], strict=True)]
        print(
            "| memories | wall (median) | CPU (median) | peak RSS (max) | exact | near |"
            " paraphrase | look-alikes merged |"
        )
        print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for store in (small, big):
            done = runs[store.memories]
            kinds = found(store, done[-1].plan)
            cells = " | ".join(f"{a} / {b}" for a, b in kinds.values())
            print(
                f"| {store.memories:,} | {statistics.median(r.wall for r in done):.1f} s"
                f" | {statistics.median(r.cpu for r in done):.1f} s"
                f" | {max(r.rss_mib for r in done):.0f} MiB | {cells} |"
            )
        print(
            f"\n{big_n:,} / {small_n:,}: wall **{statistics.median(wall):.1f}×**"
            f" ({min(wall):.1f}–{max(wall):.1f}), CPU **{statistics.median(cpu):.1f}×**"
            f" ({min(cpu):.1f}–{max(cpu):.1f}) over {args.pairs} pairs (goal ≤ 11×,"
            f" peak ≤ 1 GiB at {big_n:,})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
