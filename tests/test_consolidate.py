"""The consolidation pass end to end: git-blamed dates, duplicates, index, archive, CLI."""

from __future__ import annotations

import io
import json
import os
import sys
from datetime import datetime
from pathlib import Path

import pytest

from memsync.check.rules import relative_dates
from memsync.consolidate.engine import apply_plan, make_plan
from memsync.consolidate.indexfit import entry_line
from memsync.consolidate.plan import Options
from memsync.consolidate.report import render_markdown
from memsync.model.index import measure_index, parse_index
from testing.gitrepo import git
from testing.memories import write_memory


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.parts
    }


def _set_mtime(path: Path, when: str) -> None:
    stamp = datetime.fromisoformat(when).timestamp()
    os.utime(path, (stamp, stamp))


def _commit(repo: Path, message: str, when: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    git("add", "-A", cwd=repo, env=env)
    git("commit", "-q", "-m", message, cwd=repo, env=env)


def _new_store(tmp_path: Path) -> Path:
    """An empty git repository at TMP_PATH/store, as a store clone is."""
    store = tmp_path / "store"
    store.mkdir()
    git("init", "-q", cwd=store)
    return store


def _consolidate(path: Path, **kwargs: object) -> None:
    apply_plan(make_plan(path, **kwargs))  # type: ignore[arg-type]


def _index_targets(folder: Path) -> list[str]:
    return parse_index((folder / "MEMORY.md").read_bytes()).targets


def test_relative_dates_count_from_git_blame_per_line(tmp_path: Path) -> None:
    store = _new_store(tmp_path)
    folder = store / "acme-api"
    memory = write_memory(
        folder, "deploys.md", "deploys", "We deployed yesterday.\n", description="deploy log"
    )
    _commit(store, "first", "2026-01-10T10:00:00+01:00")
    with memory.open("a", encoding="utf-8") as handle:
        handle.write("The freeze starts next Monday.\n")
    _commit(store, "second", "2026-02-20T23:30:00-08:00")  # a Friday where it was written
    with memory.open("a", encoding="utf-8") as handle:
        handle.write("Rolled back today.\n")
    _set_mtime(memory, "2026-03-05T12:00:00")
    plan = make_plan(folder)
    (folder_plan,) = plan.folders
    found = [(d.line, d.old, d.value, d.written, d.source) for d in folder_plan.dates]
    assert found == [
        (6, "yesterday", "2026-01-09", "2026-01-10", "git blame"),
        (7, "next Monday", "2026-02-23", "2026-02-20", "git blame"),
        (8, "today", "2026-03-05", "2026-03-05", "file modification time"),
    ]
    apply_plan(plan)
    body = memory.read_text(encoding="utf-8")
    assert "We deployed on 2026-01-09.\nThe freeze starts on 2026-02-23.\n" in body
    assert "Rolled back on 2026-03-05.\n" in body
    assert not make_plan(folder).changed


def test_a_daily_logs_file_name_dates_lines_committed_later(tmp_path: Path) -> None:
    """A nightly backup commits the day's log after midnight; a port commits weeks of logs at
    once; the file's name says the day (docs/CONSOLIDATION.md, Evidence)."""
    store = _new_store(tmp_path)
    folder = store / "acme-api"
    write_memory(folder, "2026-03-19.md", "log", "Published today.\n", description="log")
    write_memory(folder, "20260301_notes.md", "notes", "Call Bob tomorrow.\n", description="n")
    # Two dates in a name state no single day; a name dated after the commit names a plan; a
    # date later in the name is the day of what the file is about
    write_memory(folder, "maddie_2026-03-18.md", "met", "She calls today.\n", description="m")
    write_memory(folder, "2026-03-01_to_2026-03-07.md", "week", "Ran today.\n", description="w")
    write_memory(folder, "2026-04-30-launch.md", "plan", "Freeze today.\n", description="p")
    _commit(store, "nightly backup", "2026-03-20T03:00:00+00:00")
    dates = {d.path: (d.value, d.source) for d in make_plan(folder).folders[0].dates}
    assert dates == {
        "2026-03-19.md": ("2026-03-19", "file name `2026-03-19.md`"),
        "20260301_notes.md": ("2026-03-02", "file name `20260301_notes.md`"),
        "maddie_2026-03-18.md": ("2026-03-20", "git blame"),
        "2026-03-01_to_2026-03-07.md": ("2026-03-20", "git blame"),
        "2026-04-30-launch.md": ("2026-03-20", "git blame"),
    }


def test_a_days_document_named_with_its_date_is_dated_by_it(tmp_path: Path) -> None:
    """`morning-brief-2026-03-19.md` committed by the next night's backup (fifth sweep): the
    brief's day is the name's; a weekly report's name gives its week's Monday, not its day."""
    store = _new_store(tmp_path)
    folder = store / "acme"
    write_memory(
        folder, "morning-brief-2026-03-19.md", "b", "Uses today's data.\n", description="b"
    )
    write_memory(folder, "session_20260319.md", "s", "Shipped today.\n", description="s")
    write_memory(folder, "weekly-report-2026-03-16.md", "w", "Closed today.\n", description="w")
    _commit(store, "nightly backup", "2026-03-20T03:00:00+00:00")
    dates = {d.path: (d.value, d.source) for d in make_plan(folder).folders[0].dates}
    assert dates == {
        "morning-brief-2026-03-19.md": ("2026-03-19", "file name `morning-brief-2026-03-19.md`"),
        "session_20260319.md": ("2026-03-19", "file name `session_20260319.md`"),
        "weekly-report-2026-03-16.md": ("2026-03-20", "git blame"),
    }


def test_a_file_name_a_day_ahead_of_its_commit_is_the_writers_day(tmp_path: Path) -> None:
    store = _new_store(tmp_path)
    folder = store / "bee"
    write_memory(folder, "2026-03-12.md", "log", "Pushed to today.\n", description="log")
    _commit(store, "heartbeat", "2026-03-11T07:19:34+07:00")
    (change,) = make_plan(folder).folders[0].dates
    assert (change.value, change.source) == ("2026-03-12", "file name `2026-03-12.md`")


def test_a_lines_pinned_today_says_the_day_it_was_written(tmp_path: Path) -> None:
    """mediajunkie/dispatch appends the next morning's notes under the evening's heading; the
    line's `today (Apr 20)` says so, and its other phrases count from the 20th."""
    store = _new_store(tmp_path)
    folder = store / "dispatch"
    body = (
        "## 2026-04-19 (Sunday)\n\n"
        "- Janus runs today (Apr 20) at 9 AM PT; the cycle depends on this morning's scan.\n"
        "- Anti-zombie sweep: nothing newly closed today.\n"
    )
    write_memory(folder, "log.md", "log", body, description="log")
    _commit(store, "auto-commit", "2026-04-21T06:00:00+00:00")
    dates = [(d.line, d.old, d.value, d.source) for d in make_plan(folder).folders[0].dates]
    pinned_by = "the line's `today` beside its date"
    assert [d[:3] for d in dates] == [
        (8, "this morning's", "2026-04-20"),
        (9, "today", "2026-04-19"),
    ]
    assert [d[3] for d in dates] == [pinned_by, "heading `2026-04-19 (Sunday)`"]


def test_a_daily_logs_template_file_keeps_its_day_words(tmp_path: Path) -> None:
    """`memory/YYYY-MM-DD.md` is the blank a daily log is made from (fourth sweep, held-out
    review): its `Tonight's Tasks` are every day's. `check` flags none of them either."""
    store = _new_store(tmp_path)
    folder = store / "acme"
    template = "## Top 3 Tonight's Tasks\n\n1. [Task]\n"
    write_memory(folder, "YYYY-MM-DD.md", "template", template, description="t")
    write_memory(folder, "2026-03-19.md", "log", "## Top 3 Tonight's Tasks\n", description="l")
    _commit(store, "templates", "2026-03-19T12:00:00+00:00")
    dates = [(d.path, d.old) for d in make_plan(folder).folders[0].dates]
    assert dates == [("2026-03-19.md", "Tonight's")]
    assert relative_dates("YYYY-MM-DD.md", template) == []
    assert [f.line for f in relative_dates("2026-03-19.md", template)] == [1]


def test_frontmatter_dates_when_not_in_git(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "a.md").write_text(
        "---\nname: a\ndescription: launch is tomorrow\ntype: project\nupdated: 2025-12-31\n---\n"
        "Launch is tomorrow.\n",
        encoding="utf-8",
    )
    plan = make_plan(folder)
    dates = plan.folders[0].dates
    assert [(d.line, d.new, d.source) for d in dates] == [
        (3, "2026-01-01", "frontmatter `updated`"),
        (7, "2026-01-01", "frontmatter `updated`"),
    ]
    apply_plan(plan)
    text = (folder / "a.md").read_text(encoding="utf-8")
    assert "description: launch is 2026-01-01\n" in text
    assert "updated: 2025-12-31\n" in text


def test_look_alikes_and_code_are_not_rewritten(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    body = (
        "May I get a second opinion? Use the cache for now; the weekly job on port 8080.\n"
        "About 3/4 of runs pass. Run `git log --since=yesterday`.\n"
        "```\ndeploy tomorrow\n```\n"
        "See [notes](plans/next-week.md) and https://example.com/today.\n"
        "The Black Friday sale and Good Friday are holidays.\n"
    )
    write_memory(folder, "a.md", "a", body)
    _consolidate(folder)
    assert (folder / "a.md").read_text(encoding="utf-8").endswith(body)


def _many(folder: Path, counts: dict[str, int]) -> dict[str, str]:
    """Write memories of each type with distinct bodies and increasing update dates."""
    types: dict[str, str] = {}
    n = 0
    for kind, count in counts.items():
        for i in range(count):
            n += 1
            name = f"{kind}-{i:03d}.md"
            body = f"Fact number {n} about the {kind} side: value {n * 7919 % 10007}.\n"
            path = write_memory(
                folder,
                name,
                f"{kind} {i}",
                body,
                type_=kind,
                description=f"{kind} memory {i} with a hook",
            )
            _set_mtime(path, f"2025-{1 + n % 12:02d}-{1 + n % 28:02d}T12:00:00")
            types[name] = kind
    return types


def test_index_of_260_memories_archives_oldest_project_then_reference(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    types = _many(folder, {"user": 30, "feedback": 50, "project": 120, "reference": 60})
    lines = ["# Project memory", "", "Hand-written note kept at the top.", ""]
    lines += [entry_line(n, n, "old hook") for n in sorted(types)]
    # A repeat of a line goes (a second line that says something else would stay).
    lines += ["- [Gone](gone.md) — dangling", entry_line("user-000.md", "user-000.md", "old hook")]
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    plan = make_plan(folder)
    (fp,) = plan.folders
    assert fp.index is not None and fp.index.fits
    archived = [a.path for a in fp.archives]
    # 260 entries + 4 prose lines must shrink to 200 lines: 64 memories leave.
    assert len(archived) == 64
    assert {types[p] for p in archived} == {"project"}
    kept_project = [p for p, t in types.items() if t == "project" and p not in archived]
    oldest_kept = min(os.stat(folder / p).st_mtime for p in kept_project)
    assert all(os.stat(folder / p).st_mtime <= oldest_kept for p in archived)
    apply_plan(plan)
    text = (folder / "MEMORY.md").read_text(encoding="utf-8")
    assert text.startswith("# Project memory\n\nHand-written note kept at the top.\n")
    size = measure_index(text)
    assert size.fits and size.lines == 200
    targets = _index_targets(folder)
    assert len(targets) == len(set(targets)) == 196
    assert all((folder / t).is_file() for t in targets)
    assert set(targets) == {p for p in types if p not in archived}
    for path in archived:
        assert not (folder / path).exists()
        assert (folder / "archive" / path).is_file()
    report = render_markdown(plan)
    assert "Archived (out of the index, kept in git)" in report and archived[0] in report
    assert not make_plan(folder).changed


def test_user_and_feedback_archived_only_when_allowed(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    _many(folder, {"user": 120, "feedback": 100})
    plan = make_plan(folder)
    (fp,) = plan.folders
    assert fp.archives == () and fp.index is not None and fp.index.fits
    # No room for 20 lines and none may move: the 20 oldest feedback memories get no line
    # (an index over the limits would hide them anyway, and fail `check`)
    left_out = set(fp.index.left_out)
    assert len(left_out) == 20 and all(p.startswith("feedback-") for p in left_out)
    times = {p: os.stat(folder / p).st_mtime for p in os.listdir(folder) if "feedback" in p}
    assert max(times[p] for p in left_out) <= min(t for p, t in times.items() if p not in left_out)
    assert fp.problems == (
        "20 files got no line in MEMORY.md, which has no room left within Claude Code's limits: "
        + ", ".join(fp.index.left_out[:5])
        + " and 15 more; they stay in the folder (`--allow-archive all` may archive older user "
        "and feedback memories)",
    )
    plan = make_plan(folder, options=Options(allow_archive="all"))
    archived = plan.folders[0].archives
    assert len(archived) == 20 and {a.type for a in archived} == {"feedback"}


def test_files_without_frontmatter_only_take_the_room_that_is_left(tmp_path: Path) -> None:
    """A review over 43 real folders: 198 daily logs with no frontmatter had 30 of 31
    `reference` memories archived to make room for them, and 80 notes pushed a 151-line index
    to 231 lines (over Claude Code's limit, failing `check`)."""
    folder = tmp_path / "memory"
    folder.mkdir()
    for day in range(1, 199):
        log = folder / f"2026-{1 + day // 28:02d}-{1 + day % 28:02d}.md"
        log.write_text(f"# Day {day}\n\nWorked on the backlog, item {day}.\n", encoding="utf-8")
    types = _many(folder, {"reference": 3})
    plan = make_plan(folder)
    (fp,) = plan.folders
    assert fp.archives == () and fp.index is not None and fp.index.fits
    assert set(types) <= set(fp.index.added)
    assert len(fp.index.added) + len(fp.index.left_out) == 201 and len(fp.index.left_out) >= 1
    assert all(not p.startswith("reference") for p in fp.index.left_out)
    apply_plan(plan)
    assert measure_index((folder / "MEMORY.md").read_text(encoding="utf-8")).fits
    assert sorted(p.name for p in folder.glob("reference-*.md")) == sorted(types)
    # An index within the limits stays within them: only the notes that fit get a line
    other = tmp_path / "other"
    other.mkdir()
    lesson = "- Lesson {}: keep the deploy script idempotent and check the logs after each run."
    prose = ["# Long-term notes", *(lesson.format(i) for i in range(150))]
    (other / "MEMORY.md").write_text("\n".join(prose) + "\n", encoding="utf-8")
    for i in range(80):
        (other / f"note-{i:02d}.md").write_text(f"Note {i} about the build.\n", encoding="utf-8")
    (fp,) = make_plan(other).folders
    assert fp.index is not None and fp.index.after.lines == 200 and fp.index.fits
    assert len(fp.index.left_out) == 31 and fp.problems[0].startswith("31 files got no line")
    assert "--allow-archive" not in fp.problems[0]  # no memory with a type was left out


def test_names_sync_would_skip_are_skipped_here_too(tmp_path: Path) -> None:
    """An adversarial review: `new\\nline.md` split its new index line in two, and `bad\\xff.md`
    was merged away as a duplicate, though check and sync call both unsafe."""
    folder = tmp_path / "memory"
    write_memory(folder, "good.md", "good", "A fact.\n")
    write_memory(folder, "new\nline.md", "odd", "A fact.\n")
    (folder / os.fsdecode(b"bad\xff.md")).write_bytes((folder / "good.md").read_bytes())
    write_memory(folder, "back\\slash.md", "odd", "Another fact.\n")
    (folder / "MEMORY.md").write_text("- [odd](<back\\slash.md>) — kept\n", encoding="utf-8")
    plan = make_plan(folder)
    (fp,) = plan.folders
    assert fp.index is not None and fp.index.added == ("good.md",)
    assert set(fp.skipped) == {
        "new\nline.md: control character in name",  # the report puts it on one line
        "bad\\xff.md: name is not valid UTF-8",
        "back\\slash.md: backslash in name",
    }
    assert fp.index.dangling == ()  # a line to a skipped file that is there is no dangling line
    assert fp.merges == ()
    apply_plan(plan)
    assert (folder / "MEMORY.md").read_text(encoding="utf-8").splitlines() == [
        "- [odd](<back\\slash.md>) — kept",
        "- [good](good.md) — good",
    ]


def test_a_daily_logs_line_gives_its_room_up_to_a_new_memory_and_is_kept(tmp_path: Path) -> None:
    """A review: logs indexed in one run (there was room) kept their lines in the next, and a
    new `user` memory got none. The oldest log's line now gives way, its text archived."""
    folder = tmp_path / "memory"
    _many(folder, {"feedback": 150})
    for day in range(80):
        log = folder / f"log-{day:03d}.md"
        log.write_text(f"# Day {day}\n\nWorked.\n", encoding="utf-8")
        os.utime(log, (1_700_000_000 + day, 1_700_000_000 + day))
    apply_plan(make_plan(folder))
    index = (folder / "MEMORY.md").read_text(encoding="utf-8")
    assert measure_index(index).lines == 200 and index.count("](log-") == 50
    write_memory(folder, "user-role.md", "role", "I am the on-call lead.\n", type_="user")
    plan = make_plan(folder)
    (fp,) = plan.folders
    assert fp.index is not None and fp.archives == ()
    assert fp.index.added == ("user-role.md",) and fp.index.fits
    (gave_up,) = fp.index.crowded_lines
    oldest = min((p for p in index.split("](")[1:] if p.startswith("log-")), key=str)
    assert gave_up.startswith("- [log-") and oldest.split(")")[0] in gave_up
    assert oldest.split(")")[0] in fp.index.left_out
    apply_plan(plan)
    kept = (folder / "archive" / "index-lines.md").read_text(encoding="utf-8")
    assert gave_up in kept and "gave its room up to a memory" in kept
    assert "Lines given up for a memory's line" in render_markdown(plan)
    assert not make_plan(folder).changed  # and a second run changes nothing


def test_an_index_line_keeps_its_title_and_its_hook(tmp_path: Path) -> None:
    """Claude Code slugifies `name`: a review over 43 real folders saw 521 index lines
    rewritten, `[꼬마 사용자](user_kkoma.md)` into `[user-kkoma](…)`, the title kept only in the
    report. A review over 55 real folders then saw 995 of their lines rewritten from the
    descriptions, 196 of them cut to `…`: a line within 150 characters stays as written; a
    line with no hook gets the description (and, with no title of its own, the name)."""
    folder = tmp_path / "memory"
    write_memory(folder, "user_kkoma.md", "user-kkoma", "Likes tea.\n", description="tea")
    write_memory(folder, "b.md", "b-name", "B.\n", description="about b")
    index = "- [꼬마 사용자](user_kkoma.md) — coffee\n- [](b.md)\n"
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    (fp,) = make_plan(folder).folders
    assert fp.index is not None
    assert fp.index.rewrites == (
        ("- [](b.md)", "- [b-name](b.md) — about b"),  # no title of its own: the name's
    )


def test_duplicates_merged_and_index_follows(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    body = (
        "Integration tests must hit a real database, not mocks.\n"
        "**Why:** mocked tests passed while the prod migration failed.\n"
    )
    (folder).mkdir()
    (folder / "b.md").write_text(
        "---\nname: db tests\ndescription: real database\ntype: feedback\ntags: [db]\n---\n"
        + body.replace("database,", "databse,")
        + "**How to apply:** use the compose Postgres.\n",
        encoding="utf-8",
    )
    (folder / "a.md").write_text(
        "---\nname: testing policy\ndescription: no mocks\ntype: feedback\ntags: [tests]\n"
        "owner: alice\n---\n" + body,
        encoding="utf-8",
    )
    write_memory(folder, "c.md", "copy", "  " + body.upper(), type_="feedback")
    write_memory(folder, "d.md", "other", "Deploys are frozen on Fridays.\n", type_="feedback")
    (folder / "MEMORY.md").write_text(
        "- [b](b.md) — b\n- [c](c.md) — c\n- [d](d.md) — d\n", encoding="utf-8"
    )
    plan = make_plan(folder)
    merges = plan.folders[0].merges
    # The survivor is the indexed one, then the one with the most complete frontmatter.
    assert [(m.kind, m.survivor, m.merged) for m in merges] == [("near", "b.md", ("a.md", "c.md"))]
    assert "a.md: name: testing policy" in merges[0].dropped
    a_before, c_before = (folder / "a.md").read_bytes(), (folder / "c.md").read_bytes()
    apply_plan(plan)
    # Nothing is lost: the merged-away files are kept, unchanged, in archive/.
    assert sorted(p.name for p in folder.iterdir()) == ["MEMORY.md", "archive", "b.md", "d.md"]
    assert (folder / "archive" / "a.md").read_bytes() == a_before
    assert (folder / "archive" / "c.md").read_bytes() == c_before
    merged = (folder / "b.md").read_text(encoding="utf-8")
    assert "name: db tests" in merged and "tags: [db, tests]" in merged
    assert "owner: alice" in merged
    for line in [*body.splitlines(), "**How to apply:** use the compose Postgres."]:
        assert line in merged
    assert _index_targets(folder) == ["b.md", "d.md"]
    assert not make_plan(folder).changed


def test_dry_run_changes_nothing_and_second_run_is_a_no_op(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    write_memory(folder, "a.md", "a", "Shipped yesterday.\n")
    write_memory(folder, "b.md", "b", "Shipped yesterday.\n")
    (folder / "MEMORY.md").write_text("- [x](missing.md) — gone\n", encoding="utf-8")
    before = _snapshot(folder)
    plan = make_plan(folder, dry_run=True)
    assert plan.changed
    assert _snapshot(folder) == before
    apply_plan(make_plan(folder))
    after = _snapshot(folder)
    assert after != before
    assert not make_plan(folder).changed
    _consolidate(folder)
    assert _snapshot(folder) == after


def test_all_projects_of_a_store_checkout(tmp_path: Path) -> None:
    store = tmp_path / "store"
    (store / ".github").mkdir(parents=True)
    (store / ".github" / "notes.md").write_text("Updated yesterday.\n", encoding="utf-8")
    (store / "README.md").write_text("Team memory, updated yesterday.\n", encoding="utf-8")
    write_memory(store / "acme-api", "a.md", "a", "Deployed yesterday.\n")
    write_memory(store / "acme-web", "b.md", "b", "Deployed yesterday.\n")
    git("init", "-q", cwd=store)
    _commit(store, "init", "2026-02-02T09:00:00+00:00")
    plan = make_plan(store, all_projects=True)
    assert [f.label for f in plan.folders] == ["acme-api", "acme-web"]
    assert all(f.dates[0].value == "2026-02-01" for f in plan.folders)
    apply_plan(plan)
    assert "updated yesterday" in (store / "README.md").read_text(encoding="utf-8")
    assert _index_targets(store / "acme-web") == ["b.md"]


def test_all_on_a_one_project_store_without_an_index_consolidates_its_root(
    tmp_path: Path,
) -> None:
    # A store dedicated to one project (`--subdir .`) before its first MEMORY.md: `check
    # --all` took it for one project and flagged its dates, `consolidate --all` found no
    # project folder and said "Nothing to consolidate in 0 memory folders".
    from memsync.check.run import run_check

    store = tmp_path / "store"
    write_memory(store, "a.md", "a", "Deployed yesterday.\n")
    write_memory(store / "notes", "b.md", "b", "Rolled back today.\n")
    (store / "README.md").write_text("Team memory, updated yesterday.\n", encoding="utf-8")
    git("init", "-q", cwd=store)
    _commit(store, "init", "2026-02-02T09:00:00+00:00")
    flagged = run_check(store, all_projects=True, cwd=store).findings
    assert sorted(f.path for f in flagged if f.rule == "relative-date") == ["a.md", "notes/b.md"]
    plan = make_plan(store, all_projects=True)
    assert [f.label for f in plan.folders] == ["store"]
    assert sorted((d.path, d.value) for d in plan.folders[0].dates) == [
        ("a.md", "2026-02-01"),
        ("notes/b.md", "2026-02-02"),
    ]
    # A store of project folders keeps them apart, a stray memory at its root aside (guard).
    write_memory(store / "notes", "MEMORY.md", "x", "- [b](b.md)\n")
    assert [f.label for f in make_plan(store, all_projects=True).folders] == ["notes"]


def test_team_folder_is_its_own_unit(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    write_memory(folder, "a.md", "a", "Private fact.\n")
    write_memory(folder / "team", "t.md", "t", "Team fact.\n")
    _consolidate(folder)
    assert _index_targets(folder) == ["a.md"]
    assert _index_targets(folder / "team") == ["t.md"]


def test_apply_refuses_when_a_file_changed_meanwhile(tmp_path: Path) -> None:
    from memsync.errors import UserMessageError

    folder = tmp_path / "memory"
    path = write_memory(folder, "a.md", "a", "Shipped yesterday.\n")
    plan = make_plan(folder)
    path.write_text(path.read_text() + "edited\n")
    with pytest.raises(UserMessageError, match="changed while consolidating"):
        apply_plan(plan)
    assert "edited" in path.read_text()


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run `memsync consolidate ARGS` in this process with no terminal on stdin."""
    from memsync.cli.app import main

    capsys.readouterr()
    code = 0
    try:
        main(["consolidate", *args])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_needs_yes_without_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    folder = tmp_path / "memory"
    write_memory(folder, "a.md", "a", "Shipped yesterday.\n")
    before = _snapshot(folder)
    code, out, err = _cli(capsys, str(folder))
    assert code == 1
    assert "--yes" in err and "Relative dates made absolute" in out
    assert _snapshot(folder) == before
    code, out, _ = _cli(capsys, str(folder), "--dry-run")
    assert code == 0 and "dry run" in out and _snapshot(folder) == before
    # A report in the memory folder would replace MEMORY.md (an adversarial review did so)
    for inside in (folder / "MEMORY.md", folder / "sub" / "report.md", folder / "report.md"):
        code, _, err = _cli(capsys, str(folder), "--yes", "--report", str(inside))
        assert (
            code == 2
            and f"--report {inside} is inside {folder}, which is being consolidated" in err
        )
        assert _snapshot(folder) == before
    report = tmp_path / "report.json"
    code, _, err = _cli(capsys, str(folder), "--yes", "--format", "json", "--report", str(report))
    assert code == 0, err
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["changed"] and data["folders"][0]["dates"][0]["old"] == "yesterday"
    assert _snapshot(folder) != before
    code, out, _ = _cli(capsys, str(folder), "--yes")
    assert code == 0 and "Nothing to consolidate" in out


def test_cli_default_folder_is_the_projects_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from memsync.model.paths import memory_dir_for, project_root

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    project = tmp_path / "code"
    project.mkdir()
    code, _, err = _cli(capsys, "--project", str(project))
    assert code == 2 and "no memory folder" in err  # a usage error, as for `check`
    folder = memory_dir_for(project_root(project))
    write_memory(folder, "a.md", "a", "Shipped yesterday.\n")
    code, _out, _ = _cli(capsys, "--project", str(project), "--yes")
    assert code == 0 and "on " in (folder / "a.md").read_text(encoding="utf-8")


def test_cli_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(capsys, str(tmp_path), "--threshold", "2")[0] == 2
    assert _cli(capsys, str(tmp_path), "--format", "xml")[0] == 2
    assert _cli(capsys, str(tmp_path), "--allow-archive", "everything")[0] == 2
    assert _cli(capsys, str(tmp_path / "missing"))[0] == 2


def test_archive_order_follows_git_author_dates(tmp_path: Path) -> None:
    store = tmp_path / "store"
    folder = store / "acme-api"
    git("init", "-q", str(store), cwd=tmp_path)
    for i in range(200):
        write_memory(folder, f"new-{i:03d}.md", f"new {i}", f"Recent fact {i}.\n")
    git("add", "-A", cwd=store)
    git("commit", "-q", "-m", "recent", "--date", "2025-06-01T10:00:00+00:00", cwd=store)
    for i in range(5):
        write_memory(folder, f"old-{i}.md", f"old {i}", f"Old fact {i}.\n")
    git("add", "-A", cwd=store)
    # Only the author date is old: `--date` backdates, the committer time is now.
    git("commit", "-q", "-m", "backdated", "--date", "2023-01-01T10:00:00+00:00", cwd=store)
    plan = make_plan(folder)
    archived = sorted(a.path for a in plan.folders[0].archives)
    assert archived == [f"old-{i}.md" for i in range(5)]
    assert {a.updated for a in plan.folders[0].archives} == {"2023-01-01"}


def test_index_prose_dates_rewritten_entries_from_frontmatter(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    write_memory(folder, "a.md", "a", "Body.\n", description="freeze starts next week")
    index = folder / "MEMORY.md"
    index.write_text(
        "# Memory (pruned yesterday)\n\n- [a](a.md) — freeze starts next week\n", encoding="utf-8"
    )
    for path in (index, folder / "a.md"):
        _set_mtime(path, "2026-03-05T12:00:00")
    plan = make_plan(folder)
    found = sorted((d.path, d.line, d.old) for d in plan.folders[0].dates)
    # The entry's hook is kept as written, so its date is converted in the index itself.
    assert found == [
        ("MEMORY.md", 1, "yesterday"),
        ("MEMORY.md", 3, "next week"),
        ("a.md", 3, "next week"),
    ]
    apply_plan(plan)
    assert index.read_text(encoding="utf-8") == (
        "# Memory (pruned on 2026-03-04)\n\n- [a](a.md) — freeze starts the week of 2026-03-09\n"
    )
    assert not make_plan(folder).changed


def test_cli_all_without_path_is_the_work_tree_here(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    store = tmp_path / "store"
    write_memory(store / "acme-api", "a.md", "a", "Deployed yesterday.\n")
    git("init", "-q", cwd=store)
    _commit(store, "init", "2026-02-02T09:00:00+00:00")
    code, out, err = _cli(capsys, "--all", "--dry-run", "--project", str(store / "acme-api"))
    assert code == 0, err
    assert "2026-02-01" in out and "acme-api" in out
    # A report at the checkout's root would be read by every later `--all` run
    report = store / "report.md"
    code, _, err = _cli(
        capsys, "--all", "--dry-run", "--report", str(report), "--project", str(store)
    )
    assert code == 2 and f"--report {report} is inside {store}, which is being consolidated" in err
    code, _, err = _cli(capsys, "--all", "--dry-run", "--project", str(tmp_path))
    assert code == 2 and "not inside a git work tree" in err


def test_a_duplicate_merged_away_is_archived_with_the_dates_the_report_gives(
    tmp_path: Path,
) -> None:
    # The report listed `freeze.md:8 | next Friday | on 2026-11-27` while the copy it moved
    # to archive/ still said "next Friday" (a new user's walkthrough).
    folder = tmp_path / "memory"
    folder.mkdir()
    for name in ("freeze", "freeze2"):
        write_memory(folder, f"{name}.md", name, "The deploy freeze ends tomorrow.\n")
        _set_mtime(folder / f"{name}.md", "2026-11-26T12:00:00")
    plan = make_plan(folder)
    [retired] = plan.folders[0].retired
    assert sorted(d.path for d in plan.folders[0].dates) == ["freeze.md", "freeze2.md"]
    apply_plan(plan)
    survivor, destination = ({"freeze.md", "freeze2.md"} - {retired[0]}).pop(), retired[1]
    for kept in (folder / survivor, folder / destination):
        assert "The deploy freeze ends on 2026-11-27.\n" in kept.read_text(encoding="utf-8")
    assert not (folder / retired[0]).exists()


def test_a_shallow_clone_leaves_relative_dates_as_written(tmp_path: Path) -> None:
    """An import review: in `git clone --depth 1` (actions/checkout's default) blame gives
    every older line the one commit fetched: last month's "yesterday" became two days ago."""
    store = _new_store(tmp_path)
    folder = store / "acme"
    folder.mkdir()
    write_memory(folder, "a.md", "a", "Deployed the parser fix yesterday.\n")
    _commit(store, "one", "2026-11-02T10:00:00+00:00")
    write_memory(folder, "b.md", "b", "Unrelated note.\n")
    _commit(store, "two", "2026-11-25T10:00:00+00:00")
    full, shallow = tmp_path / "full", tmp_path / "shallow"
    git("clone", "-q", f"file://{store}", str(full), cwd=tmp_path)
    git("clone", "-q", "--depth", "1", f"file://{store}", str(shallow), cwd=tmp_path)
    [dated] = make_plan(full / "acme").folders[0].dates
    assert (dated.old, dated.new, dated.source) == ("yesterday", "on 2026-11-01", "git blame")
    plan = make_plan(shallow / "acme").folders[0]
    assert plan.dates == ()
    assert plan.problems == (
        f"{shallow} is a shallow clone: 1 line with a relative date is as old as its oldest "
        "commit or older, so when it was written is unknown and its dates were left as "
        "written: a.md:6; fetch the whole history (`git fetch --unshallow`, or "
        "`fetch-depth: 0` for actions/checkout)",
    )


def test_an_unreadable_sub_folder_or_file_is_skipped_and_the_rest_consolidated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An adversarial review (F8): a sub-folder of mode 000 stopped `consolidate` for the whole
    folder ("permission denied at …/lockeddir", exit 1, nothing done); an unreadable file too.
    Both are skipped by name, the rest is consolidated, their index lines stay, and the exit
    is 1 (the person must fix the permissions). Tests may run as root, where mode 000 does not
    bind: the denial is made here."""
    import errno

    from memsync.consolidate import folder as scanning

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    folder = tmp_path / "memory"
    write_memory(folder, "a.md", "a", "Shipped yesterday.\n")
    write_memory(folder / "lockeddir", "b.md", "b", "B fact.\n")
    write_memory(folder, "locked.md", "c", "C fact.\n")
    index = "- [B](lockeddir/b.md) — b\n- [C](locked.md) — c\n"
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")

    def denied(path: object) -> PermissionError:
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(str(path)))

    real_scandir = os.scandir

    def scandir(path: str) -> object:
        if str(path).endswith("/lockeddir"):
            raise denied(path)
        return real_scandir(path)

    def open_(path: str, mode: str = "r") -> object:
        if str(path).endswith("/locked.md"):
            raise denied(path)
        return open(path, mode)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(scanning, "open", open_, raising=False)
    code, out, err = _cli(capsys, str(folder), "--yes")
    assert code == 1, err
    assert "- skipped lockeddir/: cannot read it (Permission denied)" in out
    assert "- skipped locked.md: cannot read it (Permission denied)" in out
    unread = f"{folder / 'lockeddir'}; {folder / 'locked.md'}"
    assert f"memsync: consolidated without 2 path(s) it could not read: {unread}\n" in err
    assert "chmod u+rwx" in err
    assert "Shipped on " in (folder / "a.md").read_text(encoding="utf-8")  # the rest is done
    lines = (folder / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    assert lines[:2] == ["- [B](lockeddir/b.md) — b", "- [C](locked.md) — c"]  # not dangling
    assert not (folder / "archive").exists()


def test_an_index_written_where_there_was_none_ends_with_a_newline(tmp_path: Path) -> None:
    folder = tmp_path / "acme"
    write_memory(folder, "deploy.md", "deploy", "Use the blue pipeline.\n")
    _consolidate(folder)
    text = (folder / "MEMORY.md").read_text(encoding="utf-8")
    assert text.startswith("- [deploy](deploy.md)") and text.endswith("\n"), text
    assert text.count("\n") == 1  # no blank line before the entry, no missing line end
