"""A shallow clone's dating, piece by piece (tests/test_consolidate_shallow.py runs the whole
plan): which commits git cut, which blamed lines are cut, and what a line of unknown day
leaves (docs/CONSOLIDATION.md, shallow clones)."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

from memsync import git as gitcmd
from memsync.consolidate.dates import convertible_dates, left_lines, resolve_relative_dates
from testing.gitrepo import git

ONE, TWO, THREE = 1_762_077_600, 1_763_632_800, 1_764_064_800  # Nov 2, 20, 25 2026 10:00Z


def _commit(repo: Path, when: int, **files: str) -> str:
    for name, text in files.items():
        (repo / f"{name}.md").write_text(text, encoding="utf-8")
    stamp = f"@{when} +0100"
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    git("add", "-A", cwd=repo, env=env)
    git("commit", "-q", "-m", str(when), cwd=repo, env=env)
    return git("rev-parse", "HEAD", cwd=repo).strip()


def _store(tmp_path: Path) -> tuple[Path, list[str]]:
    """a.md: two lines of commit one; commit two touches b.md only; commit three adds a line."""
    store = tmp_path / "store"
    store.mkdir()
    git("init", "-q", cwd=store)
    shas = [_commit(store, ONE, a="first\nsecond\n")]
    shas.append(_commit(store, TWO, b="other\n"))
    shas.append(_commit(store, THREE, a="first\nsecond\nthird\n"))
    return store, shas


def test_the_commits_a_shallow_clone_cut_are_read_from_its_shallow_file(tmp_path: Path) -> None:
    store, shas = _store(tmp_path)
    assert gitcmd.shallow_commits(store) == frozenset()  # a whole history
    clone = tmp_path / "clone"
    git("clone", "-q", "--depth", "2", f"file://{store}", str(clone), cwd=tmp_path)
    assert gitcmd.shallow_commits(clone) == frozenset({shas[1]})
    # Several cuts (a merge's parents), one a line: every one is listed.
    (clone / ".git" / "shallow").write_text(f"{shas[1]}\n{shas[0]}\n", encoding="ascii")
    assert gitcmd.shallow_commits(clone) == frozenset({shas[0], shas[1]})
    (tmp_path / "plain").mkdir()
    assert gitcmd.shallow_commits(tmp_path / "plain") == frozenset()  # no repository


def test_blame_marks_cut_only_the_lines_of_a_commit_the_clone_cut(tmp_path: Path) -> None:
    store, shas = _store(tmp_path)
    clone = tmp_path / "clone"
    git("clone", "-q", "--depth", "2", f"file://{store}", str(clone), cwd=tmp_path)
    cut = gitcmd.shallow_commits(clone)
    blame = gitcmd.blame_lines(clone, "a.md", shallow=cut)
    assert blame is not None
    # The old lines are blamed on the cut commit two: its time, only the latest they can be.
    assert [(b.author_time, b.author_tz, b.cut, b.committed) for b in blame] == [
        (TWO, "+0100", True, True),
        (TWO, "+0100", True, True),
        (THREE, "+0100", False, True),
    ]
    # Without the clone's cuts nothing is cut; a whole history's root is blame's boundary
    # too, but its lines were written then.
    assert not any(b.cut for b in gitcmd.blame_lines(clone, "a.md") or [])
    whole = gitcmd.blame_lines(store, "a.md", shallow=frozenset({shas[1]}))
    assert [(b.author_time, b.cut) for b in whole or []] == [
        (ONE, False),
        (ONE, False),
        (THREE, False),
    ]


def test_a_live_copy_takes_the_cut_of_the_same_lines_at_head(tmp_path: Path) -> None:
    store, _ = _store(tmp_path)
    clone = tmp_path / "clone"
    git("clone", "-q", "--depth", "2", f"file://{store}", str(clone), cwd=tmp_path)
    live = tmp_path / "live.md"
    live.write_text("first\nnew\nthird\n", encoding="utf-8")
    blame = gitcmd.blame_lines(clone, "a.md", live, gitcmd.shallow_commits(clone))
    assert [(b.cut, b.committed) for b in blame or []] == [
        (True, True),
        (False, False),  # not at HEAD: not committed, not cut
        (False, True),
        (False, False),  # the empty last piece after the final newline
    ]


def test_the_lines_left_are_those_of_unknown_day_with_a_date_not_rewritten() -> None:
    text = "Shipped yesterday.\nNo date here.\nFixed it yesterday.\nPlanned tomorrow.\n"
    days = {0: None, 1: None, 2: date(2026, 11, 25), 3: None}
    new, replacements = resolve_relative_dates(text, days.__getitem__)
    assert new == "Shipped yesterday.\nNo date here.\nFixed it on 2026-11-24.\nPlanned tomorrow.\n"
    found = convertible_dates(text)
    assert left_lines(text, found, replacements, days.__getitem__) == [0, 3]
    # A line of unknown day that its own pinned day dated is not left.
    pinned = "Next run is today (Apr 20); we shipped yesterday.\n"
    new, replacements = resolve_relative_dates(pinned, lambda _: None, lambda _: date(2026, 4, 25))
    assert left_lines(pinned, convertible_dates(pinned), replacements, lambda _: None) == []


def test_a_range_that_runs_on_from_a_left_date_is_left_with_it() -> None:
    """`yesterday to today` on a line of unknown day: neither end is rewritten, not the
    second alone counted from another line's day."""
    text = "Known line, shipped yesterday.\nFroze it from yesterday to today.\n"
    days = {0: date(2026, 11, 25), 1: None}
    new, replacements = resolve_relative_dates(text, days.__getitem__)
    assert new == "Known line, shipped on 2026-11-24.\nFroze it from yesterday to today.\n"
    assert [r.line for r in replacements] == [0]


