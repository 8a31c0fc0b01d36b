"""Nothing lost in consolidation: versions of one memory, dangling index lines, archiving."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest

from memsync.consolidate.engine import apply_plan, make_plan
from memsync.consolidate.plan import Options
from memsync.consolidate.report import plan_to_json, render_markdown
from memsync.consolidate.versions import MergeChange, merge_versions, survivors
from testing.gitrepo import git
from testing.memories import write_memory

LEDGER = (
    "Review rota for the payments service, one person per slot:\n"
    "- Slot 1 (Monday): Alice reviews the ledger changes\n"
    "- Slot 2 (Wednesday): Bruno reviews the ledger changes\n"
    "- Slot 3 (Friday): Chen reviews the ledger changes\n"
    "Swap slots only after telling the team channel before the change.\n"
)


def _age(path: Path, day: str) -> None:
    stamp = datetime.fromisoformat(f"{day}T12:00:00").timestamp()
    os.utime(path, (stamp, stamp))


def test_newer_version_wins_and_older_lines_are_superseded_not_readded(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    old = write_memory(folder, "rota.md", "review rota", LEDGER, type_="project")
    newer_text = LEDGER.replace("Chen reviews", "Dana reviews")
    new = write_memory(folder, "rota-copy.md", "review rota", newer_text, type_="project")
    _age(old, "2026-09-01")
    _age(new, "2026-10-01")
    (folder / "MEMORY.md").write_text(
        "- [rota](rota.md) — who reviews\n- [copy](rota-copy.md) — who reviews\n", encoding="utf-8"
    )
    plan = make_plan(folder)
    [merge] = plan.folders[0].merges
    assert (merge.kind, merge.survivor, merge.merged) == ("near", "rota-copy.md", ("rota.md",))
    assert merge.superseded == ("- Slot 3 (Friday): Chen reviews the ledger changes",)
    report = render_markdown(plan)
    assert "    - Slot 3 (Friday): Chen reviews the ledger changes" in report
    assert "`rota.md` kept as `archive/rota.md`" in report
    old_bytes = old.read_bytes()
    apply_plan(plan)
    merged = (folder / "rota-copy.md").read_text(encoding="utf-8")
    assert "Dana reviews" in merged and "Chen" not in merged  # one person per slot
    assert (folder / "archive" / "rota.md").read_bytes() == old_bytes
    assert not make_plan(folder).changed


def _rota(folder: Path, filename: str, name: str, body: str, day: str, **kw: str) -> Path:
    path = write_memory(folder, filename, name, body, type_="project", **kw)
    _age(path, day)
    return path


def test_look_alikes_of_different_subjects_stay_apart_whatever_their_age(tmp_path: Path) -> None:
    # The same template for two teams: another subject, not a newer version.
    folder = tmp_path / "memory"
    _rota(folder, "rota-payments.md", "payments rota", LEDGER, "2026-09-01")
    other = LEDGER.replace("payments", "search").replace("Chen", "Dana")
    _rota(folder, "rota-search.md", "search rota", other, "2026-10-01")
    assert make_plan(folder).folders[0].merges == ()


def test_same_name_written_at_the_same_time_is_not_a_version(tmp_path: Path) -> None:
    # Nothing says which one is newer: the look-alike guard decides, and keeps them apart.
    folder = tmp_path / "memory"
    _rota(folder, "rota.md", "review rota", LEDGER, "2026-09-01")
    _rota(folder, "rota-copy.md", "review rota", LEDGER.replace("Chen", "Dana"), "2026-09-01")
    assert make_plan(folder).folders[0].merges == ()


def test_same_name_with_a_different_text_is_not_a_version(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    _rota(folder, "notes.md", "notes", LEDGER, "2026-09-01")
    other = "Staging runs on eu-west-1 since March.\n"
    _rota(folder, "notes-copy.md", "notes", other, "2026-10-01")
    assert make_plan(folder).folders[0].merges == ()


@pytest.mark.parametrize(
    ("old_name", "new_name", "description"),
    [
        ("rota.md", "rota (1).md", None),  # a copy of the file, renamed by hand
        ("rota.md", "rota-copy.md", "who reviews the ledger"),  # the same description
    ],
)
def test_versions_are_found_by_file_name_or_description(
    tmp_path: Path, old_name: str, new_name: str, description: str | None
) -> None:
    folder = tmp_path / "memory"
    same = {"description": description} if description else {}
    _rota(folder, old_name, "review rota", LEDGER, "2026-09-01", **same)
    newer = LEDGER.replace("Bruno reviews", "Erin reviews")
    _rota(folder, new_name, "rota v2" if description else "rota", newer, "2026-10-01", **same)
    [merge] = make_plan(folder).folders[0].merges
    assert (merge.survivor, merge.merged) == (new_name, (old_name,))
    assert merge.superseded == ("- Slot 2 (Wednesday): Bruno reviews the ledger changes",)


def test_three_versions_the_newest_wins_each_slot(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    _rota(folder, "rota.md", "review rota", LEDGER, "2026-08-01")
    second = LEDGER.replace("Alice", "Femi")
    _rota(folder, "rota-copy.md", "review rota", second, "2026-09-01")
    third = second.replace("Chen", "Gita")
    _rota(folder, "rota-copy-2.md", "review rota", third, "2026-10-01")
    plan = make_plan(folder)
    [merge] = plan.folders[0].merges
    assert (merge.survivor, merge.merged) == ("rota-copy-2.md", ("rota-copy.md", "rota.md"))
    assert sorted(merge.superseded) == [
        "- Slot 1 (Monday): Alice reviews the ledger changes",
        "- Slot 3 (Friday): Chen reviews the ledger changes",
    ]
    apply_plan(plan)
    assert (folder / "rota-copy-2.md").read_text(encoding="utf-8").endswith(third)
    assert not make_plan(folder).changed


def test_in_a_store_the_commit_dates_say_which_version_is_newer(tmp_path: Path) -> None:
    # Both files checked out now (one mtime); the author dates tell the versions apart.
    store = tmp_path / "store"
    store.mkdir()
    git("init", "-q", cwd=store)
    folder = store / "payments"
    _rota(folder, "rota.md", "review rota", LEDGER, "2026-11-20")
    _commit(store, "2026-09-01T10:00:00+00:00")
    _rota(folder, "rota-copy.md", "review rota", LEDGER.replace("Chen", "Dana"), "2026-11-20")
    _commit(store, "2026-10-01T10:00:00+00:00")
    [merge] = make_plan(store, all_projects=True).folders[0].merges
    assert (merge.survivor, merge.merged) == ("rota-copy.md", ("rota.md",))
    assert merge.superseded == ("- Slot 3 (Friday): Chen reviews the ledger changes",)


def _commit(repo: Path, when: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    git("add", "-A", cwd=repo, env=env)
    git("commit", "-q", "-m", "memories", cwd=repo, env=env)


def test_merge_versions_keeps_older_lines_without_a_counterpart() -> None:
    newest = "- Deploy with make release\n- Staging is eu-west-1\n"
    older = "- Deploy with make release\n- Staging is us-east-1\n- Never deploy on Fridays\n"
    body, superseded = merge_versions(newest, [older])
    assert body == "- Deploy with make release\n- Staging is eu-west-1\n- Never deploy on Fridays\n"
    assert superseded == ["- Staging is us-east-1"]
    # A copy of the same age is not an older version: its distinct lines are all kept.
    body, superseded = merge_versions(newest, [older], supersede=[False])
    assert "- Staging is us-east-1" in body and superseded == []


def test_dangling_index_line_text_is_kept_in_archive_and_reported(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    write_memory(folder, "kept.md", "kept", "Still here.\n")
    dangling = (
        "- [Vendor contacts](vendor-contacts.md) — Acme support line 0800 123 456, ask for Kim"
    )
    (folder / "MEMORY.md").write_text(f"- [kept](kept.md) — kept\n{dangling}\n", encoding="utf-8")
    plan = make_plan(folder)
    report = render_markdown(plan)
    assert f"    {dangling}" in report
    assert plan_to_json(plan)["folders"][0]["index"]["dangling_lines"] == [dangling]
    apply_plan(plan)
    kept = (folder / "archive" / "index-lines.md").read_text(encoding="utf-8")
    assert dangling in kept
    assert "vendor-contacts.md" not in (folder / "MEMORY.md").read_text(encoding="utf-8")
    assert not make_plan(folder).changed


def test_archiving_only_when_it_makes_the_index_fit(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    for i in range(205):
        write_memory(folder, f"user-{i:03d}.md", f"user {i}", f"User fact {i}.\n", type_="user")
    for i in range(10):
        write_memory(folder, f"proj-{i:03d}.md", f"proj {i}", f"Project fact {i}.\n")
    plan = make_plan(folder)
    # Moving all 10 project memories still leaves 205 lines: nothing moves; the new index takes
    # the 200 lines that fit (user memories first) and names the 15 it has no room for.
    assert plan.folders[0].archives == ()
    assert plan.folders[0].problems[0].startswith("15 files got no line in MEMORY.md")
    plan = make_plan(folder, options=Options(allow_archive="all"))
    assert len(plan.folders[0].archives) == 15  # exactly as many as make it fit
    # An index already over the limits that archiving cannot fix: nothing moves, it says why
    targets = sorted(p.name for p in folder.glob("*.md"))
    lines = [f"- [{name}]({name}) — {name}" for name in targets]
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (fp,) = make_plan(folder).folders
    assert fp.archives == () and fp.index is not None and fp.index.after.lines == 215
    assert "would not make it fit, so none was moved" in fp.problems[0]


def test_one_newer_line_supersedes_at_most_one_older_line() -> None:
    # Both older host lines are like the newer staging line; only the staging line is its
    # counterpart (the closer match), so the prod line has none of its own and is kept.
    newest = "Staging DB host: db-staging2.internal port 5432\nBackups run nightly at 02:00 UTC.\n"
    older = (
        "Staging DB host: db-staging.internal port 5432\n"
        "Prod DB host: db-prod.internal port 5432\n"
        "Backups run nightly at 02:00 UTC.\n"
    )
    body, superseded = merge_versions(newest, [older])
    assert superseded == ["Staging DB host: db-staging.internal port 5432"]
    assert body == (
        "Staging DB host: db-staging2.internal port 5432\n"
        "Prod DB host: db-prod.internal port 5432\n"
        "Backups run nightly at 02:00 UTC.\n"
    )


def test_a_newer_line_equal_to_an_older_one_supersedes_nothing_else() -> None:
    # The nightly line has its counterpart (itself): the weekly line is not its version.
    newest = "Backups run nightly at 02:00 UTC.\n"
    older = "Backups run nightly at 02:00 UTC.\nBackups run weekly at 03:00 UTC.\n"
    body, superseded = merge_versions(newest, [older])
    assert superseded == []
    assert body == older


def test_versions_of_db_hosts_keep_the_prod_line_without_a_counterpart(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    head = "Staging DB host: db-staging.internal port 5432\n"
    prod = "Prod DB host: db-prod.internal port 5432\n"
    tail = "Backups run nightly at 02:00 UTC.\n"
    newer_head = "Staging DB host: db-staging2.internal port 5432\n"
    old = write_memory(folder, "hosts.md", "db-hosts", head + prod + tail, type_="reference")
    new = write_memory(folder, "hosts-copy.md", "db-hosts", newer_head + tail, type_="reference")
    _age(old, "2026-11-01")
    _age(new, "2026-11-20")
    plan = make_plan(folder)
    [merge] = plan.folders[0].merges
    assert (merge.survivor, merge.superseded) == ("hosts-copy.md", (head.rstrip("\n"),))
    report = render_markdown(plan)
    assert f"    {head.rstrip()}" in report and prod.rstrip() not in report
    apply_plan(plan)
    text = (folder / "hosts-copy.md").read_text(encoding="utf-8")
    assert text.endswith("---\n" + newer_head + prod + tail)
    assert not make_plan(folder).changed


INDEX_LINES_HEAD = (
    "---\n"
    "name: index-lines\n"
    "description: Lines memsync consolidate took out of MEMORY.md, kept here in full\n"
    "metadata:\n"
    "  type: reference\n"
    "---\n\n"
    "# Index lines taken out of MEMORY.md\n\n"
)


def test_a_second_line_of_one_memory_that_says_something_else_stays(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    write_memory(folder, "x.md", "x", "The x service runs on port 8080.\n", description="the x")
    second = "- [X staging](x.md) — staging creds live in vault path secret/x-staging, ask Priya"
    index = f"- [X](x.md) — the x\n{second}\n- [X](x.md) — the x\n"
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    plan = make_plan(folder)
    report = render_markdown(plan)
    # The line that says something else stays where the model sees it; the repeat goes.
    assert (
        "Duplicate lines removed (kept in `archive/index-lines.md` unless the same as the "
        "line kept):\n\n    - [X](x.md) — the x\n"
    ) in report
    assert second not in report
    apply_plan(plan)
    assert (folder / "MEMORY.md").read_text(encoding="utf-8") == f"- [X](x.md) — the x\n{second}\n"
    # The copy that says nothing new is not kept.
    assert not (folder / "archive").exists()
    assert not make_plan(folder).changed


ROTA_BODY = "Slot 1: Alice reviews backend changes.\nSlot 2: Bob reviews frontend changes.\n"


def _rota_versions(folder: Path) -> None:
    for filename, who, day in (
        ("rota.md", "Chen", "2026-11-01"),
        ("rota-copy.md", "Dana", "2026-11-20"),
    ):
        body = f"{ROTA_BODY}Slot 3: {who} reviews infra changes.\n"
        path = write_memory(folder, filename, "review-rota", body, description="who reviews what")
        _age(path, day)
    write_memory(folder, "alpha.md", "alpha", "Restart alpha.\n", description="alpha runbook")


def test_a_merged_away_memory_gives_its_line_to_the_survivor(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    _rota_versions(folder)
    line = "- [Code review rota (Q4)](rota.md) — who reviews what"
    index = f"# Team\n\n{line}\n\n# Runbooks\n\n- [Alpha](alpha.md) — alpha runbook\n"
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    plan = make_plan(folder)
    report = render_markdown(plan)
    new_line = "- [Code review rota (Q4)](rota-copy.md) — who reviews what"
    assert f"```diff\n- {line}\n+ {new_line}\n```" in report
    assert (
        "Lines of merged-away memories, now their survivor's (kept as written in "
        f"`archive/index-lines.md`):\n\n    {line}\n"
    ) in report
    assert "Lines whose file is missing" not in report
    apply_plan(plan)
    # The survivor takes the line's place, its hand-written title and its section.
    assert (folder / "MEMORY.md").read_text(encoding="utf-8") == index.replace(line, new_line)
    kept = (folder / "archive" / "index-lines.md").read_text(encoding="utf-8")
    assert kept.startswith(INDEX_LINES_HEAD) and kept.endswith(f"\n\n{line}\n")
    assert make_plan(folder).changed is False


def test_the_first_line_of_merged_versions_is_the_survivors(tmp_path: Path) -> None:
    # Both versions had a line: the memory is one now, with the first of its lines; the other
    # is a second line of it, kept in archive/ as any other.
    folder = tmp_path / "memory"
    _rota_versions(folder)
    line = "- [Code review rota (Q4)](rota.md) — who reviews what"
    own = "- [review-rota](rota-copy.md) — who reviews what"
    index = f"# Team\n\n{line}\n\n# Runbooks\n\n- [Alpha](alpha.md) — alpha runbook\n{own}\n"
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    plan = make_plan(folder)
    apply_plan(plan)
    new_line = "- [Code review rota (Q4)](rota-copy.md) — who reviews what"
    assert (folder / "MEMORY.md").read_text(encoding="utf-8") == (
        f"# Team\n\n{new_line}\n\n# Runbooks\n\n- [Alpha](alpha.md) — alpha runbook\n"
    )
    kept = (folder / "archive" / "index-lines.md").read_text(encoding="utf-8")
    assert kept.endswith(f"\n\n{line}\n{own}\n")
    assert make_plan(folder).changed is False


def test_survivors_follow_a_memory_merged_twice() -> None:
    first = MergeChange("near", "b.md", ("a.md",), 0.9, ())
    second = MergeChange("near", "c.md", ("b.md", "d.md"), 0.9, ())
    assert survivors([first, second]) == {"a.md": "c.md", "b.md": "c.md", "d.md": "c.md"}
