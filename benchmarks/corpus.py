"""Realistic generated memories for every consolidation and duplicate benchmark.

Memories read like what Claude Code writes: English prose about a codebase in the four types
(`user`, `feedback` with `**Why:**`/`**How to apply:**`, `project`, `reference`), with code
spans, commands, paths, links, numbers, bullet lists, and relative dates in some. Each sentence
comes from a *meaning* (a family of phrasings sharing slots: a tool, a service, a path, a
number), so the generator can plant, with ground truth:

- exact copies (whitespace changes only),
- near duplicates (typos, case, an added or dropped line),
- paraphrases (every sentence said again with another phrasing of the same meaning, some
  words swapped for synonyms, lines reordered),
- look-alikes that must stay apart (the same phrasing with another tool, service or number,
  or the rule negated).

Vocabulary grows with the store (services, modules and people are made up per project from
real English parts), as in real stores: a bigger store has more names, not the same ten.
Deterministic for a given seed.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.corpus_phrases import FAMILIES as BASE_FAMILIES
from benchmarks.corpus_phrases import MORE_USER, SYNONYMS, VOCABULARY

FAMILIES = (*BASE_FAMILIES, *MORE_USER)
TYPES = ("user", "feedback", "project", "reference")
_TYPE_WEIGHTS = (10, 35, 35, 20)
RELATIVE = (
    "yesterday",
    "last week",
    "next Friday",
    "3 days ago",
    "two weeks ago",
    "last Tuesday",
    "next month",
    "earlier this week",
    "tomorrow",
)
_WORD = re.compile(r"[A-Za-z]{5,}")


@dataclass(frozen=True)
class Sentence:
    """One sentence: the family it says, its slot values, and the phrasing used."""

    family: int
    slots: tuple[tuple[str, str], ...]
    phrasing: int


@dataclass(frozen=True)
class Memory:
    """A generated memory: its file name, type, description and body lines."""

    name: str
    type: str
    description: str
    lines: tuple[str, ...]

    def text(self, updated: str | None = None) -> str:
        """The file content, frontmatter included."""
        extra = f"updated: {updated}\n" if updated else ""
        head = f"---\nname: {self.name}\ndescription: {self.description}\ntype: {self.type}\n"
        return f"{head}{extra}---\n" + "\n".join(self.lines) + "\n"


@dataclass
class Planted:
    """Ground truth: pairs of memory names by kind."""

    exact: list[tuple[str, str]] = field(default_factory=list)
    near: list[tuple[str, str]] = field(default_factory=list)
    paraphrase: list[tuple[str, str]] = field(default_factory=list)
    apart: list[tuple[str, str]] = field(default_factory=list)  # look-alikes: never merge
    dated: int = 0

    def duplicates(self) -> list[tuple[str, str]]:
        """Every pair that must be merged."""
        return self.exact + self.near + self.paraphrase


class Generator:
    """Draws memories; each call to `memories` yields originals and planted variants."""

    def __init__(self, seed: int = 1, *, rates: dict[str, float] | None = None) -> None:
        self.rng = random.Random(seed)
        self.rates = {"exact": 0.01, "near": 0.03, "paraphrase": 0.03, "apart": 0.02}
        self.rates.update(rates or {})
        self.planted = Planted()
        self._count = 0
        self._pools: dict[str, list[str]] = {k: list(v) for k, v in VOCABULARY.items()}
        self._by_type: dict[str, list[int]] = {t: [] for t in (*TYPES, "why", "apply")}
        for index, family in enumerate(FAMILIES):
            self._by_type[family.type].append(index)

    # --- vocabulary ---

    def _grow(self) -> None:
        """New project-specific names, so vocabulary grows with the store."""
        rng = self.rng
        parts, ends = VOCABULARY["part"], VOCABULARY["service_end"]
        self._pools["service"].append(f"{rng.choice(parts)}-{rng.choice(ends)}")
        self._pools["module"].append(f"{rng.choice(parts)}_{rng.choice(VOCABULARY['noun'])}")
        first, last = rng.choice(VOCABULARY["first"]), rng.choice(VOCABULARY["last"])
        self._pools["person"].append(f"{first} {last}")

    def _value(self, slot: str) -> str:
        rng = self.rng
        if slot == "number":
            return str(
                rng.choice((2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50))
                * rng.choice((1, 1, 10, 100))
            )
        if slot == "port":
            return str(rng.randint(3000, 9999))
        if slot == "version":
            return f"{rng.randint(1, 20)}.{rng.randint(0, 30)}"
        if slot == "path":
            module = rng.choice(self._pools["module"])
            return f"src/{module}/{rng.choice(VOCABULARY['noun'])}.{rng.choice(('py', 'ts', 'go'))}"
        if slot == "url":
            host = rng.choice(VOCABULARY["host"])
            return f"https://{host}/{rng.choice(self._pools['service'])}/{rng.randint(1, 999)}"
        if slot == "ticket":
            return f"{rng.choice(('OPS', 'ENG', 'INFRA', 'DATA'))}-{rng.randint(100, 9999)}"
        pool = self._pools[slot]
        # Zipf-like: recent names (this project's) and a few common ones are the likeliest.
        if rng.random() < 0.8 and len(pool) > 40:
            return pool[-1 - min(int(rng.expovariate(1 / 15)), len(pool) - 1)]
        return pool[min(int(rng.expovariate(1 / 12)), len(pool) - 1)]

    # --- sentences ---

    def _sentence(self, family_index: int, topic: dict[str, str] | None = None) -> Sentence:
        """A sentence of one family; TOPIC keeps a memory about the same names throughout."""
        family = FAMILIES[family_index]
        topic = {} if topic is None else topic
        slots: list[tuple[str, str]] = []
        for name in family.slots:
            pool = name.rstrip("0123456789")
            value = topic.get(name) if self.rng.random() < 0.8 else None
            while value is None or any(value == v for _, v in slots):
                value = self._value(pool)
            topic.setdefault(name, value)
            slots.append((name, value))
        return Sentence(family_index, tuple(slots), self.rng.randrange(len(family.phrasings)))

    def render(self, sentence: Sentence, *, phrasing: int | None = None) -> str:
        """The sentence's text (with another PHRASING of its family, when given)."""
        family = FAMILIES[sentence.family]
        text = family.phrasings[sentence.phrasing if phrasing is None else phrasing]
        return text.format(**dict(sentence.slots))

    def _draw(self, memory_type: str) -> list[Sentence]:
        rng = self.rng
        families = self._by_type[memory_type]
        count = rng.choice((1, 2, 2, 3) if memory_type == "user" else (2, 3, 3, 4, 4, 5, 6))
        chosen = rng.sample(families, min(count, len(families)))
        topic: dict[str, str] = {}
        sentences = [self._sentence(f, topic) for f in chosen]
        if memory_type == "feedback":
            reason = self._sentence(rng.choice(self._by_type["why"]), topic)
            apply = self._sentence(rng.choice(self._by_type["apply"]), topic)
            sentences = [*sentences[:2], reason, apply]
        return sentences

    def _lines(self, memory_type: str, sentences: list[Sentence], phrasings: bool) -> list[str]:
        rng = self.rng
        lines = []
        for sentence in sentences:
            family = FAMILIES[sentence.family]
            if phrasings and len(family.phrasings) > 1:
                other = [i for i in range(len(family.phrasings)) if i != sentence.phrasing]
                text = self.render(sentence, phrasing=rng.choice(other))
            else:
                text = self.render(sentence)
            if family.type == "why":
                text = f"**Why:** {text}"
            elif family.type == "apply":
                text = f"**How to apply:** {text}"
            elif memory_type in ("project", "reference") and rng.random() < 0.3:
                text = f"- {text}"
            lines.append(text)
        return lines

    def _name(self, memory_type: str, sentences: list[Sentence]) -> str:
        self._count += 1
        words = [w.lower() for w in _WORD.findall(self.render(sentences[0]))[:3]]
        return f"{memory_type}_{'-'.join(words) or 'note'}-{self._count:06d}"

    def _memory(self, memory_type: str, sentences: list[Sentence], lines: list[str]) -> Memory:
        description = " ".join(lines[0].lstrip("- ").split()[:12]).rstrip(".")
        return Memory(self._name(memory_type, sentences), memory_type, description, tuple(lines))

    def _dated(self, lines: list[str]) -> list[str]:
        rng = self.rng
        self.planted.dated += 1
        when = rng.choice(RELATIVE)
        event = rng.choice(VOCABULARY["event"]).format(service=self._value("service"))
        line = f"{event[0].upper()}{event[1:]} {when}."
        return [*lines, line] if rng.random() < 0.6 else [line, *lines]

    def memories(self, count: int) -> Iterator[Memory]:
        """COUNT memories, planted variants right after (or soon after) their original."""
        rng = self.rng
        made = 0
        while made < count:
            if rng.random() < 0.3:
                self._grow()
            memory_type = rng.choices(TYPES, weights=_TYPE_WEIGHTS)[0]
            sentences = self._draw(memory_type)
            lines = self._lines(memory_type, sentences, phrasings=False)
            if rng.random() < 0.15:
                command = self._value("command")
                lines = [*lines, "", "```sh", command, "```"]
            if rng.random() < 0.10:
                lines = self._dated(lines)
            original = self._memory(memory_type, sentences, lines)
            yield original
            made += 1
            if made >= count:
                break
            variant = self._variant(memory_type, sentences, original)
            if variant is not None:
                yield variant
                made += 1

    def _variant(
        self, memory_type: str, sentences: list[Sentence], original: Memory
    ) -> Memory | None:
        roll = self.rng.random()
        rates = self.rates
        for kind in ("exact", "near", "paraphrase", "apart"):
            if roll < rates[kind]:
                break
            roll -= rates[kind]
        else:
            return None
        if kind == "exact":
            lines = [f"{line}  " if i % 2 else line for i, line in enumerate(original.lines)]
            lines.insert(1, "")
        elif kind == "near":
            lines = self._near(list(original.lines), sentences, memory_type)
        elif kind == "paraphrase":
            lines = self._paraphrase(memory_type, sentences, original)
        else:
            lines = self._apart(memory_type, sentences, original)
            if lines is None:
                return None
        copy = self._memory(memory_type, sentences, lines)
        getattr(self.planted, kind).append((original.name, copy.name))
        return copy

    def _near(self, lines: list[str], sentences: list[Sentence], memory_type: str) -> list[str]:
        rng = self.rng
        edit = rng.choice(("typo", "typo", "added", "dropped", "case"))
        if edit == "typo":
            return [typo(rng, line) if rng.random() < 0.5 else line for line in lines]
        if edit == "case":
            return [line.lower().rstrip(".") for line in lines]
        if edit == "dropped" and len(lines) >= 4:
            del lines[rng.randrange(1, len(lines))]
            return lines
        extra = self._sentence(rng.choice(self._by_type[memory_type]))
        lines.append(self.render(extra))
        return lines

    def _paraphrase(
        self, memory_type: str, sentences: list[Sentence], original: Memory
    ) -> list[str]:
        """The same meanings in other words: other phrasings, synonyms, another order."""
        rng = self.rng
        lines = self._lines(memory_type, sentences, phrasings=True)
        lines = [synonyms(rng, line) for line in lines]
        dated = [line for line in original.lines if any(r in line for r in RELATIVE)]
        if dated:
            lines.append(synonyms(rng, dated[0]))
        if memory_type != "feedback" and rng.random() < 0.4:
            rng.shuffle(lines)
        return lines

    def _apart(
        self, memory_type: str, sentences: list[Sentence], original: Memory
    ) -> list[str] | None:
        """Another memory in the same words: one name or number replaced wherever it
        appears, or the first rule negated."""
        rng = self.rng
        first = sentences[0]
        family = FAMILIES[first.family]
        lines = list(original.lines)
        if family.negated is not None and rng.random() < 0.4:
            said = self.render(first)
            index = next(i for i, line in enumerate(lines) if said in line)
            lines[index] = lines[index].replace(said, family.negated.format(**dict(first.slots)))
            return lines
        if not first.slots:
            return None
        name, value = rng.choice(first.slots)
        other = value
        while other == value or other in value or value in other:
            other = self._value(name.rstrip("0123456789"))
        return [line.replace(value, other) for line in lines]


