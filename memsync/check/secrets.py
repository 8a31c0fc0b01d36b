"""Secret scanner for memories: Claude Code's 36 gitleaks rules plus a generic rule.

A finding names path, line, column and rule, with a redacted preview; the secret
itself never leaves this module. A line containing ``memsync:allow-secret`` is
never reported. Rule table and gitleaks attribution: ``memsync/secret_rules.py``.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import hashlib
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from memsync.check.secret_rules import CLAUDE_CODE_RULES, GENERIC_RULE, SecretRule

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "ALLOW_MARKER",
    "RULES",
    "SecretFinding",
    "SecretRule",
    "scan_file",
    "scan_text",
    "shannon_entropy",
]

ALLOW_MARKER = "memsync:allow-secret"

RULES: tuple[SecretRule, ...] = (*CLAUDE_CODE_RULES, GENERIC_RULE)


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


def shannon_entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character."""
    if not value:
        return 0.0
    size = len(value)
    return -sum(n / size * math.log2(n / size) for n in Counter(value).values())


def scan_text(text: str, path: str = "") -> list[SecretFinding]:
    """Scan ``text``; findings have 1-based line/column and are sorted by position."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lowered = text.lower()
    hits: list[_Hit] = []
    for compiled in _compiled_rules():
        if any(keyword in lowered for keyword in compiled.rule.keywords):
            hits.extend(compiled.find(text))
    if any(keyword in lowered for keyword in _GENERIC_KEYWORDS):
        taken = [(hit.start, hit.end) for hit in hits]
        hits.extend(h for h in _generic_hits(text) if not _overlaps(h, taken))
    if not hits:
        return []
    lines = _LineIndex(text)
    findings: dict[tuple[int, int, str], SecretFinding] = {}
    for hit in hits:
        line, column, line_text = lines.locate(hit.start)
        if ALLOW_MARKER in line_text:
            continue
        key = (line, column, hit.rule.rule_id)
        findings.setdefault(
            key,
            SecretFinding(path, line, column, hit.rule.rule_id, hit.rule.description, hit.preview),
        )
    return sorted(findings.values(), key=lambda f: (f.line, f.column, f.rule_id))


def scan_file(path: Path, display_path: str | None = None) -> list[SecretFinding]:
    """Scan a file (UTF-8, undecodable bytes replaced, BOM stripped)."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    return scan_text(text, str(path) if display_path is None else display_path)


# --- matching the 36 rules ---------------------------------------------------------


@dataclass(frozen=True)
class _Hit:
    rule: SecretRule
    start: int
    end: int
    preview: str


def _redact(shown: str, hidden: int) -> str:
    return f"{shown}…[redacted {hidden} chars]"


@dataclass(frozen=True)
class _CompiledRule:
    rule: SecretRule
    patterns: tuple[re.Pattern[str], ...]
    allow: tuple[re.Pattern[str], ...]
    require: re.Pattern[str] | None
    prefix: re.Pattern[str] | None

    def find(self, text: str) -> Iterator[_Hit]:
        seen: set[int] = set()
        for pattern in self.patterns:
            for match in pattern.finditer(text):
                index = next((i for i, g in enumerate(match.groups(), 1) if g), 0)
                start, end = match.span(index)
                if start in seen:
                    continue  # a widened pattern re-finding the same secret
                secret = text[start:end]
                if self.accepts(secret):
                    seen.add(start)
                    yield _Hit(self.rule, start, end, self.preview(secret))

    def accepts(self, secret: str) -> bool:
        rule = self.rule
        if rule.entropy and shannon_entropy(secret) <= rule.entropy:
            return False
        if any(allowed.search(secret) for allowed in self.allow):
            return False
        if self.require is not None and not self.require.search(secret):
            return False
        return not (
            rule.allow_sha256 and hashlib.sha256(secret.encode()).hexdigest() in rule.allow_sha256
        )

    def preview(self, secret: str) -> str:
        match = self.prefix.match(secret) if self.prefix is not None else None
        # The public prefix is shown only while it stays a small part of the secret.
        shown = match.group(0) if match and match.end() * 2 <= len(secret) else ""
        return _redact(shown, len(secret) - len(shown))


