"""Run mutmut 3 on one module set against the fast unit tests that cover it (not in CI).

Usage: python tools/mutation.py SET [--max-children N] [--time-limit SECONDS] [--sample DIGITS]
                                   [--mutants NAME ...]

Each set is mutated in its own scratch copy (benchmarks/.work/mutation/SET/, git-ignored)
with a generated [tool.mutmut] section, so the project's pyproject.toml carries no mutmut
configuration and runs of different sets never share a `mutants/` cache. Results are
recorded by hand in docs/MUTATION.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Module set -> (files to mutate, fast pure tests that cover them).
SETS: dict[str, tuple[list[str], list[str]]] = {
    "merge-words": (
        ["memsync/merge/words.py"],
        ["tests/test_merge_words.py", "tests/test_mutation_merge.py"],
    ),
    "merge-matching": (
        ["memsync/merge/matching.py"],
        ["tests/test_merge_scale.py", "tests/test_merge.py", "tests/test_mutation_merge.py"],
    ),
    "merge-diff3": (
        ["memsync/merge/diff3.py"],
        ["tests/test_merge.py", "tests/test_merge_words.py", "tests/test_mutation_merge.py"],
    ),
    "merge-fields": (
        ["memsync/merge/fields.py", "memsync/merge/fieldvalues.py", "memsync/merge/nesting.py"],
        [
            "tests/test_merge_fields_nested.py",
            "tests/test_merge.py",
            "tests/test_mutation_merge.py",
        ],
    ),
    "dates": (
        [
            "memsync/consolidate/dates.py",
            "memsync/consolidate/grammar.py",
            "memsync/consolidate/weekdays.py",
        ],
        ["tests/test_dates.py", "tests/test_mutation_dates.py"],
    ),
    "dates-sweep": (
        [
            "memsync/consolidate/phrasing.py",
            "memsync/consolidate/present.py",
            "memsync/consolidate/evidence.py",
        ],
        [
            "tests/test_phrasing.py",
            "tests/test_dates_sweep_rules.py",
            "tests/test_dates.py",
            "tests/test_mutation_dates.py",
            "tests/test_consolidate.py",
        ],
    ),
    "present": (
        ["memsync/consolidate/present.py"],
        ["tests/test_dates_blind14.py", "tests/test_dates_sweep_rules.py"],
    ),
    "habits": (
        ["memsync/consolidate/habits.py"],
        ["tests/test_dates_review_rules.py"],
    ),
    "secret-layouts": (
        ["memsync/check/secret_layouts.py"],
        ["tests/test_secret_layouts.py"],
    ),
    "secrets": (
        [
            "memsync/check/secrets.py",
            "memsync/check/secret_generic.py",
            "memsync/check/secret_fillers.py",
        ],
        [
            "tests/test_secrets.py",
            "tests/test_secret_corpus.py",
            "tests/test_secret_review.py",
            "tests/test_secret_layouts.py",
            "tests/test_secret_shapes.py",
        ],
    ),
    "indexkeep": (
        [
            "memsync/sync/indexkeep.py",
            "memsync/merge/index.py",
            "memsync/merge/indexout.py",
            "memsync/model/index.py",
        ],
        ["tests/test_merge_index.py", "tests/test_index_keep_fast.py"],
    ),
    "hooklines": (
        ["memsync/sync/hooklines.py", "memsync/sync/hookcontext.py"],
        ["tests/test_hookoutput.py", "tests/test_index_loaded.py", "tests/test_hooklines.py"],
    ),
    "scaffold-automemory": (
        ["memsync/sync/scaffoldrace.py", "memsync/sync/automemory.py"],
        ["tests/test_automemory.py", "tests/test_scaffold_race_fast.py"],
    ),
    # The 2026-11-27 session's code: run with --mutants on the functions it added (see
    # docs/MUTATION.md), as the modules' older functions are other sets' or untested here.
    "reviewland": (
        ["memsync/sync/reviewland.py", "memsync/git/refs.py"],
        ["tests/test_reviewland_fast.py", "tests/test_gitcmd.py"],
    ),
    "shallow-dates": (
        ["memsync/git/blame.py", "memsync/git/refs.py", "memsync/consolidate/dates.py"],
        [
            "tests/test_shallow_dates_fast.py",
            "tests/test_dates.py",
            "tests/test_consolidate_shallow.py",
            "tests/test_dates_sweep_rules.py",
        ],
    ),
    "index-comments": (
        ["memsync/model/index.py"],
        [
            "tests/test_index_comments.py",
            "tests/test_index.py",
            "--deselect",
            "tests/test_index_comments.py::"
            "test_a_commented_line_survives_a_deletion_synced_from_another_machine",
        ],
    ),
    # The 2026-11-27 session's later code (M3): heldreview whole; indexout through merge_index
    # and indexkeep (the two-machine scenarios run memsync in a child process: deselected);
    # anchors with --mutants on grafted_cuts, _told_inside and stated_dates (docs/MUTATION.md).
    "heldreview": (
        ["memsync/sync/heldreview.py"],
        ["tests/test_heldreview_fast.py"],
    ),
    "indexout": (
        ["memsync/merge/indexout.py"],
        [
            "tests/test_merge_dropped_entry.py",
            "tests/test_merge_commented_entry.py",
            "tests/test_merge_moved_entry.py",
            "tests/test_merge_index.py",
            "tests/test_index_keep_fast.py",
            "--deselect",
            "tests/test_merge_moved_entry.py::test_two_machines",
            "--deselect",
            "tests/test_merge_dropped_entry.py::test_two_machines",
            "--deselect",
            "tests/test_merge_dropped_entry.py::test_a_memory_deleted_on_one_machine",
            "--deselect",
            "tests/test_merge_commented_entry.py::test_two_machines",
        ],
    ),
    "anchors": (
        ["memsync/git/refs.py", "memsync/consolidate/evidence.py"],
        [
            "tests/test_dates_anchor_forms.py",
            "tests/test_consolidate_shallow.py",
            "tests/test_dates_sweep_rules.py",
        ],
    ),
    "dedupe": (
        ["memsync/consolidate/dedupe.py", "memsync/consolidate/likeness.py"],
        ["tests/test_dedupe.py", "tests/test_paraphrase.py", "tests/test_mutation_dedupe.py"],
    ),
    "noticetype": (["memsync/sync/noticetype.py"], ["tests/test_noticetype_fast.py"]),
}


def prepare(name: str) -> Path:
    """Copy the tree into a scratch directory with a [tool.mutmut] section for one set."""
    mutate, tests = SETS[name]
    work = ROOT / "benchmarks" / ".work" / "mutation" / name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".work", "results")
    for folder in ("memsync", "tests", "testing", "templates", "benchmarks"):
        shutil.copytree(ROOT / folder, work / folder, ignore=ignore)
    # An entry is a test file, a node id (`file::test`) or a pytest option (`--deselect`,
    # for a test of the file that runs memsync in a child process, which mutmut cannot see).
    tests = [t for t in tests if t.startswith("-") or (ROOT / t.split("::")[0]).exists()]
    config = {
        "source_paths": ["memsync"],
        "only_mutate": mutate,
        "also_copy": ["testing/", "templates/", "benchmarks/"],
        "pytest_add_cli_args_test_selection": tests,
        "pytest_add_cli_args": ["-p", "no:cacheprovider", "-q"],
        # A mutant that loops forever is stopped after 6x its tests' clean CPU time (mutmut's
        # default, 30x, spends minutes on each one of them on a shared machine).
        "timeout_multiplier": 3.0,
    }
    lines = [f"{key} = {json.dumps(value)}" for key, value in config.items()]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (work / "pyproject.toml").write_text(
        pyproject + "\n[tool.mutmut]\n" + "\n".join(lines) + "\n", encoding="utf-8"
    )
    return work


def tally(work: Path) -> Counter[str]:
    """Count mutant outcomes from the .meta files mutmut writes next to each mutated module."""
    from mutmut.stats import status_by_exit_code  # mutmut's own reading of its exit codes

    counts: Counter[str] = Counter()
    for meta in (work / "mutants").rglob("*.meta"):
        data = json.loads(meta.read_text(encoding="utf-8"))
        for code in data.get("exit_code_by_key", {}).values():
            counts["not run" if code is None else status_by_exit_code[code]] += 1
    return counts


def run_bounded(
    command: list[str], work: Path, env: dict[str, str], limit: float
) -> tuple[float, list[float]]:
    """Run mutmut for at most `limit` seconds; return the wall time and the 1-minute loads seen."""
    start, loads = time.monotonic(), [os.getloadavg()[0]]
    # A session of its own, so the time limit stops mutmut's forked workers with it.
    with subprocess.Popen(command, cwd=work, env=env, start_new_session=True) as process:
        while process.poll() is None:
            if time.monotonic() - start > limit:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait()
                print(f"time limit {limit:.0f} s reached: partial results")
                break
            time.sleep(5)
            if len(loads) < (time.monotonic() - start) / 30:
                loads.append(os.getloadavg()[0])
    return time.monotonic() - start, loads


def main() -> int:
    """Prepare, run (bounded) and summarise one module set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=sorted(SETS))
    parser.add_argument("--max-children", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=1800.0)
    parser.add_argument(
        "--sample",
        default="",
        help="run only mutants whose number ends in one of these digits ('05': a fifth)",
    )
    parser.add_argument(
        "--mutants",
        nargs="+",
        default=[],
        help="run only these mutants (names or fnmatch patterns), e.g. an earlier run's survivors",
    )
    args = parser.parse_args()
    work = prepare(args.set)
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.max_children)]
    command += args.mutants
    if args.sample:
        # mutmut numbers each function's mutants 1, 2, 3...: a last-digit filter is a
        # systematic sample that still reaches every function with ten mutants or more.
        command.append(f"*__mutmut_*[{args.sample}]")
    # CI=1 loads the derandomized Hypothesis profile (tests/conftest.py): every mutant meets
    # the same examples, so a verdict never depends on which examples one run happened to draw.
    env = {**os.environ, "CI": "1"}
    elapsed, loads = run_bounded(command, work, env, args.time_limit)
    counts = tally(work)
    total = sum(counts.values())
    killed = counts["killed"]
    scored = total - counts["not run"]
    score = 100.0 * killed / scored if scored else 0.0
    print(f"{args.set}: {total} mutants, " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    mean = sum(loads) / len(loads)
    print(f"score {score:.1f}% (killed / run) in {elapsed:.0f} s")
    print(f"1-minute load average: {mean:.1f} mean, {max(loads):.1f} max (2 CPUs)")
    print(f"survivors: cd {work} && python -m mutmut results")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
