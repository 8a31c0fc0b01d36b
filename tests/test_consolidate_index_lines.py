"""Index lines consolidate keeps as the writer meant them, and `check` agreeing with it.

Left open by a review of consolidation on 55 real memory folders (docs/RELIABILITY.md, h4):
links out of the folder were taken out of the index, a memory's second line was taken out
though it recorded another fact, long prose drew a warning no run could clear, and a memory
named in a code span (`` See `x.md` ``) was not counted as indexed. Each example is real
(repository, path and commit given; frontmatter as published, bodies cut short).
"""

from __future__ import annotations

from pathlib import Path

from memsync.check.rules import check_files, check_index
from memsync.consolidate.engine import apply_plan, make_plan
from memsync.consolidate.report import render_markdown


def _memory(name: str, description: str, body: str = "Body.\n") -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n\n{body}"


def test_a_line_linking_out_of_the_folder_stays_as_written(tmp_path: Path) -> None:
    # github.com/4444J99/portfolio, .claude/memory/MEMORY.md, commit
    # c92cebe6caf085297358c451a29042ff6310b265: Claude Code's plan files, ~/.claude/plans/, seen
    # from the memory folder. Claude shows the line and the model can open the plan; it was
    # taken out of the index (kept only in archive/).
    line = (
        "- [All plans (299 on disk)](../../../plans/INDEX.md) — auto-generated; date-sorted; "
        "full file list outside MEMORY.md cap"
    )
    absolute = "- [Titan-keeper architecture](/home/me/.claude/plans/titan.md) — SPEC ONLY"
    folder = tmp_path / "memory"
    folder.mkdir()
    index = f"# Memory\n\n## Plans Index\n{line}\n{absolute}\n"
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    plan = make_plan(folder)
    assert not plan.changed, render_markdown(plan)
    apply_plan(plan)
    assert (folder / "MEMORY.md").read_text(encoding="utf-8") == index
    assert not (folder / "archive").exists()
    # `check` says what it is, as a warning: memsync never reads there, other machines may
    # not have the file, and nothing is wrong for Claude Code on this one.
    findings = check_files({"MEMORY.md": index.encode()}, "private")
    assert [(f.line, f.rule, f.severity) for f in findings] == [
        (4, "index-outside-link", "warning"),
        (5, "index-outside-link", "warning"),
    ]
    assert "links to ../../../plans/INDEX.md, outside the memory folder" in findings[0].message
    assert "consolidate keeps it" in findings[0].message
    # A long one is cut from its own hook, as a memory's line is, and kept whole in archive/.
    long_line = (
        "- [Corpus rescue + 100% audit 2026-04-30](../../../plans/was-all-100-context-scalable"
        "-bird.md) — 5 TMPDIR sessions rescued to portfolio (commit 30bd9d6); structural-"
        "extraction pivot; Overreach Incident surfaced → IRF-OPS-014"
    )
    (folder / "MEMORY.md").write_text(f"{index}{long_line}\n", encoding="utf-8")
    apply_plan(make_plan(folder))
    cut = (
        "- [Corpus rescue + 100% audit 2026-04-30](../../../plans/was-all-100-context-scalable"
        "-bird.md) — 5 TMPDIR sessions rescued to portfolio (commit…"
    )
    assert (folder / "MEMORY.md").read_text(encoding="utf-8") == f"{index}{cut}\n"
    kept = (folder / "archive" / "index-lines.md").read_text(encoding="utf-8")
    assert kept.endswith(f"\n{long_line}\n")
    assert not make_plan(folder).changed


# github.com/Kindra2804/mealana-erp, .claude/memory/, commit
# 7e46fb4a317a43f8381b321192b19f2894f5e165: two lines for one memory, two decisions of it.
DB_DESIGN = (
    "---\nname: db-design-entscheidungen\n"
    'description: "Alle DB-Schema-Entscheidungen – neue Tabellen, geänderte Tabellen, '
    'Prioritäten (zuletzt aktualisiert 2026-06-06)"\n'
    "metadata:\n  node_type: memory\n  type: project\n"
    "  originSessionId: f42de806-6c53-4c08-b255-b4829200b8a1\n"
    "  modified: 2026-07-20T18:07:48.583Z\n---\n\n"
    "## UI/UX-Entscheidungen (Session 2026-06-06)\n"
)
DB_LINE = (
    "- [DB Design Entscheidungen](db_design_entscheidungen.md) — Tabellen, Multi-Shop, "
    "Varianten, Lizenzmodell, Features Barbara (aktualisiert 2026-06-12)"
)
SYNC_LINE = (
    "- [WooCommerce Sync Design](db_design_entscheidungen.md) — Kategorie-Sync (voller Pfad, "
    "Blatt-ID am Artikel), Kanal-Chips berechnet, ein geteilter Baum für alle Shops (2026-06-21)"
)


