"""Tests for the secret scanner (memsync.check.secrets) against a labelled corpus.

The positive corpus in tests/data/secrets/positives/<rule_id>.txt holds realistic memory
lines with slots like ``<<alnum:36>>``; the test fills them with deterministic random
characters, so no real-looking credential is ever committed. To write the filled-in
corpus somewhere (e.g. to try another scanner on it):
``python tests/test_secrets.py OUTDIR``.
"""

from __future__ import annotations

import base64
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.check.secrets import (
    ALLOW_MARKER,
    RULES,
    SecretFinding,
    scan_file,
    scan_text,
    shannon_entropy,
)
from testing.secretgen import ALPHABETS, DATA, POSITIVES, materialize

BENIGN = DATA / "benign.txt"

# The client's 52 rule ids (CLAUDE-CODE.md section 4), in the table's order.
CLIENT_RULE_IDS = (
    "aws-access-token", "gcp-api-key", "google-oauth-client-secret", "azure-ad-client-secret",
    "digitalocean-pat", "digitalocean-access-token", "anthropic-api-key",
    "anthropic-admin-api-key", "anthropic-oauth-token", "openai-api-key",
    "openai-legacy-api-key", "huggingface-access-token", "supabase-secret-key",
    "supabase-access-token", "github-pat", "github-fine-grained-pat", "github-app-token",
    "github-oauth", "github-refresh-token", "gitlab-pat", "gitlab-deploy-token",
    "gitlab-runner-authentication-token", "gitlab-oauth-app-secret",
    "gitlab-pipeline-trigger-token", "gitlab-kubernetes-agent-token",
    "gitlab-incoming-mail-token", "gitlab-scim-oauth-token", "gitlab-ci-build-token",
    "gitlab-feed-token", "gitlab-feature-flag-client-token", "slack-bot-token",
    "slack-user-token", "slack-rotation-token", "slack-app-token", "slack-workflow-token",
    "slack-webhook-url", "twilio-api-key", "sendgrid-api-token", "npm-access-token",
    "pypi-upload-token", "databricks-api-token", "hashicorp-tf-api-token",
    "pulumi-api-token", "postman-api-token", "grafana-api-key", "grafana-cloud-api-token",
    "grafana-service-account-token", "sentry-user-token", "sentry-org-token",
    "stripe-access-token", "shopify-access-token", "shopify-shared-secret",
)  # fmt: skip
EXTRA_RULE_IDS = (
    "jwt", "jwt-base64", "discord-webhook-url", "microsoft-teams-webhook", "putty-private-key",
)  # fmt: skip
# Formats found leaked in public memories that had no rule (docs/SECRETS.md).
VENDOR_RULE_IDS = (
    "telegram-bot-api-token", "openrouter-api-key", "groq-api-key", "xai-api-key",
    "notion-api-token", "linear-api-key", "perplexity-api-key", "vault-service-token",
    "stripe-webhook-secret", "google-oauth-access-token", "google-oauth-refresh-token",
    "azure-sas-token",
)  # fmt: skip
CLAUDE_CODE_RULE_IDS = (*CLIENT_RULE_IDS, "private-key", *EXTRA_RULE_IDS, *VENDOR_RULE_IDS)
GENERIC = "generic-high-entropy-secret"


def positive(rule_id: str) -> tuple[str, list[str]]:
    """The filled-in positive sample for ``rule_id`` and its random parts."""
    return materialize((POSITIVES / f"{rule_id}.txt").read_text(encoding="utf-8"), rule_id)


def rand(alphabet: str, k: int, seed: str) -> str:
    return "".join(random.Random(seed).choices(ALPHABETS[alphabet], k=k))


# --- the rule table ------------------------------------------------------------------


def test_rules_table_is_the_clients_52_then_pem_extras_and_generic() -> None:
    assert len(CLIENT_RULE_IDS) == 52
    assert tuple(r.rule_id for r in RULES) == (*CLAUDE_CODE_RULE_IDS, GENERIC)
    assert all(r.description for r in RULES)
    assert ALLOW_MARKER == "memsync:allow-secret"


