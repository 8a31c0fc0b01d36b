"""Redaction that remembers clean texts: the same text, the same scanner, no second scan.

A session start prints the same team index (and the same guidance) run after run, and
its redaction imported and ran the whole secret scanner each time. A keyword pre-filter
cannot skip it: the fixed guidance itself names tokens, passwords and keys, and the
scanner also looks through invisible characters, escapes, joined lines and base64. So
the scan stays exact, and what is remembered is its verdict: the SHA-256 of each text
found to hold no secret, with a fingerprint of the scanner's own source files (size and
modification time). A text seen clean by this very scanner is returned as is; any other
text, or any change to the scanner, is scanned in full. Texts holding a secret are never
remembered, and nothing of a text but its digest is written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from memsync.model.digest import sha256_hex

# The modules whose rules decide what redaction finds (tests keep this list complete).
SCANNER_MODULES = (
    *("secrets.py", "secret_rules.py", "secret_extra.py", "secret_generic.py"),
    *("secret_layouts.py", "secret_fillers.py"),
)
# How many clean texts are remembered (the newest are kept).
REMEMBERED = 32


def scanner_fingerprint() -> str:
    """Size and modification time of each scanner module: changes with any rule change."""
    here = Path(__file__).parent
    parts = []
    for name in SCANNER_MODULES:
        try:
            info = os.stat(here / name)
        except OSError:
            return ""  # a scanner we cannot fingerprint is never trusted from memory
        parts.append(f"{name}:{info.st_size}:{info.st_mtime_ns}")
    return ";".join(parts)


def _remembered(cache: Path, fingerprint: str) -> list[str]:
    try:
        data = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, dict) or data.get("scanner") != fingerprint:
        return []
    clean = data.get("clean")
    return [d for d in clean if isinstance(d, str)] if isinstance(clean, list) else []


def redact_remembered(text: str, cache: Path) -> str:
    """TEXT with every secret redacted (`secrets.redact`), skipping the scan when CACHE
    records TEXT as clean for this scanner; a clean result is recorded there."""
    fingerprint = scanner_fingerprint()
    digest = sha256_hex(text.encode("utf-8", "surrogatepass"))
    clean = _remembered(cache, fingerprint) if fingerprint else []
    if digest in clean:
        return text
    from memsync.check.secrets import redact

    result = redact(text)
    if result == text and fingerprint:
        kept = [*[d for d in clean if d != digest][-(REMEMBERED - 1) :], digest]
        try:
            from memsync.fsutil.atomic import atomic_write_text

            # Not fsynced: a record lost to a crash only costs one more scan.
            payload = json.dumps({"scanner": fingerprint, "clean": kept})
            atomic_write_text(cache, payload, durable=False)
        except OSError:
            pass  # a read-only data directory: scan every time
    return result