@cache
def _compiled_rules() -> tuple[_CompiledRule, ...]:
    def compile_all(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(p, re.ASCII) for p in patterns)

    return tuple(
        _CompiledRule(
            rule,
            compile_all(rule.patterns),
            compile_all((*rule.allow, rule.placeholder) if rule.placeholder else rule.allow),
            re.compile(rule.require, re.ASCII) if rule.require else None,
            re.compile(rule.prefix, re.ASCII) if rule.prefix else None,
        )
        for rule in CLAUDE_CODE_RULES
    )


def _overlaps(hit: _Hit, spans: list[tuple[int, int]]) -> bool:
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


# --- the generic rule --------------------------------------------------------------


class _Lazy:
    """A regex compiled on first use, so importing this module stays cheap."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern, self._flags = pattern, flags
        self._compiled: re.Pattern[str] | None = None

    def get(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._pattern, self._flags)
        return self._compiled


# Cheap lowercase prefilter: without one of these the generic rule cannot match.
_GENERIC_KEYWORDS = ("key", "token", "secret", "pass", "pwd", "cred", "auth", "://")

# Words of a key name (split on _ . - and camelCase) that make it a credential name.
_KEY_WORDS = frozenset(
    {
        "key", "keys", "apikey", "token", "secret", "secrets", "password", "passwd", "pwd",
        "pass", "passphrase", "credential", "credentials", "creds", "auth", "authorization",
        "secretkey", "accesskey", "privatekey", "signingkey", "masterkey", "apitoken",
        "authtoken", "accesstoken", "refreshtoken", "bearertoken", "sessiontoken",
        "clientsecret", "apisecret", "dbpassword", "bearer",
    }
)  # fmt: skip
# Words that may follow the credential word (`api_key_prod`, `TOKEN_B64`, `token2`).
_KEY_SUFFIXES = frozenset(
    {
        "value", "val", "str", "string", "b64", "base64", "hex", "raw", "plain",
        "plaintext", "header", "prod", "production", "dev", "development", "staging",
        "stage", "stg", "test", "live", "local", "qa", "uat", "old", "new", "current",
        "primary", "secondary", "backup",
    }
)  # fmt: skip
# Words before the credential word that make it something else (`public_key`,
# `cache_key`, `next_page_token`, `csrf_token`, `example_secret`).
_KEY_NON_SECRET = frozenset(
    {
        "public", "pub", "primary", "foreign", "sort", "partition", "cache", "lookup",
        "i18n", "translation", "idempotency", "dedup", "dedupe", "routing", "shard",
        "row", "composite", "natural", "unique", "index", "csrf", "xsrf", "page", "next",
        "continuation", "cursor", "sync", "example", "sample", "dummy", "fake",
        "placeholder", "mock", "hotkey", "publishable", "site", "object", "map", "dict",
        "sequence", "schema",
    }
)  # fmt: skip

_ASSIGNMENT = _Lazy(
    r"""
    (?<![\w.$-])
    ["'\x60*]{0,2}(?P<key>[A-Za-z_][\w.-]{0,63})["'\x60*]{0,2}  # key, maybe quoted
    [ \t]*(?::=|=>|\?=|=|:)[ \t]*                               # assignment
    (?:(?P<scheme>[Bb]earer|[Bb]asic|[Tt]oken)[ \t]+)?         # header scheme
    ["'\x60]?(?P<value>[^\s"'\x60,;<>]{16,})                    # the value
    """,
    re.VERBOSE | re.ASCII,
)
_URL_CREDENTIALS = _Lazy(
    r"\b(?P<scheme>[A-Za-z][A-Za-z0-9+.-]{1,15})://(?P<user>[^\s:/@'\"\x60<>]{0,64})"
    r":(?P<password>[^\s/@:,'\"\x60<>]{1,128})@(?P<host>[A-Za-z0-9.-]+)",
    re.ASCII,
)
_KEY_PARTS = _Lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", re.ASCII)
_PLACEHOLDER = _Lazy(
    r"""x{4,}|X{4,}|\*{3,}|\.\.\.|…|\#{3,}|changeme|change[_-]me|example|placeholder
    |your[_-]|redacted|dummy|sample|lorem|replace[_-]?me|insert[_-]|todo|fixme|<|>
    |\$\{|\$\(|\{\{|%[A-Za-z_]+%|^\$[A-Za-z_]|^@[A-Za-z_]+@?$""",
    re.VERBOSE | re.IGNORECASE | re.ASCII,
)
# References to secret stores and encrypted blobs name a secret without holding it.
_SECRET_REFERENCE = _Lazy(
    r"^(?:ENC\[|vault:|arn:|op://|sm://|gcp:|azure:|ref\+|secretsmanager:|ssm:|"
    r"projects/|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2|sha\d+[-:]|md5[-:]|AAAA[BC]3N|"
    r"data:|pk_(?:live|test)_)",
    re.IGNORECASE | re.ASCII,
)
_BASE64 = _Lazy(r"[A-Za-z0-9+/]+={0,2}", re.ASCII)
_HEX = _Lazy(r"(?:0x)?(?:[0-9a-f]+|[0-9A-F]+)", re.ASCII)
_UUID = _Lazy(
    r"(?:[A-Za-z]{1,12}[:_-])*[{(]?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}"
    r"-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}[})]?",
    re.ASCII,
)
_PATH = _Lazy(
    r"""(?:~|\.{1,2})?/[\w.-]+/[\w./-]*$        # /etc/x, ~/.ssh/id, ./config/keys/
    |(?:~|\.{1,2})?/?[\w./-]*\.[A-Za-z][A-Za-z0-9]{0,4}$  # dev-signing-key.pem
    |[A-Za-z]:\\                            # C:\Users
    |[a-z0-9._-]+(?:/[a-z0-9._-]+)+/?$       # secrets/prod/db-password
    """,
    re.VERBOSE | re.ASCII,
)
_SEPARATORS = _Lazy(r"[-_.:/+@]+")
_CAMEL_WORDS = _Lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", re.ASCII)
_RUNS = _Lazy(r"[A-Za-z]+|\d+", re.ASCII)
_VOWELS = frozenset("aeiouyAEIOUY")
_CONSONANT_RUNS = _Lazy(r"[aeiouy]+", re.ASCII)
# Published documentation examples that are not anybody's credentials.
_DOCUMENTED_EXAMPLES = ("SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",)  # jwt.io's sample
# Claims that mark a JWT as a tutorial sample (jwt.io and most docs use these).
_SAMPLE_CLAIMS = ('"John Doe"', '"1234567890"', "example")
_JWT = _Lazy(r"eyJ[\w-]+\.(eyJ[\w-]+)\.[\w-]*", re.ASCII)
_LOCAL_HOSTS = _Lazy(
    r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0|(?:[\w-]+\.)*example\.(?:com|org|net)"
    r"|[\w.-]+\.(?:example|test|invalid|localhost))$",
    re.IGNORECASE | re.ASCII,
)
_JWT_HEADER_ONLY = _Lazy(r"eyJ[A-Za-z0-9_-]+={0,2}", re.ASCII)
_GENERIC_ENTROPY = 3.5
_URL_PASSWORD_ENTROPY = 2.5


def _is_credential_name(key: str) -> bool:
    """True for names like ``api_key``, ``SLACK_BOT_TOKEN``, ``db.password``."""
    words = [w.lower() for w in _KEY_PARTS.get().findall(key)]
    last = max((i for i, w in enumerate(words) if w in _KEY_WORDS), default=-1)
    if last < 0:
        return False
    after_ok = all(w in _KEY_SUFFIXES or w in _KEY_WORDS or w.isdigit() for w in words[last + 1 :])
    return after_ok and not any(w in _KEY_NON_SECRET for w in words[:last])


def _is_wordy(segment: str) -> bool:
    """True for a word, identifier (`getHTTPResponse`, `win32api`) or number; False for
    random characters."""
    if segment.isdigit() or len(segment) <= 4:
        return True
    runs = _RUNS.get().findall(segment)
    digit_runs = sum(run.isdigit() for run in runs)
    if "".join(runs) != segment or digit_runs > (2 if len(segment) <= 8 else 1):
        return False  # `utf8mb4` and `node20` yes, digits sprinkled through text no
    letters = "".join(run for run in runs if run.isalpha())
    upper = sum(c.isupper() for c in letters)
    if len(letters) >= 12 and upper < len(letters) and upper * 5 >= len(letters) * 2:
        return False  # random mixed case: identifiers are mostly lowercase
    words = [w for run in runs if run.isalpha() for w in _CAMEL_WORDS.get().findall(run)]
    # Random text splits into many one- or two-letter "words" and vowel-less runs.
    short = sum(len(word) <= 2 for word in words)
    voweless = sum(
        len(word) >= 4 and not word.isupper() and not _VOWELS.intersection(word) for word in words
    )
    return short <= 1 and voweless == 0 and all(_pronounceable(word) for word in words)


def _pronounceable(word: str) -> bool:
    """Rough test that a long single-case word is language, not random letters."""
    if len(word) < 6:
        return True
    vowels = sum(c in _VOWELS for c in word)
    longest_consonant_run = max(len(run) for run in _CONSONANT_RUNS.get().split(word.lower()))
    return longest_consonant_run < 5 and vowels * 5 >= len(word)


def _looks_random(value: str, min_length: int, min_entropy: float) -> bool:
    """True when ``value`` looks like generated secret material, not words or ids."""
    if (
        len(value) < min_length
        or _PLACEHOLDER.get().search(value)
        or _SECRET_REFERENCE.get().match(value)
    ):
        return False
    if not any(c.isalpha() for c in value):
        return False  # numbers, dates, phone numbers
    if any(c in value for c in "()[]{}") or any(doc in value for doc in _DOCUMENTED_EXAMPLES):
        return False  # code expressions and documented examples
    if _is_sample_jwt(value):
        return False
    if _HEX.get().fullmatch(value) or _UUID.get().fullmatch(value):
        return False  # SHAs, digests, UUIDs
    if all(_is_wordy(part) for part in _SEPARATORS.get().split(value) if part):
        return False  # slugs, identifiers, versions, dates
    if shannon_entropy(value) <= min_entropy:
        return False
    # Base64 of readable text (Kubernetes `data:` values) is judged by that text.
    text = _decoded_text(value)
    return text is None or _looks_random(text, 8, 3.0)


def _is_sample_jwt(value: str) -> bool:
    """True for a JWT whose payload carries tutorial claims (`"name": "John Doe"`)."""
    match = _JWT.get().fullmatch(value)
    if match is None:
        return False
    payload = match.group(1)
    try:
        claims = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return False
    return any(sample in claims for sample in _SAMPLE_CLAIMS)


def _decoded_text(value: str) -> str | None:
    """The printable ASCII text ``value`` is the base64 encoding of, if any."""
    if len(value) % 4 or not _BASE64.get().fullmatch(value):
        return None
    try:
        text = base64.b64decode(value, validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return text if text.isprintable() else None


def _basic_auth_password(value: str) -> str | None:
    """The password inside an HTTP Basic credential, or None when it is not one."""
    user, colon, password = (_decoded_text(value) or "").partition(":")
    return password if colon and user else None


def _assignment_hit(match: re.Match[str]) -> _Hit | None:
    key, raw = match.group("key"), match.group("value")
    value = raw.rstrip(".:!?)]}")
    if "://" in value or not _is_credential_name(key):
        return None
    # `eyJhbGciOi...<snip>`: what follows the value can mark it as a placeholder.
    if _PLACEHOLDER.get().search(match.string[match.end("value") : match.end("value") + 1] + raw):
        return None
    if _JWT_HEADER_ONLY.get().fullmatch(value):
        return None  # a JWT header alone is public metadata
    if match.group("scheme") in ("Basic", "basic"):
        password = _basic_auth_password(value)
        if password is not None and not _looks_random(password, 8, _URL_PASSWORD_ENTROPY):
            return None  # documented `user:password` pairs and the like
    if _PATH.get().match(value) or not _looks_random(value, 16, _GENERIC_ENTROPY):
        return None
    start = match.start("value")
    shown = key if len(key) <= 40 else key[:40] + "…"
    return _Hit(GENERIC_RULE, start, start + len(value), _redact(f"{shown}=", len(value)))


def _generic_hits(text: str) -> Iterator[_Hit]:
    position = 0
    while match := _ASSIGNMENT.get().search(text, position):
        hit = _assignment_hit(match)
        # A rejected match may have swallowed the next assignment (`url: https://x?token=`):
        # resume inside its value.
        position = match.end() if hit else match.start("value")
        if hit:
            yield hit
    if "://" not in text:
        return
    for match in _URL_CREDENTIALS.get().finditer(text):
        password = unquote(match.group("password"))
        if _LOCAL_HOSTS.get().match(match.group("host")):
            continue
        if not _looks_random(password, 8, _URL_PASSWORD_ENTROPY):
            continue
        start, end = match.span("password")
        shown = f"{match.group('scheme')}://{match.group('user')}:"
        yield _Hit(GENERIC_RULE, start, end, _redact(shown, end - start))
