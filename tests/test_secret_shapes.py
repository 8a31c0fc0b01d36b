"""Secret shapes no other test reached (found by `tools/mutation.py secrets`, docs/MUTATION.md):
an scp-style `user:password@host:path`, a base64 run with `/` in it, a token written with HTML
character references. Every value is drawn at run time, so nothing credential-shaped is
committed."""

from __future__ import annotations

import base64
import random
import string

import pytest

from memsync.check.secrets import redact, scan_text

ALNUM = string.ascii_letters + string.digits


def _random(seed: str, length: int, alphabet: str = ALNUM) -> str:
    return "".join(random.Random(seed).choices(alphabet, k=length))


def test_an_scp_style_password_is_found_where_it_stands_and_never_shown() -> None:
    password = _random("scp", 16)
    line = f"clone with git clone deploy:{password}@git.acme.io:org/repo.git"
    (finding,) = scan_text(line, "notes.md")
    assert finding.rule_id == "generic-high-entropy-secret"
    assert (finding.line, finding.column) == (1, line.index(password) + 1)
    assert finding.preview == "deploy:…[redacted 16 chars]"
    assert password not in redact(line) and "git.acme.io:org/repo.git" in redact(line)


def test_an_scp_style_password_before_an_address_or_a_bare_host_is_found() -> None:
    password = _random("scp-ip", 16)
    assert scan_text(f"ssh root:{password}@10.0.0.5:/srv")
    assert scan_text(f"rsync root:{password}@buildbox:/srv")  # a bare host before its path


@pytest.mark.parametrize(
    "line",
    [
        "clone git@github.com:org/repo.git",  # no password
        "ssh admin:{password}@localhost:/srv",  # a machine's own
        "ssh admin:{password}@127.0.0.1:/srv",
        "login alice:hunter2pass@host.example.com:/x",  # a word, no random value
        "write to mailto:{password}@acme.io",
    ],
)
def test_an_scp_style_address_without_a_random_password_elsewhere_is_no_secret(
    line: str,
) -> None:
    assert scan_text(line.format(password=_random("scp-no", 16))) == []


def test_a_password_in_a_url_is_found_beside_the_scp_rule() -> None:
    password = _random("url", 16)
    (finding,) = scan_text(f"DATABASE=postgres://app:{password}@db.acme.io:5432/app")
    assert finding.preview.startswith("postgres://app:")


def test_a_base64_run_holding_slashes_is_decoded_before_it_is_scanned() -> None:
    # Standard base64 writes `/` where the URL-safe alphabet writes `_`: both are read.
    seed = next(s for s in map(str, range(500)) if "/" in _encoded(s))
    text = f"blob {_encoded(seed)} end"
    (finding,) = scan_text(text)
    assert finding.preview.endswith("(base64-encoded)")
    assert _encoded(seed) not in redact(text)


def _encoded(seed: str) -> str:
    value = _random(seed, 24, ALNUM + "~?>")
    return base64.b64encode(f"password={value}".encode()).decode()


@pytest.mark.parametrize("style", ["decimal", "hex"])
def test_a_token_written_with_html_character_references_is_found(style: str) -> None:
    token = "ghp_" + _random("html", 36)
    escaped = f"&#{ord(token[6])};" if style == "decimal" else f"&#x{ord(token[6]):x};"
    line = f"token {token[:6]}{escaped}{token[7:]} here"
    (finding,) = scan_text(line)
    assert finding.rule_id == "github-pat"
    assert token[7:] not in redact(line)


def test_an_escape_of_an_unprintable_character_is_kept_as_written() -> None:
    # `&#10;` is a line feed: unescaping it would join the two halves into a new token.
    token = "ghp_" + _random("nl", 36)
    assert scan_text(f"{token[:20]}&#10;{token[20:]}") == []


@pytest.mark.parametrize(
    "password",
    ["Summer2025", "S3cr3tPassw0rdXyz", "sunshine", "Winter2026!"],
)
def test_a_password_a_person_chose_in_a_url_is_a_secret(password: str) -> None:
    # The `user:password@host` slot says it is a password, random or not (a review pushed
    # `https://admin:Summer2025@jenkins…` to a team remote).
    line = f"Jenkins: https://admin:{password}@jenkins.acme-corp.io/"
    (finding,) = scan_text(line)
    assert finding.preview == f"https://admin:…[redacted {len(password)} chars]"
    assert password not in redact(line)


@pytest.mark.parametrize(
    "url",
    [
        "https://user:pass@git.acme.io/x",  # the documented slot's fillers
        "https://user:secret123@git.acme.io/x",
        "https://admin:admin123@git.acme.io/x",
        "https://deploy:deploy@git.acme.io/x",  # the user name again
        "https://u:passw0rd@git.acme.io/x",  # a textbook example alone
        "https://admin:s3cret@git.acme.io/x",  # a filler in leetspeak
        "https://u:abc@git.acme.io/x",  # too short to be anyone's
        "https://u:${GIT_PASSWORD}@git.acme.io/x",
        "https://admin:Summer2025@localhost:8080/",  # a machine's own
    ],
)
def test_a_url_whose_password_slot_holds_a_filler_is_no_secret(url: str) -> None:
    assert scan_text(url) == []