def typo(rng: random.Random, line: str) -> str:
    """LINE with two letters of one long word swapped."""
    words = line.split(" ")
    long = [i for i, w in enumerate(words) if len(w) > 5 and w.isalpha()]
    if not long:
        return line
    i = rng.choice(long)
    w = words[i]
    j = rng.randrange(1, len(w) - 2)
    words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    return " ".join(words)


def synonyms(rng: random.Random, line: str) -> str:
    """LINE with about half of the words that have a listed synonym replaced by it."""

    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        choices = SYNONYMS.get(word.lower())
        if not choices or rng.random() < 0.5:
            return word
        choice = rng.choice(choices)
        return choice.capitalize() if word[0].isupper() else choice

    return re.sub(r"[A-Za-z][a-z]+", swap, line)


@dataclass(frozen=True)
class Store:
    """A generated store on disk and what was planted in it."""

    root: Path
    folders: int
    memories: int
    planted: Planted
    paths: dict[str, str]  # memory name -> path relative to ROOT


def generate(
    root: Path,
    memories: int,
    *,
    per_folder: int | None = None,
    seed: int = 1,
    rates: dict[str, float] | None = None,
) -> Store:
    """Write MEMORIES memories under ROOT (one folder, or folders of PER_FOLDER) with a
    `MEMORY.md` in each folder listing every memory."""
    generator = Generator(seed, rates=rates)
    per_folder = per_folder or memories
    paths: dict[str, str] = {}
    stream = generator.memories(memories)
    folders = 0
    for folder_index in itertools.count():
        if len(paths) >= memories:
            break
        folder = root if per_folder >= memories else root / f"project-{folder_index:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        folders += 1
        index = ["# Memory index", ""]
        for memory in itertools.islice(stream, per_folder):
            updated = f"2026-{generator.rng.randint(1, 10):02d}-{generator.rng.randint(1, 28):02d}"
            (folder / f"{memory.name}.md").write_text(memory.text(updated), encoding="utf-8")
            index.append(f"- [{memory.description[:60]}]({memory.name}.md) — {memory.type}")
            paths[memory.name] = (folder / f"{memory.name}.md").relative_to(root).as_posix()
        (folder / "MEMORY.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    return Store(root, folders, len(paths), generator.planted, paths)
