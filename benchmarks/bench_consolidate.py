"""Time and peak memory of the consolidation pass on generated stores.

    python benchmarks/bench_consolidate.py                 # 1,000 and 10,000 memories
    python benchmarks/bench_consolidate.py --sizes 1000 10000 100000 --layout single projects

Each size runs in its own process (so peak RSS is that run's), on a store generated in a
temporary directory: `single` puts every memory in one folder (the duplicate search and the
index see all of them), `projects` spreads them over folders of 500. Reported: planning time
(read, dates, duplicates, index, archive choice), applying time (writes), peak RSS, and what was
found against what was planted.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def run_one(size: int, layout: str, tmpdir: str | None) -> dict[str, object]:
    """Generate one store, consolidate it, and measure."""
    from genstore import generate

    from memsync.consolidate.engine import apply_plan, make_plan

    with tempfile.TemporaryDirectory(prefix="memsync-bench-", dir=tmpdir) as tmp:
        root = Path(tmp) / "store"
        started = time.perf_counter()
        made = generate(root, size, per_folder=500 if layout == "projects" else None)
        generated = time.perf_counter() - started
        started, cpu = time.perf_counter(), time.process_time()
        plan = make_plan(root, all_projects=layout == "projects")
        planned, planned_cpu = time.perf_counter() - started, time.process_time() - cpu
        started, cpu = time.perf_counter(), time.process_time()
        apply_plan(plan)
        applied, applied_cpu = time.perf_counter() - started, time.process_time() - cpu
        started = time.perf_counter()
        second = make_plan(root, all_projects=layout == "projects")
        replanned = time.perf_counter() - started
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    together = {
        frozenset((f"{f.label}/{m.survivor}", f"{f.label}/{x}"))
        for f in plan.folders
        for m in f.merges
        for x in m.merged
    }
    prefix = "store/" if layout == "single" else ""
    found = sum(
        frozenset(
            (prefix + a if layout == "single" else a, prefix + b if layout == "single" else b)
        )
        in together
        for a, b in made.planted
    )
    return {
        "size": size,
        "layout": layout,
        "folders": made.folders,
        "generate_s": round(generated, 2),
        "plan_s": round(planned, 2),
        "plan_cpu_s": round(planned_cpu, 2),
        "apply_s": round(applied, 2),
        "apply_cpu_s": round(applied_cpu, 2),
        "second_run_s": round(replanned, 2),
        "second_run_changes": second.changed,
        "peak_rss_mib": round(peak_kib / 1024, 1),
        "planted_duplicates": len(made.planted),
        "planted_found": found,
        "merged": sum(len(m.merged) for f in plan.folders for m in f.merges),
        "planted_dated_memories": made.dated,
        "dates_rewritten": sum(len(f.dates) for f in plan.folders),
        "archived": sum(len(f.archives) for f in plan.folders),
    }


def main(argv: list[str] | None = None) -> int:
    """Run every size and layout in a child process and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--layout", nargs="+", default=["single"], choices=["single", "projects"])
    parser.add_argument(
        "--tmpdir",
        default="/dev/shm" if Path("/dev/shm").is_dir() else None,
        help="where stores are generated (default: /dev/shm, a RAM disk, so the figures are "
        "memsync's own work rather than the disk's)",
    )
    parser.add_argument("--one", nargs=2, metavar=("SIZE", "LAYOUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(int(args.one[0]), args.one[1], args.tmpdir)))
        return 0
    rows = []
    for layout in args.layout:
        for size in args.sizes:
            child = subprocess.run(
                [sys.executable, __file__, "--one", str(size), layout]
                + (["--tmpdir", args.tmpdir] if args.tmpdir else []),
                capture_output=True,
                text=True,
                check=True,
            )
            rows.append(json.loads(child.stdout.strip().splitlines()[-1]))
            print(json.dumps(rows[-1]), file=sys.stderr)
    print(
        "| memories | layout | plan (CPU) | apply (CPU) | 2nd run | peak RSS"
        " | planted pairs merged | dates rewritten | archived |"
    )
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(
            f"| {r['size']:,} | {r['layout']} | {r['plan_s']} s ({r['plan_cpu_s']} s)"
            f" | {r['apply_s']} s ({r['apply_cpu_s']} s)"
            f" | {r['second_run_s']} s{' (changes!)' if r['second_run_changes'] else ''}"
            f" | {r['peak_rss_mib']} MiB | {r['planted_found']} / {r['planted_duplicates']}"
            f" | {r['dates_rewritten']} | {r['archived']:,} |"
        )
    for layout in args.layout:
        by_size = {r["size"]: r for r in rows if r["layout"] == layout}
        if 10000 in by_size and 100000 in by_size:
            big, small = by_size[100000], by_size[10000]
            wall = float(big["plan_s"]) / float(small["plan_s"])  # type: ignore[arg-type]
            cpu = float(big["plan_cpu_s"]) / float(small["plan_cpu_s"])  # type: ignore[arg-type]
            print(f"\n{layout}: plan time(100k) / time(10k) = {wall:.1f} wall, {cpu:.1f} CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
