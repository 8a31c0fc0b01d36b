"""The rule table of the secret scanner: the 36 rules Claude Code applies to team memory.

The regular expressions, keywords, entropy thresholds, allowlists and descriptions
below are ported from gitleaks' default configuration (config/gitleaks.toml,
https://github.com/gitleaks/gitleaks), which is:

    MIT License
    Copyright (c) 2019 Zachary Rice

    Permission is hereby granted, free of charge, to any person obtaining a copy
    of this software and associated documentation files (the "Software"), to deal
    in the Software without restriction, including without limitation the rights
    to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
    copies of the Software, and to permit persons to whom the Software is
    furnished to do so, subject to the following conditions:

    The above copyright notice and this permission notice shall be included in all
    copies or substantial portions of the Software.

    THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
    IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
    FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
    AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
    LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
    OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
    SOFTWARE.

Porting notes (Go RE2 -> Python `re`, always compiled with re.ASCII like RE2's
classes): a mid-pattern `(?i)` becomes a scoped `(?i:...)` group, `\\z` becomes `\\Z`.
The first pattern of each rule is gitleaks' regex, except that the common right-hand
delimiter also accepts sentence punctuation (memories are prose) and the private-key
rule must end on a matching END line; a few rules carry a second,
slightly wider pattern (marked "widened") that accepts near-miss lengths or alphabets
behind the same distinctive prefix, so a token whose format drifted is still caught.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# gitleaks' usual right-hand delimiter after a token, `(?:[\x60'"\s;]|\\[nr]|$)`, plus
# the punctuation that ends a token in prose ("the key is sk_live_....").
_END = r"""(?:[\x60'"\s;.,:!?)\]}>|<]|\\[nr]|$)"""


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


GENERIC_RULE_ID = "generic-high-entropy-secret"

_GCP_PUBLISHED_KEYS = frozenset(
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

_PEM_HEADER = r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----"

CLAUDE_CODE_RULES: tuple[SecretRule, ...] = (
    SecretRule(
        "aws-access-token",
        "Identified a pattern that may indicate AWS credentials, risking unauthorized "
        "cloud resource access and data breaches on AWS platforms.",
        keywords=("a3t", "akia", "asia", "abia", "acca"),
        patterns=(
            r"\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b",
            # widened: digits 0, 1, 8, 9 too (hand-made keys often use them)
            r"\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})\b",
        ),
        entropy=3.0,
        allow=(r".+EXAMPLE$",),
        prefix=r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)",
    ),
    SecretRule(
        "gcp-api-key",
        "Uncovered a GCP API key, which could lead to unauthorized access to Google "
        "Cloud services and data breaches.",
        keywords=("aiza",),
        patterns=(
            r"\b(AIza[\w-]{35})" + _END,
            # widened: length drift
            r"\b(AIza[\w-]{30,45})" + _END,
        ),
        entropy=4.0,
        allow_sha256=_GCP_PUBLISHED_KEYS,
        prefix=r"AIza",
    ),
    SecretRule(
        "azure-ad-client-secret",
        "Azure AD Client Secret",
        keywords=("q~",),
        patterns=(
            r"""(?:^|[\\'"\x60\s>=:(,)])([a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})"""
            r"""(?:$|[\\'"\x60\s<),])""",
        ),
        entropy=3.0,
    ),
    SecretRule(
        "digitalocean-pat",
        "Discovered a DigitalOcean Personal Access Token, posing a threat to cloud "
        "infrastructure security and data privacy.",
        keywords=("dop_v1_",),
        patterns=(
            r"\b(dop_v1_[a-f0-9]{64})" + _END,
            # widened: alphanumeric body
            r"\b(dop_v1_[a-zA-Z0-9]{64})" + _END,
        ),
        entropy=3.0,
        prefix=r"dop_v1_",
    ),
    SecretRule(
        "digitalocean-access-token",
        "Found a DigitalOcean OAuth Access Token, risking unauthorized cloud resource "
        "access and data compromise.",
        keywords=("doo_v1_",),
        patterns=(
            r"\b(doo_v1_[a-f0-9]{64})" + _END,
            # widened: alphanumeric body
            r"\b(doo_v1_[a-zA-Z0-9]{64})" + _END,
        ),
        entropy=3.0,
        prefix=r"doo_v1_",
    ),
    SecretRule(
        "anthropic-api-key",
        "Identified an Anthropic API Key, which may compromise AI assistant integrations "
        "and expose sensitive data to unauthorized access.",
        keywords=("sk-ant-api03",),
        patterns=(
            r"\b(sk-ant-api03-[a-zA-Z0-9_\-]{93}AA)" + _END,
            # widened: body length drift, any final characters
            r"\b(sk-ant-api03-[a-zA-Z0-9_\-]{80,120})" + _END,
        ),
        entropy=3.0,
        prefix=r"sk-ant-api03-",
    ),
    SecretRule(
        "anthropic-admin-api-key",
        "Detected an Anthropic Admin API Key, risking unauthorized access to "
        "administrative functions and sensitive AI model configurations.",
        keywords=("sk-ant-admin01",),
        patterns=(
            r"\b(sk-ant-admin01-[a-zA-Z0-9_\-]{93}AA)" + _END,
            # widened: body length drift, any final characters
            r"\b(sk-ant-admin01-[a-zA-Z0-9_\-]{80,120})" + _END,
        ),
        entropy=3.0,
        prefix=r"sk-ant-admin01-",
    ),
    SecretRule(
        "openai-api-key",
        "Found an OpenAI API Key, posing a risk of unauthorized access to AI services "
        "and data manipulation.",
        keywords=("t3blbkfj", "sk-"),
        patterns=(
            r"\b(sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ"
            r"(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ"
            r"[a-zA-Z0-9]{20})" + _END,
            # widened: project / service-account / admin keys of any recent length,
            # and the legacy sk-<48> layout
            r"\b(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,300})" + _END,
            r"\b(sk-[A-Za-z0-9]{48})" + _END,
        ),
        entropy=3.0,
        prefix=r"sk-(?:(?:proj|svcacct|admin)-)?",
    ),
    SecretRule(
        "huggingface-access-token",
        "Discovered a Hugging Face Access token, which could lead to unauthorized access "
        "to AI models and sensitive data.",
        keywords=("hf_",),
        patterns=(
            r"\b(hf_(?i:[a-z]{34}))" + _END,
            # widened: digits in the body, length drift
            r"\b(hf_[a-zA-Z0-9]{30,40})" + _END,
        ),
        entropy=2.0,
        prefix=r"hf_",
    ),
    SecretRule(
        "github-pat",
        "Uncovered a GitHub Personal Access Token, potentially leading to unauthorized "
        "repository access and sensitive content exposure.",
        keywords=("ghp_",),
        patterns=(r"ghp_[0-9a-zA-Z]{36}",),
        entropy=3.0,
        prefix=r"ghp_",
    ),
    SecretRule(
        "github-fine-grained-pat",
        "Found a GitHub Fine-Grained Personal Access Token, risking unauthorized "
        "repository access and code manipulation.",
        keywords=("github_pat_",),
        patterns=(
            r"github_pat_\w{82}",
            # widened: length drift around the real 22 + 1 + 59 layout
            r"\bgithub_pat_\w{60,100}",
        ),
        entropy=3.0,
        prefix=r"github_pat_",
    ),
    SecretRule(
        "github-app-token",
        "Identified a GitHub App Token, which may compromise GitHub application "
        "integrations and source code security.",
        keywords=("ghu_", "ghs_"),
        patterns=(r"(?:ghu|ghs)_[0-9a-zA-Z]{36}",),
        entropy=3.0,
        prefix=r"gh[us]_",
    ),
    SecretRule(
        "github-oauth",
        "Discovered a GitHub OAuth Access Token, posing a risk of compromised GitHub "
        "account integrations and data leaks.",
        keywords=("gho_",),
        patterns=(r"gho_[0-9a-zA-Z]{36}",),
        entropy=3.0,
        prefix=r"gho_",
    ),
    SecretRule(
        "github-refresh-token",
        "Detected a GitHub Refresh Token, which could allow prolonged unauthorized "
        "access to GitHub services.",
        keywords=("ghr_",),
        patterns=(r"ghr_[0-9a-zA-Z]{36}",),
        entropy=3.0,
        prefix=r"ghr_",
    ),
    SecretRule(
        "gitlab-pat",
        "Identified a GitLab Personal Access Token, risking unauthorized access to "
        "GitLab repositories and codebase exposure.",
        keywords=("glpat-",),
        patterns=(r"glpat-[\w-]{20}",),
        entropy=3.0,
        prefix=r"glpat-",
    ),
    SecretRule(
        "gitlab-deploy-token",
        "Identified a GitLab Deploy Token, risking access to repositories, packages and "
        "containers with write access.",
        keywords=("gldt-",),
        patterns=(r"gldt-[0-9a-zA-Z_\-]{20}",),
        entropy=3.0,
        prefix=r"gldt-",
    ),
    SecretRule(
        "slack-bot-token",
        "Identified a Slack Bot token, which may compromise bot integrations and "
        "communication channel security.",
        keywords=("xoxb",),
        patterns=(r"xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*",),
        entropy=3.0,
        prefix=r"xoxb-",
    ),
    SecretRule(
        "slack-user-token",
        "Found a Slack User token, posing a risk of unauthorized user impersonation and "
        "data access within Slack workspaces.",
        keywords=("xoxp-", "xoxe-"),
        patterns=(r"xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}",),
        entropy=2.0,
        prefix=r"xox[pe]-",
    ),
    SecretRule(
        "slack-app-token",
        "Detected a Slack App-level token, risking unauthorized access to Slack "
        "applications and workspace data.",
        keywords=("xapp",),
        patterns=(r"(?i)xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+",),
        entropy=2.0,
        prefix=r"(?i:xapp)-",
    ),
    SecretRule(
        "twilio-api-key",
        "Found a Twilio API Key, posing a risk to communication services and sensitive "
        "customer interaction data.",
        keywords=("sk",),
        patterns=(r"SK[0-9a-fA-F]{32}",),
        entropy=3.0,
        prefix=r"SK",
    ),
    SecretRule(
        "sendgrid-api-token",
        "Detected a SendGrid API token, posing a risk of unauthorized email service "
        "operations and data exposure.",
        keywords=("sg.",),
        patterns=(
            r"\b(SG\.(?i:[a-z0-9=_\-\.]{66}))" + _END,
            # widened: the SG.<22>.<43> layout with some length drift
            r"\b(SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{32,64})" + _END,
        ),
        entropy=2.0,
        prefix=r"SG\.",
    ),
    SecretRule(
        "npm-access-token",
        "Uncovered an npm access token, potentially compromising package management and "
        "code repository access.",
        keywords=("npm_",),
        patterns=(
            r"(?i)\b(npm_[a-z0-9]{36})" + _END,
            # widened: length drift
            r"\b(npm_[A-Za-z0-9]{30,40})" + _END,
        ),
        entropy=2.0,
        prefix=r"(?i:npm)_",
    ),
    SecretRule(
        "pypi-upload-token",
        "Discovered a PyPI upload token, potentially compromising Python package "
        "distribution and repository integrity.",
        keywords=("pypi-age",),
        patterns=(
            r"pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}",
            # widened: any macaroon (test.pypi.org tokens start pypi-AgENdGVzdC5weXBp...)
            r"\bpypi-AgE[\w-]{50,1000}",
        ),
        entropy=3.0,
        prefix=r"pypi-",
    ),
    SecretRule(
        "databricks-api-token",
        "Uncovered a Databricks API token, which may compromise big data analytics "
        "platforms and sensitive data processing.",
        keywords=("dapi",),
        patterns=(
            r"\b(dapi[a-f0-9]{32}(?:-\d)?)" + _END,
            # widened: alphanumeric body
            r"\b(dapi[a-zA-Z0-9]{32}(?:-\d)?)" + _END,
        ),
        entropy=3.0,
        prefix=r"dapi",
    ),
    SecretRule(
        "hashicorp-tf-api-token",
        "Uncovered a HashiCorp Terraform user/org API token, which may lead to "
        "unauthorized infrastructure management and security breaches.",
        keywords=("atlasv1",),
        patterns=(
            r"(?i)[a-z0-9]{14}\.(?-i:atlasv1)\.[a-z0-9\-_=]{60,70}",
            # widened: length drift on both sides
            r"(?i)\b[a-z0-9]{10,20}\.(?-i:atlasv1)\.[a-z0-9\-_=]{40,100}",
        ),
        entropy=3.5,
    ),
    SecretRule(
        "pulumi-api-token",
        "Found a Pulumi API token, posing a risk to infrastructure as code services and "
        "cloud resource management.",
        keywords=("pul-",),
        patterns=(
            r"\b(pul-[a-f0-9]{40})" + _END,
            # widened: alphanumeric body
            r"\b(pul-[a-zA-Z0-9]{40})" + _END,
        ),
        entropy=2.0,
        prefix=r"pul-",
    ),
    SecretRule(
        "postman-api-token",
        "Uncovered a Postman API token, potentially compromising API testing and "
        "development workflows.",
        keywords=("pmak-",),
        patterns=(
            r"\b(PMAK-(?i:[a-f0-9]{24}\-[a-f0-9]{34}))" + _END,
            # widened: alphanumeric parts
            r"\b(PMAK-[a-zA-Z0-9]{24}-[a-zA-Z0-9]{34})" + _END,
        ),
        entropy=3.0,
        prefix=r"PMAK-",
    ),
    SecretRule(
        "grafana-api-key",
        "Identified a Grafana API key, which could compromise monitoring dashboards and "
        "sensitive data analytics.",
        keywords=("eyjrijoi",),
        patterns=(r"(?i)\b(eyJrIjoi[A-Za-z0-9]{70,400}={0,3})" + _END,),
        entropy=3.0,
        prefix=r"(?i:eyJrIjoi)",
    ),
    SecretRule(
        "grafana-cloud-api-token",
        "Found a Grafana cloud API token, risking unauthorized access to cloud-based "
        "monitoring services and data exposure.",
        keywords=("glc_",),
        patterns=(r"(?i)\b(glc_[A-Za-z0-9+/]{32,400}={0,3})" + _END,),
        entropy=3.0,
        prefix=r"(?i:glc)_",
    ),
    SecretRule(
        "grafana-service-account-token",
        "Discovered a Grafana service account token, posing a risk of compromised "
        "monitoring services and data integrity.",
        keywords=("glsa_",),
        patterns=(
            r"(?i)\b(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})" + _END,
            # widened: length drift, alphanumeric checksum
            r"\b(glsa_[A-Za-z0-9]{24,40}_[A-Za-z0-9]{6,10})" + _END,
        ),
        entropy=3.0,
        prefix=r"(?i:glsa)_",
    ),
    SecretRule(
        "sentry-user-token",
        "Found a Sentry.io User Token, risking unauthorized access to error tracking "
        "services and sensitive application data.",
        keywords=("sntryu_",),
        patterns=(
            r"\b(sntryu_[a-f0-9]{64})" + _END,
            # widened: alphanumeric body
            r"\b(sntryu_[a-zA-Z0-9]{64})" + _END,
        ),
        entropy=3.5,
        prefix=r"sntryu_",
    ),
    SecretRule(
        "sentry-org-token",
        "Found a Sentry.io Organization Token, risking unauthorized access to error "
        "tracking services and sensitive application data.",
        keywords=("sntrys_",),
        patterns=(
            r"\b(sntrys_eyJpYXQiO[a-zA-Z0-9+/]{10,200}"
            r"(?:LCJyZWdpb25fdXJs|InJlZ2lvbl91cmwi|cmVnaW9uX3VybCI6)"
            r"[a-zA-Z0-9+/]{10,200}={0,2}_[a-zA-Z0-9+/]{43})(?:[^a-zA-Z0-9+/]|\Z)",
            # widened: any payload (the base64 JSON, "_", the 43-char secret)
            r"\b(sntrys_[a-zA-Z0-9+/=_]{50,600})(?:[^a-zA-Z0-9+/=_]|\Z)",
        ),
        entropy=4.5,
        prefix=r"sntrys_",
    ),
    SecretRule(
        "stripe-access-token",
        "Found a Stripe Access Token, posing a risk to payment processing services and "
        "sensitive financial data.",
        keywords=("sk_test", "sk_live", "sk_prod", "rk_test", "rk_live", "rk_prod"),
        patterns=(r"\b((?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99})" + _END,),
        entropy=2.0,
        prefix=r"(?:sk|rk)_(?:test|live|prod)_",
    ),
    SecretRule(
        "shopify-access-token",
        "Uncovered a Shopify access token, which could lead to unauthorized e-commerce "
        "platform access and data breaches.",
        keywords=("shpat_",),
        patterns=(
            r"shpat_[a-fA-F0-9]{32}",
            # widened: alphanumeric body
            r"\bshpat_[a-zA-Z0-9]{32}\b",
        ),
        entropy=2.0,
        prefix=r"shpat_",
    ),
    SecretRule(
        "shopify-shared-secret",
        "Found a Shopify shared secret, posing a risk to application authentication and "
        "e-commerce platform security.",
        keywords=("shpss_",),
        patterns=(
            r"shpss_[a-fA-F0-9]{32}",
            # widened: alphanumeric body
            r"\bshpss_[a-zA-Z0-9]{32}\b",
        ),
        entropy=2.0,
        prefix=r"shpss_",
    ),
    SecretRule(
        "private-key",
        "Identified a Private Key, which may compromise cryptographic security and "
        "sensitive data encryption.",
        keywords=("-----begin",),
        patterns=(
            # gitleaks ends at any "KEY-----"; here it must be the matching END line
            # and the body may not start another PEM block, so prose mentioning a
            # header is never joined to a later public key or certificate.
            r"(?i)" + _PEM_HEADER + r"(?:(?!-----BEGIN)[\s\S]){64,}?"
            r"-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----",
            # widened: a header directly followed by key material, END cut off
            r"(?i)" + _PEM_HEADER + r"(?:\\[nr]|\s){1,4}[A-Za-z0-9+/]{40,}",
        ),
        # A real key body always has a long base64 run; prose never does.
        require=r"[A-Za-z0-9+/=]{24,}",
        # Long random bodies do contain "xxxx" now and then; only "example" counts.
        placeholder=r"(?i:example)",
        prefix=r"(?i:" + _PEM_HEADER + r")",
    ),
)

GENERIC_RULE = SecretRule(
    GENERIC_RULE_ID,
    "Found a high-entropy value assigned to a key, token, secret or password "
    "(or a password inside a URL).",
)