def test_corpus_has_one_positive_per_rule() -> None:
    assert sorted(p.stem for p in POSITIVES.glob("*.txt")) == sorted(CLAUDE_CODE_RULE_IDS)


# --- true positives --------------------------------------------------------------------


@pytest.mark.parametrize("rule_id", CLAUDE_CODE_RULE_IDS)
def test_each_rule_finds_its_positive(rule_id: str) -> None:
    text, parts = positive(rule_id)
    findings = scan_text(text, f"memory/{rule_id}.md")
    assert [f.rule_id for f in findings] == [rule_id]
    finding = findings[0]
    assert finding.path == f"memory/{rule_id}.md"
    # The finding points at the line holding the (first) generated part.
    first = parts[0].splitlines()[0]
    first_line = next(i for i, line in enumerate(text.splitlines(), 1) if first in line)
    assert finding.line <= first_line
    assert "[redacted" in finding.preview
    for part in parts:
        assert part[:12] not in finding.preview


def test_positive_corpus_scores_every_rule() -> None:
    found = {rule_id for rule_id in CLAUDE_CODE_RULE_IDS if any(
        f.rule_id == rule_id for f in scan_text(positive(rule_id)[0]))}  # fmt: skip
    assert len(found) == len(CLAUDE_CODE_RULE_IDS), sorted(set(CLAUDE_CODE_RULE_IDS) - found)


# Hand-made tokens often get the length or alphabet slightly wrong; the widened
# patterns still catch them under the right rule id.
NEAR_MISS_FORMATS = (
    ("aws-access-token", "AKIA<<upalnum:16>>"),
    ("gcp-api-key", "AIza<<alnum:37>>"),
    ("digitalocean-pat", "dop_v1_<<alnum:64>>"),
    ("anthropic-api-key", "sk-ant-api03-<<urlsafe:90>>"),
    ("openai-api-key", "sk-proj-<<alnum:100>>"),
    ("openai-legacy-api-key", "sk-<<alnum:48>>"),
    ("huggingface-access-token", "hf_<<alnum:37>>"),
    ("github-fine-grained-pat", "github_pat_<<alnum:76>>"),
    ("sendgrid-api-token", "SG.<<urlsafe:20>>.<<urlsafe:40>>"),
    ("npm-access-token", "npm_<<alnum:40>>"),
    ("pypi-upload-token", "pypi-AgENdGVzdC5weXBpLm9yZw<<urlsafe:80>>"),
    ("databricks-api-token", "dapi<<alnum:32>>"),
    ("hashicorp-tf-api-token", "<<lowalnum:12>>.atlasv1.<<urlsafe:50>>"),
    ("pulumi-api-token", "pul-<<alnum:40>>"),
    ("postman-api-token", "PMAK-<<alnum:24>>-<<alnum:34>>"),
    ("grafana-service-account-token", "glsa_<<alnum:30>>_<<alnum:8>>"),
    ("sentry-user-token", "sntryu_<<alnum:64>>"),
    ("sentry-org-token", "sntrys_<<alnum:90>>"),
    ("shopify-access-token", "shpat_<<alnum:32>>"),
)


@pytest.mark.parametrize(("rule_id", "template"), NEAR_MISS_FORMATS)
def test_near_miss_formats_are_caught(rule_id: str, template: str) -> None:
    text, _ = materialize(f"The job uses {template}.", template)
    assert [f.rule_id for f in scan_text(text)] == [rule_id]


def test_finding_position_and_preview() -> None:
    token = "ghp_" + rand("alnum", 36, "pos")
    text = "---\nname: ci\n---\n\nThe bot uses  " + token + " daily.\n"
    (finding,) = scan_text(text, "ci.md")
    assert (finding.line, finding.column) == (5, 15)
    assert finding.preview == "ghp_…[redacted 36 chars]"
    assert token not in str(finding) and token not in repr(finding)
    assert str(finding) == "ci.md:5:15: github-pat: ghp_…[redacted 36 chars]"


