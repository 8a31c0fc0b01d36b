"""Rules beyond the client's table: JWTs, webhooks, PuTTY keys, and their structural checks.

``jwt`` and ``jwt-base64`` and ``microsoft-teams-webhook`` are re-expressed from gitleaks'
rules of the same ids (MIT, see memsync/check/secret_rules.py); Discord webhooks and PuTTY key
files have no gitleaks rule and follow the vendors' documented formats (docs/SECRETS.md).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import replace

from memsync.check.secret_rules import GITLEAKS_RULES, PRIVATE_KEY_RULE, E, L, SecretRule, rule

GCP_PUBLISHED_KEYS = frozenset(
    {
        # gitleaks' gcp-api-key allowlist (public keys from docs and SDKs), as sha256.
        "f56e323494a6ffc2064e7a955908957d84f0755e5f975dabd64328d0359a8f7c",
        "2037abcaffb2b77785da716cf7ccff4ff4d00c4ea930db0167b7d71f50af7eb4",
        "3f370c9dd8225c63b5c77de1f785edc9712958f18bb612d5fa2e0ae33aeca682",
        "e4a5542bb7fd7b67e943c71ad29c34b5972c9840597e7eda53e666f44d5da0b9",
        "a19f89ab3555eac10c40741f6df79ecf0935998f15569f8db9d67bce0181fff6",
        "0b476bdf9acf2123d547b5ae76f1e59884d8ec9553ee0c47e9f31fd4768f3f3c",
        "eb540d2b6ee2a0a47c5779bc8a0141784c6b753840d4c6f4e2428a6e86e9e0b1",
        "37f8f09bdf12c2f2eae4ead7273a62ddb0c23459cbf902892f282b57f7ed6619",
        "8731261cb72d86267a32a532ebd3df429e2144e5e4ced7e13568bc9e6c8fb1b1",
        "49f777db995e8260da7ca9ffdf0c08d66f0453e97ec967018baf2cdfe3b582d0",
        "27a9a42931dff7eb2f8434e20a9bce976ea364e7bee49187f19d5cfeca9c7045",
        "dc0fcf046c61640cbd1e8b999ada3262d722c2ca4bf42dceac999020ffdbb614",
        "4c98242dcadc8b29005c6b4aad526552d5ea1842149154c0694adeec75847583",
        "ea9bb1082cf95663f5faca23b8b15ef2aa0fce0a5c6df9c32dcb85b2e0a4513d",
        "3a8b61d0f636b007840c0d40ba12bcf48465dc054cdc1a68704a33521d84b665",
        "a6c814bc555ae62c7bd8b58ec07bf559c7ed3a009976a1e0acc9cef0d4473b41",
    }
)

_JWT_HEADERS = (  # gitleaks' jwt-base64: base64 of `{"<registered header>":`
    "<registered", "header>", "aGJHY2lPaU", "aGNIVWlPaU", "aGNIWWlPaU", "aGRXUWlPaU",
    "aU5qUWlP", "amNtbDBJanBi", "amRIa2lPaU", "bGNHc2lPbn", "bGJtTWlPaU", "cWEzVWlPaU",
    "cWQyc2lPb", "cGMzTWlPaU", "cGRpSTZJ", "cmFXUWlP", "clpYbGZiM0J6SWpwY", "cmRIa2lPaUp",
    "dWIyNWpaU0k2", "d01tTWlP", "d01uTWlPaU", "d2NIUWlPaU", "emRXSWlPaU", "emRuUWlP",
    "MFlXY2lPaU", "MGVYQWlPaUp", "MWNtd2l", "MWMyVWlPaUp", "MlpYSWlPaU", "MlpYSnphVzl1SWpv",
    "NElqb2", "NE5XTWlP", "NE5YUWlPaU", "NE5YUWpVekkxTmlJNkl", "NE5YVWlPaU", "NmFYQWlPaU",
)  # fmt: skip

EXTRA_RULES: tuple[SecretRule, ...] = (
    replace(
        rule("jwt", "JSON Web Token", "eyj",
             L + r"(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9/\\_-]{17,}\.(?:[a-zA-Z0-9/\\_-]{10,}={0,2})?)"
             + E,
             L + r"(eyJ[\w-]{8,}={0,2}\.eyJ[\w-]{8,}={0,2}\.[\w-]{8,}={0,2})",  # wider
             prefix="eyJ"),
        check="jwt",
    ),
    rule("jwt-base64", "Base64-encoded JSON Web Token", "zxlk",
         L + r"ZXlK(?:" + "|".join(_JWT_HEADERS) + r")[a-zA-Z0-9/\\_+\-\r\n]{40,}={0,2}",
         entropy=2.0, prefix="ZXlK"),
    rule("discord-webhook-url", "Discord webhook URL", "discord",
         r"(?i:https?://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/(?:v\d{1,2}/)?webhooks/)"
         r"\d{16,21}/[\w-]{50,100}", entropy=0.0,
         prefix=r"(?i:https?://[a-z.]*discord(?:app)?\.com/api/(?:v\d+/)?webhooks/)"),
    rule("microsoft-teams-webhook", "Microsoft Teams incoming webhook URL", "webhook.office.com",
         r"(?i:https://[a-z0-9]+\.webhook\.office\.com/webhookb2/[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}"
         r"[a-z0-9]{12}@[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}[a-z0-9]{12}/IncomingWebhook/[a-z0-9]{32}/"
         r"[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}[a-z0-9]{12})", entropy=0.0,
         prefix=r"https://[a-z0-9]+\.webhook\.office\.com/"),
    rule("putty-private-key", "PuTTY private key file", "putty-user-key-file",
         r"PuTTY-User-Key-File-\d+:(?:(?!PuTTY-User)[\s\S]){0,4000}?Private-Lines:[ \t]*\d+"
         r"[ \t]*(?:\\[nr]|\s)+"
         r"[A-Za-z0-9+/=]{20,}",
         r"PuTTY-User-Key-File-\d+:(?:(?!PuTTY-User)[\s\S]){0,8000}?"
         r"Private-MAC:[ \t]*[0-9a-fA-F]{40,}",
         entropy=0.0, prefix=r"PuTTY-User-Key-File-\d+:"),
)  # fmt: skip

# Token formats found leaked in public memory files that only the generic rule could see
# next to a credential name. Shapes from gitleaks' rules of the same id where it has one
# (telegram, notion, linear, perplexity, vault: without gitleaks' keyword context, as the
# shapes are distinctive), else the vendors' documented prefixes (docs/SECRETS.md).
_SHOW_NOTHING = "(?!)"  # a prefix pattern that never matches: the preview shows no character
VENDOR_RULES: tuple[SecretRule, ...] = (
    rule("telegram-bot-api-token", "Telegram bot token", ":aa",
         r"(?<![0-9])(\d{8,10}:AA[\w-]{33})" + E, prefix=_SHOW_NOTHING),
    rule("openrouter-api-key", "OpenRouter API key", "sk-or-v1-",
         L + r"(sk-or-v1-[0-9a-f]{64})" + E, L + r"(sk-or-v1-[0-9a-zA-Z]{48,80})" + E),
    rule("groq-api-key", "Groq API key", "gsk_", L + r"(gsk_[a-zA-Z0-9]{48,56})" + E),
    rule("xai-api-key", "xAI API key", "xai-", L + r"(xai-[a-zA-Z0-9]{70,90})" + E),
    rule("notion-api-token", "Notion API token", "ntn_",
         L + r"(ntn_[0-9]{11}[A-Za-z0-9]{35})" + E, entropy=4.0),
    rule("linear-api-key", "Linear API key", "lin_api_",
         L + r"(lin_api_[a-zA-Z0-9]{40})" + E, entropy=2.0),
    rule("perplexity-api-key", "Perplexity API key", "pplx-",
         L + r"(pplx-[a-zA-Z0-9]{48})" + E, entropy=4.0),
    rule("vault-service-token", "HashiCorp Vault service token", "hvs.",
         L + r"(hvs\.[\w-]{90,120})" + E, entropy=3.5),
    rule("stripe-webhook-secret", "Stripe webhook signing secret", "whsec_",
         L + r"(whsec_[a-zA-Z0-9+/]{32,88}={0,2})(?![a-zA-Z0-9+/=])"),
    rule("google-oauth-access-token", "Google OAuth access token", "ya29.",
         L + r"(ya29\.[\w-]{30,2048})"),
    rule("google-oauth-refresh-token", "Google OAuth refresh token", "1//0",
         L + r"(1//0[\w-]{40,512})"),
    # A SAS URL's signature (`sig=`) is the secret; `sv=` (the service version) tells it
    # from other `sig` parameters. Nothing of the signature is shown.
    rule("azure-sas-token", "Azure shared access signature", "sig=",
         r"[?&]sv=\d{4}-\d\d-\d\d&[^\s\x60'\"<>()]{0,400}?[?&]sig=([\w%+/=]{40,120})",
         r"[?&]sig=([\w%+/=]{40,120})&[^\s\x60'\"<>()]{0,400}?[?&]sv=\d{4}-\d\d-\d\d",
         prefix=_SHOW_NOTHING),
)  # fmt: skip

# Every rule with a fixed shape; the generic rule is matched separately (secret_generic).
SPECIFIC_RULES: tuple[SecretRule, ...] = (
    *(
        replace(r, allow_sha256=GCP_PUBLISHED_KEYS) if r.rule_id == "gcp-api-key" else r
        for r in GITLEAKS_RULES
    ),
    PRIVATE_KEY_RULE,
    *EXTRA_RULES,
    *VENDOR_RULES,
)

# jwt.io's documented sample signature and the claims most tutorials use.
_SAMPLE_SIGNATURES = ("SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",)
_SAMPLE_CLAIMS = ('"John Doe"',)


def _b64url_json(segment: str) -> object:
    """The JSON value a base64url segment encodes, or None."""
    import json  # only a JWT-shaped candidate reaches here: `check` starts without json

    segment = segment.rstrip("=")
    try:
        raw = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
        return json.loads(raw.decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


def jwt_parts(token: str) -> tuple[object, str] | None:
    """(decoded header, payload text) of a JWT-shaped string, or None."""
    parts = token.split(".")
    if len(parts) < 2:
        return None
    header = _b64url_json(parts[0])
    try:
        payload = parts[1].rstrip("=")
        text = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        text = ""
    return header, text


def is_sample_jwt(token: str) -> bool:
    """True for a tutorial JWT (jwt.io's signature, `"name": "John Doe"` claims)."""
    if any(sample in token for sample in _SAMPLE_SIGNATURES):
        return True
    parts = jwt_parts(token)
    return parts is not None and any(claim in parts[1] for claim in _SAMPLE_CLAIMS)


def check_jwt(token: str) -> bool:
    """A real JWT: its header is a JSON object naming `alg` or `typ`, and not a sample."""
    parts = jwt_parts(token)
    if parts is None:
        return False
    header = parts[0]
    if not isinstance(header, dict) or not ({"alg", "typ"} & set(header)):
        return False
    return not is_sample_jwt(token)


CHECKS = {"jwt": check_jwt}
