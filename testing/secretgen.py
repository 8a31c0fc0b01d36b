"""Generated secret corpus: templates with slots filled at test time, never committed filled.

A template under tests/data/secrets/positives/<rule_id>.txt holds a realistic memory line
with slots like ``<<alnum:36>>``; ``materialize`` fills them with seeded random characters.
``CONTEXTS`` wraps a token in the Markdown and prose punctuation memories use.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "secrets"
POSITIVES = DATA / "positives"

_ALNUM = string.ascii_letters + string.digits
ALPHABETS = {
    "alnum": _ALNUM,
    "alpha": string.ascii_letters,
    "hex": "0123456789abcdef",
    "lowhex": "0123456789abcdef",
    "digits": string.digits,
    "b32": string.ascii_uppercase + "234567",
    "urlsafe": _ALNUM + "_-",
    "b64": _ALNUM + "+/",
    "lowalnum": string.ascii_lowercase + string.digits,
    "upalnum": string.ascii_uppercase + string.digits,
    "azure": _ALNUM + "_~.-",
}
_SLOT = re.compile(r"<<([a-z0-9-]+)(?::(\d+))?>>")

# Surroundings a token gets in memories: Markdown emphasis and code, prose punctuation in
# several scripts, URL and shell syntax. `{}` is the token.
CONTEXTS = (
    "{}", "Use {} now.", "**{}**", "__{}__", "_{}_", "*{}*", "`{}`", "```\n{}\n```",
    "Staging uses **{}** now.", "key {}—rotate monthly", "鍵は{}。", "「{}」", "“{}”",
    "({})", "[{}]", "<{}>", "'{}'", '"{}"', "{}&next=1", "{}@host", "#{}#", "/{}/", "{};",
    "{},", "{}:", "{}!", "{}?", "> {}", "- {}", "| {} |", "{}\\n", "x={}", "—{}—",
    "{}…", "«{}»", "{}\u3001", "{}\uff01",
)  # fmt: skip


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def make_jwt(rng: random.Random, claims: dict[str, object] | None = None) -> str:
    """A JWT-shaped token with random claims and a random signature."""
    header = {"alg": rng.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}
    body = claims or {
        "sub": f"u_{rng.randint(10**5, 10**7)}",
        "org": rng.choice(["acme", "globex", "initech"]),
        "exp": 1767225600 + rng.randint(0, 10**6),
    }
    signature = bytes(rng.getrandbits(8) for _ in range(32))
    parts = (json.dumps(header).encode(), json.dumps(body).encode(), signature)
    return ".".join(_b64url(p) for p in parts)


def _sentry_payload(rng: random.Random) -> str:
    claims = {
        "iat": 1712345678.0 + rng.randint(0, 10**6),
        "url": "https://sentry.io",
        "region_url": "https://us.sentry.io",
        "org": "acme",
    }
    return base64.b64encode(json.dumps(claims, separators=(",", ":")).encode()).decode()


def _pem_body(rng: random.Random) -> str:
    return "\n".join("".join(rng.choices(ALPHABETS["b64"], k=70)) for _ in range(5))


def _uuid(rng: random.Random) -> str:
    h = "".join(rng.choices("0123456789abcdef", k=32))
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


_SPECIAL = {
    "sentry-payload": _sentry_payload,
    "pem-body": _pem_body,
    "jwt": make_jwt,
    "jwt-b64": lambda rng: base64.b64encode(make_jwt(rng).encode()).decode(),
    "uuid": _uuid,
}


def materialize(template: str, seed: str) -> tuple[str, list[str]]:
    """Fill a template's slots; returns the text and the generated random parts."""
    rng = random.Random(seed)
    parts: list[str] = []

    def fill(match: re.Match[str]) -> str:
        name, count = match.group(1), match.group(2)
        special = _SPECIAL.get(name)
        value = special(rng) if special else "".join(rng.choices(ALPHABETS[name], k=int(count)))
        parts.append(value)
        return value

    return _SLOT.sub(fill, template), parts


def positive_template(rule_id: str) -> str:
    """The template of RULE_ID's positive sample."""
    return (POSITIVES / f"{rule_id}.txt").read_text(encoding="utf-8")


def token_template(rule_id: str) -> str:
    """The token alone from a one-line template: the run of slots and their glue."""
    template = positive_template(rule_id)
    if "\n" in template.strip():
        return template
    words = template.split()
    slotted = [w for w in words if "<<" in w]
    return slotted[0].strip("`'\"().,;") if slotted else template