def test_findings_sorted_by_line_and_column() -> None:
    pat, npm = "ghp_" + rand("alnum", 36, "a"), "npm_" + rand("alnum", 36, "b")
    text = f"{npm} x\n{pat} then {npm}\n"
    got = [(f.line, f.column, f.rule_id) for f in scan_text(text)]
    assert got == [
        (1, 1, "npm-access-token"),
        (2, 1, "github-pat"),
        (2, len(pat) + 7, "npm-access-token"),
    ]


def test_private_key_is_reported_on_its_begin_line() -> None:
    text, _ = positive("private-key")
    (finding,) = scan_text(text)
    assert finding.line == 3
    assert finding.preview.startswith("-----BEGIN OPENSSH PRIVATE KEY-----…[redacted ")


def test_private_key_with_escaped_newlines_and_truncated_key() -> None:
    body = rand("b64", 64, "pem")
    pem = f"-----BEGIN PRIVATE KEY-----\\n{body}\\n{body}\\n-----END PRIVATE KEY-----\\n"
    escaped = f'"key": "{pem}"'
    truncated = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n(rest cut)"
    assert [f.rule_id for f in scan_text(escaped)] == ["private-key"]
    assert [f.rule_id for f in scan_text(truncated)] == ["private-key"]


@pytest.mark.parametrize("end", [".", ",", ")", "!", ":", "`"])
def test_token_followed_by_prose_punctuation(end: str) -> None:
    token = "sk_live_" + rand("alnum", 24, "stripe")
    assert [f.rule_id for f in scan_text(f"(Billing uses {token}{end} today)")] == [
        "stripe-access-token"
    ]


def test_low_entropy_lookalikes_are_not_reported() -> None:
    assert scan_text("ghp_" + "a" * 36) == []
    assert scan_text("AKIA" + "A" * 16) == []
    assert scan_text("dop_v1_" + "0" * 64) == []


def test_aws_documented_example_keys_are_allowed() -> None:
    assert scan_text("AKIAIOSFODNN7EXAMPLE") == []
    assert scan_text("key AKIA" + rand("b32", 16, "aws")) != []


# --- the generic rule ------------------------------------------------------------------

GENERIC_POSITIVES = (
    'api_key = "{v}"',
    '"password": "{v}"',
    "SECRET={v}",
    "token: {v}",
    "export DEPLOY_TOKEN='{v}'",
    "db.password={v}",
    "client_secret: `{v}`",
    "DJANGO_SECRET_KEY=django-insecure-{v}",
    "Authorization: Bearer {v}.{v}",
    "- **Password**: {v}",
    "webhook url https://api.acme.dev/hooks?access_token={v}&ts=1",
)


@pytest.mark.parametrize("template", GENERIC_POSITIVES)
def test_generic_rule_catches_assignments(template: str) -> None:
    value = rand("alnum", 24, template)
    findings = scan_text(template.format(v=value))
    assert [f.rule_id for f in findings] == [GENERIC]
    assert value not in findings[0].preview
    assert "[redacted" in findings[0].preview


def test_generic_rule_catches_credentials_in_urls() -> None:
    password = rand("alnum", 14, "url")
    (finding,) = scan_text(f"remote: https://deploy:{password}@git.acme.dev/team/memory.git")
    assert finding.rule_id == GENERIC
    assert finding.preview == "https://deploy:…[redacted 14 chars]"
    basic = base64.b64encode(f"deploy:{password}".encode()).decode()
    assert [f.rule_id for f in scan_text(f"Authorization: Basic {basic}")] == [GENERIC]


def _jwt(claims: str) -> str:
    header, payload = (
        base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")
        for raw in ('{"alg":"HS256"}', claims)
    )
    return f"{header}.{payload}.{rand('urlsafe', 43, claims)}"


def test_generic_rule_flags_jwts_except_tutorial_samples() -> None:
    real = _jwt('{"sub":"u_82731","org":"acme","exp":1767225600}')
    sample = _jwt('{"sub":"1234567890","name":"John Doe","iat":1516239022}')
    assert [f.rule_id for f in scan_text(f"access_token: {real}")] == ["jwt"]
    assert [f.rule_id for f in scan_text(f"Bare: **{real}**.")] == ["jwt"]
    assert scan_text(f"access_token: {sample}") == []