def test_a_second_line_that_says_something_else_stays_a_repeat_goes(tmp_path: Path) -> None:
    # The WooCommerce line (2026-06-21) was taken out of the index: the model no longer saw
    # the sync decision. It is over 150 characters: it is cut from its own hook, as a first
    # line is, and kept whole in archive/.
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "db_design_entscheidungen.md").write_text(DB_DESIGN, encoding="utf-8")
    repeat = DB_LINE.replace(" — ", " - ", 1).replace("Varianten, ", "Varianten,  ")
    index = f"# Mealana\n\n{DB_LINE}\n\n## Shop\n{SYNC_LINE}\n{repeat}\n"
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    plan = make_plan(folder)
    (fp,) = plan.folders
    assert fp.index is not None
    assert fp.index.duplicate_lines == (repeat,)  # a repeat (separator, spaces) loses nothing
    apply_plan(plan)
    lines = (folder / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    assert lines[0:2] == ["# Mealana", ""]
    assert lines[2] == DB_LINE
    assert lines[3:5] == ["", "## Shop"]
    assert lines[5].startswith(
        "- [WooCommerce Sync Design](db_design_entscheidungen.md) — Kategorie-Sync (voller Pfad"
    )
    assert len(lines) == 6 and all(len(line) <= 150 for line in lines)
    kept = (folder / "archive" / "index-lines.md").read_text(encoding="utf-8")
    assert kept.endswith(f"second line.\n\n{SYNC_LINE}\n")
    assert not make_plan(folder).changed
    # `check` no longer calls the second line a duplicate; a repeat still is one.
    text = (folder / "MEMORY.md").read_text(encoding="utf-8")
    assert [f.rule for f in check_index("MEMORY.md", text.encode())] == []
    again = f"{text}{lines[2]}\n{lines[5]}\n".encode()
    assert [(f.line, f.rule, f.message) for f in check_index("MEMORY.md", again)] == [
        (
            7,
            "index-duplicate-line",
            "duplicate entry for db_design_entscheidungen.md (first on line 3)",
        ),
        (
            8,
            "index-duplicate-line",
            "duplicate entry for db_design_entscheidungen.md (first on line 6)",
        ),
    ]
    # A repeat of the second line goes too, as a repeat of the first does.
    (folder / "MEMORY.md").write_bytes(again)
    apply_plan(make_plan(folder))
    assert (folder / "MEMORY.md").read_text(encoding="utf-8") == text


# github.com/erikkins/abecap, docs/claude-memory/MEMORY.md, commit
# cbc8e77622f4790cc145ef7a51b9df22edd9723f: a note of 156 characters, not a memory's line.
NOTE = (
    "- **NEVER deploy DB schema changes without running the migration FIRST.** Migration-first "
    "pattern: deploy SQL → run → verify, THEN deploy model changes."
)
# github.com/iselind/dotfiles, claude/memory/MEMORY.md, commit
# 0a4fa80a13b8b916be6d941404545b62799ed50e: a memory's table row of 185 characters.
# github.com/CuriosityAIAgent/living-intelligence, docs/claude-memory/MEMORY.md, commit
# 29c5b9b68248ab1dcde68a2ed863168fab526628: a note naming repository files in code.
PLAN_NOTE = (
    "- **MAJOR: Multi-agent content pipeline v2** — all decisions locked. Session plan at "
    "`docs/session-by-session-plan.md`. Architecture at `docs/pipeline-v2-architecture-review"
    ".md`. Opus 4.6 for Writer+Evaluator. Full source text (no compression)."
)
ROW = (
    "| [fix_the_trigger.md](fix_the_trigger.md) | feedback | After resolving any finding, "
    "consider whether the ambiguity triggering it is still present — if so, propose a "
    "clarifying change |"
)


def test_long_prose_draws_no_warning_a_long_memory_row_says_what_to_do() -> None:
    # 156 warnings stayed after consolidation in 10 of 55 folders, on every run: prose has
    # no limit of its own in Claude Code (the index's 200 lines and 25,000 characters count
    # it), and consolidate never rewrites a table row.
    index = (
        f"## CRITICAL DEPLOYMENT RULES\n{NOTE}\n{PLAN_NOTE}\n\n| File | Type | Summary |\n{ROW}\n"
    )
    findings = check_index("MEMORY.md", index.encode())
    assert [(f.line, f.rule) for f in findings] == [(6, "index-line-too-long")]
    assert findings[0].message == (
        f"index line has {len(ROW)} characters (limit 150): shorten it by hand "
        "(`memsync consolidate` cuts only `- [T](file.md) — hook`)"
    )
    entry = "- [Fix the trigger](fix_the_trigger.md) — " + "x" * 120
    (finding,) = check_index("MEMORY.md", f"{entry}\n".encode())
    assert finding.message.endswith(
        ": `memsync consolidate` cuts its hook and keeps the line whole in archive/"
    )


def test_a_memory_named_in_code_is_indexed(tmp_path: Path) -> None:
    # github.com/CuriosityAIAgent/living-intelligence, docs/claude-memory/MEMORY.md, commit
    # 29c5b9b68248ab1dcde68a2ed863168fab526628. Claude Code parses no link in MEMORY.md: it
    # loads the text, and the model reads `project_deployment_architecture.md` there as it
    # would a link. memsync counted the memory as unindexed: `check` warned, and consolidate
    # appended a second line for it.
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "project_deployment_architecture.md").write_text(
        _memory(
            "Deployment Architecture — livingintel.ai is the product",
            "livingintel.ai (profound-wonder, feature/landing-page branch) is the full product. "
            "wealth.tigerai.tech (main) is frozen for JPM. Decision made session 22.",
        ),
        encoding="utf-8",
    )
    roadmap = _memory("Roadmap", "what comes next", "Landscape v2 first.\n")
    (folder / "project_roadmap.md").write_text(roadmap, encoding="utf-8")
    index = (
        "# Key Learnings (updated 2026-04-06)\n\n## Deployment Architecture — CRITICAL\n"
        "- See `project_deployment_architecture.md` — livingintel.ai is the product, "
        "wealth.tigerai.tech is FROZEN (JPM internal, don't touch)\n"
        "- Desktop: `/Users/haresh/Desktop/Living Intelligence/living-intelligence/`\n"
        "<!-- See `project_roadmap.md` -->\n"
    )
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    findings = check_files(files, "private")
    # Named in a comment, which the client strips: not indexed.
    assert [(f.path, f.rule) for f in findings] == [("project_roadmap.md", "index-missing-entry")]
    (fp,) = make_plan(folder).folders
    assert fp.index is not None and fp.index.added == ("project_roadmap.md",)


