"""Regressions from the secret-scanner review (docs/RELIABILITY.md, docs/SECRETS.md).

Parts of a secret printed by ``redact()`` (a wrapped token, a routable GitLab PAT), token
formats with no rule, and memory layouts the generic rule could not read. Every token is
built here from seeded random characters (testing/secretgen.py): none is a real secret.
"""

from __future__ import annotations

import pytest

from memsync.check.secrets import redact, scan_text
from testing.secretgen import materialize

GENERIC = "generic-high-entropy-secret"


def token(template: str, seed: str) -> str:
    """TEMPLATE's slots filled with seeded random characters."""
    return materialize(template, seed)[0]


def found(text: str) -> list[tuple[str, str]]:
    """(rule id, preview) of each finding in TEXT."""
    return [(f.rule_id, f.preview) for f in scan_text(text)]


# --- a token wrapped over two lines is redacted whole --------------------------------

WRAPPED = (
    ("stripe-access-token", "sk_live_<<alnum:99>>", "sk_live_"),
    ("slack-bot-token", "xoxb-<<digits:12>>-<<digits:13>>-<<alnum:24>>", "xoxb-"),
    ("openai-api-key", "sk-proj-<<urlsafe:74>>T3BlbkFJ<<urlsafe:74>>", "sk-proj-"),
    ("pypi-upload-token", "pypi-AgEIcHlwaS5vcmc<<urlsafe:150>>", "pypi-"),
)


@pytest.mark.parametrize(("rule_id", "template", "shown"), WRAPPED)
def test_a_wrapped_token_is_redacted_whole(rule_id: str, template: str, shown: str) -> None:
    # The first line alone matched the rule and only it was redacted: the rest was printed.
    secret = token(template, rule_id)
    half = len(secret) // 2
    text = f"We set the credential to {secret[:half]}\n{secret[half:]} on the staging box."
    hidden = len(secret) - len(shown)
    assert redact(text) == (
        f"We set the credential to ({rule_id}: {shown}…(redacted {hidden} chars))"
        " on the staging box."
    )


def test_a_stripe_key_wrapped_anywhere_shows_none_of_its_secret_part() -> None:
    secret = token("sk_live_<<alnum:99>>", "anywhere")
    for cut in range(16, len(secret) - 4):
        shown = redact(f"- key {secret[:cut]}\n  {secret[cut:]} (rotate)")
        assert not any(secret[i : i + 8] in shown for i in range(8, len(secret) - 7)), cut


def test_a_wrapped_account_key_is_redacted_whole() -> None:
    key = token("<<b64:86>>==", "account-key")
    text = (
        "Storage: DefaultEndpointsProtocol=https;AccountName=acmeprodlogs;"
        f"AccountKey={key[:30]}\n{key[30:]};EndpointSuffix=core.windows.net"
    )
    assert redact(text) == (
        "Storage: DefaultEndpointsProtocol=https;AccountName=acmeprodlogs;AccountKey="
        f"({GENERIC}: AccountKey=…(redacted 88 chars));EndpointSuffix=core.windows.net"
    )


# --- GitLab routable PATs: the narrow pattern must not cut the token short -----------


@pytest.mark.parametrize(
    "template",
    ["glpat-<<urlsafe:27>>.01.<<lowalnum:7>>", "glpat-<<urlsafe:27>>.<<lowalnum:9>>"],
)
def test_a_routable_gitlab_pat_is_redacted_whole(template: str) -> None:
    secret = token(template, "routable")
    hidden = len(secret) - len("glpat-")
    assert redact(f"Use {secret} for the API.") == (
        f"Use (gitlab-pat: glpat-…(redacted {hidden} chars)) for the API."
    )


# --- vendor formats that only the generic rule saw, next to a credential name ----------