@pytest.mark.parametrize(
    "line",
    [
        "api_key = <<hex:64>>",
        "token: <<hex:40>>",
        "SECRET=<<hex:32>>",
        "export PGPASSWORD=<<alnum:12>>",
        "client_secret: 0x<<hex:48>>",
    ],
)
def test_hex_and_passwords_under_credential_names_are_secrets(line: str) -> None:
    text, _ = materialize(line, line)
    assert [f.rule_id for f in scan_text(text)] == [GENERIC]


def test_generic_rule_judges_base64_values_by_their_text() -> None:
    random_text = base64.b64encode(rand("alnum", 16, "b64").encode()).decode()
    assert [f.rule_id for f in scan_text(f"  password: {random_text}")] == [GENERIC]
    words = base64.b64encode(b"example-token-value").decode()
    assert scan_text(f"  token: {words}") == []


@pytest.mark.parametrize(
    "line",
    [
        "sha256 = 9f86d081884c7d659a2feaea0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a0",
        "token_sha1: 3f786850e387550fdab836ed7e6dc881de23001b",
        "gpg_signing_key = 5D41402ABC4B2A76B9719D911017C592",
        "api_key: 550e8400-e29b-41d4-a716-446655440000",
        "password: <your-password-goes-here>",
        "API_KEY=${{ secrets.API_KEY }}",
        "token = xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "SECRET=************************",
        "password = changeme-changeme-2024",
        "key_file = /etc/ssl/private/server-2024.key",
        "token_url = https://auth.acme.dev/oauth2/v1/token",
        "secret: https://vault.acme.dev/ui/vault/secrets/kv/show/prod",
        "public_key = MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE5b1c2d3e4f5",
        "keyboard_layout = us-intl-altgr-dead-keys-2",
        "token = build-cache-2024-03-05-linux-x86_64",
        "password: Tr0ub4dor&3",  # xkcd's famous example password
    ],
)
def test_generic_rule_ignores_lookalikes(line: str) -> None:
    assert scan_text(line) == []


# --- benign corpus ---------------------------------------------------------------------


def test_benign_corpus_has_zero_findings() -> None:
    text = BENIGN.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) >= 60
    assert scan_file(BENIGN) == []
    assert [line for line in lines if scan_text(line)] == []


# --- allow marker, files ---------------------------------------------------------------


def test_allow_marker_silences_only_its_line() -> None:
    line, _ = positive("github-pat")
    silenced = line.rstrip("\n") + f" <!-- {ALLOW_MARKER} -->\n"
    assert scan_text(silenced) == []
    findings = scan_text(silenced + line)
    assert [(f.line, f.rule_id) for f in findings] == [(2, "github-pat")]
    assert scan_text(f"api_key = {rand('alnum', 24, 'allow')}  # {ALLOW_MARKER}") == []


def test_scan_file_strips_bom_and_tolerates_bad_utf8(tmp_path: Path) -> None:
    token = "glpat-" + rand("urlsafe", 20, "file")
    path = tmp_path / "note.md"
    path.write_bytes(b"\xef\xbb\xbf" + token.encode() + b" \xff\xfe\n")
    (finding,) = scan_file(path, display_path="project/note.md")
    assert (finding.path, finding.line, finding.column) == ("project/note.md", 1, 1)
    assert scan_file(path)[0].path == str(path)


def test_finding_is_a_frozen_dataclass() -> None:
    finding = SecretFinding("a.md", 1, 1, "github-pat", "d", "ghp_…[redacted 36 chars]")
    with pytest.raises(AttributeError):
        finding.line = 2  # type: ignore[misc]


def test_shannon_entropy() -> None:
    assert shannon_entropy("") == 0.0
    assert shannon_entropy("aaaa") == 0.0
    assert shannon_entropy("abcd") == pytest.approx(2.0)


