"""What a hook run says (sync/hooklines.py) and tells the model (sync/hookcontext.py), line by
line: each case here was a mutant of the `hooklines` set that no test noticed
(docs/MUTATION.md)."""

from __future__ import annotations

import time
from pathlib import Path

from memsync.check.findings import ON_REMOTE, Finding
from memsync.model.safety import Skipped
from memsync.sync.arrived import on_remote_fix
from memsync.sync.hookcontext import pull_sections, short_names, team_section
from memsync.sync.hooklines import person_lines, problem_lines, timeout_line
from memsync.sync.report import StoreReport

DAY = 86_400.0
NOW = 1_800_000_000.0
SECRET = Finding("deploy.md", 3, "secret", "error", "possible secret (github-pat)")
SECRET_FIX = "Remove the credential (and rotate it if it was ever pushed)."
UNSAFE_FIX = "Rename or remove it: memsync never syncs symlinks, special files, or names with"


def _report(**fields: object) -> StoreReport:
    return StoreReport(scope="private", store="p", **fields)  # type: ignore[arg-type]


def test_an_error_line_carries_its_hint_only_when_there_is_one() -> None:
    assert person_lines([_report(error="the store is busy")], now=NOW) == [
        "memsync: private: the store is busy"
    ]
    many = _report(error="cannot merge\n  Resolve it by hand.\n  Then pull.")
    assert person_lines([many], now=NOW) == [
        "memsync: private: cannot merge (Resolve it by hand.\n  Then pull.)"
    ]
    assert problem_lines([many]) == ["memsync: private: cannot merge"]


def test_unreachable_for_more_than_a_day_by_the_clock_when_no_time_is_given() -> None:
    def days(since: float, now: float | None = NOW) -> list[str]:
        return person_lines([_report(offline="down", unreachable_since=since)], now=now)

    assert days(NOW - DAY) == []  # a day exactly is not more than a day
    assert days(NOW - 2.5 * DAY) == [
        "memsync: private: the remote has been unreachable for 2 day(s); memory is kept "
        "locally: check the network or the store URL (`memsync status`)"
    ]
    assert "for 3 day(s)" in days(time.time() - 3.5 * DAY, now=None)[0]


def test_runs_out_of_time_say_so_and_count_the_runs_in_a_row() -> None:
    once = _report(offline="the remote did not answer within 10 s. ", timeouts=1)
    expected = (
        "memsync: private: not synced, the remote did not answer in time (the remote did not "
        "answer within 10 s). Memory here is kept, but nothing arrives or leaves until a sync "
        "finishes: run `memsync pull` once in a terminal, which may take longer "
        "(`network_timeout` in the config; raise it for a slow link or a very large file on "
        "the remote)"
    )
    assert person_lines([once], now=NOW) == [expected] == [timeout_line(once)]
    twice = _report(offline=None, timeouts=2)
    assert timeout_line(twice).startswith(
        "memsync: private: not synced, the remote did not answer in time (); 2 runs in a row "
        "ran out of time. Memory here is kept"
    )


def test_a_secret_a_private_store_synced_says_where_it_is_now() -> None:
    pushed = _report(warnings=(SECRET,), pushed=True)
    said = f"{SECRET.describe()}; {SECRET_FIX}"
    assert person_lines([pushed], now=NOW) == [
        f"memsync: private: pushed a possible secret: {said}"
    ]
    assert problem_lines([pushed]) == [
        f"memsync: private: pushed a possible secret: {SECRET.describe()}"
    ]
    waiting = _report(warnings=(SECRET,), pushed=False)
    state = "committed a possible secret (the next push sends it)"
    assert person_lines([waiting], now=NOW) == [f"memsync: private: {state}: {said}"]
    assert problem_lines([waiting]) == [f"memsync: private: {state}: {SECRET.describe()}"]