def test_blame_reads_the_work_tree_and_a_live_copy_against_head(tmp_path: Path) -> None:
    """Without a live copy the work tree's own lines (an edit not committed is not
    committed); an untracked file has no blame; a live copy's lines moved down by one
    still take their own lines' blame."""
    store, _ = _store(tmp_path)
    (store / "a.md").write_text("first\nsecond\nthird\nfourth\n", encoding="utf-8")
    blame = gitcmd.blame_lines(store, "a.md")
    assert [(b.author_time, b.committed) for b in blame or []][:3] == [
        (ONE, True),
        (ONE, True),
        (THREE, True),
    ]
    assert blame is not None and len(blame) == 4 and not blame[3].committed
    (store / "new.md").write_text("untracked\n", encoding="utf-8")
    assert gitcmd.blame_lines(store, "new.md") is None
    live = tmp_path / "live.md"
    live.write_text("top\nfirst\nsecond\nthird\n", encoding="utf-8")
    moved = gitcmd.blame_lines(store, "a.md", live)
    assert [(b.author_time, b.committed) for b in moved or []][:4] == [
        (0, False),
        (ONE, True),
        (ONE, True),
        (THREE, True),
    ]


def test_a_date_that_opens_a_line_counts_from_that_lines_day() -> None:
    text = "Yesterday we froze deploys.\nYesterday we lifted it.\n"
    days = {0: None, 1: date(2026, 11, 25)}
    new, replacements = resolve_relative_dates(text, days.__getitem__)
    assert new == "Yesterday we froze deploys.\nOn 2026-11-24 we lifted it.\n"
    assert left_lines(text, convertible_dates(text), replacements, days.__getitem__) == [0]
    swapped = {0: date(2026, 11, 25), 1: None}
    new, replacements = resolve_relative_dates(text, swapped.__getitem__)
    assert new == "On 2026-11-24 we froze deploys.\nYesterday we lifted it.\n"
    assert left_lines(text, convertible_dates(text), replacements, swapped.__getitem__) == [1]


def test_a_line_of_unknown_day_below_another_reads_its_own_pinned_day() -> None:
    """The day word's place is counted within its own line (`today (Apr 20)` on line 2)."""
    text = "Some first line of text here.\nNext run is today (Apr 20); we shipped yesterday.\n"
    new, _ = resolve_relative_dates(text, lambda _: None, lambda _: date(2026, 4, 25))
    assert new == (
        "Some first line of text here.\nNext run is today (Apr 20); we shipped on 2026-04-19.\n"
    )
