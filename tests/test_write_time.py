"""Write time end to end: commits carry when each memory was edited; consolidation counts it."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine

ORIGIN = "git@github.com:Acme/API.git"


def _stamp(day: str) -> float:
    return datetime.fromisoformat(f"{day}T15:00:00").timestamp()


def _memory(
    directory: Path, name: str, body: str, *, day: str, modified: str | None = None
) -> None:
    meta = f"  modified: {modified}\n" if modified else ""
    path = directory / f"{name}.md"
    path.write_text(
        f"---\nname: {name}\ndescription: {name} notes\nmetadata:\n  type: project\n{meta}---\n"
        f"{body}\n",
        encoding="utf-8",
    )
    os.utime(path, (_stamp(day), _stamp(day)))


def _live(machine: Machine, project: Path) -> Path:
    with machine.active():
        from memsync.model.paths import locate_project

        return locate_project(project).memory_dir


def _fresh(machine: Machine, tmp_path: Path) -> tuple[Path, Path, Path]:
    """(an empty private remote, a project on MACHINE, its live memory folder, created)."""
    remote = make_bare_remote(tmp_path / "remotes" / "private.git")
    project = machine.checkout_project(ORIGIN, "src/api")
    live = _live(machine, project)
    live.mkdir(parents=True)
    return remote, project, live


def test_import_keeps_each_files_write_day_and_consolidation_counts_from_it(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    remote, project, live = _fresh(laptop, tmp_path)
    _memory(live, "deploy", "We deployed the hotfix yesterday.", day="2026-10-02")
    _memory(live, "freeze", "The code freeze starts tomorrow.", day="2026-10-02")
    # The client's `metadata.modified` is later than the file time: it wins.
    _memory(
        live,
        "retro",
        "Retro notes written today.",
        day="2026-10-01",
        modified="2026-10-20T09:30:00.000Z",
    )
    laptop.memsync("init", "--private", str(remote), "--no-hooks", cwd=project)
    # Memory commits only: the project's identity file is recorded when init runs.
    log = git(
        "log", "--format=%ad|%cd|%s", "--date=format:%Y-%m-%d", "main", "--", "*.md", cwd=remote
    )
    rows = [line.split("|") for line in log.strip().splitlines()]
    authored = sorted(row[0] for row in rows)
    assert authored == ["2026-10-02", "2026-10-20"]  # one commit per write day
    today = datetime.now().date().isoformat()
    assert {row[1] for row in rows} == {today}  # committer date: when it was synced
    # A clone of the store: blame gives each line its write day.
    clone = tmp_path / "clone"
    git("clone", "-q", str(remote), str(clone), cwd=tmp_path)
    folder = next(p.parent for p in clone.rglob("deploy.md"))
    laptop.memsync("consolidate", str(folder), "--yes")
    assert "We deployed the hotfix on 2026-10-01." in (folder / "deploy.md").read_text()
    assert "The code freeze starts on 2026-10-03." in (folder / "freeze.md").read_text()
    assert "Retro notes written on 2026-10-20." in (folder / "retro.md").read_text()
    # Another machine pulls it: its live files get today's mtime; `metadata.modified` (and,
    # without it, the file time memsync gives a pulled file) still dates the lines.
    other = desktop.checkout_project(ORIGIN, "code/api")
    desktop.memsync("init", "--private", str(remote), "--no-hooks", cwd=other)
    theirs = _live(desktop, other)
    # Even with every file time on B saying "now" (a copy, a restore), the store clone's
    # history dates each line of the live folder: blame against the clone, not mtimes.
    for path in theirs.glob("*.md"):
        os.utime(path, None)
    desktop.memsync("consolidate", str(theirs), "--yes")
    assert "Retro notes written on 2026-10-20." in (theirs / "retro.md").read_text()
    assert "We deployed the hotfix on 2026-10-01." in (theirs / "deploy.md").read_text()
    assert "The code freeze starts on 2026-10-03." in (theirs / "freeze.md").read_text()


def test_an_evening_edit_west_of_greenwich_keeps_its_local_day_in_blame(
    machines: list[Machine], tmp_path: Path
) -> None:
    # Stamped +0000, an edit at 20:00 in Los Angeles (04:00 UTC the next day) was dated the
    # next day by blame, and a heading's day was then thrown out as "after the line".
    laptop = machines[0]
    laptop.env["TZ"] = "America/Los_Angeles"
    remote, project, live = _fresh(laptop, tmp_path)
    evening = datetime(2026, 11, 10, 20, 0, tzinfo=ZoneInfo("America/Los_Angeles")).timestamp()
    for name, body in (
        ("certs", "Yesterday we renewed the TLS certificates."),
        ("log", "## 2026-11-10\n\nShipped the fix today."),
    ):
        _memory(live, name, body, day="2026-11-10")
        os.utime(live / f"{name}.md", (evening, evening))
    laptop.memsync("init", "--private", str(remote), "--no-hooks", cwd=project)
    dates = git("log", "--format=%ad", "--date=iso-strict", "main", "--", "*.md", cwd=remote)
    assert dates.split() == ["2026-11-10T20:00:00-08:00"]
    clone = tmp_path / "clone"
    git("clone", "-q", str(remote), str(clone), cwd=tmp_path)
    folder = next(p.parent for p in clone.rglob("certs.md"))
    laptop.memsync("consolidate", str(folder), "--yes")
    assert "On 2026-11-09 we renewed the TLS certificates." in (folder / "certs.md").read_text()
    assert "Shipped the fix on 2026-11-10." in (folder / "log.md").read_text()


def test_a_stamp_in_the_future_is_not_when_a_memory_was_written(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop = machines[0]
    remote, project, live = _fresh(laptop, tmp_path)
    _memory(
        live, "certs", "Yesterday we renewed the TLS certificates.",
        day="2026-11-10", modified="2099-12-28T09:00:00.000Z",
    )  # fmt: skip
    report = laptop.memsync("consolidate", str(live), "--dry-run").stdout
    assert "| Yesterday | On 2026-11-09 | 2026-11-10 | file modification time |" in report
    laptop.memsync("init", "--private", str(remote), "--no-hooks", cwd=project)
    authored = git("log", "--format=%ad", "--date=short", "main", "--", "*.md", cwd=remote)
    assert authored.split() == ["2026-11-10"]  # not 2099: the file time, not the stamp


def test_a_line_not_pushed_yet_is_dated_as_its_commit_will_date_it(
    machines: list[Machine], tmp_path: Path
) -> None:
    # A line added by hand on the 25th to a memory the client last stamped on the 10th: the
    # live folder said the 10th before the push and the 25th (blame) after it.
    laptop = machines[0]
    remote, project, live = _fresh(laptop, tmp_path)
    stamp = "2026-11-10T09:00:00.000Z"
    _memory(live, "standup", "Standup notes.", day="2026-11-10", modified=stamp)
    laptop.memsync("init", "--private", str(remote), "--no-hooks", cwd=project)
    _memory(
        live, "standup", "Standup notes.\n\nTomorrow the release ships.",
        day="2026-11-25", modified=stamp,
    )  # fmt: skip
    row = "| Tomorrow | On 2026-11-26 | 2026-11-25 |"
    before = laptop.memsync("consolidate", str(live), "--dry-run").stdout
    assert f"{row} file modification time |" in before
    laptop.memsync("push", cwd=project)
    after = laptop.memsync("consolidate", str(live), "--dry-run").stdout
    assert f"{row} git blame |" in after


def test_a_line_two_machines_edited_is_dated_by_the_latest_edit_not_the_sync(
    machines: list[Machine], tmp_path: Path
) -> None:
    # An import review: the word merge wrote a line in neither parent, blamed on a merge
    # commit authored at the sync (the 26th), so B's "Tomorrow" of the 22nd became the 27th.
    laptop, desktop, _ = machines
    remote, mine, live = _fresh(laptop, tmp_path)
    line = "The release ships after QA signs off, owner Priya."
    _memory(live, "release", line, day="2026-11-10")
    laptop.memsync("init", "--private", str(remote), "--no-hooks", cwd=mine)
    theirs = desktop.checkout_project(ORIGIN, "code/api")
    desktop.memsync("init", "--private", str(remote), "--no-hooks", cwd=theirs)
    other = _live(desktop, theirs)
    _memory(live, "release", line.replace("Priya.", "Priya, decided yesterday."), day="2026-11-20")
    laptop.memsync("push", cwd=mine)
    _memory(other, "release", "Tomorrow t" + line[1:], day="2026-11-22")
    desktop.memsync("sync", cwd=theirs)
    merged = (other / "release.md").read_text()
    both = "Tomorrow the release ships after QA signs off, owner Priya, decided yesterday."
    assert both in merged
    merges = git("log", "--merges", "--format=%ad", "--date=short", "main", cwd=remote).split()
    assert merges == ["2026-11-22"]  # the latest edit merged into the line
    desktop.memsync("consolidate", str(other), "--yes")
    assert "On 2026-11-23 the release ships" in (other / "release.md").read_text()


def test_promote_keeps_when_the_memory_was_written(machines: list[Machine], tmp_path: Path) -> None:
    # Promote only moves a memory: stamped "now", its team commit was authored today and
    # consolidation turned its "yesterday" into the day before the promote (T6).
    from testing.machines import setup_machine

    laptop = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    project = setup_machine(laptop, private, team, "src/api")
    live = _live(laptop, project)
    _memory(live, "outage", "The payment outage happened yesterday.", day="2026-10-01")
    (live / "MEMORY.md").write_text("- [outage](outage.md) — outage notes\n", encoding="utf-8")
    os.utime(live / "outage.md", (_stamp("2026-10-01"), _stamp("2026-10-01")))
    laptop.memsync("push", cwd=project)
    written = (live / "outage.md").stat().st_mtime_ns
    laptop.memsync("promote", "outage.md", cwd=project)
    moved = live / "team" / "outage.md"
    assert moved.stat().st_mtime_ns == written  # the file still says when it was written
    authored = git("log", "--format=%ad", "--date=short", "main", "--", "*/outage.md", cwd=team)
    assert authored.split() == ["2026-10-01"]  # the team commit too, not the promote's day
    clone = tmp_path / "clone"
    git("clone", "-q", str(team), str(clone), cwd=tmp_path)
    folder = next(p.parent for p in clone.rglob("outage.md"))
    laptop.memsync("consolidate", str(folder), "--yes")
    assert "The payment outage happened on 2026-09-30." in (folder / "outage.md").read_text()


def test_consolidation_keeps_when_each_memory_was_written_on_every_machine(
    machines: list[Machine], tmp_path: Path
) -> None:
    # An i16 review: consolidating A's live folder stamped each memory it rewrote with the
    # time of the run; the push authored it then and B's pull gave it that time, so Claude
    # Code called a six-week-old memory "today" on both machines (SPEC 1: mtime is meaning).
    laptop, desktop, _ = machines
    remote, mine, live = _fresh(laptop, tmp_path)
    _memory(live, "deploy", "We deployed the hotfix yesterday.", day="2026-10-02")
    _memory(
        live, "rota", "Rota ledger.\nSlot 1: Ana on call.\nSlot 2: Bob on call.", day="2026-09-01"
    )
    _memory(
        live, "rota-copy", "Rota ledger.\nSlot 1: Carla on call.\nSlot 2: Bob on call.",
        day="2026-10-05",
    )  # fmt: skip
    laptop.memsync("init", "--private", str(remote), "--no-hooks", cwd=mine)
    theirs = desktop.checkout_project(ORIGIN, "code/api")
    desktop.memsync("init", "--private", str(remote), "--no-hooks", cwd=theirs)
    laptop.memsync("consolidate", str(live), "--yes", cwd=mine)
    assert "We deployed the hotfix on 2026-10-01." in (live / "deploy.md").read_text()
    assert "Carla" in (live / "rota-copy.md").read_text()
    assert not (live / "rota.md").exists()
    for name, day in (("deploy", "2026-10-02"), ("rota-copy", "2026-10-05")):
        assert (live / f"{name}.md").stat().st_mtime == _stamp(day), name
    laptop.memsync("sync", cwd=mine)
    authored = git(
        "log", "-1", "--format=%ad", "--date=short", "main", "--", "*/deploy.md", cwd=remote
    )
    assert authored.split() == ["2026-10-02"]  # the day it was written, not the run's
    desktop.memsync("pull", cwd=theirs)
    other = _live(desktop, theirs)
    assert "We deployed the hotfix on 2026-10-01." in (other / "deploy.md").read_text()
    assert (other / "deploy.md").stat().st_mtime == _stamp("2026-10-02")


def test_versions_written_hours_apart_on_one_day_merge_alike_in_the_live_folder_and_a_clone(
    machines: list[Machine], tmp_path: Path
) -> None:
    # An i16 review: the import commits a day's files together, so in a clone two versions of
    # one memory written at 09:00 and 17:00 had one commit time: "written at the same time",
    # left apart there (Ana back on call beside Carla), while A's live folder merged them.
    laptop = machines[0]
    remote, project, live = _fresh(laptop, tmp_path)
    for name, who, hour in (("rota", "Ana", "09"), ("rota-copy", "Carla", "17")):
        _memory(
            live, name, f"Rota ledger.\nSlot 1: {who} on call.\nSlot 2: Bob on call.",
            day="2026-10-05", modified=f"2026-10-05T{hour}:00:00.000Z",
        )  # fmt: skip
        path = live / f"{name}.md"
        path.write_text(path.read_text().replace("name: rota-copy", "name: rota"))
        os.utime(path, (_stamp("2026-10-05"), _stamp("2026-10-05")))  # 15:00, both
    laptop.memsync("init", "--private", str(remote), "--no-hooks", cwd=project)
    days = git("log", "--format=%ad", "--date=short", "main", "--", "*/rota*.md", cwd=remote)
    assert days.split() == ["2026-10-05"]  # one commit for the day's two files
    clone = tmp_path / "clone"
    git("clone", "-q", str(remote), str(clone), cwd=tmp_path)
    folder = clone / "acme-api"
    report = laptop.memsync("consolidate", str(folder), "--yes").stdout
    assert "Slot 1: Ana on call." in report  # superseded, named in full
    merged = (folder / "rota-copy.md").read_text()
    assert "Slot 1: Carla on call." in merged and "Ana" not in merged
    assert not (folder / "rota.md").exists()
    assert "Slot 1: Ana on call." in (folder / "archive" / "rota.md").read_text()
    laptop.memsync("consolidate", str(live), "--yes")
    assert (live / "rota-copy.md").read_text() == merged  # the live folder agrees
    assert not (live / "rota.md").exists()
    assert (live / "archive" / "rota.md").read_text() == (
        folder / "archive" / "rota.md"
    ).read_text()


def test_a_live_folders_team_memories_are_dated_by_the_team_stores_history(
    machines: list[Machine], tmp_path: Path
) -> None:
    # Consolidating a live folder consolidates its `team/` too, but blamed it against the
    # private store (which has none of it): a team memory's lines took the file's time, so a
    # line added weeks later re-dated the old ones, and B's time zone moved a 23:30 line.
    from testing.machines import setup_machine

    laptop, desktop, _ = machines
    laptop.env["TZ"] = "America/Los_Angeles"
    desktop.env["TZ"] = "Asia/Tokyo"
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    mine = laptop.checkout_project(ORIGIN, "src/api")
    live = _live(laptop, mine)
    (live / "team").mkdir(parents=True)
    _memory(live / "team", "outage", "The payment outage happened yesterday.", day="2026-09-12")
    late = datetime(2026, 9, 12, 23, 30, tzinfo=ZoneInfo("America/Los_Angeles")).timestamp()
    os.utime(live / "team" / "outage.md", (late, late))
    laptop.memsync("init", "--private", str(private), "--team", str(team), "--no-hooks", cwd=mine)
    outage = live / "team" / "outage.md"
    outage.write_text(outage.read_text() + "Postmortem filed.\n", encoding="utf-8")
    os.utime(outage, (_stamp("2026-10-16"), _stamp("2026-10-16")))
    laptop.memsync("push", cwd=mine)
    written = "The payment outage happened on 2026-09-11."
    report = laptop.memsync("consolidate", str(live), "--dry-run").stdout
    assert "| yesterday | on 2026-09-11 | 2026-09-12 | git blame |" in report
    theirs = setup_machine(desktop, private, team, "code/api")
    other = _live(desktop, theirs)
    desktop.memsync("consolidate", str(other), "--yes")
    assert written in (other / "team" / "outage.md").read_text()
    laptop.memsync("consolidate", str(live), "--yes")
    assert written in outage.read_text()


def _moving(live: Path, *, moved: bool) -> None:
    """A note in `src` (2026-09-05) and one in `plan` (2026-09-14); MOVED: on 2026-10-15, the
    first into `dst`, the second below its file's last line."""
    if not moved:
        _memory(
            live, "src", "Source notes.\nThe release was cut yesterday.\nMore.", day="2026-09-05"
        )
        _memory(live, "dst", "Destination notes.", day="2026-09-05")
        _memory(live, "plan", "Plan.\nWe freeze the branch tomorrow.\nTail line.", day="2026-09-14")
        return
    _memory(live, "src", "Source notes.\nMore.", day="2026-10-15")
    _memory(live, "dst", "Destination notes.\nThe release was cut yesterday.", day="2026-10-15")
    _memory(live, "plan", "Plan.\nTail line.\nWe freeze the branch tomorrow.", day="2026-10-15")