def test_a_memory_with_two_lines_leaves_the_index_whole() -> None:
    # Archiving to fit takes every line of the memory out, and a daily log with two lines
    # gives both up at once (each was counted as one line of one memory before).
    from memsync.consolidate.indexfit import IndexMemory, rebuild_index
    from memsync.model.index import parse_index_text

    memories = [
        IndexMemory(f"p{i:03}.md", f"p{i:03}", "hook", "project", (float(i),)) for i in range(199)
    ]
    memories.append(IndexMemory("new.md", "new", "a new one", "user", (500.0,)))
    lines = [f"- [p{i:03}](p{i:03}.md) — hook" for i in range(199)]
    lines.insert(1, "- [p000 staging](p000.md) — another fact of p000")
    rebuild = rebuild_index(parse_index_text("\n".join(lines) + "\n"), memories)
    # 200 lines and a new one: p000 leaves, both its lines, and that is room enough.
    assert rebuild.fits and rebuild.archived == ("p000.md",)
    assert "p000.md" not in rebuild.text and "p001.md" in rebuild.text
    assert rebuild.added == ("new.md",) and rebuild.after.lines == 199
    logs = [IndexMemory(m.path, m.title, m.hook, None, m.updated) for m in memories[:199]]
    rebuild = rebuild_index(parse_index_text("\n".join(lines) + "\n"), [*logs, memories[-1]])
    assert rebuild.crowded_lines == (lines[0], lines[1]) and rebuild.left_out == ("p000.md",)
    assert "p000.md" not in rebuild.text and rebuild.added == ("new.md",)
