"""Benchmark: the word merge of a large memory re-wrapped on one machine, a word added on another.

The adversarial review's bug 5: a paragraph of SIZE bytes (half common words, half 2,000
terms, so every token repeats) is re-wrapped from 100 to 72 columns on machine A, and machine
B adds one word in the middle. Both sides changed every line, so the whole body is merged
by words, the worst case of the diff that merge runs on.

Paired runs, A B A B … at each size: A is memsync's merge of the three versions
(`merge.memory.merge_memory`, in this process); B is `git merge-file -p` of the same three
files (git's line merge, the baseline every git user has; it leaves conflict markers here).
Each pair gives a ratio memsync / git; the median ratio and its spread are the result, with
memsync's median time (goal: under 1 s at 76 KB). `--before SIZE…` also pairs memsync with
the diff as it was before the fix (difflib over every token: `matching.BUDGET` raised past
any input) at those sizes, before / after; it takes minutes from 30 KB up. The machine is
shared: read `uptime` with the figures.

    python benchmarks/bench_wordmerge.py [--sizes 7600 30000 76000 250000] [--pairs 7]
        [--before 7600]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.paired import HEADER, Paired, load, paired
from memsync.merge import matching
from memsync.merge.memory import merge_memory

HEAD = "---\nname: big\ndescription: big notes\nmetadata:\n  type: project\n---\n\n"
COMMON = [
    *("the", "a", "of", "to", "and", "in", "is", "that", "for", "it", "on", "with", "as"),
    *("was", "be", "by", "this", "are", "we", "you", "not", "or", "at", "from", "but"),
    *("have", "an", "they", "which"),
]
GOAL_76K = 1.0  # seconds for memsync's merge at 76 KB


def versions(size: int) -> tuple[bytes, bytes, bytes]:
    """(base, re-wrapped, one word added) of a SIZE-byte memory, as the review built them."""
    rng = random.Random(2)
    words: list[str] = []
    length = 0
    while length < size:
        words.append(rng.choice(COMMON) if rng.random() < 0.5 else f"term{rng.randrange(2000)}")
        length += len(words[-1]) + 1
    text = " ".join(words)
    base = HEAD + "\n".join(textwrap.wrap(text, 100)) + "\n"
    rewrapped = HEAD + "\n".join(textwrap.wrap(text, 72)) + "\n"
    lines = base.split("\n")
    middle = len(lines) // 2
    lines[middle] = lines[middle].replace(" ", " EDITED ", 1)
    return base.encode(), rewrapped.encode(), "\n".join(lines).encode()


def memsync_merge(base: bytes, ours: bytes, theirs: bytes) -> Callable[[], None]:
    """memsync's merge of the three versions; fails loudly if the added word is lost."""

    def run() -> None:
        result = merge_memory("big.md", base, ours, theirs, ours_time=1, theirs_time=2)
        if result.content is None or result.content.count(b"EDITED") != 1:
            raise RuntimeError("the merge lost the added word")

    return run


def before(run: Callable[[], None]) -> Callable[[], None]:
    """RUN with the diff as it was: difflib over every token, whatever the input's size."""

    def slow() -> None:
        with mock.patch.object(matching, "BUDGET", sys.maxsize):
            run()

    return slow


def git_merge_file(folder: Path, base: bytes, ours: bytes, theirs: bytes) -> Callable[[], None]:
    """`git merge-file -p` of the three versions (exit 1: it found conflicts, as expected)."""
    paths = [folder / name for name in ("ours", "base", "theirs")]
    for path, data in zip(paths, (ours, base, theirs), strict=True):
        path.write_bytes(data)

    def run() -> None:
        proc = subprocess.run(
            ["git", "merge-file", "-p", *map(str, paths)], capture_output=True, check=False
        )
        if proc.returncode < 0 or proc.returncode > 127:
            raise RuntimeError(f"git merge-file failed: {proc.stderr.decode()}")

    return run


def main(argv: list[str] | None = None) -> int:
    """Run the pairs at every size and print a Markdown report; exit 1 if the goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[7600, 30000, 76000, 250000])
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--before", type=int, nargs="*", default=[], help="sizes to pair")
    args = parser.parse_args(argv)
    print(f"load before: {load()}\n")
    results: list[Paired] = []
    after_76k: float | None = None
    with tempfile.TemporaryDirectory(prefix="memsync-wordmerge-") as tmp:
        for size in args.sizes:
            base, ours, theirs = versions(size)
            folder = Path(tmp) / str(size)
            folder.mkdir()
            label = f"{len(base) / 1000:.1f} KB"
            after = memsync_merge(base, ours, theirs)
            result = paired(
                f"{label}: memsync / git merge-file",
                after,
                git_merge_file(folder, base, ours, theirs),
                pairs=args.pairs,
                labels=("memsync", "git merge-file"),
            )
            results.append(result)
            if size == 76000:
                after_76k = statistics.median(result.a)
            if size in args.before:
                results.append(
                    paired(
                        f"{label}: before / after",
                        before(after),
                        after,
                        pairs=max(1, args.pairs // 3),
                        labels=("before", "after"),
                        warmup=0,
                    )
                )
    print(HEADER)
    for result in results:
        print(result.row())
    print(f"\nload after: {load()}")
    if after_76k is not None:
        verdict = "met" if after_76k < GOAL_76K else "**missed**"
        print(f"\nmemsync at 76 KB: {after_76k:.3f} s (goal < {GOAL_76K:g} s: {verdict})")
        return 0 if after_76k < GOAL_76K else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