def test_a_line_moved_to_another_memory_or_within_one_keeps_the_day_it_was_written(
    machines: list[Machine], tmp_path: Path
) -> None:
    # Claude Code tidies memories: a note moved from one file to another, or down its own
    # file, was blamed on the move's commit, so its "yesterday" became the day before the move
    # (`on 2026-10-14`). Before the push, the live folder dated it by its new file's time while
    # a clone still had it in its old memory.
    laptop = machines[0]
    remote, project, live = _fresh(laptop, tmp_path)
    _moving(live, moved=False)
    _memory(live, "rota", "Standup moves to tomorrow at ten.", day="2026-09-05")
    _memory(live, "calls", "Call log.\nThe vendor called us yesterday.", day="2026-09-05")
    laptop.memsync("init", "--private", str(remote), "--no-hooks", cwd=project)
    before = tmp_path / "before"
    git("clone", "-q", str(remote), str(before), cwd=tmp_path)
    _moving(live, moved=True)
    _memory(live, "new", "Added today, a new note.", day="2026-10-15")
    _memory(live, "calls", "Call log.", day="2026-10-15")
    _memory(live, "vendor", "The vendor called us yesterday.", day="2026-10-15")  # a new memory
    # The same words written again in a new memory, the old one keeping them: no move.
    _memory(live, "again", "Another note.\nStandup moves to tomorrow at ten.", day="2026-10-15")
    after = tmp_path / "after"
    for clone in (before, after):
        if clone == after:
            laptop.memsync("push", cwd=project)
            git("clone", "-q", str(remote), str(after), cwd=tmp_path)
        for folder in (next(p.parent for p in clone.rglob("dst.md")), live):
            report = laptop.memsync("consolidate", str(folder), "--dry-run").stdout
            assert "| yesterday | on 2026-09-04 | 2026-09-05 | git blame |" in report, folder
            assert "| tomorrow | on 2026-09-15 | 2026-09-14 | git blame |" in report, folder
            vendor = "vendor.md:7" if folder == live or clone == after else "calls.md:8"
            assert f"| `{vendor}` | yesterday | on 2026-09-04 | 2026-09-05 | git blame |" in report
        # A new line is dated as its commit will date it, then by that commit (guard).
        source = "file modification time" if clone == before else "git blame"
        assert f"| today | on 2026-10-15 | 2026-10-15 | {source} |" in report
        assert f"| tomorrow | 2026-10-16 | 2026-10-15 | {source} |" in report


def test_a_live_folder_consolidated_with_all_is_still_dated_by_its_store(
    machines: list[Machine], tmp_path: Path
) -> None:
    # `consolidate LIVE --all` (a live folder is one project) looked up no store history: a
    # line imported on 2026-09-05 in a memory edited on 2026-10-15 took the file's day.
    laptop = machines[0]
    remote, project, live = _fresh(laptop, tmp_path)
    _memory(live, "deploy", "Intro line.\nWe deployed the hotfix yesterday.", day="2026-09-05")
    laptop.memsync("init", "--private", str(remote), "--no-hooks", cwd=project)
    _memory(live, "deploy", "Intro.\nWe deployed the hotfix yesterday.\nMore.", day="2026-10-15")
    laptop.memsync("push", cwd=project)
    for extra in ((), ("--all",)):
        report = laptop.memsync("consolidate", str(live), *extra, "--dry-run").stdout
        assert "| yesterday | on 2026-09-04 | 2026-09-05 | git blame |" in report, extra