# (rule id, token template, public prefix shown, a look-alike that is no token)
VENDOR = (
    ("telegram-bot-api-token", "<<digits:10>>:AA<<urlsafe:33>>", "",
     "<<digits:10>>:AA<<urlsafe:20>>"),
    ("openrouter-api-key", "sk-or-v1-<<hex:64>>", "sk-or-v1-", "sk-or-v1-<<hex:30>>"),
    ("groq-api-key", "gsk_<<alnum:52>>", "gsk_", "gsk_<<alnum:20>>"),
    ("xai-api-key", "xai-<<alnum:80>>", "xai-", "xai-grok-2-vision-latest"),
    ("notion-api-token", "ntn_<<digits:11>><<alnum:35>>", "ntn_", "ntn_<<alpha:46>>"),
    ("linear-api-key", "lin_api_<<alnum:40>>", "lin_api_", "lin_api_<<alnum:20>>"),
    ("perplexity-api-key", "pplx-<<alnum:48>>", "pplx-", "pplx-70b-online"),
    ("vault-service-token", "hvs.<<urlsafe:95>>", "hvs.", "hvs.<<urlsafe:40>>"),
    ("stripe-webhook-secret", "whsec_<<alnum:32>>", "whsec_", "whsec_<<alnum:16>>"),
    ("google-oauth-access-token", "ya29.a0<<urlsafe:150>>", "ya29.", "ya29.<<alpha:12>>"),
    ("google-oauth-refresh-token", "1//0<<urlsafe:100>>", "1//0", "1//0<<urlsafe:12>>"),
    ("slack-bot-token", "xoxb-<<digits:14>>-<<digits:14>>-<<alnum:24>>", "xoxb-",
     "xoxb-<<digits:14>>"),
)  # fmt: skip


@pytest.mark.parametrize(("rule_id", "template", "shown", "lookalike"), VENDOR)
def test_vendor_tokens_have_their_own_rule(
    rule_id: str, template: str, shown: str, lookalike: str
) -> None:
    secret = token(template, rule_id)
    hidden = len(secret) - len(shown)
    assert found(f"The bot uses {secret} in prose.") == [
        (rule_id, f"{shown}…[redacted {hidden} chars]")
    ]
    assert redact(f"`{secret}`") == f"`({rule_id}: {shown}…(redacted {hidden} chars))`"
    assert found(f"The bot uses {token(lookalike, rule_id)} in prose.") == []


def test_an_azure_sas_url_hides_its_signature() -> None:
    sig = token("<<b64:43>>", "sas") + "%3D"
    url = "https://acmeprodlogs.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=co&sp=rl"
    text = f"BACKUP_SAS_URL={url}&se=2026-12-31T00:00:00Z&sig={sig}"
    assert found(text) == [("azure-sas-token", f"…[redacted {len(sig)} chars]")]
    assert redact(text) == (
        f"BACKUP_SAS_URL={url}&se=2026-12-31T00:00:00Z&sig=(azure-sas-token: …(redacted 46 chars))"
    )
    # `sig=` without the service version is some other signature parameter.
    assert found(f"https://cdn.acme.io/img.png?sig={sig}") == []


# --- the generic rule reads the layouts memories use ---------------------------------


@pytest.mark.parametrize(
    ("layout", "key"),
    [
        ("- **Password:** {}", "Password"),
        ("**DB password:** `{}`", "password"),
        ("- **API Key:** {}", "Key"),
        ('{{"Authorization": "Bearer {}"}}', "Authorization"),
        ("headers = {{'Authorization': 'Bearer {}'}}", "Authorization"),
    ],
)
def test_bold_keys_and_quoted_headers_are_read(layout: str, key: str) -> None:
    secret = token("<<urlsafe:40>>", layout)
    text = layout.format(secret)
    assert found(text) == [(GENERIC, f"{key}=…[redacted 40 chars]")]
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "line",
    [
        "Contact the coach at [mail](mailto:{}@acme.io) before noon.",
        "Session Key: agent:main:slack:channel:{}",
        "rolling citations PASS: typography=4, component={}",
        '"text": "www-data ALL=(ALL) NOPASSWD: /srv/app/deploy/deploy.sh\\n\\nThen {}"',
    ],
)
def test_generic_lookalikes_from_real_memories_are_not_secrets(line: str) -> None:
    assert found(line.format(token("<<lowalnum:11>>", line))) == []
