"""The benchmark corpus: deterministic, realistic parts, and ground truth that holds."""

from __future__ import annotations

import re
from pathlib import Path

from benchmarks.corpus import RELATIVE, TYPES, Generator, generate
from memsync.model.memory import parse_memory


def test_the_same_seed_writes_the_same_store(tmp_path: Path) -> None:
    first = generate(tmp_path / "a", 300, seed=4)
    second = generate(tmp_path / "b", 300, seed=4)
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "b").iterdir())
    assert all(
        (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files
    )
    assert first.planted == second.planted
    assert first.memories == 300
    assert "MEMORY.md" in files


def test_memories_are_valid_english_prose_of_every_type(tmp_path: Path) -> None:
    store = generate(tmp_path, 400, seed=2)
    types: set[str] = set()
    bodies = ""
    for rel in store.paths.values():
        memory = parse_memory((tmp_path / rel).read_bytes(), rel)
        assert memory.problem is None, (rel, memory.problem)
        types.add(str(memory.type))
        bodies += memory.body
    assert types == set(TYPES)
    assert "**Why:**" in bodies and "**How to apply:**" in bodies
    assert re.search(r"`[^`]+`", bodies) and "https://" in bodies and "```sh" in bodies
    assert any(r in bodies for r in RELATIVE)
    # Real words, not made-up vocabulary: most tokens are common English.
    words = re.findall(r"[a-z]+", bodies.lower())
    common = {"the", "to", "and", "of", "in", "is", "for", "a", "on", "with"}
    assert sum(w in common for w in words) / len(words) > 0.15


def test_planted_variants_are_what_they_claim() -> None:
    generator = Generator(9, rates={"exact": 0.1, "near": 0.1, "paraphrase": 0.1, "apart": 0.1})
    memories = {m.name: m for m in generator.memories(400)}
    planted = generator.planted
    for a, b in planted.exact:
        assert [x.strip() for x in memories[a].lines if x.strip()] == [
            x.strip() for x in memories[b].lines if x.strip()
        ]
    for a, b in planted.paraphrase:
        assert memories[a].lines != memories[b].lines
        assert memories[a].type == memories[b].type
    for a, b in planted.apart:
        assert memories[a].lines != memories[b].lines
    assert all(len(getattr(planted, k)) >= 5 for k in ("exact", "near", "paraphrase", "apart"))
