"""The labelled corpus: generated true positives in every context, benign look-alikes.

Every rule's token (from its template in tests/data/secrets/positives/) is generated at
test time in each Markdown/prose context of testing.secretgen.CONTEXTS, split over two
lines, base64-encoded, and laced with zero-width characters. Recall must be 100 % on the
rules' own formats and the benign corpus must give 0 findings. Figures: docs/SECRETS.md.
"""

from __future__ import annotations

import base64
import random
import string
from collections.abc import Iterator

import pytest

from memsync.check.secrets import RULES, scan_text
from testing.secretgen import CONTEXTS, DATA, materialize, positive_template, token_template

SEEDS = ("a", "b", "c")
MULTILINE = ("private-key", "putty-private-key")
# A URL wrapped at its middle breaks at `&` or `=`, which no join reassembles (a known
# miss, docs/SECRETS.md); its secret part wrapped is tested in test_secret_review.py.
URL_TOKENS = ("azure-sas-token",)
SINGLE_LINE = tuple(r.rule_id for r in RULES[:-1] if r.rule_id not in MULTILINE)


def _tokens(rule_id: str) -> Iterator[str]:
    for seed in SEEDS:
        yield materialize(token_template(rule_id), f"{rule_id}/{seed}")[0]


def positives() -> Iterator[tuple[str, str, str]]:
    """(rule id, vector class, text) for every generated true positive."""
    for rule_id in SINGLE_LINE:
        for token in _tokens(rule_id):
            for context in CONTEXTS:
                yield rule_id, "context", context.replace("{}", token)
            middle = len(token) // 2
            if rule_id not in URL_TOKENS:
                yield rule_id, "split", f"the value is {token[:middle]}\n{token[middle:]} ok"
            yield rule_id, "concat", f'token = "{token[:middle]}" + "{token[middle:]}"'
            yield rule_id, "zero-width", f"use {token[:middle]}\u200b{token[middle:]} here"
            encoded = base64.b64encode(f"value: {token}\n".encode()).decode()
            yield rule_id, "base64", f"stored as {encoded} in the chart"
            yield rule_id, "hex", f"bytes {f'value: {token}'.encode().hex()} end"
            escaped = f"{token[0]}%{ord(token[1]):02X}{token[2:]}".replace("_", "%5F")
            yield rule_id, "escaped", f"https://x.test/cb?state=1&t={escaped}"
    for rule_id in MULTILINE:
        for seed in SEEDS:
            text = materialize(positive_template(rule_id), f"{rule_id}/{seed}")[0]
            yield rule_id, "context", text
            yield rule_id, "context", "```\n" + text + "\n```"
            yield rule_id, "context", "".join("    " + line for line in text.splitlines(True))


POSITIVES = list(positives())


def test_corpus_is_large_and_covers_every_rule() -> None:
    assert len(POSITIVES) >= 5000
    assert {rule_id for rule_id, _, _ in POSITIVES} == {r.rule_id for r in RULES[:-1]}


VECTORS = ("context", "split", "concat", "zero-width", "base64", "hex", "escaped")


@pytest.mark.parametrize("vector", VECTORS)
def test_recall_is_complete(vector: str) -> None:
    missed = [
        (rule_id, text[:60].encode("unicode_escape").decode())
        for rule_id, kind, text in POSITIVES
        if kind == vector and rule_id not in {f.rule_id for f in scan_text(text)}
    ]
    assert missed == []


def _benign() -> list[str]:
    lines = [
        line
        for line in (DATA / "benign.txt").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    rng = random.Random("benign")
    hexdigits = "0123456789abcdef"
    for _ in range(40):
        sha = "".join(rng.choices(hexdigits, k=40))
        lines.append(f"Fixed in commit {sha} (see the PR); reverted {sha[:7]} later.")
    for _ in range(30):
        h = "".join(rng.choices(hexdigits, k=32))
        lines.append(f"request_id: {h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}")
    for _ in range(30):
        lines.append(f"sha256: {''.join(rng.choices(hexdigits, k=64))}")
    for _ in range(20):
        words = rng.sample(["deploy", "cache", "token", "secret", "key", "rotate", "vault"], 3)
        lines.append(f"The {words[0]} for {words[1]} lives in the {words[2]} manager.")
    for _ in range(10):
        lines.append(f"Build {''.join(rng.choices(string.digits, k=10))} passed on main.")
    return lines


BENIGN = _benign()


def test_benign_corpus_has_no_findings() -> None:
    assert len(BENIGN) >= 200
    found = [(line, f.rule_id) for line in BENIGN for f in scan_text(line)]
    assert found == []
