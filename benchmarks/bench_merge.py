"""Benchmark: memsync's in-store merge of two commits against `git merge` on the same branches.

A store with 10,000 memories (default) in 50 project folders, each with its MEMORY.md. Two
branches change the same 1,000 memories: one edits every `description`, the other appends a
body line, so git's default text driver merges them cleanly too. The objects are packed, as
in a clone that fetched them (`--loose`: as `git commit` left them).

Paired runs, A B A B ...: `git merge --no-edit` into a fresh checkout of the first branch
(reset outside the timing), then memsync's in-store merge as `memsync pull` runs it
(`sync.storemerge.merge_in_store` on the same repository, then the branch moved with
`git update-ref`). Each pair gives a ratio memsync / git; the median ratio and its spread
are the result. The machine is shared: run it when it is quiet, and read `uptime` with it.

    python benchmarks/bench_merge.py [--memories 10000] [--changed 1000] [--pairs 11]
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

from memsync import git as gitcmd
from memsync.sync.storemerge import merge_in_store

PROJECTS = 50
LIMIT = 2.0
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


def build_store(root: Path, memories: int, changed: int, loose: bool = False) -> Path:
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
    if not loose:
        git(repo, "repack", "-adq")  # a store clone holds fetched, packed objects
    return repo


def reset(repo: Path, commit: str) -> None:
    git(repo, "reset", "-q", "--hard", commit)
    git(repo, "status", "--porcelain")  # refresh the index stat cache outside the timing


def time_git_merge(repo: Path, start: str) -> float:
    reset(repo, start)
    began = time.perf_counter()
    git(repo, "merge", "-q", "--no-edit", "theirs")
    return time.perf_counter() - began


def time_memsync_merge(repo: Path, base: str, ours: str, theirs: str) -> tuple[float, str]:
    author = gitcmd.Identity("bench", "bench@example.invalid")
    began = time.perf_counter()
    merged = merge_in_store(repo, base, ours, theirs, message="memsync: merge\n", author=author)
    gitcmd.update_branch(repo, "memsync-merged", merged.commit, None, "bench")
    elapsed = time.perf_counter() - began
    git(repo, "update-ref", "-d", "refs/heads/memsync-merged")
    return elapsed, merged.commit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--changed", type=int, default=1_000)
    parser.add_argument("--pairs", type=int, default=11)
    parser.add_argument(
        "--loose", action="store_true", help="leave the objects loose, as `git commit` wrote them"
    )
    args = parser.parse_args()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="memsync-bench-") as tmp:
        began = time.perf_counter()
        repo = build_store(Path(tmp), args.memories, args.changed, args.loose)
        start, theirs = (git(repo, "rev-parse", ref).strip() for ref in ("main", "theirs"))
        base = git(repo, "merge-base", start, theirs).strip()
        print(f"built store in {time.perf_counter() - began:.1f} s")
        git_times, memsync_times = [], []
        commit = ""
        for _ in range(args.pairs):
            git_times.append(time_git_merge(repo, start))
            elapsed, commit = time_memsync_merge(repo, base, start, theirs)
            memsync_times.append(elapsed)
        ratios = sorted(m / g for m, g in zip(memsync_times, git_times, strict=True))
        # Both merges must give every file the same content.
        same = git(repo, "rev-parse", f"{commit}^{{tree}}") == git(repo, "rev-parse", "HEAD^{tree}")
    quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    median = statistics.median(ratios)
    print(f"git version: {git(Path.cwd(), '--version').strip()}")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    objects = "loose" if args.loose else "packed"
    print(f"memories: {args.memories}, changed on both sides: {args.changed}, pairs: {args.pairs}")
    print(f"objects: {objects}")
    print("| merge | median (s) | min (s) | max (s) |")
    print("| --- | ---: | ---: | ---: |")
    rows = (("`git merge` (text driver)", git_times), ("memsync in-store", memsync_times))
    for name, times in rows:
        print(f"| {name} | {statistics.median(times):.3f} | {min(times):.3f} | {max(times):.3f} |")
    print(
        f"ratio memsync / git, paired: median {median:.2f}, quartiles {quartiles[0]:.2f}"
        f"-{quartiles[2]:.2f}, range {ratios[0]:.2f}-{ratios[-1]:.2f} (limit {LIMIT:.2f})"
    )
    print(f"same merged tree as git: {same}")
    if median > LIMIT or not same:
        raise SystemExit(f"memsync's merge is over {LIMIT}x git merge, or differs from it")


if __name__ == "__main__":
    main()
