"""Secret scanner: the client's 52 rules, PEM and PuTTY keys, JWTs, webhooks, a generic rule.

A finding names path, line, column and rule, with a redacted preview; the secret itself
never leaves this module. A line containing ``memsync:allow-secret`` is never reported.
Besides the text as written, the scan looks at it with invisible characters removed (the
client does too), with lines and string concatenations joined (a token split in two) and
inside base64 runs that decode to text. Rule tables: secret_rules, secret_extra,
secret_generic; sources and widenings in docs/SECRETS.md.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import re
import string
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from memsync.check.secret_extra import CHECKS, SPECIFIC_RULES
from memsync.check.secret_generic import generic_hits
from memsync.check.secret_rules import (
    GENERIC_RULE,
    Hit,
    SecretRule,
    redacted,
    shannon_entropy,
)

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = [
    "ALLOW_MARKER",
    "RULES",
    "SecretFinding",
    "SecretRule",
    "redact",
    "scan_file",
    "scan_text",
    "shannon_entropy",
]

ALLOW_MARKER = "memsync:allow-secret"
# scan_file reads at most this much (memories are limited to 250,000 bytes).
_SCAN_FILE_LIMIT = 16_000_000

RULES: tuple[SecretRule, ...] = (*SPECIFIC_RULES, GENERIC_RULE)


@dataclass(frozen=True)
class SecretFinding:
    """A secret found in a file; ``preview`` is redacted and never holds the secret."""

    path: str
    line: int
    column: int
    rule_id: str
    description: str
    preview: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}" if self.path else f"line {self.line}"
        return f"{where}: {self.rule_id}: {self.preview}"


def scan_text(text: str, path: str = "") -> list[SecretFinding]:
    """Scan ``text``; findings have 1-based line/column and are sorted by position."""
    if text.startswith("\ufeff"):
        text = text[1:]
    spans = [(hit.start, hit) for hit in _all_hits(text)]
    if not spans:
        return []
    lines = _LineIndex(text)
    findings: dict[tuple[int, str], SecretFinding] = {}
    for start, hit in sorted(spans, key=lambda pair: pair[0]):
        line, column, line_text = lines.locate(start)
        if ALLOW_MARKER in line_text:
            continue
        rule = hit.rule
        found = SecretFinding(path, line, column, rule.rule_id, rule.description, hit.preview)
        findings.setdefault((line, rule.rule_id), found)
    return sorted(findings.values(), key=lambda f: (f.line, f.column, f.rule_id))


def scan_file(path: Path, display_path: str | None = None) -> list[SecretFinding]:
    """Scan a regular file (UTF-8, undecodable bytes replaced, BOM stripped)."""
    from memsync.fsutil.reads import read_regular

    text = read_regular(path, follow=True, limit=_SCAN_FILE_LIMIT).decode("utf-8", "replace")
    return scan_text(text, str(path) if display_path is None else display_path)


def redact(text: str) -> str:
    """TEXT with every secret replaced by `(rule-id: prefix…(redacted N chars))`."""
    if len(text) < 8:
        return text
    hits = sorted(_all_hits(text), key=lambda h: h.start)
    out, position = [], 0
    for hit in hits:
        if hit.start < position:
            # Overlapping matches are merged: the tail of a longer one is a secret too.
            position = max(position, hit.end)
            continue
        # Parentheses, not brackets: rich would take `[…]` for markup and drop it.
        shown = hit.preview.replace("[", "(").replace("]", ")")
        out += [text[position : hit.start], f"({hit.rule.rule_id}: {shown})"]
        position = hit.end
    return "".join([*out, text[position:]]) if out else text


def _all_hits(text: str) -> list[Hit]:
    """Hits in TEXT and (mapped back to TEXT's offsets) in its decoded variants."""
    found: dict[tuple[int, str], Hit] = {}
    variants = list(_variants(text))
    for hit in _specific_hits(text) + [
        _mapped(hit, offsets) for variant, offsets in variants for hit in _specific_hits(variant)
    ]:
        _keep_longest(found, hit)
    for run_start, run_end, decoded in _base64_texts(text):
        for inner in _specific_hits(decoded) + generic_hits(decoded):
            hit = Hit(inner.rule, run_start, run_end, f"{inner.preview} (base64-encoded)")
            found.setdefault((run_start, hit.rule.rule_id), hit)
    hits = list(found.values())
    # The generic rule only speaks where no rule with a fixed shape found anything.
    taken = [(hit.start, hit.end) for hit in hits]
    generic: dict[tuple[int, str], Hit] = {
        (h.start, h.rule.rule_id): h for h in generic_hits(text) if not _overlaps(h, taken)
    }
    # A generic value wrapped over lines is read whole in the joined text; the variants only
    # lengthen what the text itself shows (joined prose must not make new findings).
    for variant, offsets in variants if generic else ():
        for hit in generic_hits(variant):
            if (offsets[hit.start], hit.rule.rule_id) in generic:
                _keep_longest(generic, _mapped(hit, offsets))
    return hits + list(generic.values())


def _mapped(hit: Hit, offsets: list[int]) -> Hit:
    """HIT, found in a variant, at the offsets of the original text."""
    end = offsets[min(hit.end, len(offsets)) - 1] + 1
    return Hit(hit.rule, offsets[hit.start], end, hit.preview)


def _keep_longest(found: dict[tuple[int, str], Hit], hit: Hit) -> None:
    """Record HIT unless a match of its rule at its start already reaches as far."""
    # A wrapped token's first line alone can match its rule: redacting that line only would
    # print the rest (the joined variant finds the whole token at the same start).
    known = found.get(key := (hit.start, hit.rule.rule_id))
    if known is None or hit.end > known.end:
        found[key] = hit


# --- matching the rules with a fixed shape -----------------------------------------


@dataclass(frozen=True)
class _CompiledRule:
    """A rule's patterns, allow-list and required context, compiled once."""

    rule: SecretRule
    patterns: tuple[re.Pattern[str], ...]
    allow: tuple[re.Pattern[str], ...]
    require: re.Pattern[str] | None
    prefix: re.Pattern[str] | None

    def find(self, text: str) -> list[Hit]:
        # The longest accepted match at each start: a narrow pattern with no right boundary
        # (gitlab's `glpat-[\w-]{20}`) must not hide the rest of a longer token.
        best: dict[int, Hit] = {}
        for pattern in self.patterns:
            for match in pattern.finditer(text):
                index = next((i for i, g in enumerate(match.groups(), 1) if g), 0)
                start, end = match.span(index)
                if start in best and best[start].end >= end:
                    continue  # a wider pattern re-finding the same secret
                secret = text[start:end]
                if self.accepts(secret):
                    best[start] = Hit(self.rule, start, end, self.preview(secret))
        return list(best.values())

    def accepts(self, secret: str) -> bool:
        rule = self.rule
        if rule.entropy and shannon_entropy(secret) <= rule.entropy:
            return False
        if any(allowed.search(secret) for allowed in self.allow):
            return False
        if self.require is not None and not self.require.search(secret):
            return False
        if rule.check and not CHECKS[rule.check](secret):
            return False
        return not (rule.allow_sha256 and _sha256(secret) in rule.allow_sha256)

    def preview(self, secret: str) -> str:
        match = self.prefix.match(secret) if self.prefix is not None else None
        # The public prefix is shown only while it stays a small part of the secret.
        shown = match.group(0) if match and match.end() * 2 <= len(secret) else ""
        return redacted(shown, len(secret) - len(shown))


@cache
def _compiled(index: int) -> _CompiledRule:
    """Rule INDEX compiled on first use: most texts never need most rules."""

    def compile_all(patterns: Iterable[str]) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(p, re.ASCII) for p in patterns)

    rule = SPECIFIC_RULES[index]
    return _CompiledRule(
        rule,
        compile_all(rule.patterns),
        compile_all((*rule.allow, rule.placeholder) if rule.placeholder else rule.allow),
        re.compile(rule.require, re.ASCII) if rule.require else None,
        re.compile(rule.prefix, re.ASCII) if rule.prefix else None,
    )


