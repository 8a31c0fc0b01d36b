"""Digests without OpenSSL at start-up: the same as hashlib's, with hashlib as the fallback."""

from __future__ import annotations

import hashlib
import importlib
import sys

import pytest

from memsync.model import digest

_DATA = [b"", b"blob 3\0abc", bytes(range(256)) * 1000]


@pytest.mark.parametrize("data", _DATA)
def test_digests_are_hashlibs(data: bytes) -> None:
    assert digest.sha1_hex(data) == hashlib.sha1(data).hexdigest()
    assert digest.sha256_hex(data) == hashlib.sha256(data).hexdigest()


def test_a_session_start_hashes_without_loading_openssl() -> None:
    import subprocess

    code = (
        "import sys\n"
        "from memsync.model.digest import sha1_hex, sha256_hex\n"
        "sha1_hex(b'x'), sha256_hex(b'x')\n"
        "print('_hashlib' in sys.modules)\n"
    )
    import os

    # Coverage's subprocess hook loads hashlib itself: measure memsync's own imports.
    env = {k: v for k, v in os.environ.items() if not k.startswith("COV_CORE")}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    bare = subprocess.run(
        [sys.executable, "-c", "import sys; print('_hashlib' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    if bare.stdout.strip() == "True":
        pytest.skip("this interpreter's start-up (a coverage hook) already loads hashlib")
    assert out.stdout.strip() == "False"


def test_without_cpythons_own_modules_hashlib_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("_sha1", "_sha2", "_sha256"):
        monkeypatch.setitem(sys.modules, name, None)  # None in sys.modules: ImportError
    try:
        fallback = importlib.reload(digest)
        assert fallback._SHA1 is hashlib.sha1 and fallback._SHA256 is hashlib.sha256
        for data in _DATA:
            assert fallback.sha1_hex(data) == hashlib.sha1(data).hexdigest()
            assert fallback.sha256_hex(data) == hashlib.sha256(data).hexdigest()
    finally:
        monkeypatch.undo()
        importlib.reload(digest)
    assert digest._SHA1 is not hashlib.sha1  # CPython's own again
