"""Session start's fetches begin before the hook's imports, from what the last session bound."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memsync.git import remote as gitremote
from memsync.sync import early
from testing.gitrepo import git, make_bare_remote
from testing.hookprobe import bindings_of, run_pull_hook
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory


@pytest.fixture(autouse=True)
def _clean_state() -> object:
    yield
    for repo in list(gitremote._STARTED):
        gitremote.wait_fetch(repo, 30)
    gitremote._DONE.clear()
    early._REMEMBERED.clear()


def _clone(tmp_path: Path, data: Path, name: str) -> Path:
    origin = make_bare_remote(tmp_path / f"{name}-origin.git")
    clone = data / "stores" / f"{name}.git"
    gitremote.init_bare(clone, origin.as_uri())
    return clone


def test_a_remembered_clone_under_the_data_dir_is_fetched_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("MEMSYNC_HOME", str(data))
    ours, other = _clone(tmp_path, data, "ours"), _clone(tmp_path, data, "other")
    outside = tmp_path / "elsewhere.git"
    gitremote.init_bare(outside, make_bare_remote(tmp_path / "x.git").as_uri())
    cwd = str(tmp_path / "project")
    early._REMEMBERED.append((cwd, ()))
    early.remember([ours, outside, Path("relative.git"), data / ".." / "data" / "x.git"], 30)
    assert early._record(cwd).read_text().splitlines()[0] == cwd
    early._REMEMBERED.clear()
    early.start_remembered(cwd)
    # Only memsync's own clone is fetched: a path outside the data dir, a relative one or one
    # climbing out with `..` is never, whatever the record says.
    assert list(gitremote._STARTED) == [ours]
    assert [
        (cwd, (str(ours), str(outside), "relative.git", str(data / ".." / "data" / "x.git")))
    ] == early._REMEMBERED
    # The run binds another clone: the early fetch of `ours` is waited for and forgotten.
    early.remember([other], 30)
    assert not gitremote._STARTED and ours not in gitremote._DONE
    assert early._record(cwd).read_text().splitlines() == [cwd, str(other)]


def test_another_directorys_record_or_none_starts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("MEMSYNC_HOME", str(data))
    clone = _clone(tmp_path, data, "ours")
    early.start_remembered(str(tmp_path / "nowhere"))  # no record: nothing, no error
    record = early._record("/a-b")
    record.parent.mkdir(parents=True)
    record.write_text(f"/a/b\n{clone}\n")  # the same file name, another directory
    early.start_remembered("/a-b")
    record.write_bytes(b"\xff\xfe")  # not text: ignored
    early.start_remembered("/a/b")
    assert not gitremote._STARTED and not early._REMEMBERED


def test_the_hook_remembers_its_clones_and_starts_them_next_time(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    machine = machines[0]
    project = setup_machine(machine, remotes[0], remotes[1], "src/api")
    live = memory_dir(machine, project)
    write_memory(live, "deploy.md", "deploy freeze", "No deploys on Friday.\n")
    machine.memsync("sync", cwd=project)
    first, _, _ = run_pull_hook(machine, project)
    records = list((machine.home / ".memsync" / "early-fetch").iterdir())
    assert len(records) == 1
    clones = [str(b.clone_dir) for b in bindings_of(machine, project)]
    assert records[0].read_text().splitlines() == [os.path.realpath(project), *clones]
    # A stale record (a store no longer bound) changes nothing the person sees.
    stale = machine.home / ".memsync" / "stores" / "gone.git"
    gitremote.init_bare(stale, make_bare_remote(machine.home / "gone-origin.git").as_uri())
    lines = records[0].read_text().splitlines()
    records[0].write_text("\n".join([lines[0], str(stale), *lines[1:]]) + "\n")
    second, stderr, path = run_pull_hook(machine, project)
    assert (second, stderr, path) == (first, "", "QUICK")
    assert records[0].read_text().splitlines() == [lines[0], *clones]
    assert not list(stale.glob("refs/remotes/origin/*.lock"))
    git("rev-parse", "--git-dir", cwd=stale)
