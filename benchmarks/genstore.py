"""Deterministic generated memory stores for the consolidation benchmark.

Memories are sentences drawn from a Zipf-like pseudo-word vocabulary, with the four Claude Code
types, `**Why:**`/`**How to apply:**` boilerplate on feedback, planted exact and near
duplicates (typos, an added line), relative dates, and an index listing every memory.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from pathlib import Path

_SYLLABLES = [a + b for a in "bcdfgklmnprstvz" for b in ("a", "e", "i", "o", "u", "ai", "ou")]
_DATES = [
    "We deployed the fix yesterday.",
    "The freeze starts next week.",
    "Alice rotated the keys 3 days ago.",
    "Revisit this next month.",
    "The outage was last Friday.",
    "Ship it in two weeks.",
]
_TYPES = ["user"] * 10 + ["feedback"] * 30 + ["project"] * 40 + ["reference"] * 20


@dataclass(frozen=True)
class Generated:
    """What was planted in a generated store."""

    root: Path
    folders: int
    memories: int
    exact_duplicates: int
    near_duplicates: int
    dated: int
    planted: tuple[tuple[str, str], ...] = ()  # (folder/original.md, folder/copy.md)


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choices(_SYLLABLES, k=rng.randint(1, 4))))
    return sorted(words)


def _sentence(rng: random.Random, vocab: list[str], weights: list[float]) -> str:
    words = rng.choices(vocab, cum_weights=weights, k=rng.randint(7, 16))
    return " ".join(words).capitalize() + "."


def _body(rng: random.Random, kind: str, vocab: list[str], weights: list[float]) -> list[str]:
    lines = [_sentence(rng, vocab, weights) for _ in range(rng.randint(2, 5))]
    if kind == "feedback":
        lines = [
            lines[0],
            f"**Why:** {lines[1]}",
            f"**How to apply:** {_sentence(rng, vocab, weights)}",
        ]
    return lines


def _typo(rng: random.Random, line: str) -> str:
    words = line.split(" ")
    long = [i for i, w in enumerate(words) if len(w) > 5]
    if long:
        i = rng.choice(long)
        w = words[i]
        j = rng.randrange(1, len(w) - 2)
        words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    return " ".join(words)


def _text(name: str, kind: str, description: str, lines: list[str], updated: str | None) -> str:
    extra = f"updated: {updated}\n" if updated else ""
    body = "\n".join(lines)
    return f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n{extra}---\n{body}\n"


def generate(
    root: Path, memories: int, *, per_folder: int | None = None, seed: int = 1
) -> Generated:
    """Write MEMORIES memories under ROOT (one folder, or folders of PER_FOLDER)."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng, 20_000)
    weights = list(itertools.accumulate(1.0 / (rank + 10) for rank in range(len(vocab))))
    per_folder = per_folder or memories
    exact = near = dated = 0
    planted: list[tuple[str, str]] = []
    written = 0
    folders = 0
    for folder_index in itertools.count():
        if written >= memories:
            break
        folder = root if per_folder >= memories else root / f"project-{folder_index:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        folders += 1
        index_lines = ["# Memory index", ""]
        count = min(per_folder, memories - written)
        made = 0
        while made < count:
            kind = rng.choice(_TYPES)
            lines = _body(rng, kind, vocab, weights)
            if rng.random() < 0.10:
                lines.insert(rng.randrange(len(lines) + 1), rng.choice(_DATES))
                dated += 1
            updated = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            variants = [lines]
            roll = rng.random()
            if roll < 0.01 and made + 2 <= count:
                variants.append(list(lines))
                exact += 1
            elif roll < 0.06 and made + 2 <= count:
                copy = [_typo(rng, line) for line in lines]
                if rng.random() < 0.5:
                    copy.append(_sentence(rng, vocab, weights))
                variants.append(copy)
                near += 1
            names: list[str] = []
            for variant in variants:
                made += 1
                written += 1
                name = f"{kind}-{written:06d}"
                description = " ".join(variant[0].split()[:8])
                path = folder / f"{name}.md"
                text = _text(name, kind, description, variant, updated)
                path.write_text(text, encoding="utf-8")
                index_lines.append(f"- [{name}]({name}.md) — {description}")
                names.append(path.relative_to(root).as_posix())
            if len(names) == 2:
                planted.append((names[0], names[1]))
        (folder / "MEMORY.md").write_text("\n".join(index_lines) + "\n", encoding="utf-8")
    return Generated(root, folders, written, exact, near, dated, tuple(planted))
