"""Benchmark: memsync's in-process merge of two commits against `git merge` on the same branches.

A store with 11,000 memories (default) in 50 project folders, each with its MEMORY.md. Two
branches change the same 1,000 memories: one edits every `description`, the other appends a
body line, so git's default text driver merges them cleanly too. Each tool merges the branches
into a fresh checkout of the first branch, REPEAT times; the best time of each is compared.

    python benchmarks/bench_merge.py [--memories 11000] [--changed 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memsync.merge.tree import merge_commits

PROJECTS = 50
ENV = {
    **os.environ,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
}


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", *args], cwd=repo, env=ENV, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed:\n{proc.stderr}")
    return proc.stdout


def memory(i: int, description: str, extra: str = "") -> str:
    return (
        f"---\nname: memory {i}\ndescription: {description}\ntype: project\n---\n"
        f"Fact number {i} about the project.\n\n"
        f"**Why:** learned the hard way in incident {i % 97}.\n"
        f"**How to apply:** check item {i} before every release.\n{extra}"
    )


def build_store(root: Path, memories: int, changed: int) -> Path:
    repo = root / "store"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "core.autocrlf", "false")
    per_project = memories // PROJECTS
    for p in range(PROJECTS):
        folder = repo / f"proj-{p:02d}"
        folder.mkdir()
        lines = ["# Memory index", ""]
        for j in range(per_project):
            i = p * per_project + j
            (folder / f"m{i:05d}.md").write_text(memory(i, f"memory {i}"))
            lines.append(f"- [memory {i}](m{i:05d}.md) — memory {i}")
        (folder / "MEMORY.md").write_text("\n".join(lines) + "\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    chosen = [p * per_project + j for p in range(PROJECTS) for j in range(changed // PROJECTS)]
    git(repo, "checkout", "-q", "-b", "theirs")
    for i in chosen:
        path = repo / f"proj-{i // per_project:02d}" / f"m{i:05d}.md"
        path.write_text(memory(i, f"memory {i}", extra=f"Added on machine two for {i}.\n"))
    git(repo, "commit", "-qam", "machine two: bodies")
    git(repo, "checkout", "-q", "main")
    for i in chosen:
        path = repo / f"proj-{i // per_project:02d}" / f"m{i:05d}.md"
        path.write_text(memory(i, f"memory {i}, described on machine one"))
    git(repo, "commit", "-qam", "machine one: descriptions")
    return repo


def reset(repo: Path, commit: str) -> None:
    git(repo, "reset", "-q", "--hard", commit)
    git(repo, "status", "--porcelain")  # refresh the index stat cache outside the timing


def time_git_merge(repo: Path, start: str) -> float:
    reset(repo, start)
    began = time.perf_counter()
    git(repo, "merge", "-q", "--no-edit", "theirs")
    return time.perf_counter() - began


def time_memsync_merge(repo: Path, start: str) -> tuple[float, int]:
    reset(repo, start)
    began = time.perf_counter()
    outcome = merge_commits(repo, "HEAD", "theirs", "memsync: merge")
    elapsed = time.perf_counter() - began
    if outcome.status != "merged" or git(repo, "status", "--porcelain"):
        raise SystemExit(f"memsync merge did not finish cleanly: {outcome.status}")
    return elapsed, len(outcome.changed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=11_000)
    parser.add_argument("--changed", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memsync-bench-") as tmp:
        began = time.perf_counter()
        repo = build_store(Path(tmp), args.memories, args.changed)
        start = git(repo, "rev-parse", "main").strip()
        print(f"built store in {time.perf_counter() - began:.1f} s")
        git_times, memsync_times = [], []
        changed = 0
        for _ in range(args.repeat):
            git_times.append(time_git_merge(repo, start))
            elapsed, changed = time_memsync_merge(repo, start)
            memsync_times.append(elapsed)
        # The two merges must agree on the content of every file.
        memsync_tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
        reset(repo, start)
        git(repo, "merge", "-q", "--no-edit", "theirs")
        same = memsync_tree == git(repo, "rev-parse", "HEAD^{tree}").strip()
    best_git, best_memsync = min(git_times), min(memsync_times)
    ratio = best_memsync / best_git
    print(f"git version: {git(Path.cwd(), '--version').strip()}")
    print(f"memories: {args.memories}, changed on both sides: {args.changed}, runs: {args.repeat}")
    print("| merge | best (s) | median (s) |")
    print("| --- | --- | --- |")
    print(f"| `git merge` (text driver) | {best_git:.3f} | {statistics.median(git_times):.3f} |")
    print(
        f"| memsync `merge_commits` | {best_memsync:.3f} | {statistics.median(memsync_times):.3f} |"
    )
    print(f"ratio memsync / git: {ratio:.2f} (limit 3.00); files changed: {changed}")
    print(f"same merged tree as git: {same}")
    if ratio > 3:
        raise SystemExit("memsync merge is more than 3x slower than git merge")


if __name__ == "__main__":
    main()
