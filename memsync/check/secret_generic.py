"""The generic rule: credential-named assignments, passwords in URLs and scp-style targets.

Based on gitleaks' generic-api-key (a credential word, an assignment, a value of high
entropy); memsync splits key names into words instead of gitleaks' stopword list, and
adds hex and UUID values under credential names, shorter values under password names
(`PGPASSWORD=`), and `user:password@host` without a scheme (scp, rsync, git over ssh).
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import lru_cache
from urllib.parse import unquote

from memsync.check.secret_extra import is_sample_jwt
from memsync.check.secret_fillers import PLACEHOLDER as _PLACEHOLDER
from memsync.check.secret_fillers import SECRET_REFERENCE as _SECRET_REFERENCE
from memsync.check.secret_fillers import Lazy as _Lazy
from memsync.check.secret_fillers import url_password as _url_password
from memsync.check.secret_layouts import named_values
from memsync.check.secret_rules import GENERIC_RULE, Hit, redacted, shannon_entropy

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from collections.abc import Iterator


# Cheap lowercase prefilter: without one of these the generic rule cannot match.
_GENERIC_KEYWORDS = (
    *("key", "token", "secret", "pass", "pwd", "cred", "auth", "://", "@", "mysql", "mariadb"),
)

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
# A single word ending in one of these is a credential name too (`PGPASSWORD`, `MYAPIKEY`).
_KEY_ENDINGS = ("password", "passwd", "secret", "token", "apikey", "passphrase")
# Credential words under which a short value may already be a password.
_PASSWORD_WORDS = frozenset({"password", "passwd", "pwd", "pass", "passphrase", "dbpassword"})
# Words in a name that make a hex value public (`signingkey = <gpg key id>`, `key_sha`).
_HEX_PUBLIC = frozenset(
    {"gpg", "pgp", "signing", "signingkey", "fingerprint", "fpr", "keyid", "id", "kid", "hash",
     "checksum", "digest", "sha", "sha1", "sha256", "md5", "commit", "rev", "revision"}
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

# Key and value are matched in two steps: a value is only read after a credential name,
# so hostile text (`a:a:a:…`) costs one pass, never a rescan per assignment.
_ASSIGNMENT = _Lazy(
    r"""
    (?<![\w.$-])
    ["'\x60*]{0,2}(?P<key>[A-Za-z_][\w.-]{0,63})["'\x60*]{0,2}  # key, maybe quoted
    [ \t]*(?::=|=>|\?=|=|:)                                     # assignment
    (?:\*{1,2}|_{1,2}(?=[ \t]))?[ \t]*         # closing bold: `**Password:** value`
    """,
    re.VERBOSE | re.ASCII,
)
_VALUE = _Lazy(
    r"""
    ["'\x60]?(?:(?P<scheme>[Bb]earer|[Bb]asic|[Tt]oken)[ \t]+)?  # header scheme, maybe quoted
    ["'\x60]?(?P<value>[^\s"'\x60,;<>]{8,1024})                # the value
    """,
    re.VERBOSE | re.ASCII,
)
_URL_CREDENTIALS = _Lazy(
    r"\b(?P<scheme>[A-Za-z][A-Za-z0-9+.-]{1,15})://(?P<user>[^\s:/@'\"\x60<>]{0,64})"
    r":(?P<password>[^\s/@:,'\"\x60<>]{1,128})@(?P<host>[A-Za-z0-9.-]+)",
    re.ASCII,
)
# scp/rsync/ssh targets without a scheme: `deploy:Pa55w0rdXyz@10.0.0.5:/srv`.
_SCP_CREDENTIALS = _Lazy(
    r"(?<![\w.:/@%+-])(?!mailto:)(?P<user>[A-Za-z0-9._-]{1,64}):(?P<password>[^\s:/@'\"\x60<>]{6,128})"
    r"@(?P<host>(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}|\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z0-9-]+(?=:))"
    r"(?![\w.-])",
    re.ASCII,
)
_PRINTABLE_RUN = _Lazy(r"[!-~]+", re.ASCII)
_KEY_PARTS = _Lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", re.ASCII)
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
_LOCAL_HOSTS = _Lazy(
    r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0|(?:[\w-]+\.)*example\.(?:com|org|net)"
    r"|[\w.-]+\.(?:example|test|invalid|localhost))$",
    re.IGNORECASE | re.ASCII,
)
# `a=b` in a table cell is code (`conta_id=NULL`); a `KEY=value` there is an assignment.
_EXPRESSION = re.compile(r"=[^=]")
_JWT_HEADER_ONLY = _Lazy(r"eyJ[A-Za-z0-9_-]+={0,2}", re.ASCII)
_GENERIC_ENTROPY = 3.5
_URL_PASSWORD_ENTROPY = 2.5


@lru_cache(maxsize=4096)
def _credential_words(key: str) -> tuple[str, ...] | None:
    """The words of a credential name like ``api_key``, ``PGPASSWORD``; None for others."""
    words = [w.lower() for w in _KEY_PARTS.get().findall(key)]
    last = max((i for i, w in enumerate(words) if _is_key_word(w)), default=-1)
    if last < 0:
        return None
    after_ok = all(w in _KEY_SUFFIXES or _is_key_word(w) or w.isdigit() for w in words[last + 1 :])
    if not after_ok or any(w in _KEY_NON_SECRET for w in words[:last]):
        return None
    return tuple(words)


def _layout_name(key: str) -> bool:
    """True for a credential name outside an assignment; in words, `pass` is not one
    (`| Pass 2 |`, `| Review checklist pass |` head columns of results)."""
    words = _credential_words(key) or ()
    return bool(words) and (" " not in key or any(w != "pass" and _is_key_word(w) for w in words))


def _periodic(value: str) -> bool:
    """True when VALUE repeats a shorter unit (`abcdabcdabcd`)."""
    return any(
        value == (value[:period] * (len(value) // period + 1))[: len(value)]
        for period in range(1, len(value) // 2 + 1)
    )


def _is_key_word(word: str) -> bool:
    # `NOPASSWD:` (sudoers) ends in `passwd` but names the absence of one.
    return word in _KEY_WORDS or (word.endswith(_KEY_ENDINGS) and word != "nopasswd")


def _id_chain(value: str) -> bool:
    """True for a colon-chained identifier (`agent:main:slack:c0ajmcn64v9`, session keys)."""
    parts = value.split(":")
    words = [w for part in parts[:-1] for w in _SEPARATORS.get().split(part) if w]
    return len(parts) >= 3 and parts[0].isalpha() and all(_is_wordy(w) for w in words)


def _secret_hex(value: str, words: tuple[str, ...]) -> bool:
    """A hex key under a credential name that is not a public id or digest."""
    bare = value[2:] if value.startswith(("0x", "0X")) else value
    if not _HEX.get().fullmatch(bare):
        return False  # UUIDs stay identifiers (request ids, tenant ids, RFC examples)
    if any(w in _HEX_PUBLIC for w in words) or len(bare.replace("-", "")) < 20:
        return False
    if _periodic(bare.lower()) or "0123456789" in bare or "abcdef" in bare.lower():
        return False  # `1234567890abcdef1234567890abcdef` and other typed-in fillers
    digits = sum(c.isdigit() for c in bare)
    return 0 < digits < len(bare.replace("-", "")) and shannon_entropy(bare) > 3.0


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
    if any(c in value for c in "()[]{}"):
        return False  # code expressions
    if is_sample_jwt(value):
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


def _assignment_hit(key: str, match: re.Match[str]) -> Hit | None:
    raw = match.group("value")
    # The value ends at prose punctuation and at the first character outside printable
    # ASCII (`token=abc…—` or `**abc**`).
    printable = _PRINTABLE_RUN.get().match(raw)
    value = (printable.group(0) if printable else "").rstrip(".:!?)]}*_~")
    words = _credential_words(key)
    if "://" in value or words is None or len(value) < 8:
        return None
    # `eyJhbGciOi...<snip>`: what follows the value can mark it as a placeholder.
    if _PLACEHOLDER.get().search(match.string[match.end("value") : match.end("value") + 1] + raw):
        return None
    if _JWT_HEADER_ONLY.get().fullmatch(value):
        return None  # a JWT header alone is public metadata
    if (words == ("pass",) and "=" in value) or _id_chain(value):
        return None  # test output (`PASS: typography=4`), session ids (`agent:main:…`)
    if match.group("scheme") in ("Basic", "basic"):
        password = _basic_auth_password(value)
        if password is not None and not _looks_random(password, 8, _URL_PASSWORD_ENTROPY):
            return None  # documented `user:password` pairs and the like
    if _PLACEHOLDER.get().search(value) or _PATH.get().match(value):
        return None
    is_password = bool(_PASSWORD_WORDS.intersection(words)) or words[-1].endswith("password")
    if not (
        _secret_hex(value, words)
        or _looks_random(value, 16, _GENERIC_ENTROPY)
        or (is_password and _looks_random(value, 8, _URL_PASSWORD_ENTROPY))
    ):
        return None
    start = match.start("value")
    shown = key if len(key) <= 40 else key[:40] + "…"
    return Hit(GENERIC_RULE, start, start + len(value), redacted(f"{shown}=", len(value)))


def _generic_hits(text: str) -> Iterator[Hit]:
    assignment, value_pattern = _ASSIGNMENT.get(), _VALUE.get()
    position = 0
    while match := assignment.search(text, position):
        # Other assignments may follow inside a rejected value (`url: https://x?token=`).
        position = match.end()
        key = match.group("key")
        if _credential_words(key) is None:
            continue
        value = value_pattern.match(text, match.end())
        hit = _assignment_hit(key, value) if value else None
        if hit:
            position = value.end() if value else position
            yield hit
    # Names and values apart: table cells, command-line flags, `the password was …`.
    for key, start, end in named_values(text):
        value = value_pattern.match(text, start, end) if _layout_name(key) else None
        hit = _assignment_hit(key, value) if value and not _EXPRESSION.search(value[0]) else None
        if hit:
            yield hit
    if "@" in text:
        yield from _scp_hits(text)
    if "://" not in text:
        return
    for match in _URL_CREDENTIALS.get().finditer(text):
        password = unquote(match.group("password"))
        if _LOCAL_HOSTS.get().match(match.group("host")):
            continue
        if not _url_password(password, unquote(match.group("user"))):
            continue
        start, end = match.span("password")
        shown = f"{match.group('scheme')}://{match.group('user')}:"
        yield Hit(GENERIC_RULE, start, end, redacted(shown, end - start))


def _scp_hits(text: str) -> Iterator[Hit]:
    for match in _SCP_CREDENTIALS.get().finditer(text):
        password = unquote(match.group("password"))
        if _LOCAL_HOSTS.get().match(match.group("host")):
            continue
        if not _looks_random(password, 8, _URL_PASSWORD_ENTROPY):
            continue
        start, end = match.span("password")
        yield Hit(GENERIC_RULE, start, end, redacted(f"{match.group('user')}:", end - start))


def generic_hits(text: str) -> list[Hit]:
    """Hits of the generic rule in TEXT (cheap when no credential word occurs)."""
    lowered = text.lower()
    if not any(keyword in lowered for keyword in _GENERIC_KEYWORDS):
        return []
    return list(_generic_hits(text))
