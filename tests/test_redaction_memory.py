"""Redaction remembers texts found clean: never a secret, never across a scanner change."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest

from memsync.check import redaction, secrets
from memsync.check.redaction import SCANNER_MODULES, redact_remembered

CLEAN = "Team index:\n- [Deploys](deploy.md) — tokens, passwords and keys stay private\n"


def _aws(seed: str) -> str:
    return "AKIA" + "".join(random.Random(seed).choices(string.ascii_uppercase + "234567", k=16))


def _scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the full scanner is asked to redact from now on."""
    seen: list[str] = []
    real = secrets.redact

    def counting(text: str) -> str:
        seen.append(text)
        return real(text)

    monkeypatch.setattr(secrets, "redact", counting)
    return seen


def test_a_clean_text_is_scanned_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache" / "clean.json"
    scans = _scans(monkeypatch)
    assert redact_remembered(CLEAN, cache) == CLEAN
    assert redact_remembered(CLEAN, cache) == CLEAN
    assert scans == [CLEAN], "the second time the verdict came from the cache"
    assert CLEAN not in cache.read_text(), "only a digest is written"


def test_a_text_with_a_secret_is_redacted_every_time_and_never_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "clean.json"
    key = _aws("remember")
    text = f"Deploy with {key} today\n"
    scans = _scans(monkeypatch)
    for _ in range(2):
        out = redact_remembered(text, cache)
        assert key not in out
        assert "(aws-access-token: AKIA" in out
    assert len(scans) == 2
    assert not cache.exists(), "a text holding a secret leaves no trace"


def test_a_changed_scanner_forgets_every_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "clean.json"
    redact_remembered(CLEAN, cache)
    scans = _scans(monkeypatch)
    monkeypatch.setattr(redaction, "scanner_fingerprint", lambda: "rules changed")
    assert redact_remembered(CLEAN, cache) == CLEAN
    assert scans == [CLEAN]
    assert json.loads(cache.read_text())["scanner"] == "rules changed"


def test_an_unfingerprintable_scanner_scans_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "clean.json"
    monkeypatch.setattr(redaction, "scanner_fingerprint", lambda: "")
    scans = _scans(monkeypatch)
    redact_remembered(CLEAN, cache)
    redact_remembered(CLEAN, cache)
    assert len(scans) == 2
    assert not cache.exists()


def test_the_fingerprint_covers_every_scanner_module() -> None:
    here = Path(redaction.__file__).parent
    assert sorted(SCANNER_MODULES) == sorted(p.name for p in here.glob("secret*.py"))
    assert all(f"{name}:" in redaction.scanner_fingerprint() for name in SCANNER_MODULES)


@pytest.mark.parametrize("content", ["not json", '["a list"]', '{"scanner": 1, "clean": 2}'])
def test_a_damaged_cache_is_scanned_and_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str
) -> None:
    cache = tmp_path / "clean.json"
    cache.write_text(content)
    scans = _scans(monkeypatch)
    assert redact_remembered(CLEAN, cache) == CLEAN
    assert scans == [CLEAN]
    assert len(json.loads(cache.read_text())["clean"]) == 1


def test_only_the_newest_clean_texts_are_kept(tmp_path: Path) -> None:
    cache = tmp_path / "clean.json"
    for n in range(redaction.REMEMBERED + 5):
        redact_remembered(f"{CLEAN} {n}", cache)
    assert len(json.loads(cache.read_text())["clean"]) == redaction.REMEMBERED


def test_an_unwritable_cache_still_redacts(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    key = _aws("unwritable")
    assert redact_remembered(CLEAN, blocker / "clean.json") == CLEAN
    assert key not in redact_remembered(f"use {key}", blocker / "clean.json")
