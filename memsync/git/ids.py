"""Object ids computed without git: the zero id and a blob's id (a session start needs
these and nothing else of `objects`)."""

from __future__ import annotations

from memsync.model.digest import sha1_hex

ZERO_SHA = "0" * 40


def blob_sha(data: bytes) -> str:
    """The id git gives DATA as a blob, computed without running git."""
    return sha1_hex(b"blob %d\0" % len(data) + data)
