"""The one escaping rule for text shown to a person: secrets redacted, controls made visible.

Text from outside memsync (file names, git's messages, memory content) can carry a secret or
terminal controls. Both the command line (`cli/render`) and the hook protocol (a hook's
stderr and its `systemMessage`, which Claude Code shows in the terminal) pass it through
`printable`, so a file name cannot move the cursor, recolour the terminal or hide text
(bidirectional overrides included), and a token is never printed.
"""

from __future__ import annotations

import re

# C0 and C1 controls except tab and newline, DEL, and the invisible Unicode format
# characters that reorder or hide text (Trojan Source, CVE-2021-42574).
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]"
)


def escape_controls(text: str) -> str:
    """TEXT with every control or invisible formatting character written as an escape."""
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def printable(text: str) -> str:
    """TEXT with secrets redacted and controls escaped (docs/SECRETS.md)."""
    from memsync.check.secrets import redact

    return escape_controls(redact(text))


def json_printable(text: str) -> str:
    """JSON TEXT (from json.dumps) with secrets redacted and the controls json.dumps leaves
    (DEL, C1, invisible formatting) written as `\\uXXXX` escapes: still the same JSON."""
    from memsync.check.secrets import redact

    # Outside strings json.dumps writes only ASCII structure, so every match is in a string;
    # a redacted span never holds a quote or backslash, so the JSON stays valid.
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", redact(text))
