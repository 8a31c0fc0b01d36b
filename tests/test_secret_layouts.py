"""Credentials whose name and value sit apart: Markdown tables, command-line flags, prose.

Shapes from public memory folders (docs/SECRETS.md, "Layouts"): `| Access Token | value |`,
a `Password` column under a header row, `--master-key=value`, `mysql -p'value'`,
`password was value`. Every secret here is built from seeded random characters
(testing/secretgen.py); none is real.
"""

from __future__ import annotations

import pytest

from memsync.check.secret_layouts import named_values
from memsync.check.secrets import redact, scan_text
from testing.secretgen import materialize

GENERIC = "generic-high-entropy-secret"


def token(template: str, seed: str) -> str:
    """TEMPLATE's slots filled with seeded random characters."""
    return materialize(template, seed)[0]


def found(text: str) -> list[tuple[int, str]]:
    """(line, preview) of each finding in TEXT."""
    return [(f.line, f.preview) for f in scan_text(text) if f.rule_id == GENERIC]


@pytest.mark.parametrize(
    ("row", "shown"),
    [
        ("| Access Token | {} |", "Access Token"),
        ("| **App password** | `{}` (dev3 app password) |", "App password"),
        ("|`FTP_PASS`|`{}`|", "FTP_PASS"),
        ("| Moltbook | **API Key** | {} |", "API Key"),
    ],
)
def test_a_row_naming_its_credential_in_the_cell_before_is_read(row: str, shown: str) -> None:
    secret = token("<<alnum:24>>", row)
    text = row.format(secret)
    assert found(text) == [(1, f"{shown}=…[redacted 24 chars]")]
    assert secret not in redact(text)


def test_cells_without_padding_and_the_first_cell_are_read_as_written() -> None:
    secret = token("<<alnum:18>>", "tight")
    assert found(f"|Password|{secret}|\n") == [(1, "Password=…[redacted 18 chars]")]
    # The first cell has no cell on its left (not the row's last one, `Password`).
    assert found(f"| {secret} | notes | Password |\n") == []


def test_a_column_headed_password_is_read_in_every_row() -> None:
    first, second = token("<<alnum:16>>", "argo"), token("<<alnum:40>>", "grafana")
    text = (
        "## Services\n\n| Service | Port | User | Password |\n|---|:--:|---|---|\n"
        f"| ArgoCD | 9080 | admin | `{first}` |\n| Keycloak | 9081 | admin | admin |\n"
        f"| Grafana | 3000 | admin | `{second}` |\n\nAfter the table, {first} is prose.\n"
    )
    assert found(text) == [
        (5, "Password=…[redacted 16 chars]"),
        (7, "Password=…[redacted 40 chars]"),
    ]


def test_an_empty_cell_keeps_the_columns_in_line() -> None:
    secret = token("<<alnum:20>>", "empty")
    # Without the empty cell counted, `Password` would head the `Notes` column.
    text = f"| | Password | Notes |\n|--|--|--|\n| | {secret} | {secret}x |\n"
    assert found(text) == [(3, "Password=…[redacted 20 chars]")]
    starts = [start for name, start, _ in named_values(text) if name == "Password"]
    assert text.index(secret) in starts
    assert text.index(f"{secret}x") not in starts


def test_a_header_names_only_its_own_table() -> None:
    secret = token("<<alnum:20>>", "second-table")
    text = f"| User | Password |\n|---|---|\n| bot | x |\n\n| build | {secret} |\n"
    assert found(text) == []


@pytest.mark.parametrize(
    ("line", "shown", "size"),
    [
        ("  --master-key={} \\", "master-key", 32),
        ("run `cli --api-key {} --verbose`", "api-key", 32),
        ("mysql -u root -p'{}' shop", "password", 12),
        ("mysqldump -uroot -p{} shop > dump.sql", "password", 12),
        ("- Account password was `{}` (found in a transcript)", "Account password", 16),
        ("the admin password was changed to {} today", "admin password", 16),
    ],
)
def test_flags_and_sentences_naming_a_credential_are_read(line: str, shown: str, size: int) -> None:
    secret = token(f"<<alnum:{size}>>", line)
    text = line.format(secret)
    assert found(text) == [(1, f"{shown}=…[redacted {size} chars]")]
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        # Result tables: a pass is a round of review, not a password.
        "| Check | Pass 2 |\n|---|---|\n| probe | **independent cold adversarial pass** |\n",
        "| Review | Review checklist pass | gstack-eng-review |\n",
        # Names of products and settings, and code, under credential words.
        "| **Password Manager** | 1Password | $8 |\n",
        "| Token budget 75% | Compaction: summarize old turns |\n",
        "| rb_boleto_credentials | `conta_bancaria_id=NULL` |\n",
        "| Secrets | `/root/.openclaw/.env` |\n",
        "| API Key | `apik_zYP4....629a` |\n",
        # Flags that name a file or take a placeholder; a client asking for the password.
        "cli --password-file ~/.secrets/db --token <bearer>\n",
        "mysql -p -u root shop\n",
        "The password is required at every login; the password was reset to default.\n",
    ],
)
def test_credential_words_without_a_credential_are_not_secrets(text: str) -> None:
    assert found(text) == []
