"""SHA-1 and SHA-256 digests, without loading OpenSSL at every start.

Every session start hashes its memories (git blob ids), names clones and manifests by a
digest and checks the config cache; `hashlib` loads the OpenSSL library on import, about
4 ms of a hook that aims at 60. CPython ships its own implementations of both algorithms
(`_sha1`, and `_sha256` until 3.11, `_sha2` since 3.12), which give the same digests; the
public `hashlib` stays the fallback on any Python without them. Nothing here is used to
protect a secret: these ids name content, as git's do.
"""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any

    _Hash = Callable[[bytes], Any]

try:
    from _sha1 import sha1 as _sha1_impl  # type: ignore[import-not-found]
except ImportError:  # not CPython, or built without it
    from hashlib import sha1 as _sha1_impl
try:
    from _sha2 import sha256 as _sha256_impl  # type: ignore[import-not-found]  # 3.12+
except ImportError:
    try:
        from _sha256 import sha256 as _sha256_impl  # type: ignore[import-not-found]
    except ImportError:
        from hashlib import sha256 as _sha256_impl

_SHA1: _Hash = _sha1_impl
_SHA256: _Hash = _sha256_impl


def sha1_hex(data: bytes) -> str:
    """The SHA-1 of DATA, as hexadecimal."""
    return str(_SHA1(data).hexdigest())


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of DATA, as hexadecimal."""
    return str(_SHA256(data).hexdigest())