# --- speed -----------------------------------------------------------------------------


def test_two_thousand_realistic_memories_raise_no_finding() -> None:
    # Speed is measured in benchmarks/bench_startup.py, not asserted here.
    memory = (
        "---\nname: deploy-policy-{i}\ndescription: How deploy tokens and keys are rotated\n"
        "type: project\n---\n\nDeploys run from main after review. The deploy token lives "
        "in the vault; ask #platform for access. Never paste a secret or password here.\n"
        "Commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the cache key bug; see "
        "https://github.com/acme/api/pull/412. Tags follow v2024.03.05. The API key header "
        "is X-Api-Key and tokens expire after 3600 seconds; max_tokens: 4096.\n"
        "- Use `make deploy ENV=staging` then watch the dashboard at "
        "https://grafana.acme.dev/d/abc123/api?orgId=1.\n"
    )
    texts = [memory.format(i=i) * 2 for i in range(2000)]
    assert 900 < len(texts[0]) < 1500
    assert not any(scan_text(t, f"m{i}.md") for i, t in enumerate(texts))


if __name__ == "__main__":
    # Write the filled-in positive corpus to a directory, one file per rule.
    out = Path(sys.argv[1])
    (out / "positives").mkdir(parents=True, exist_ok=True)
    for rule in CLAUDE_CODE_RULE_IDS:
        (out / "positives" / f"{rule}.txt").write_text(positive(rule)[0], encoding="utf-8")
    (out / "benign.txt").write_text(BENIGN.read_text(encoding="utf-8"), encoding="utf-8")


@pytest.mark.parametrize(
    "text",
    [
        "https://u:" * 25000,
        "key:" + "x:" * 120000,
        "PuTTY-User-Key-File-2: " * 10000,
        "-----BEGIN RSA PRIVATE KEY-----\n" * 8000,
        "ghp_" * 60000,
        "%41" * 80000,
        'abcdefghij"\n"' * 20000,
    ],
    ids=["urls", "colons", "putty", "pem", "prefix", "escapes", "joins"],
)
def test_hostile_text_of_the_size_limit_scans_in_linear_time(text: str) -> None:
    import time

    began = time.monotonic()
    assert scan_text(text) == []
    assert time.monotonic() - began < 20  # ~0.3 s idle; quadratic inputs took minutes


_JOIN_ALPHABET = "aZ9_-./+=~ \t\n\r\"'`&,\\|>:x"


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=_JOIN_ALPHABET, max_size=60))
def test_the_join_hint_finds_every_text_the_join_rule_would(text: str) -> None:
    """The fast hint is a necessary condition of the wrapped-token join: never a miss."""
    from memsync.check import secrets

    full = secrets._pattern(secrets._JOIN_SOURCE).search(text)
    hint = secrets._pattern(secrets._JOIN_HINT_SOURCE).search(text)
    assert full is None or hint is not None, (text, full)


@pytest.mark.parametrize(
    "text",
    [
        "token: ghp_abcdEFGH12\nijklMNOP34",  # a wrapped token
        'key = "sk-abcdEFGH" +\n  "ijklMNOP"',  # pieces over lines
        'key = "sk-abcdEFGH" + "ijklMNOP"',  # pieces on one line
        "SG.abcdEFGH.5diI.\r\nEDuvwxyz",  # a split after a full stop, CRLF
    ],
)
def test_the_join_hint_finds_real_joins(text: str) -> None:
    from memsync.check import secrets

    assert secrets._pattern(secrets._JOIN_SOURCE).search(text) is not None
    assert secrets._pattern(secrets._JOIN_HINT_SOURCE).search(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "---\nname: feedback_always-commit-before\ndescription: commit first\n---\n",
        "We rebased the branch before deploying\nthe service to production.\n",
    ],
)
def test_frontmatter_and_wrapped_prose_are_not_joins(text: str) -> None:
    from memsync.check import secrets

    assert secrets._pattern(secrets._JOIN_SOURCE).search(text) is None
    assert secrets._pattern(secrets._JOIN_HINT_SOURCE).search(text) is None
