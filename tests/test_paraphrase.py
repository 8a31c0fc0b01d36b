"""Paraphrases, look-alikes and the search's scaling, on written pairs and the generated corpus."""

from __future__ import annotations

from array import array

from benchmarks.bench_dedupe import score_planted
from benchmarks.corpus import Generator
from memsync.consolidate.dedupe import (
    BEST_MATCHES,
    Candidate,
    candidate_pairs,
    find_duplicates,
    fingerprint,
    similarity,
)
from memsync.consolidate.wording import LEXICON, _stem, token_lines, tokens

RULE = (
    "Integration tests for billing-api must hit a real database, not mocks.\n"
    "**Why:** mocked tests passed while the billing-api migration failed in production.\n"
)
REWORDED = (
    "Do not mock the database in billing-api integration tests; use the real one.\n"
    "**Why:** the billing-api migration broke in production even though the mocked tests"
    " were green.\n"
)


def _grouped(*bodies: str, kind: str = "feedback") -> bool:
    found = find_duplicates([Candidate(f"{i}.md", kind, b) for i, b in enumerate(bodies)])
    return bool(found) and len(found[0].members) == len(bodies)


def test_a_reworded_memory_is_found_and_merged_as_near() -> None:
    groups = find_duplicates(
        [Candidate("a.md", "feedback", RULE), Candidate("b.md", "feedback", REWORDED)]
    )
    assert [(g.kind, g.members) for g in groups] == [("near", ("a.md", "b.md"))]


def test_the_same_words_about_another_service_stay_apart() -> None:
    other = RULE.replace("billing-api", "auth-service")
    assert not _grouped(RULE, other)
    assert similarity(RULE, other).facts_differ


def test_a_negated_rule_stays_apart_even_in_other_words() -> None:
    negated = RULE.replace("must hit a real database, not mocks", "should mock the database")
    assert not _grouped(RULE, negated)
    assert not _grouped(
        "Mock the HTTP client in unit tests.\n", "Do not mock the HTTP client in unit tests.\n"
    )


def test_a_name_in_a_code_span_or_a_changed_number_is_another_fact() -> None:
    base = "Never force-push to `main`, even after a rebase.\nAsk Tom first.\nThen wait.\n"
    assert not _grouped(base, base.replace("`main`", "`develop`"))
    budget = "The billing-api p99 latency budget is 40 ms.\nAlerts page the on-call.\n"
    assert not _grouped(
        budget, "Latency for billing-api must stay under 50 ms at p99.\nAlerts page the on-call.\n"
    )


def test_synonyms_and_stems_fold_to_one_term() -> None:
    assert _stem("changes") == _stem("changed") == _stem("change")
    ids = {w: LEXICON.intern(w) for w in ("verify", "check", "repo", "repository", "uses")}
    assert LEXICON.term[ids["verify"]] == LEXICON.term[ids["check"]]
    assert LEXICON.term[ids["repo"]] == LEXICON.term[ids["repository"]]
    assert LEXICON.term[ids["uses"]] == -1  # a stopword carries no meaning of its own


def test_code_spans_are_marked_as_names_but_tokens_stay_plain() -> None:
    assert token_lines("Run `ruff` first") == [["run", "`ruff", "first"]]
    assert tokens("Run `ruff` first") == ["run", "ruff", "first"]
    assert LEXICON.named[LEXICON.intern("`ruff")]
    assert not LEXICON.named[LEXICON.intern("ruff")]


def test_planted_pairs_are_found_and_look_alikes_never_merged() -> None:
    kinds = score_planted(2000, seed=11)
    for kind in ("exact", "near"):
        merged, planted = kinds[kind]
        assert planted and merged / planted >= 0.97, (kind, kinds)
    merged, planted = kinds["paraphrase"]
    assert planted and merged / planted >= 0.9, kinds
    assert kinds["apart"][0] == 0, kinds


def _candidates_per_memory(size: int) -> float:
    generator = Generator(5)
    texts = [fingerprint("\n".join(m.lines), m.type).text for m in generator.memories(size)]
    pairs = candidate_pairs([None if t is None else array("Q", t.terms) for t in texts])
    assert len(pairs) <= BEST_MATCHES * size  # each memory keeps at most BEST_MATCHES
    return 2 * len(pairs) / size


def test_candidates_per_memory_stay_flat_as_the_folder_grows() -> None:
    # Measured 4 to 12 a memory from 1,000 to 100,000 memories (docs/BENCHMARKS.md): it
    # never grows with the folder, unlike all pairs or a fixed-threshold LSH.
    small, large = _candidates_per_memory(1000), _candidates_per_memory(4000)
    assert large <= small * 1.25, (small, large)
