"""Recall and false merges of the duplicate search: the labelled set and planted pairs.

    python benchmarks/bench_dedupe.py [--threshold 0.85] [--labelled FILE.jsonl] [--planted N]

Labelled set: every memory carries a cluster: the original memory and its duplicates share
one, each look-alike has its own. Recall is the share of same-cluster pairs that end up in
one group; a false merge is a pair of memories from different clusters put in one group.

Planted pairs: N memories from benchmarks/corpus.py searched together, with the exact, near
and paraphrased duplicates it planted, and the look-alikes (another name, number or the
rule negated) that must stay apart.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import Generator  # noqa: E402
from memsync.consolidate.dedupe import DEFAULT_THRESHOLD, Candidate, find_duplicates  # noqa: E402

LABELLED = ROOT / "tests" / "data" / "dedupe" / "labelled.jsonl"


@dataclass(frozen=True)
class DedupeScore:
    """Outcome of one run on the labelled set."""

    true_pairs: int
    found_pairs: int
    false_merges: int  # pairs from different clusters in one group
    missed: tuple[str, ...]  # ids of planted duplicates not grouped with their original
    merged_wrongly: tuple[tuple[str, str], ...]
    seconds: float

    @property
    def recall(self) -> float:
        return self.found_pairs / self.true_pairs if self.true_pairs else 1.0


def load_labelled(path: Path = LABELLED) -> list[dict[str, str]]:
    """The labelled memories, one JSON object per line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def score_dedupe(rows: list[dict[str, str]], threshold: float = DEFAULT_THRESHOLD) -> DedupeScore:
    """Run the duplicate search on every labelled memory at once and score its groups."""
    cluster = {r["id"]: r["cluster"] for r in rows}
    started = time.perf_counter()
    groups = find_duplicates(
        [Candidate(r["id"], r["type"], r["body"]) for r in rows], threshold=threshold
    )
    seconds = time.perf_counter() - started
    grouped = {(a, b) for g in groups for a, b in combinations(sorted(g.members), 2)}
    true = {(a, b) for a, b in combinations(sorted(cluster), 2) if cluster[a] == cluster[b]}
    wrong = sorted(p for p in grouped if cluster[p[0]] != cluster[p[1]])
    missed = sorted(
        r["id"]
        for r in rows
        if not r["id"].endswith("-original")
        and any(cluster[o] == r["cluster"] for o in cluster if o != r["id"])
        and not any(
            tuple(sorted((r["id"], o))) in grouped
            for o in cluster
            if o != r["id"] and cluster[o] == r["cluster"]
        )
    )
    return DedupeScore(
        len(true), len(true & grouped), len(wrong), tuple(missed), tuple(wrong), seconds
    )


def score_planted(
    count: int, seed: int = 7, threshold: float = DEFAULT_THRESHOLD
) -> dict[str, tuple[int, int]]:
    """(pairs grouped, pairs planted) by kind among COUNT generated memories; for `apart`
    the grouped pairs are false merges."""
    generator = Generator(seed)
    memories = list(generator.memories(count))
    groups = find_duplicates(
        [Candidate(m.name, m.type, "\n".join(m.lines) + "\n") for m in memories],
        threshold=threshold,
    )
    grouped = {frozenset(p) for g in groups for p in combinations(g.members, 2)}
    planted = generator.planted
    return {
        kind: (sum(frozenset(p) in grouped for p in pairs), len(pairs))
        for kind, pairs in (
            ("exact", planted.exact),
            ("near", planted.near),
            ("paraphrase", planted.paraphrase),
            ("apart", planted.apart),
        )
    }


def main(argv: list[str] | None = None) -> int:
    """Print recall and false merges for one or several thresholds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labelled", type=Path, default=LABELLED)
    parser.add_argument("--threshold", type=float, action="append")
    parser.add_argument("--planted", type=int, default=5000, help="generated memories")
    args = parser.parse_args(argv)
    rows = load_labelled(args.labelled)
    clusters = {r["cluster"] for r in rows}
    print(f"labelled set: {len(rows)} memories in {len(clusters)} clusters")
    print("| threshold | recall (pairs) | false merges (pairs) | missed duplicates | time |")
    print("| ---: | ---: | ---: | --- | ---: |")
    for threshold in args.threshold or [0.75, 0.8, DEFAULT_THRESHOLD, 0.9, 0.95]:
        s = score_dedupe(rows, threshold)
        missed = ", ".join(s.missed) or "none"
        print(
            f"| {threshold:.2f} | {s.recall:.3f} ({s.found_pairs}/{s.true_pairs}) | "
            f"{s.false_merges} | {missed} | {s.seconds * 1000:.0f} ms |"
        )
        for a, b in s.merged_wrongly:
            print(f"|  | | false merge: {a} + {b} | | |")
    if args.planted:
        kinds = score_planted(args.planted)
        print(f"\nplanted pairs among {args.planted:,} generated memories (threshold 0.85):\n")
        print("| exact | near | paraphrase | look-alikes merged (must be 0) |")
        print("| ---: | ---: | ---: | ---: |")
        print("| " + " | ".join(f"{a} / {b} ({a / b:.0%})" for a, b in kinds.values()) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
