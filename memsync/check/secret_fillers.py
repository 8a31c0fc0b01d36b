"""Values that name a secret without holding one: placeholders, references to secret stores,
textbook example passwords, and the fillers of a URL's `user:password` slot.

Shared by the generic rule (memsync.check.secret_generic); imports only the standard library.
"""

from __future__ import annotations

import re


class Lazy:
    """A regex compiled on first use, so importing this module stays cheap."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern, self._flags = pattern, flags
        self._compiled: re.Pattern[str] | None = None

    def get(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._pattern, self._flags)
        return self._compiled


# Textbook example passwords: fillers alone, not inside a longer one a person built on them.
FAMOUS_SOURCE = r"tr0ub4dor|p@ssw0rd|passw0rd|hunter2|correcthorse"
FAMOUS = Lazy(FAMOUS_SOURCE, re.IGNORECASE)
PLACEHOLDER = Lazy(
    r"""x{4,}|X{4,}|\*{3,}|\.\.\.|…|\#{3,}|changeme|change[_-]me|example|placeholder
    |your[_-]|redacted|dummy|sample|lorem|replace[_-]?me|insert[_-]|todo|fixme|<|>
    |\$\{|\$\(|\{\{|%[A-Za-z_]+%|^\$[A-Za-z_]|^@[A-Za-z_]+@?$|"""
    + FAMOUS_SOURCE,
    re.VERBOSE | re.IGNORECASE | re.ASCII,
)
# References to secret stores and encrypted blobs name a secret without holding it.
SECRET_REFERENCE = Lazy(
    r"^(?:ENC\[|vault:|arn:|op://|sm://|gcp:|azure:|ref\+|secretsmanager:|ssm:|"
    r"projects/|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2|sha\d+[-:]|md5[-:]|AAAA[BC]3N|"
    r"data:|pk_(?:live|test)_)",
    re.IGNORECASE | re.ASCII,
)
# What a URL's documented `user:password` slot holds when nobody's password is in it, also
# written in leetspeak (`s3cret`, `p4ss`).
LEET = str.maketrans("430157@$", "aeoilsas")
URL_PASSWORD_FILLER = Lazy(
    r"(?:my|your|the|some|db|app)?[-_]?(?:pass(?:word|wd)?|pwd|secret|token|key|admin|user"
    r"(?:name)?|root|guest|test(?:ing)?|demo|foo|bar|baz|qwerty|letmein|welcome)[-_]?\d{0,4}",
    re.IGNORECASE,
)


def url_password(password: str, user: str) -> bool:
    """Whether a URL's `user:PASSWORD@host` is someone's password: the slot says it is one,
    so a human-chosen `Summer2025` or `S3cr3tPassw0rd` counts as much as a random one; not
    a filler (`pass`, `secret123`), the user name again, a placeholder or a reference."""
    if len(password) < 6 or password.lower() == user.lower():
        return False
    if SECRET_REFERENCE.get().match(password):
        return False
    filler = PLACEHOLDER.get().search(password)
    if filler is not None and not FAMOUS.get().fullmatch(filler.group()):
        return False
    # `passw0rd` alone is the textbook example; `S3cr3tPassw0rdXyz` is built around it.
    if filler is not None and len(password) < len(filler.group()) + 3:
        return False
    filler_pattern = URL_PASSWORD_FILLER.get()
    # `s3cret` and `p4ss` are fillers too; `admin123` keeps its digits as digits.
    return not any(filler_pattern.fullmatch(p) for p in (password, password.translate(LEET)))