def test_a_secret_already_on_the_remote_gets_that_fix_and_only_a_secret_does() -> None:
    there = Finding("deploy.md", 3, "secret", "error", f"possible secret; {ON_REMOTE}")
    odd = Finding("deploy.md", 3, "unsafe-path", "error", f"odd; {ON_REMOTE}")
    lines = person_lines([_report(blocked=(there, odd))], now=NOW)
    assert lines[0].endswith(f"; {on_remote_fix()}")
    assert f"odd; {ON_REMOTE} [unsafe-path]; {UNSAFE_FIX}" in lines[1]


def test_of_the_warnings_only_an_index_the_client_cuts_reaches_the_person() -> None:
    long = Finding("MEMORY.md", 201, "index-too-many-lines", "error", "201 lines")
    wide = Finding("MEMORY.md", 1, "index-too-many-chars", "error", "26,000 characters")
    stale = Finding("a.md", 1, "index-missing-entry", "warning", "not in the index")
    lines = person_lines([_report(warnings=(long, stale, wide))], now=NOW)
    assert lines == [f"memsync: private: {long.describe()}", f"memsync: private: {wide.describe()}"]


def test_a_problem_a_pull_brought_names_its_scope() -> None:
    arrived = Finding("team/a.md", 1, "secret", "error", "possible secret")
    [line] = person_lines([StoreReport("team", "t", arrived=(arrived,))], now=NOW)
    assert line.startswith(f"memsync: team: pulled from the team remote: {arrived.describe()}")


def test_files_the_folder_would_not_take_are_one_line_with_the_first_reason() -> None:
    full = Skipped("a.md", "cannot write it here: disk full")
    readonly = Skipped("sub/b.md", "cannot write it here: read-only")
    assert person_lines([_report(skipped=(full, readonly))], now=NOW) == [
        'memsync: private: could not write 2 file(s) into the memory folder: "a.md", '
        '"sub/b.md" (cannot write it here: disk full); free space or make the folder '
        "writable, then run `memsync pull`"
    ]


def test_unsafe_files_are_grouped_by_rule_with_up_to_three_reasons() -> None:
    def line(*items: Skipped) -> list[str]:
        return person_lines([_report(skipped=items)], now=NOW)

    reasons = ("symlink", "special file", "name with ..")
    three = line(*(Skipped(f"{n}.md", r) for n, r in zip("abc", reasons, strict=True)))
    assert three == [
        'memsync: private: skipped 3 unsafe file(s): "a.md", "b.md", "c.md" (name with ..; '
        f"special file; symlink); {UNSAFE_FIX} `..`, backslashes, control characters or "
        "absolute parts. They are in the memory folder or the store (`memsync status` names "
        "each reason)"
    ]
    four = line(*(Skipped(f"{n}.md", r) for n, r in zip("abcd", (*reasons, "fifo"), strict=True)))
    assert '"d.md" (unsafe path); Rename' in four[0]
    kinds = line(Skipped("a.md", "symlink"), Skipped("b.md", "unreadable: permission denied"))
    assert [k.split(" (")[0] for k in kinds] == [
        'memsync: private: skipped 1 unsafe file(s): "a.md"',
        'memsync: private: skipped 1 unsafe file(s): "b.md"',
    ]
    assert "Make the file readable" in kinds[1]


def test_the_terminal_names_skipped_files_by_their_file_name() -> None:
    report = _report(skipped=(Skipped("dir/a.md", "symlink"), Skipped("b\n.md", "odd")))
    assert problem_lines([report]) == ["memsync: private: skipped 2 file(s): a.md, b\n.md"]


def _private(live: Path, **fields: object) -> StoreReport:
    return StoreReport(scope="private", store="p", live_dir=str(live), **fields)  # type: ignore[arg-type]


def _team(live: Path, **fields: object) -> StoreReport:
    return StoreReport(scope="team", store="t", live_dir=str(live), **fields)  # type: ignore[arg-type]


def test_which_paths_are_memories_follows_the_reports_scope(tmp_path: Path) -> None:
    private, team = tmp_path / "memory", tmp_path / "memory" / "team"
    team.mkdir(parents=True)
    # In the private scope `team/` is the team's folder, not memory; in a team store at a
    # repository's root it is an ordinary folder.
    assert pull_sections([_private(private, updated=("team/a.md",))]) == []
    [shared] = pull_sections([_team(team, updated=("team/b.md",))])
    assert 'New or changed by this pull: "team/b.md"' in shared.heading


