"""The sentences and names `benchmarks/corpus.py` builds memories from.

A family is one meaning with several phrasings (for planted paraphrases) and, for rules, its
negation (for planted look-alikes that must stay apart). Slots name a vocabulary pool (a
trailing digit lets a family use a pool twice). The prose follows what Claude Code writes in
real memory directories (see /work/shared/corpora): imperative rules with a reason, project
status with names and numbers, pointers to dashboards, tickets and docs, user preferences.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    """One meaning: its memory type (or `why`/`apply` for feedback lines), slots, phrasings."""

    type: str
    slots: tuple[str, ...]
    phrasings: tuple[str, ...]
    negated: str | None = None


def _f(kind: str, slots: str, *phrasings: str, negated: str | None = None) -> Family:
    return Family(kind, tuple(slots.split()), phrasings, negated)


FAMILIES: tuple[Family, ...] = (
    # --- feedback rules ---
    _f(
        "feedback",
        "tool",
        "Always run `{tool}` before pushing a branch.",
        "Before pushing any branch, run `{tool}` first.",
        "Make sure `{tool}` has passed locally before you push.",
        negated="Do not run `{tool}` before pushing a branch.",
    ),
    _f(
        "feedback",
        "service",
        "Integration tests for {service} must hit a real database, not mocks.",
        "The {service} integration tests should use a real database instead of mocks.",
        "Do not mock the database in {service} integration tests; use the real one.",
        negated="Integration tests for {service} should mock the database.",
    ),
    _f(
        "feedback",
        "command",
        "Use `{command}` to run the test suite, never the raw test runner.",
        "Run the tests through `{command}` rather than calling the runner directly.",
        "The test suite is meant to be started with `{command}`, not the bare runner.",
    ),
    _f(
        "feedback",
        "branch",
        "Never force-push to `{branch}`, even after a rebase.",
        "Force-pushing to `{branch}` is off limits, rebase or not.",
        "Do not force-push `{branch}` under any circumstances, including after rebasing.",
        negated="Force-pushing to `{branch}` after a rebase is fine.",
    ),
    _f(
        "feedback",
        "path",
        "Keep new helpers out of `{path}`; that file is generated.",
        "`{path}` is generated code, so new helpers go somewhere else.",
        "Do not add helpers to `{path}` because the file is generated.",
    ),
    _f(
        "feedback",
        "number",
        "Keep pull requests under {number} changed lines so reviews stay quick.",
        "Pull requests should stay below {number} changed lines to keep review fast.",
        "Split a pull request changing more than {number} lines; reviews stay quick that way.",
    ),
    _f(
        "feedback",
        "tool tool2",
        "Prefer `{tool}` over `{tool2}` for new code.",
        "For new code, pick `{tool}` rather than `{tool2}`.",
        "New code should use `{tool}` instead of `{tool2}`.",
    ),
    _f(
        "feedback",
        "env",
        "Ask before touching anything in the {env} environment.",
        "Check with the user first before changing anything in {env}.",
        "Get explicit approval before making changes to the {env} environment.",
        negated="Changes in the {env} environment need no approval.",
    ),
    _f(
        "feedback",
        "service",
        "Log every retry in {service} with the request id.",
        "Each retry in {service} has to be logged together with its request id.",
        "{service} should write a log line with the request id on every retry.",
    ),
    _f(
        "feedback",
        "number",
        "Pin dependency versions and bump them at most every {number} days.",
        "Dependencies stay pinned; upgrade them no more than once every {number} days.",
        "Keep versions pinned and only bump dependencies every {number} days or less often.",
    ),
    _f(
        "feedback",
        "module",
        "Write unit tests for `{module}` before changing its public functions.",
        "Add unit tests to `{module}` first, then change its public functions.",
        "Changes to the public functions of `{module}` need unit tests written beforehand.",
    ),
    _f(
        "feedback",
        "module",
        "Keep answers about `{module}` short and skip the summary at the end.",
        "Answer briefly about `{module}` and leave out the closing summary.",
        "Responses about `{module}` should be concise, without a recap at the end.",
    ),
    _f(
        "feedback",
        "tool",
        "Format code with `{tool}` and do not hand-align anything.",
        "Let `{tool}` do all formatting instead of aligning code by hand.",
        "Code formatting is handled by `{tool}`; never align it manually.",
    ),
    # --- why ---
    _f(
        "why",
        "service",
        "mocked tests passed while the {service} migration failed in production.",
        "the {service} migration broke in production even though the mocked tests were green.",
        "green mocked tests hid a failing {service} migration that only showed up in production.",
    ),
    _f(
        "why",
        "person",
        "{person} lost two days of work when a shared branch was overwritten.",
        "an overwritten shared branch cost {person} two days of work.",
        "two days of {person}'s work disappeared after a shared branch was overwritten.",
    ),
    _f(
        "why",
        "number",
        "reviews of large diffs took over {number} minutes and missed bugs.",
        "big diffs needed more than {number} minutes of review and bugs slipped through.",
        "reviewing a large diff took longer than {number} minutes and still missed defects.",
    ),
    _f(
        "why",
        "service",
        "a silent retry loop in {service} hid an outage for an hour.",
        "{service} retried silently and an hour-long outage went unnoticed.",
        "an outage stayed hidden for an hour because {service} kept retrying without logging.",
    ),
    _f(
        "why",
        "person",
        "{person} said long answers are hard to follow in the terminal.",
        "{person} finds long replies difficult to read in a terminal.",
        "according to {person}, lengthy answers are hard to follow in the terminal.",
    ),
    _f(
        "why",
        "tool",
        "`{tool}` catches the errors that CI otherwise reports ten minutes later.",
        "running `{tool}` locally finds the problems CI would only flag ten minutes later.",
        "CI reports the same errors ten minutes later than `{tool}` does locally.",
    ),
    # --- how to apply ---
    _f(
        "apply",
        "command",
        "add `{command}` to the pre-push hook.",
        "put `{command}` in the pre-push hook.",
        "wire `{command}` into the pre-push hook.",
    ),
    _f(
        "apply",
        "path",
        "every test file under `{path}` uses the shared fixtures.",
        "all tests under `{path}` rely on the shared fixtures.",
        "test files in `{path}` should all use the shared fixtures.",
    ),
    _f(
        "apply",
        "module",
        "split large changes to `{module}` into a stack of small pull requests.",
        "break big changes to `{module}` up into several small stacked pull requests.",
        "turn a large change to `{module}` into a series of small pull requests.",
    ),
    _f(
        "apply",
        "person",
        "ping {person} on the pull request when in doubt.",
        "when unsure, mention {person} on the pull request.",
        "if anything is unclear, ask {person} in the pull request.",
    ),
    _f(
        "apply",
        "service",
        "check the {service} dashboard after every deploy.",
        "look at the {service} dashboard once each deploy is done.",
        "after each deploy, review the {service} dashboard.",
    ),
    # --- project ---
    _f(
        "project",
        "service date",
        "The {service} migration to the new cluster is planned for {date}.",
        "{service} moves to the new cluster on {date}.",
        "Moving {service} onto the new cluster is scheduled for {date}.",
    ),
    _f(
        "project",
        "person service",
        "{person} owns {service} and reviews every change to it.",
        "Every change to {service} is reviewed by its owner, {person}.",
        "{service} belongs to {person}, who reviews all of its changes.",
    ),
    _f(
        "project",
        "service number",
        "The {service} p99 latency budget is {number} ms.",
        "{service} has to answer within {number} ms at the 99th percentile.",
        "Latency for {service} must stay under {number} ms at p99.",
    ),
    _f(
        "project",
        "ticket service",
        "{ticket} tracks the flaky {service} end-to-end tests.",
        "The flaky end-to-end tests of {service} are tracked in {ticket}.",
        "See {ticket} for the {service} end-to-end tests that keep flaking.",
    ),
    _f(
        "project",
        "service version",
        "{service} is stuck on Python {version} until the vendor SDK is upgraded.",
        "Until the vendor SDK gets upgraded, {service} stays on Python {version}.",
        "The vendor SDK keeps {service} pinned to Python {version} for now.",
    ),
    _f(
        "project",
        "service port",
        "Locally, {service} listens on port {port}.",
        "The local {service} instance runs on port {port}.",
        "{service} binds to port {port} on a developer machine.",
    ),
    _f(
        "project",
        "env service",
        "The {env} deploy of {service} is frozen until the audit finishes.",
        "No deploys of {service} to {env} until the audit is over.",
        "{service} deploys to {env} are on hold while the audit runs.",
    ),
    _f(
        "project",
        "service number",
        "{service} processes about {number} thousand events per minute at peak.",
        "At peak, {service} handles roughly {number} thousand events a minute.",
        "Peak load on {service} is around {number} thousand events per minute.",
    ),
    _f(
        "project",
        "module",
        "`{module}` is being rewritten; avoid large changes there.",
        "Large changes to `{module}` should wait, since it is being rewritten.",
        "A rewrite of `{module}` is underway, so keep changes there small.",
    ),
    _f(
        "project",
        "person env",
        "{person} is the on-call contact for the {env} environment this quarter.",
        "This quarter, on-call for {env} is {person}.",
        "For {env} issues this quarter, the on-call person is {person}.",
    ),
    # --- reference ---
    _f(
        "reference",
        "service url",
        "The {service} runbook is at {url}.",
        "Runbook for {service}: {url}",
        "See {url} for the {service} runbook.",
    ),
    _f(
        "reference",
        "service url",
        "Grafana dashboard for {service} error rates: {url}",
        "Error rates of {service} are charted on the Grafana board at {url}.",
        "The {service} error-rate dashboard lives at {url}.",
    ),
    _f(
        "reference",
        "ticket",
        "Bugs in the data pipeline are filed in Linear under {ticket}.",
        "Data pipeline bugs go into Linear, in {ticket}.",
        "File data pipeline bugs in Linear under {ticket}.",
    ),
    _f(
        "reference",
        "path command",
        "The schema lives in `{path}`; regenerate it with `{command}`.",
        "Regenerate the schema in `{path}` by running `{command}`.",
        "`{command}` rebuilds the schema stored at `{path}`.",
    ),
    _f(
        "reference",
        "env url",
        "Credentials for {env} are in the team vault, see {url}.",
        "The {env} credentials are stored in the team vault ({url}).",
        "Look up {env} credentials in the team vault at {url}.",
    ),
    _f(
        "reference",
        "service path",
        "Feature flags for {service} are defined in `{path}`.",
        "`{path}` holds the feature flag definitions of {service}.",
        "The {service} feature flags are declared in `{path}`.",
    ),
    _f(
        "reference",
        "tool url",
        "Our `{tool}` configuration guide is at {url}.",
        "How we configure `{tool}` is documented at {url}.",
        "Documentation for the team's `{tool}` setup: {url}",
    ),
    # --- user ---
    _f(
        "user",
        "tool",
        "The user is a backend engineer and works mostly with `{tool}`.",
        "User is a backend developer who mainly uses `{tool}`.",
        "Most of the user's backend work is done with `{tool}`.",
    ),
    _f(
        "user",
        "tool",
        "The user prefers explanations of `{tool}` with concrete examples over theory.",
        "Concrete examples work better for the user than abstract explanations of `{tool}`.",
        "Explain `{tool}` to the user with concrete examples rather than theory.",
    ),
    _f(
        "user",
        "person",
        "The user works with {person} on the platform team.",
        "{person} and the user are both on the platform team.",
        "The user's teammate on the platform team is {person}.",
    ),
    _f(
        "user",
        "service",
        "The user is new to the {service} code and wants each step explained.",
        "The {service} codebase is unfamiliar to the user, so explain every step.",
        "Walk the user through each step in the {service} code; it is new to them.",
    ),
    _f(
        "user",
        "env",
        "The user deploys to {env} from a laptop on a slow connection.",
        "Deploys to {env} are run from the user's laptop over a slow link.",
        "The user ships to {env} from a laptop with a slow network.",
    ),
)

MORE_USER: tuple[Family, ...] = (
    _f(
        "user",
        "module person",
        "The user maintains `{module}` together with {person}.",
        "`{module}` is maintained by the user and {person}.",
        "The user and {person} look after `{module}`.",
    ),
    _f(
        "user",
        "tool service",
        "The user debugs {service} with `{tool}` and wants commands they can paste.",
        "When debugging {service}, the user relies on `{tool}` and likes copy-pasteable commands.",
        "Give the user commands to paste; they debug {service} with `{tool}`.",
    ),
    _f(
        "user",
        "person service",
        "The user reports to {person}, who decides what ships in {service}.",
        "{person} is the user's lead and decides what goes into {service}.",
        "What ships in {service} is decided by {person}, the user's manager.",
    ),
    _f(
        "user",
        "service number",
        "The user is on call for {service} every {number} weeks.",
        "Every {number} weeks the user takes the on-call shift for {service}.",
        "The user's on-call rotation for {service} comes around every {number} weeks.",
    ),
)

SYNONYMS: dict[str, tuple[str, ...]] = {
    "always": ("consistently",),
    "before": ("prior to",),
    "must": ("should", "needs to"),
    "use": ("utilize",),
    "uses": ("utilizes",),
    "run": ("execute",),
    "check": ("verify",),
    "large": ("big",),
    "big": ("large",),
    "quick": ("fast",),
    "fast": ("quick",),
    "start": ("begin",),
    "change": ("modify",),
    "changes": ("modifications",),
    "bugs": ("defects",),
    "errors": ("failures",),
    "problems": ("issues",),
    "ask": ("check with",),
    "broke": ("failed",),
    "failed": ("broke",),
    "finishes": ("ends",),
    "planned": ("scheduled",),
    "scheduled": ("planned",),
    "about": ("roughly",),
    "roughly": ("about",),
    "documented": ("described",),
    "prefers": ("favors",),
    "mostly": ("mainly",),
    "mainly": ("mostly",),
    "stored": ("kept",),
}

VOCABULARY: dict[str, tuple[str, ...]] = {
    "tool": (
        *("ruff", "mypy", "pytest", "black", "eslint", "prettier", "tsc", "golangci-lint"),
        *("shellcheck", "terraform validate", "cargo clippy", "pre-commit", "hadolint"),
        *("bandit", "semgrep", "isort", "flake8", "pylint", "jest", "vitest", "rubocop"),
        *("sqlfluff", "yamllint", "markdownlint", "gofmt", "rustfmt", "biome", "stylelint"),
    ),
    "command": (
        *("make test", "npm run test", "pnpm test", "tox -e py311", "just check"),
        *("bin/test", "./gradlew test", "cargo test --all", "go test ./...", "nox -s tests"),
        *("make lint", "npm run lint", "uv run pytest", "poetry run pytest", "bazel test //..."),
        *("make schema", "npm run codegen", "buf generate", "sqlc generate", "make proto"),
    ),
    "branch": ("main", "master", "develop", "release", "staging", "production", "trunk"),
    "env": ("production", "staging", "sandbox", "eu-prod", "us-prod", "preview", "qa"),
    "date": (
        *("2026-01-15", "2026-02-02", "2026-03-09", "2026-04-20", "2026-05-11", "2026-06-01"),
        *("2026-07-13", "2026-08-24", "2026-09-07", "2026-10-19", "2026-11-30", "2026-12-14"),
    ),
    "host": (
        *("grafana.internal", "wiki.example.com", "docs.example.com", "vault.internal"),
        *("notion.so/acme", "linear.app/acme", "github.com/acme", "runbooks.example.com"),
    ),
    "service": (
        *("billing-api", "auth-service", "search-indexer", "payments-gateway", "notifier"),
        *("ingest-worker", "report-builder", "user-profile", "checkout", "media-transcoder"),
    ),
    "module": ("billing_core", "auth_tokens", "search_query", "event_bus", "pricing_rules"),
    "person": ("Alice Chen", "Bob Martin", "Priya Natarajan", "Tom Keller", "Sara Lind"),
    "part": (
        *("ledger", "invoice", "account", "session", "catalog", "inventory", "shipment"),
        *("order", "refund", "coupon", "tenant", "audit", "metrics", "export", "import"),
        *("webhook", "scheduler", "mailer", "upload", "preview", "thumbnail", "geo", "rates"),
        *("fraud", "consent", "identity", "partner", "loyalty", "pricing", "quote", "cart"),
        *("booking", "calendar", "roster", "payroll", "license", "sensor", "telemetry", "feed"),
        *("ranking", "recommend", "translate", "compliance", "archive", "backup", "routing"),
    ),
    "service_end": ("api", "service", "worker", "gateway", "sync", "store", "jobs", "proxy"),
    "noun": (
        *("models", "views", "handlers", "client", "schema", "settings", "utils", "tasks"),
        *("routes", "queries", "events", "serializers", "cache", "retry", "limits", "auth"),
    ),
    "first": (
        *("Maya", "Lucas", "Aisha", "Kenji", "Olga", "Mateo", "Nora", "Ravi", "Ines", "Jonas"),
        *("Fatima", "Diego", "Hana", "Pieter", "Leila", "Sven", "Amara", "Chloe", "Yusuf"),
    ),
    "last": (
        *("Okafor", "Silva", "Novak", "Tanaka", "Haddad", "Kowalski", "Moreau", "Jensen"),
        *("Rossi", "Khan", "Dubois", "Schmidt", "Park", "Costa", "Ivanova", "Nguyen"),
    ),
    "event": (
        "we rotated the {service} API keys",
        "the {service} deploy was rolled back",
        "{service} had a partial outage",
        "the {service} schema migration ran",
        "we agreed to deprecate the old {service} endpoints",
        "the load test of {service} finished",
    ),
}
