"""The client's 52 secret rules plus PEM keys: ids, keywords and patterns.

Patterns are re-expressed from gitleaks' default configuration (config/gitleaks.toml of
https://github.com/gitleaks/gitleaks at v8.30.1-27, commit b58d3f10; MIT License,
Copyright (c) 2019 Zachary Rice; full notice in docs/SECRETS.md). Where gitleaks has no
rule of the client's id (e.g. gitlab-pipeline-trigger-token is gitleaks' gitlab-ptt), the
pattern follows gitleaks' rule for the same token or the vendor's documented format; the
table in docs/SECRETS.md names the source of each.

Widening, everywhere: gitleaks' left ``\\b`` becomes ``(?<![A-Za-z0-9])`` and its right
delimiter ``(?:[\\x60'"\\s;]|\\\\[nr]|$)`` becomes ``(?![A-Za-z0-9])``, so a token wrapped in
Markdown or prose punctuation (``**``, ``_``, ``—``, ``。``, ``&``, ``@``, ``#``, ``/``) is found.
A second pattern marked "wider" accepts the client's or a drifted length or alphabet
behind the same distinctive prefix.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

# Widened boundaries (see the module docstring): never inside a longer alphanumeric run.
L = r"(?<![A-Za-z0-9])"
E = r"(?![A-Za-z0-9])"


@dataclass(frozen=True)
class SecretRule:
    """One detection rule: a gitleaks id, a description and how to match it."""

    rule_id: str
    description: str
    # Lowercase substrings; the rule's regexes only run on text containing one of them.
    keywords: tuple[str, ...] = field(default=(), kw_only=True, repr=False)
    # The secret is the first non-empty capture group, else the whole match.
    patterns: tuple[str, ...] = field(default=(), kw_only=True, repr=False)
    # A secret whose Shannon entropy (bits/char) is not above this is ignored.
    entropy: float = field(default=0.0, kw_only=True, repr=False)
    # Regexes searched in the secret; a hit means "documented example, not a secret".
    allow: tuple[str, ...] = field(default=(), kw_only=True, repr=False)
    # sha256 hex digests of specific published non-secret values (kept hashed).
    allow_sha256: frozenset[str] = field(default=frozenset(), kw_only=True, repr=False)
    # Regex that must be found in the secret for it to count (shape sanity check).
    require: str = field(default="", kw_only=True, repr=False)
    # Regex anchored at the secret's start: the public prefix shown in previews.
    prefix: str = field(default="", kw_only=True, repr=False)
    # Regex searched in the secret: a hit marks a documentation placeholder
    # (`ghp_xxxx…`, `…EXAMPLE…`). memsync's addition to gitleaks' allowlists.
    placeholder: str = field(default=r"(?i:example)|x{4,}|X{4,}|\*{3,}", kw_only=True, repr=False)
    # Name of an extra structural check in memsync.secret_extra (e.g. "jwt").
    check: str = field(default="", kw_only=True, repr=False)


def rule(
    rule_id: str, description: str, keywords: str, *patterns: str, entropy: float = 3.0, **kw: str
) -> SecretRule:
    """A rule whose public prefix is its first keyword unless given (compact table rows)."""
    words = tuple(keywords.split())
    return SecretRule(
        rule_id,
        description,
        keywords=words,
        patterns=patterns,
        entropy=entropy,
        allow=tuple(kw.get("allow", "").split()) if kw.get("allow") else (),
        prefix=kw.get("prefix") or "(?i:" + re.escape(words[0]) + ")",
        require=kw.get("require", ""),
    )


# The client's wider GitLab token body, with the routing suffix of routable tokens, both
# gitleaks' `.<9>` and the dotted `.01.<7>` form (a suffix left out would be printed).
_GITLAB_BODY = r"[\w=-]{20,}(?:\.[0-9a-z]{2}\.?[0-9a-z]{7})?"


def _gitlab(rule_id: str, prefix: str, what: str, body: str) -> SecretRule:
    # gitleaks: `<prefix>-<body>` with no boundary; wider: the client's `[\w=-]{20,}` body.
    return rule(
        rule_id, f"GitLab {what}", prefix + "-", prefix + "-" + body, prefix + "-" + _GITLAB_BODY,
        prefix=prefix + "-",
    )  # fmt: skip


GITLEAKS_RULES: tuple[SecretRule, ...] = (
    rule("aws-access-token", "AWS access key id", "a3t akia asia abia acca",
         L + r"((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})" + E,
         L + r"((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})" + E,  # wider: any digit
         allow=r".+EXAMPLE$", prefix=r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)"),
    rule("gcp-api-key", "Google Cloud API key", "aiza",
         L + r"(AIza[\w-]{35})" + E, L + r"(AIza[\w-]{30,45})" + E, entropy=4.0, prefix="AIza"),
    rule("google-oauth-client-secret", "Google OAuth client secret", "gocspx-",
         L + r"(GOCSPX-[\w-]{28})" + E, L + r"(GOCSPX-[\w-]{24,40})" + E, prefix="GOCSPX-"),
    rule("azure-ad-client-secret", "Azure AD client secret", "q~",
         L + r"([a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})" + E),
    rule("digitalocean-pat", "DigitalOcean personal access token", "dop_v1_",
         L + r"(dop_v1_[a-f0-9]{64})" + E, L + r"(dop_v1_[a-zA-Z0-9]{64})" + E),
    rule("digitalocean-access-token", "DigitalOcean OAuth access token", "doo_v1_",
         L + r"(doo_v1_[a-f0-9]{64})" + E, L + r"(doo_v1_[a-zA-Z0-9]{64})" + E),
    rule("anthropic-api-key", "Anthropic API key", "sk-ant-api03",
         L + r"(sk-ant-api03-[\w-]{93}AA)" + E, L + r"(sk-ant-api03-[\w-]{80,120})" + E),
    rule("anthropic-admin-api-key", "Anthropic admin API key", "sk-ant-admin01",
         L + r"(sk-ant-admin01-[\w-]{93}AA)" + E, L + r"(sk-ant-admin01-[\w-]{80,120})" + E),
    rule("anthropic-oauth-token", "Anthropic OAuth access or refresh token", "sk-ant-o",
         L + r"(sk-ant-oat01-[\w-]{40,})" + E, L + r"(sk-ant-(?:oat|ort)\d{2}-[\w-]{20,})" + E,
         prefix=r"sk-ant-o[a-z]{2}\d{2}-"),
    rule("openai-api-key", "OpenAI API key", "t3blbkfj sk-proj- sk-svcacct- sk-admin-",
         L + r"(sk-(?:proj|svcacct|admin)-(?:[\w-]{74}|[\w-]{58})T3BlbkFJ(?:[\w-]{74}|[\w-]{58})"
         r"|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})" + E,
         r"(sk-[\w-]{8,200}T3BlbkFJ[\w-]{8,200})",  # wider: the client's form
         L + r"(sk-(?:proj|svcacct|admin)-[\w-]{40,300})" + E,
         prefix=r"sk-(?:(?:proj|svcacct|admin)-)?"),
    rule("openai-legacy-api-key", "OpenAI legacy API key", "sk-",
         L + r"(sk-[a-zA-Z0-9]{48})" + E, prefix="sk-"),
    rule("huggingface-access-token", "Hugging Face access token", "hf_",
         L + r"(hf_[a-zA-Z]{34})" + E, L + r"(hf_[a-zA-Z0-9]{30,40})" + E, entropy=2.0),
    rule("supabase-secret-key", "Supabase secret API key", "sb_secret_",
         L + r"(sb_secret_[\w-]{20,})", allow=r"^sb_secret_[a-z_-]+$"),
    rule("supabase-access-token", "Supabase personal access token", "sbp_",
         L + r"(sbp_[a-f0-9]{40})" + E, L + r"(sbp_[a-zA-Z0-9]{40,})" + E),
    rule("github-pat", "GitHub personal access token", "ghp_", r"ghp_[0-9a-zA-Z]{36}"),
    rule("github-fine-grained-pat", "GitHub fine-grained personal access token", "github_pat_",
         r"github_pat_\w{82}", L + r"github_pat_\w{60,100}"),
    rule("github-app-token", "GitHub App token", "ghu_ ghs_", r"(?:ghu|ghs)_[0-9a-zA-Z]{36}",
         prefix=r"gh[us]_"),
    rule("github-oauth", "GitHub OAuth access token", "gho_", r"gho_[0-9a-zA-Z]{36}"),
    rule("github-refresh-token", "GitHub refresh token", "ghr_", r"ghr_[0-9a-zA-Z]{36}"),
    _gitlab("gitlab-pat", "glpat", "personal access token", r"[\w-]{20}"),
    _gitlab("gitlab-deploy-token", "gldt", "deploy token", r"[0-9a-zA-Z_-]{20}"),
    _gitlab("gitlab-runner-authentication-token", "glrt", "runner authentication token",
            r"[0-9a-zA-Z_-]{20}"),
    _gitlab("gitlab-oauth-app-secret", "gloas", "OAuth application secret", r"[0-9a-zA-Z_-]{64}"),
    _gitlab("gitlab-pipeline-trigger-token", "glptt", "pipeline trigger token", r"[0-9a-f]{40}"),
    _gitlab("gitlab-kubernetes-agent-token", "glagent", "Kubernetes agent token",
            r"[0-9a-zA-Z_-]{50}"),
    _gitlab("gitlab-incoming-mail-token", "glimt", "incoming mail token", r"[0-9a-zA-Z_-]{25}"),
    _gitlab("gitlab-scim-oauth-token", "glsoat", "SCIM OAuth token", r"[0-9a-zA-Z_-]{20}"),
    _gitlab("gitlab-ci-build-token", "glcbt", "CI/CD job token", r"[0-9a-zA-Z]{1,5}_[\w-]{20}"),
    _gitlab("gitlab-feed-token", "glft", "feed token", r"[0-9a-zA-Z_-]{20}"),
    _gitlab("gitlab-feature-flag-client-token", "glffct", "feature flag client token",
            r"[0-9a-zA-Z_-]{20}"),
    rule("slack-bot-token", "Slack bot token", "xoxb",
         r"xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*",
         r"xoxb-[0-9]{8,14}-[a-zA-Z0-9]{18,26}",  # wider: gitleaks' slack-legacy-bot-token
         r"xoxb-[0-9]{8,16}-[0-9]{8,16}-[a-zA-Z0-9]{16,}",  # wider: 14-digit ids seen in memories
         prefix="xoxb-"),
    rule("slack-user-token", "Slack user token", "xoxp- xoxe- xox",
         r"xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}",
         r"xox[a-z](?:-[0-9]{8,16}){3}-[a-zA-Z0-9-]{28,34}", entropy=2.0, prefix="xox[a-z]-"),
    rule("slack-rotation-token", "Slack configuration (rotating) token", "xoxe",
         r"(?i:xoxe.xox[bp]-\d-[A-Z0-9]{163,166})", r"(?i:xoxe-\d-[A-Z0-9]{146})",
         r"xoxe(?:\.xox[a-z])?-\d-[A-Za-z0-9-]{28,}", entropy=2.0, prefix=r"xoxe(?:\.xox[a-z])?-"),
    rule("slack-app-token", "Slack app-level token", "xapp",
         r"(?i:xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)", entropy=2.0, prefix="(?i:xapp)-"),
    rule("slack-workflow-token", "Slack workflow token", "xwfp-",
         L + r"(xwfp-[\w-]{20,})", prefix="xwfp-"),
    rule("slack-webhook-url", "Slack incoming webhook URL", "hooks.slack.com",
         r"(?:https?://)?hooks.slack.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}",
         r"(?i:(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/)[\w+/-]{40,}",
         entropy=0.0, prefix=r"(?i:(?:https?://)?hooks\.slack\.com/[a-z]+/)"),
    rule("twilio-api-key", "Twilio API key", "sk", r"SK[0-9a-fA-F]{32}", prefix="SK"),
    rule("sendgrid-api-token", "SendGrid API token", "sg.",
         L + r"(SG\.[\w=.-]{66})" + E, L + r"(SG\.[\w-]{16,32}\.[\w-]{32,64})" + E, entropy=2.0,
         prefix=r"SG\."),
    rule("npm-access-token", "npm access token", "npm_", L + r"((?i:npm_[a-z0-9]{36}))" + E,
         L + r"(npm_[A-Za-z0-9]{30,40})" + E, entropy=2.0, prefix="(?i:npm)_"),
    rule("pypi-upload-token", "PyPI upload token", "pypi-age",
         r"pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}", L + r"pypi-AgE[\w-]{50,1000}", prefix="pypi-"),
    rule("databricks-api-token", "Databricks API token", "dapi",
         L + r"(dapi[a-f0-9]{32}(?:-\d)?)" + E, L + r"(dapi[a-zA-Z0-9]{32}(?:-\d)?)" + E),
    rule("hashicorp-tf-api-token", "Terraform Cloud / Enterprise API token", "atlasv1",
         r"(?i:[a-z0-9]{14}\.)atlasv1(?i:\.[a-z0-9_=-]{60,70})",
         L + r"[a-zA-Z0-9]{10,20}\.atlasv1\.[\w=-]{40,100}", entropy=3.5),
    rule("pulumi-api-token", "Pulumi access token", "pul-",
         L + r"(pul-[a-f0-9]{40})" + E, L + r"(pul-[a-zA-Z0-9]{40})" + E, entropy=2.0),
    rule("postman-api-token", "Postman API key", "pmak-",
         L + r"(PMAK-(?i:[a-f0-9]{24}-[a-f0-9]{34}))" + E,
         L + r"(PMAK-[a-zA-Z0-9]{24}-[a-zA-Z0-9]{34})" + E, prefix="PMAK-"),
    rule("grafana-api-key", "Grafana API key", "eyjrijoi",
         L + r"((?i:eyJrIjoi)[A-Za-z0-9]{70,400}={0,3})" + E,
         L + r"(eyJrIjoi[A-Za-z0-9+/]{70,400}={0,3})", prefix="(?i:eyJrIjoi)"),
    rule("grafana-cloud-api-token", "Grafana Cloud API token", "glc_",
         L + r"((?i:glc_)[A-Za-z0-9+/]{32,400}={0,3})", prefix="(?i:glc)_"),
    rule("grafana-service-account-token", "Grafana service account token", "glsa_",
         L + r"((?i:glsa_)[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})" + E,
         L + r"(glsa_[A-Za-z0-9]{24,40}_[A-Za-z0-9]{6,10})" + E, prefix="(?i:glsa)_"),
    rule("sentry-user-token", "Sentry user auth token", "sntryu_",
         L + r"(sntryu_[a-f0-9]{64})" + E, L + r"(sntryu_[a-zA-Z0-9]{64})" + E, entropy=3.5),
    rule("sentry-org-token", "Sentry organization auth token", "sntrys_",
         L + r"(sntrys_eyJpYXQiO[a-zA-Z0-9+/]{10,200}"
         r"(?:LCJyZWdpb25fdXJs|InJlZ2lvbl91cmwi|cmVnaW9uX3VybCI6)"
         r"[a-zA-Z0-9+/]{10,200}={0,2}_[a-zA-Z0-9+/]{43})(?![a-zA-Z0-9+/])",
         L + r"(sntrys_[a-zA-Z0-9+/=_]{50,600})", entropy=4.5),
    rule("stripe-access-token", "Stripe secret or restricted key",
         "sk_test sk_live sk_prod rk_test rk_live rk_prod",
         L + r"((?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99})" + E, entropy=2.0,
         prefix=r"(?:sk|rk)_(?:test|live|prod)_"),
    rule("shopify-access-token", "Shopify access token", "shpat_",
         r"shpat_[a-fA-F0-9]{32}", L + r"shpat_[a-zA-Z0-9]{32}" + E, entropy=2.0),
    rule("shopify-shared-secret", "Shopify shared secret", "shpss_",
         r"shpss_[a-fA-F0-9]{32}", L + r"shpss_[a-zA-Z0-9]{32}" + E, entropy=2.0),
)  # fmt: skip


_PEM_HEADER = r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----"

PRIVATE_KEY_RULE = SecretRule(
    "private-key",
    "Private key (PEM)",
    keywords=("-----begin",),
    patterns=(
        # gitleaks ends at any "KEY-----"; here it must be the matching END line
        # and the body may not start another PEM block, so prose mentioning a
        # header is never joined to a later public key or certificate.
        r"(?i)" + _PEM_HEADER + r"(?:(?!-----BEGIN)[\s\S]){64,}?"
        r"-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----",
        # wider: a header directly followed by key material, END cut off
        r"(?i)" + _PEM_HEADER + r"(?:\\[nr]|\s|>|\"|'|,|\+){1,8}[A-Za-z0-9+/]{40,}",
    ),
    # A real key body always has a long base64 run; prose never does.
    require=r"[A-Za-z0-9+/=]{24,}",
    # Long random bodies do contain "xxxx" now and then; only "example" counts.
    placeholder=r"(?i:example)",
    prefix=r"(?i:" + _PEM_HEADER + r")",
)

GENERIC_RULE_ID = "generic-high-entropy-secret"
GENERIC_RULE = SecretRule(
    GENERIC_RULE_ID,
    "High-entropy value assigned to a key, token, secret or password "
    "(or a password in a URL or an scp-style user:password@host).",
)


@dataclass(frozen=True)
class Hit:
    """A rule's match: where the secret is in the scanned text and a redacted preview."""

    rule: SecretRule
    start: int
    end: int
    preview: str


def redacted(shown: str, hidden: int) -> str:
    """A preview: the public part SHOWN, then how many characters were hidden."""
    return f"{shown}…[redacted {hidden} chars]"


def shannon_entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character."""
    if not value:
        return 0.0
    size = len(value)
    return -sum(n / size * math.log2(n / size) for n in Counter(value).values())