def test_a_report_without_a_folder_does_not_end_the_sections(tmp_path: Path) -> None:
    team = tmp_path / "team"
    [shared] = pull_sections([StoreReport("private", "p"), _team(team)])
    assert shared.full_text_in == str(team / "MEMORY.md")


def test_a_resumed_session_gets_the_team_block_again_only_for_a_change(tmp_path: Path) -> None:
    team = tmp_path / "team"
    assert pull_sections([_team(team)], resumed=True) == []
    for change in ({"updated": ("a.md",)}, {"deleted": ("a.md",)}):
        [shared] = pull_sections([_team(team, **change)], resumed=True)
        assert '"a.md"' in shared.heading


def test_the_changed_private_index_heading_says_to_read_the_file(tmp_path: Path) -> None:
    live = tmp_path / "memory"
    live.mkdir()
    (live / "MEMORY.md").write_bytes(b"- [One](one.md) \xff broken\n")  # not UTF-8: replaced
    # The pull changed the index too: the copy the client loaded is stale.
    [changed] = pull_sections([_private(live, updated=("one.md", "MEMORY.md"))])
    assert changed.heading == (
        "memsync brought memory changes from other machines after this session loaded "
        f"MEMORY.md, so the copy loaded above is out of date: Read {live / 'MEMORY.md'} before "
        "you change it, never rewrite it from that copy. Index lines of the new or changed "
        f"memories in {live} (Read a file for its content):"
    )
    assert changed.lines == ("- [One](one.md) \ufffd broken",)
    # Only the memory changed: the loaded index is current, and the heading says so.
    [changed] = pull_sections([_private(live, updated=("one.md",))])
    assert changed.heading == (
        "memsync brought changes to these memories from other machines after this session "
        f"loaded MEMORY.md (the index itself is unchanged). Their index lines in {live} (Read "
        "a file for its content):"
    )
    assert changed.lines == ("- [One](one.md) \ufffd broken",)


def test_the_team_block_names_up_to_twenty_changes(tmp_path: Path) -> None:
    names = [f"m{i:02}.md" for i in range(21)]
    listed = ", ".join(f'"{n}"' for n in names[:20])
    section = team_section(tmp_path, names[:20], names)
    assert f"New or changed by this pull: {listed}\n" in section.heading
    assert f"Removed by this pull: {listed}, +1 more\n" in section.heading
    section = team_section(tmp_path, names, names[:20])
    assert f"New or changed by this pull: {listed}, +1 more\n" in section.heading
    assert f"Removed by this pull: {listed}\n" in section.heading


def test_short_names_show_the_first_few_then_how_many_more() -> None:
    assert short_names(["a.md", "b.md"], most=2) == '"a.md", "b.md"'
    assert short_names(["a.md", "b.md", "c.md"], most=2) == '"a.md", "b.md", +1 more'
    assert short_names(["d/a.md", "b.md"], quote=False) == "a.md, b.md"


def test_a_folder_in_the_way_of_a_file_is_told_to_move_not_to_free_space() -> None:
    """h3: a folder where a pulled file goes was told `free space or make the folder
    writable`, which fixes nothing."""
    full = Skipped("a.md", "cannot write it here: disk full")
    folder = Skipped("b.md", "cannot write it here: a folder of that name is in the way")
    assert person_lines([_report(skipped=(full, folder))], now=NOW) == [
        'memsync: private: could not write 1 file(s) into the memory folder: "a.md" (cannot '
        "write it here: disk full); free space or make the folder writable, then run "
        "`memsync pull`",
        'memsync: private: could not write 1 file(s) into the memory folder: "b.md" (cannot '
        "write it here: a folder of that name is in the way); rename or move that folder: a "
        "synced memory goes there, then run `memsync pull`",
    ]
