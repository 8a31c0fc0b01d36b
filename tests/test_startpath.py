"""Start-up: fetches started early and collected once, a CLI built for one command, lazy grammar."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.paired import Paired, paired
from memsync.errors import RemoteUnavailableError
from memsync.git import remote
from memsync.git.remote import fetch, init_bare, start_fetch
from memsync.git.run import git_env
from memsync.git.spawn import start_git
from testing.gitrepo import git, make_bare_remote


def _clone_with_new_commit(tmp_path: Path) -> tuple[Path, str]:
    """A memsync-style bare clone of a remote that has one commit the clone lacks."""
    origin = make_bare_remote(tmp_path / "origin.git")
    work = tmp_path / "work"
    git("clone", "-q", str(origin), str(work), cwd=tmp_path)
    (work / "a.md").write_text("one\n", encoding="utf-8")
    git("add", "a.md", cwd=work)
    git("commit", "-q", "-m", "one", cwd=work)
    git("push", "-q", "origin", "HEAD:main", cwd=work)
    clone = tmp_path / "clone.git"
    init_bare(clone, origin.as_uri())
    return clone, git("rev-parse", "HEAD", cwd=work).strip()


def test_an_early_fetch_is_collected_by_the_next_fetch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clone, head = _clone_with_new_commit(tmp_path)
    start_fetch(clone)
    assert clone in remote._STARTED
    ran: list[list[str]] = []
    monkeypatch.setattr(remote, "run_git", lambda args, **_: ran.append(list(args)))
    fetch(clone, timeout=30)
    assert not ran, "the started fetch was waited for, not run again"
    assert clone not in remote._STARTED
    assert git("rev-parse", "refs/remotes/origin/main", cwd=clone).strip() == head


def test_no_early_fetch_where_there_is_no_clone_yet(tmp_path: Path) -> None:
    start_fetch(tmp_path / "missing.git")
    assert tmp_path / "missing.git" not in remote._STARTED


def test_an_early_fetch_that_cannot_reach_the_remote_reports_it(tmp_path: Path) -> None:
    clone = tmp_path / "clone.git"
    init_bare(clone, (tmp_path / "gone.git").as_uri())
    start_fetch(clone)
    with pytest.raises(RemoteUnavailableError, match="remote unreachable"):
        fetch(clone, timeout=30)
    assert clone not in remote._STARTED


def test_an_early_fetch_failing_for_another_reason_is_run_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clone, head = _clone_with_new_commit(tmp_path)
    # As if a concurrent fetch held a ref's lock: git exits 1 with a local error.
    failing = start_git(["rev-parse", "--verify", "refs/heads/nothing-here"], clone, git_env())
    monkeypatch.setitem(remote._STARTED, clone, failing)
    fetch(clone, timeout=30)
    assert git("rev-parse", "refs/remotes/origin/main", cwd=clone).strip() == head


def test_the_cli_builds_only_the_command_it_runs() -> None:
    from memsync.cli.app import build_app

    only = build_app("status")
    assert [c.name for c in only.registered_commands] == ["status"]
    assert not only.registered_groups
    assert len(build_app().registered_commands) >= 13
    assert [g.name for g in build_app("hooks").registered_groups] == ["hooks"]


def test_a_mistyped_command_still_gets_the_full_app_and_its_suggestion(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "memsync", "statu"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert "No such command 'statu'" in proc.stderr
    assert "status" in proc.stderr


def test_the_hook_path_imports_neither_typer_nor_the_date_grammar(tmp_path: Path) -> None:
    code = (
        "import sys; from memsync.__main__ import main\n"
        "try:\n    main(['pull', '--hook'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('typer', 'rich', 'yaml'))"
        " or m.endswith('.grammar')))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        input="{}",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stdout + proc.stderr


def test_the_date_grammar_is_compiled_on_first_use() -> None:
    code = (
        "from memsync.consolidate import grammar\n"
        "before = grammar._pattern.cache_info().currsize\n"
        "from memsync.consolidate.dates import find_relative_dates\n"
        "find_relative_dates('We shipped it yesterday.')\n"
        "print(before, grammar._pattern.cache_info().currsize)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.stdout.split() == ["0", "1"], proc.stderr


def test_paired_timing_alternates_and_reports_the_median_ratio() -> None:
    calls: list[str] = []
    result = paired("x", lambda: calls.append("a"), lambda: calls.append("b"), pairs=4, warmup=1)
    assert calls == ["a", "b", "a", "b", "b", "a", "a", "b", "b", "a"]
    fixed = Paired("x", "A", "B", (2.0, 3.0, 4.0, 30.0), (1.0, 1.0, 1.0, 1.0), goal=3.5)
    assert fixed.median == 3.5
    assert fixed.ok
    low, _, _, high = fixed.spread()
    assert (low, high) == (2.0, 30.0)
    assert "**3.50×**" in fixed.row()
    assert len(result.ratios) == 4


def test_a_fetch_waited_for_is_reported_once_by_the_next_fetch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memsync.git.remote import wait_fetch

    clone, head = _clone_with_new_commit(tmp_path)
    assert wait_fetch(clone, timeout=30) is None, "nothing was started"
    start_fetch(clone)
    assert wait_fetch(clone, timeout=30) is True
    assert wait_fetch(clone, timeout=30) is True, "the outcome is kept"
    start_fetch(clone)
    assert clone not in remote._STARTED, "no second fetch while an outcome waits"
    ran: list[list[str]] = []
    monkeypatch.setattr(remote, "run_git", lambda args, **_: ran.append(list(args)))
    fetch(clone, timeout=30)
    assert not ran and clone not in remote._DONE
    assert git("rev-parse", "refs/remotes/origin/main", cwd=clone).strip() == head


def test_a_fetch_that_outlives_its_wait_is_reported_unreachable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memsync.git.remote import wait_fetch

    clone = tmp_path / "clone.git"
    init_bare(clone, (tmp_path / "slow.git").as_uri())
    # A git that never ends: an alias running a shell that sleeps (exec: no orphan left).
    hanging = start_git(["-c", "alias.hang=!exec sleep 30", "hang"], clone, git_env())
    monkeypatch.setitem(remote._STARTED, clone, hanging)
    assert wait_fetch(clone, timeout=0.2) is False
    assert not hanging.running(), "the stuck fetch was stopped"
    with pytest.raises(RemoteUnavailableError, match="did not answer within"):
        fetch(clone, timeout=30)


def test_a_deferred_module_loads_on_first_use_for_every_holder() -> None:
    code = (
        "import sys\n"
        "before = set(sys.modules)  # a coverage run's start-up loads inspect and ast itself\n"
        "from memsync.__main__ import defer_import\n"
        "defer_import('inspect')\n"
        "from dataclasses import dataclass\n"
        "@dataclass(frozen=True)\n"
        "class Documented:\n"
        "    '''Has a docstring: dataclasses needs no signature.'''\n"
        "    a: int\n"
        "print('ast' in set(sys.modules) - before)\n"
        "@dataclass\n"
        "class Bare:\n"
        "    a: int\n"
        "print(Bare.__doc__)\n"
        "import inspect, dataclasses\n"
        "print(inspect.isclass(Bare), dataclasses.inspect.signature is inspect.signature)\n"
        "defer_import('inspect')\n"
        "print(type(sys.modules['inspect']).__name__)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.stdout.split("\n") == ["False", "Bare(a: int)", "True True", "module", ""], (
        proc.stderr
    )
