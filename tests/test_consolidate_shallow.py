"""Relative dates in a shallow clone (`git clone --depth N`, actions/checkout's default).

A line blame gives a commit whose parents the clone cut may be older than that commit, so
when it was written is unknown there; every line written after the cut has its true author
date, and a line or heading that states its day needs no blame at all.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest

from memsync.consolidate.engine import apply_plan, make_plan
from memsync.git import grafted_cuts
from testing.gitrepo import git
from testing.memories import write_memory

BOUNDARY = "2026-11-20T10:00:00+00:00"  # the oldest commit `--depth 2` fetches


def _commit(repo: Path, message: str, when: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    git("add", "-A", cwd=repo, env=env)
    git("commit", "-q", "-m", message, cwd=repo, env=env)


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def _history(tmp_path: Path, modified: str) -> Path:
    """A store with three commits: lines written on 2026-11-02, a commit on 2026-11-20 that
    does not touch them, and lines added on 2026-11-25."""
    store = tmp_path / "store"
    folder = store / "acme"
    folder.mkdir(parents=True)
    git("init", "-q", cwd=store)
    (folder / "a.md").write_text(
        "---\nname: a\ndescription: a\nmetadata:\n  type: project\n"
        f"  modified: {modified}\n---\n"
        "Deployed the parser fix yesterday.\n",  # line 8
        encoding="utf-8",
    )
    write_memory(
        folder,
        "log.md",
        "log",
        "## 2026-10-30\n\nMerged the fix yesterday.\n"  # line 8: its heading's day
        "- 2026-10-31: reverted it yesterday.\n",  # line 9: its own day
    )
    write_memory(folder, "2026-10-28.md", "daily", "Fixed the build today.\n")  # its name's day
    (folder / "MEMORY.md").write_text(
        "- [a](a.md) — a\n- [log](log.md) — log\n- [daily](2026-10-28.md) — daily\n\n"
        "Release planned tomorrow.\n",  # line 5
        encoding="utf-8",
    )
    _commit(store, "one", "2026-11-02T10:00:00+00:00")
    write_memory(folder, "b.md", "b", "Unrelated note.\n")
    _commit(store, "two", BOUNDARY)
    _append(folder / "a.md", "Rolled it back yesterday.\n")  # line 9
    _append(folder / "MEMORY.md", "Freeze starts tomorrow.\n")  # line 6
    _commit(store, "three", "2026-11-25T10:00:00+00:00")
    return store


# `metadata.modified` before the cut and after it: neither dates a line the cut commit has.
@pytest.mark.parametrize("modified", ["2026-11-01T09:00:00Z", "2026-11-24T09:00:00Z"])
def test_a_shallow_clone_converts_every_line_whose_day_is_known(
    tmp_path: Path, modified: str
) -> None:
    store = _history(tmp_path, modified)
    shallow = tmp_path / "shallow"
    git("clone", "-q", "--depth", "2", f"file://{store}", str(shallow), cwd=tmp_path)
    plan = make_plan(shallow / "acme").folders[0]
    assert {(d.path, d.line, d.old, d.new, d.source) for d in plan.dates} == {
        ("a.md", 9, "yesterday", "on 2026-11-24", "git blame"),
        ("MEMORY.md", 6, "tomorrow", "on 2026-11-26", "git blame"),
        ("log.md", 8, "yesterday", "on 2026-10-29", "heading `2026-10-30`"),
        ("log.md", 9, "yesterday", "on 2026-10-30", "the date the line starts with"),
        ("2026-10-28.md", 6, "today", "on 2026-10-28", "file name `2026-10-28.md`"),
    }
    assert plan.problems == (
        f"{shallow} is a shallow clone: 2 lines with a relative date are as old as its oldest "
        "commit or older, so when they were written is unknown and their dates were left as "
        "written: a.md:8, MEMORY.md:5; fetch the whole history (`git fetch --unshallow`, or "
        "`fetch-depth: 0` for actions/checkout)",
    )
    apply_plan(make_plan(shallow / "acme"))
    a = (shallow / "acme/a.md").read_text(encoding="utf-8")
    assert a.endswith("Deployed the parser fix yesterday.\nRolled it back on 2026-11-24.\n")
    index = (shallow / "acme/MEMORY.md").read_text(encoding="utf-8")
    assert "Release planned tomorrow.\n" in index and "Freeze starts on 2026-11-26." in index

    # The whole history knows the day of every line.
    full = tmp_path / "full"
    git("clone", "-q", f"file://{store}", str(full), cwd=tmp_path)
    plan = make_plan(full / "acme").folders[0]
    assert plan.problems == ()
    assert {(d.path, d.line, d.new) for d in plan.dates} >= {
        ("a.md", 8, "on 2026-11-01"),
        ("MEMORY.md", 5, "on 2026-11-03"),
    }


def test_a_clone_as_deep_as_its_history_is_still_shallow_to_git(tmp_path: Path) -> None:
    """`--depth 3` of three commits: git still lists the root as cut (it cannot tell), so its
    lines are unknown; a whole clone's root is a boundary to blame too, but a known one."""
    store = _history(tmp_path, "2026-11-01T09:00:00Z")
    deep = tmp_path / "deep"
    git("clone", "-q", "--depth", "3", f"file://{store}", str(deep), cwd=tmp_path)
    plan = make_plan(deep / "acme").folders[0]
    assert ("a.md", 9) in {(d.path, d.line) for d in plan.dates}
    assert "a.md:8, MEMORY.md:5;" in plan.problems[0]
    plan = make_plan(store / "acme").folders[0]  # root commit "one" is blame's boundary
    assert plan.problems == ()
    assert ("a.md", 8, "on 2026-11-01", "git blame") in {
        (d.path, d.line, d.new, d.source) for d in plan.dates
    }