@cache
def _keywords() -> dict[str, list[int]]:
    """Each distinct rule keyword and the rules it wakes (one `in` test per keyword)."""
    rules: dict[str, list[int]] = {}
    for index, rule in enumerate(SPECIFIC_RULES):
        for keyword in rule.keywords:
            rules.setdefault(keyword, []).append(index)
    return rules


def _specific_hits(text: str) -> list[Hit]:
    rules = _keywords()
    lowered = text.lower()
    present = [keyword for keyword in rules if keyword in lowered]
    if not present:
        return []
    wanted = sorted({index for keyword in present for index in rules[keyword]})
    hits: list[Hit] = []
    for index in wanted:
        hits.extend(_compiled(index).find(text))
    return hits


def _overlaps(hit: Hit, spans: list[tuple[int, int]]) -> bool:
    return any(hit.start < end and start < hit.end for start, end in spans)


class _LineIndex:
    """Maps character offsets to (line, column, line text), both 1-based."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def locate(self, offset: int) -> tuple[int, int, str]:
        index = bisect.bisect_right(self._starts, offset) - 1
        start = self._starts[index]
        end = self._text.find("\n", start)
        line_text = self._text[start : end if end >= 0 else len(self._text)]
        return index + 1, offset - start + 1, line_text


# --- variants: what a reader (or the model) would reassemble -----------------------

# Zero-width and invisible formatting characters the client strips before its scan.
_INVISIBLE_SOURCE = ("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
                        "\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff]")  # fmt: skip
_TOKEN_CHAR = r"[\w+/=~.-]"
# A token split over lines or string pieces: `"ghp_abc" + "def"`, `ghp_abc\` NL `def`,
# a line break with indentation or a `>` quote marker, and the quotes around the pieces.
_JOIN_SOURCE = (
    # A line break right after a run of 8 token characters (no trailing space: prose
    # lines end in words and spaces, a wrapped token does not; nor in a long lowercase
    # word, bare or closing a sentence: 8 random token characters are that 1 time in 1,000)
    r"(?<=[\w+/=~.-]{8})(?<![a-z]{8})(?<![a-z]{7}[.,;])"
    r"(?:(?:[\"'\x60][ \t]*)?(?:[+&,\\]|\|\|)?[ \t]*)?\r?\n"
    r"[ \t]*(?:>[ \t]?)*(?:(?:[+&]|\|\|)[ \t]*)?[\"'\x60]?(?=[\w+/=~-]{4})"
    # ... unless the next line is a YAML key (`description: …`): every frontmatter has one.
    r"(?![\w.-]+:(?:[ \t]|$))"
    # ... or string pieces glued on one line: `"ghp_abc" + "def"`.
    rf"|(?<={_TOKEN_CHAR})[\"'\x60][ \t]*(?:\+|\.\.?|\|\||&)?[ \t]*[\"'\x60]"
    rf"(?={_TOKEN_CHAR})"
)
# A necessary condition of _JOIN_SOURCE that the regex engine can look for fast: it starts
# at the line break (or the quote) itself, where _JOIN_SOURCE starts with a look-behind that
# is tried at every character (6 times slower on memories). Only texts it finds go through
# _JOIN_SOURCE, so the join rule keeps one definition; tests hold the two together.
_JOIN_HINT_SOURCE = (
    r"\n(?:(?<=[\w+/=~.-]{8}\n)(?<![a-z]{8}\n)(?<![a-z]{7}[.,;]\n)"
    r"|(?<=[\w+/=~.-]{8}\r\n)(?<![a-z]{8}\r\n)(?<![a-z]{7}[.,;]\r\n)"
    r"|(?<=[\"'\x60+&,\\| \t]\n)|(?<=[\"'\x60+&,\\| \t]\r\n))"
    r"[ \t]*(?:>[ \t]?)*(?:(?:[+&]|\|\|)[ \t]*)?[\"'\x60]?(?=[\w+/=~-]{4})"
    r"(?![\w.-]+:(?:[ \t]|$))"
    rf"|[\"'\x60](?<={_TOKEN_CHAR}[\"'\x60])[ \t]*(?:\+|\.\.?|\|\||&)?[ \t]*[\"'\x60]"
    rf"(?={_TOKEN_CHAR})"
)
# `%5F`, `&#95;`, `&#x5f;`, `\x5f`, `\u005f`: escapes that hide a token's characters.
_ESCAPE_SOURCE = (
    r"%([0-9A-Fa-f]{2})|&#([0-9]{2,3});|&#[xX]([0-9A-Fa-f]{2});|\\x([0-9A-Fa-f]{2})"
    r"|\\u00([0-9A-Fa-f]{2})"
)
# A maximal run (the leftmost match of a greedy run starts where the run starts; no
# look-behind to try at every character); only even lengths are bytes (filtered by caller).
_HEX_RUN_SOURCE = r"[0-9A-Fa-f]{32,}"
_BASE64_RUN_SOURCE = r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,}={0,2}"


@cache
def _pattern(source: str) -> re.Pattern[str]:
    """SOURCE compiled on first use: importing the scanner stays cheap on hook paths."""
    return re.compile(source, re.ASCII if source != _INVISIBLE_SOURCE else 0)


def _variants(text: str) -> Iterator[tuple[str, list[int]]]:
    """(text, offset map back into TEXT): invisibles removed, escapes decoded, pieces joined."""
    base, offsets = text, None
    for source in (_INVISIBLE_SOURCE, _ESCAPE_SOURCE, _JOIN_SOURCE):
        if source is _JOIN_SOURCE and _pattern(_JOIN_HINT_SOURCE).search(base) is None:
            continue  # no line break or quote a join could start at: skip the slow search
        pattern = _pattern(source)
        if pattern.search(base) is None:
            continue  # the common case: no offset map is ever built
        if offsets is None:
            offsets = list(range(len(text) + 1))
        changed, changed_offsets = _substitute(base, pattern, offsets)
        if changed != base:
            base, offsets = changed, changed_offsets
            yield base, offsets


def _unescaped(match: re.Match[str]) -> str:
    """The character a percent, HTML or backslash escape stands for (printable ASCII)."""
    code = next(g for g in match.groups() if g is not None)
    char = chr(int(code, 10 if match.group(0).startswith("&#") and "x" not in match.group(0)
                   else 16))  # fmt: skip
    return char if " " <= char <= "~" else match.group(0)


def _substitute(text: str, pattern: re.Pattern[str], offsets: list[int]) -> tuple[str, list[int]]:
    """TEXT with PATTERN's matches removed (or unescaped), and each character's offset."""
    unescape = pattern.pattern == _ESCAPE_SOURCE
    pieces: list[str] = []
    kept: list[int] = []
    position = 0
    for match in pattern.finditer(text):
        pieces.append(text[position : match.start()])
        kept.extend(offsets[position : match.start()])
        if unescape:
            replacement = _unescaped(match)
            pieces.append(replacement)
            kept.extend([offsets[match.start()]] * len(replacement))
        position = match.end()
    pieces.append(text[position:])
    kept.extend(offsets[position:])
    return "".join(pieces), kept


def _base64_texts(text: str, depth: int = 0) -> Iterator[tuple[int, int, str]]:
    """(start, end, decoded text) for each base64 or hex run in TEXT that decodes to text."""
    # Base64 of text mixes cases: a run with no capital letter (a slug, a file name such as
    # `feedback_always-commit-000156`) is about 1 in 270,000 random base64 runs of 24.
    runs = [m for m in _pattern(_BASE64_RUN_SOURCE).finditer(text) if not m.group(0).islower()]
    runs += (m for m in _pattern(_HEX_RUN_SOURCE).finditer(text) if len(m.group(0)) % 2 == 0)
    for match in runs:
        run = match.group(0)
        if run.startswith(("eyJ", "ZXlK")):
            continue  # JWTs and their encodings have their own rules
        decoded = _decode(run)
        if decoded is None:
            continue
        yield match.start(), match.end(), decoded
        if depth < 1:
            for _, _, inner in _base64_texts(decoded, depth + 1):
                yield match.start(), match.end(), inner


def _decode(run: str) -> str | None:
    """The text RUN is the base64 (standard or URL-safe) encoding of, if it is mostly text."""
    body = run.rstrip("=")
    padded = body + "=" * (-len(body) % 4)
    hexadecimal = len(body) % 2 == 0 and all(c in string.hexdigits for c in body)
    try:
        if hexadecimal:
            raw = bytes.fromhex(body)
        else:
            raw = base64.urlsafe_b64decode(padded.replace("+", "-").replace("/", "_"))
        decoded = raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    printable = sum(c.isprintable() or c in "\n\r\t" for c in decoded)
    return decoded if decoded and printable * 10 >= len(decoded) * 9 else None


def _sha256(text: str) -> str:
    """Imported on the rare call (an allow-listed rule's candidate): hashlib loads OpenSSL."""
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()
