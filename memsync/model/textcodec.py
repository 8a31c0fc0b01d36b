"""Memory files as text: UTF-8 with the file's BOM and newline convention kept (SPEC section 4).

Its own module because the index, the merge and the check read text without needing the
frontmatter parser: `status` pays for what it imports on every run. May import nothing.
"""

from __future__ import annotations

BOM = "\ufeff"


def js_length(text: str) -> int:
    """Length as JavaScript (Claude Code) counts it: a character outside the BMP is two
    UTF-16 code units. The one measure of every limit Claude Code applies to text."""
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def js_prefix(text: str, units: int) -> int:
    """How many characters of TEXT fit in its first UNITS UTF-16 code units."""
    if js_length(text) <= units:
        return len(text)
    count = 0
    for index, char in enumerate(text):
        count += 2 if ord(char) > 0xFFFF else 1
        if count > units:
            return index
    return len(text)


def decode(raw: bytes) -> tuple[str, bool, bool, str | None]:
    """Decode bytes as UTF-8: (text with LF newlines, had BOM, was CRLF, decode error)."""
    error: str | None = None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        error = f"not valid UTF-8 at byte {exc.start}"
        text = raw.decode("utf-8", errors="replace")
    bom = text.startswith(BOM)
    if bom:
        text = text[1:]
    # Only a file whose every line break is CRLF is normalized, so mixed files stay lossless.
    crlf = "\r\n" in text and text.count("\r\n") == text.count("\n")
    if crlf:
        text = text.replace("\r\n", "\n")
    return text, bom, crlf, error


def encode(text: str, *, bom: bool = False, crlf: bool = False) -> bytes:
    """Encode LF text back to bytes with the file's BOM and newline convention."""
    if crlf:
        text = text.replace("\n", "\r\n")
    return ((BOM if bom else "") + text).encode("utf-8")