def test_the_weekly_run_in_a_shallow_team_checkout_reports_what_it_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a workflow written by hand runs: `consolidate . --all --yes --report` in an
    actions/checkout of depth 1; a line edited in the checkout is dated by its file time."""
    import io
    import sys

    from memsync.cli.app import main

    team = tmp_path / "team"
    team.mkdir()
    git("init", "-q", cwd=team)
    freeze = write_memory(team / "acme-api", "freeze.md", "freeze", "Froze deploys yesterday.\n")
    _commit(team, "one", "2026-11-02T10:00:00+00:00")
    _append(freeze, "Lifted the freeze yesterday.\n")
    _commit(team, "two", "2026-11-25T10:00:00+00:00")
    checkout = tmp_path / "checkout"
    git("clone", "-q", "--depth", "1", f"file://{team}", str(checkout), cwd=tmp_path)
    live = checkout / "acme-api/freeze.md"
    _append(live, "Reopened it yesterday.\n")
    stamp = datetime.fromisoformat("2026-11-26T12:00:00").timestamp()
    os.utime(live, (stamp, stamp))
    report = tmp_path / "report.md"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.chdir(checkout)
    with pytest.raises(SystemExit) as exit_:
        main(["consolidate", ".", "--all", "--yes", "--report", str(report)])
    assert exit_.value.code in (0, None), capsys.readouterr().err
    assert live.read_text(encoding="utf-8").endswith(
        "Froze deploys yesterday.\nLifted the freeze yesterday.\nReopened it on 2026-11-25.\n"
    )
    text = report.read_text(encoding="utf-8")
    assert "2 lines with a relative date are as old as its oldest commit or older" in text
    assert "freeze.md:6, freeze.md:7;" in text and "`fetch-depth: 0`" in text


def test_a_history_cut_by_a_graft_dates_only_the_lines_after_the_cut(tmp_path: Path) -> None:
    """`git replace --graft C` with no parents cuts the history as `--depth` does: blame calls
    C a root, so the lines C only carries over are unknown, and the report says how to undo it."""
    store = _history(tmp_path, "2026-11-01T09:00:00Z")
    cut = git("rev-parse", "HEAD~1", cwd=store).strip()
    git("replace", "--graft", cut, cwd=store)
    plan = make_plan(store / "acme").folders[0]
    assert ("a.md", 9, "on 2026-11-24") in {(d.path, d.line, d.new) for d in plan.dates}
    assert not {("a.md", 8), ("MEMORY.md", 5)} & {(d.path, d.line) for d in plan.dates}
    assert plan.problems == (
        f"{store}'s history is cut by `git replace --graft`: 2 lines with a relative date are "
        "as old as the commit it made a root or older, so when they were written is unknown "
        "and their dates were left as written: a.md:8, MEMORY.md:5; remove the replacement "
        "(`git replace -d <commit>`) to date them from the whole history",
    )
    git("replace", "-d", cut, cwd=store)
    plan = make_plan(store / "acme").folders[0]
    assert plan.problems == ()
    assert ("a.md", 8, "on 2026-11-01") in {(d.path, d.line, d.new) for d in plan.dates}


def test_a_replacement_that_keeps_a_parent_cuts_nothing(tmp_path: Path) -> None:
    """A graft onto other parents (here: skipping commit two) leaves every line its history."""
    store = _history(tmp_path, "2026-11-01T09:00:00Z")
    one, two, three = (git("rev-parse", f"HEAD~{n}", cwd=store).strip() for n in (2, 1, 0))
    git("replace", "--graft", three, one, cwd=store)
    for name in ("x", "y"):
        (tmp_path / name).write_text(f"{name}\n", encoding="utf-8")
    blob, other = (git("hash-object", "-w", str(tmp_path / n), cwd=store).strip() for n in "xy")
    git("replace", blob, other, cwd=store)  # a replaced blob is no history cut
    when = {"GIT_AUTHOR_DATE": "2026-11-02T10:00:00+00:00"}
    reworded = ["commit-tree", "-m", "reworded root", f"{one}^{{tree}}"]
    root = git(*reworded, cwd=store, env={**os.environ, **when}).strip()
    git("replace", one, root, cwd=store)  # a root stays a root: nothing older to misdate
    assert grafted_cuts(store) == frozenset()
    plan = make_plan(store / "acme").folders[0]
    assert plan.problems == ()
    assert ("a.md", 8, "on 2026-11-01") in {(d.path, d.line, d.new) for d in plan.dates}
    git("replace", "--graft", two, cwd=store)
    assert grafted_cuts(store) == {two}
