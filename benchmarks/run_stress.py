"""Sync under stress: crash injection, hostile remotes, concurrency, network faults, latency.

    python benchmarks/run_stress.py [--quick] [--only crash,hostile,...] [--write-docs]

Runs the real `memsync` CLI (this checkout) as separate simulated machines, against bare
remotes on disk and behind `git daemon` plus a delay/fault proxy on 127.0.0.1. Everything
runs in a scratch directory that is removed afterwards (--keep leaves it). Results go to
benchmarks/results/stress-latest.json; --write-docs also rewrites docs/RELIABILITY.md and
the "Sync latency" and "Sync throughput" sections of docs/BENCHMARKS.md. Exit status 1
when any promise failed (a memory lost, a manual repair, a marker, a hostile kind, a
fault, a ratio over its limit).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.harness import report  # noqa: E402

SECTIONS = ("crash", "hostile", "pushers", "samestore", "net", "latency")


def log(message: str) -> None:
    """Progress on stderr, with the time."""
    sys.stderr.write(f"[{time.strftime('%H:%M:%S')}] {message}\n")
    sys.stderr.flush()


def _plain(value: object) -> object:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = dataclasses.asdict(value)
        for name in ("ratio", "ok"):
            if hasattr(value, name) and name not in data:
                data[name] = getattr(value, name)
        return data
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def run(
    sections: tuple[str, ...], quick: bool, work: Path, seed: int, crash_runs: int
) -> dict[str, object]:
    """Run the chosen sections; returns plain data for the report."""
    from benchmarks.harness import concurrent, crash, hostile, latency, netfaults

    results: dict[str, object] = {
        "quick": quick,
        "seed": seed,
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}",
    }
    if "latency" in sections:
        # First, while the machine is quiet.
        reps = 7 if quick else 15
        ratios = [
            latency.hook_pull_file(work / "lat-file", repetitions=reps),
            latency.hook_pull_proxy(work / "lat-proxy", repetitions=reps),
            latency.pull_thousand(work / "lat-1000", repetitions=3 if quick else 5),
        ]
        for r in ratios:
            log(f"latency: {r.name}: {r.ratio:.2f}x (limit {r.limit}x)")
        results["latency"] = _plain(ratios)
    if "crash" in sections:
        summary, runs = crash.crash_campaign(work / "crash", crash_runs, seed=seed, log=log)
        results["crash"] = {"summary": _plain(summary), "runs": _plain(runs)}
    if "hostile" in sections:
        kinds = hostile.hostile_campaign(work / "hostile", slow=not quick, log=log)
        results["hostile"] = _plain(kinds)
    if "pushers" in sections:
        pushers = concurrent.concurrent_pushers(
            work / "pushers", machines=6 if quick else 20, memories=5 if quick else 10, log=log
        )
        on_remote = f"{pushers.on_remote}/{pushers.expected}"
        log(f"pushers: {on_remote} on the remote, p50 {pushers.latency_p50} s")
        results["pushers"] = _plain(pushers)
    if "samestore" in sections:
        same = concurrent.same_store(work / "samestore", memories=60 if quick else 300, log=log)
        same.append(concurrent.held_lock(work / "heldlock", log=log))
        results["samestore"] = _plain(same)
    if "net" in sections:
        faults = netfaults.network_faults(work / "net", normal_stalls=not quick, log=log)
        results["net"] = _plain(faults)
    results["finished"] = time.strftime("%Y-%m-%d %H:%M:%S")
    return results


def main(argv: list[str] | None = None) -> int:
    """Parse options, run, write results (and docs), return the exit status."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="small sizes (a few minutes)")
    parser.add_argument(
        "--only", default=",".join(SECTIONS), help=f"comma list of {', '.join(SECTIONS)}"
    )
    parser.add_argument(
        "--crash-runs", type=int, default=None, help="killed runs (200; --quick 20)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory")
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help="rewrite docs/RELIABILITY.md and the sync sections of docs/BENCHMARKS.md",
    )
    parser.add_argument(
        "--results", type=Path, default=ROOT / "benchmarks" / "results" / "stress-latest.json"
    )
    args = parser.parse_args(argv)
    sections = tuple(s.strip() for s in args.only.split(",") if s.strip())
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s): {', '.join(sorted(unknown))}")
    crash_runs = args.crash_runs or (20 if args.quick else 200)
    work = Path(tempfile.mkdtemp(prefix="memsync-stress-"))
    log(f"scratch directory {work}")
    started = time.monotonic()
    try:
        results = run(sections, args.quick, work, args.seed, crash_runs)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    results["seconds"] = round(time.monotonic() - started, 1)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=1, default=str) + "\n", encoding="utf-8")
    failures = report.failures(results)
    print(report.summary(results))
    if args.write_docs:
        report.write_docs(results, ROOT / "docs")
        log("docs/RELIABILITY.md and docs/BENCHMARKS.md updated")
    for failure in failures:
        log(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
