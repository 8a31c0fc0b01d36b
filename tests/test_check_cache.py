"""`memsync check` remembers each file's own findings and checks only what changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memsync.check.cache import FindingCache, code_fingerprint
from memsync.check.rules import check_files
from memsync.check.run import run_check
from testing.memories import write_memory
from testing.secretgen import materialize, token_template

FILES = {
    "MEMORY.md": b"- [Deploy](deploy.md) \xe2\x80\x94 freeze since yesterday\n",
    "deploy.md": b"---\nname: deploy\ndescription: d\nmetadata:\n  type: project\n---\n"
    b"We froze deploys yesterday.\n",
    "typo.md": b"---\nname: typo\ndescription: t\nmetadata:\n  type: projet\n---\nBody.\n",
}


def _described(findings: list[object]) -> list[str]:
    return sorted(f.describe() for f in findings)  # type: ignore[attr-defined]


def test_a_second_run_gives_the_same_findings_from_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "check.json"
    first = FindingCache.open(path)
    before = check_files(FILES, "private", cache=first)
    first.save()
    assert first.hits == 0 and path.is_file()
    second = FindingCache.open(path)
    after = check_files(FILES, "private", cache=second)
    assert second.hits == len(FILES)
    assert _described(after) == _described(before) == _described(check_files(FILES, "private"))
    assert any("relative date" in d for d in _described(after))  # the grammar's finding


def test_a_changed_file_is_checked_again(tmp_path: Path) -> None:
    path = tmp_path / "check.json"
    cache = FindingCache.open(path)
    check_files(FILES, "private", cache=cache)
    cache.save()
    key = materialize(token_template("github-pat"), "check-cache")[0]  # filled at test time
    changed = {**FILES, "deploy.md": FILES["deploy.md"] + f"key {key}\n".encode()}
    again = FindingCache.open(path)
    found = _described(check_files(changed, "private", cache=again))
    assert again.hits == len(FILES) - 1
    assert any("[secret]" in d for d in found), found
    assert key not in "\n".join(found)  # redacted, as every finding is


def test_the_same_bytes_in_another_scope_or_path_are_checked_again(tmp_path: Path) -> None:
    cache = FindingCache.open(tmp_path / "check.json")
    check_files(FILES, "private", cache=cache)
    check_files(FILES, "team", cache=cache)
    check_files(FILES, "private", prefix="other/", cache=cache)
    assert cache.hits == 0


def test_other_code_damage_or_no_data_dir_means_checking_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "check.json"
    cache = FindingCache.open(path)
    expected = _described(check_files(FILES, "private", cache=cache))
    cache.save()
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["code"] == code_fingerprint()
    damaged = [
        {**stored, "code": "other"},
        {**stored, "entries": {k: [["x"]] for k in stored["entries"]}},
        {**stored, "entries": {k: [[1, 2, 3, "fatal", 5, 6]] for k in stored["entries"]}},
        {**stored, "entries": dict.fromkeys(stored["entries"], "rows")},
        {**stored, "entries": []},
        [],
    ]
    for entry in damaged:
        path.write_text(json.dumps(entry), encoding="utf-8")
        again = FindingCache.open(path)
        assert _described(check_files(FILES, "private", cache=again)) == expected
        assert again.hits == 0, entry
    path.write_text("{not json", encoding="utf-8")
    assert FindingCache.open(path).hits == 0
    # A data dir that is a file: nothing is remembered, nothing fails.
    blocker = tmp_path / "blocker"
    blocker.write_text("", encoding="utf-8")
    stuck = FindingCache.open(blocker / "cache" / "check.json")
    assert _described(check_files(FILES, "private", cache=stuck)) == expected
    stuck.save()
    assert blocker.read_text(encoding="utf-8") == ""


def test_a_run_that_changed_nothing_does_not_rewrite_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "check.json"
    cache = FindingCache.open(path)
    check_files(FILES, "private", cache=cache)
    cache.save()
    os.utime(path, (1_000_000_000, 1_000_000_000))
    again = FindingCache.open(path)
    check_files(FILES, "private", cache=again)
    again.save()
    assert path.stat().st_mtime == 1_000_000_000


def test_check_uses_the_data_dir_cache_and_skips_the_grammar_when_nothing_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("MEMSYNC_HOME", str(home))
    folder = tmp_path / "memory"
    write_memory(folder, "deploy.md", "deploy", "We froze deploys yesterday.\n")
    first = run_check(folder, cwd=tmp_path)
    assert (home / "cache" / "check.json").is_file()
    code = (
        "import sys\nfrom pathlib import Path\nfrom memsync.check.run import run_check\n"
        f"report = run_check(Path({str(folder)!r}), cwd=Path({str(tmp_path)!r}))\n"
        "print(len(report.findings), 'memsync.consolidate.grammar' in sys.modules)\n"
    )
    env = {**os.environ, "MEMSYNC_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert done.stdout.split() == [str(len(first.findings)), "False"], done.stderr
