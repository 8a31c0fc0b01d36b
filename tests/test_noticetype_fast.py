"""The typed session-end notice (`memsync.sync.noticetype`) without git or a hook: when each
kind of STATE counts as gone, and how a notice is stored and read back. The scenarios with
real stores are in test_carried_notices.py; these pin each branch fast enough for a mutation
tester (docs/MUTATION.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsync.sync.noticetype import FILES, LOCK, RUN, Notice, gone, parsed, stored
from memsync.sync.report import StoreReport

LINE = "memsync: private: something to tell"


def _report(error: str | None = None, ahead: int = 0) -> dict[str, StoreReport]:
    return {"private": StoreReport("private", "s", error=error, ahead=ahead)}


def test_an_event_is_never_gone_whatever_ran_since() -> None:
    event = Notice(LINE, "private")
    assert not gone(event, _report(), ["private"])
    assert not gone(event, {}, ())


@pytest.mark.parametrize("state", [RUN, LOCK, FILES])
def test_a_state_of_a_scope_found_clean_is_gone(state: str) -> None:
    notice = Notice(LINE, "private", state)
    assert gone(notice, {}, ["private"])
    assert not gone(notice, {}, ["team"])  # another store's clean run says nothing of it


@pytest.mark.parametrize("state", [RUN, LOCK])
def test_a_state_with_no_run_of_its_store_since_stays(state: str) -> None:
    assert not gone(Notice(LINE, "private", state), {"team": _report()["private"]}, ())


def test_a_held_lock_is_gone_after_any_run_of_its_store() -> None:
    notice = Notice(LINE, "private", LOCK)
    assert gone(notice, _report(error="locked by pid 7"), ())  # that run names the holder


def test_a_runs_problem_is_gone_only_when_a_run_since_finished_clean() -> None:
    notice = Notice(LINE, "private", RUN)
    assert gone(notice, _report(), ())
    assert not gone(notice, _report(error="remote refused"), ())


def test_commits_left_unsent_keep_the_line_until_none_wait() -> None:
    notice = Notice(LINE, "private", RUN, unsent=True)
    assert not gone(notice, _report(ahead=2), ())  # a pull ran clean but sent nothing
    assert gone(notice, _report(ahead=0), ())
    assert gone(Notice(LINE, "private", RUN), _report(ahead=2), ())  # nothing was unsent


def test_files_held_back_are_gone_once_none_is_in_the_folder(tmp_path: Path) -> None:
    (tmp_path / "me.md").write_text("x", encoding="utf-8")
    notice = Notice(LINE, "private", FILES, ("me.md", "other.md"), str(tmp_path))
    assert not gone(notice, {}, ())  # me.md is still there, and no run since
    (tmp_path / "me.md").unlink()
    assert gone(notice, {}, ())
    assert not gone(Notice(LINE, "private", FILES, ("me.md",), ""), {}, ())  # no folder kept


def test_a_dangling_symlink_still_counts_as_a_file_held_back(tmp_path: Path) -> None:
    (tmp_path / "me.md").symlink_to(tmp_path / "nowhere.md")
    assert not gone(Notice(LINE, "private", FILES, ("me.md",), str(tmp_path)), {}, ())


def test_a_notice_is_stored_with_what_is_not_its_default_and_read_back() -> None:
    assert stored(Notice(LINE)) == {"text": LINE}
    full = Notice(LINE, "team", FILES, ("a.md", "b.md"), "/m", unsent=True)
    data = stored(full)
    assert data == {
        "text": LINE,
        "scope": "team",
        "state": FILES,
        "paths": ["a.md", "b.md"],
        "live_dir": "/m",
        "unsent": True,
    }
    assert parsed(json.dumps(data)) == full


@pytest.mark.parametrize(
    "line",
    [
        "memsync: private: a line an older memsync kept",  # plain text: an event, as then
        "{not json",
        json.dumps({"scope": "private"}),  # no text
        json.dumps({"text": ""}),
        json.dumps({"text": 5}),
        json.dumps({"text": LINE, "paths": "a.md"}),
        json.dumps({"text": LINE, "paths": [1]}),
        json.dumps({"text": LINE, "unsent": "yes"}),
        json.dumps({"text": LINE, "scope": None}),
        json.dumps([LINE]),
    ],
)
def test_a_line_that_is_no_notice_is_told_as_written(line: str) -> None:
    assert parsed(line) == Notice(line)


@pytest.mark.parametrize("notice", [Notice(LINE), Notice(LINE, "private"), Notice(LINE, "", RUN)])
def test_what_a_stored_notice_leaves_out_reads_back_as_its_default(notice: Notice) -> None:
    assert parsed(json.dumps(stored(notice))) == notice


def test_a_state_this_version_does_not_know_is_told_as_an_event() -> None:
    line = json.dumps({"text": LINE, "scope": "private", "state": "weather"})
    assert parsed(line) == Notice(LINE, "private")
