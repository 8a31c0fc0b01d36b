"""`memsync check`: every SPEC 6 rule, the report formats, targets and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]
import pytest
from typer.testing import CliRunner

from memsync.check.findings import RULES, RULES_BY_ID, CheckReport, Finding, github_command, render
from memsync.check.rules import (
    check_file,
    check_files,
    conflict_markers,
    relative_date_positions,
    relative_dates,
)
from memsync.check.run import checkout_scope, run_check
from memsync.cli.app import app, main
from memsync.cli.tidy import _render_check
from memsync.config import Config, StoreConfig, save_config
from memsync.model.limits import MAX_MEMORY_BYTES
from memsync.model.paths import locate_project
from testing.gitrepo import git
from testing.memories import write_memory

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-2.1.0.json"
# Built at run time so no scanner mistakes this file for a leak.
FAKE_TOKEN = "ghp_" + "R8x2Kq9ZtL4mW7vB3nH6jP1cY5sD0fG8aE2u"
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX names and links")


def memory(name: str, body: str, *, type_: str = "project", description: str = "d") -> bytes:
    """A well-formed memory: the body starts on line 6."""
    return f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n---\n{body}".encode()


def plant(root: Path) -> set[tuple[str, int, str]]:
    """A team memory directory with one case of every rule; returns what must be found."""
    root.mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes] = {
        "good.md": memory("good", "Integration tests hit a real database.\n"),
        "long-hook.md": memory("long", "A memory with a long hook.\n"),
        "nofm.md": b"Plain text only.\n",
        # Indented: the client's quoting retry covers only top-level `key: value` lines.
        "badyaml.md": b"---\nname: n\nmetadata:\n  type: [x\n---\nb\n",
        "colon.md": b"---\nname: c\ndescription: use case: foo\ntype: project\n---\nquoting\n",
        "list.md": b"---\n- a\n- b\n---\nbody\n",
        "notype.md": b"---\nname: n\ndescription: d\n---\nno type here\n",
        "weird.md": memory("w", "weird type\n", type_="opinion"),
        "user.md": memory("u", "I prefer tabs.\n", type_="user"),
        "secret.md": memory("s", f"the token is {FAKE_TOKEN}\n"),
        "conflict.md": memory(
            "c",
            "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> other\n\nTitle\n=======\n\n"
            "```\n<<<<<<< in a code block\n```\n",
        ),
        "big.md": b"x" * (MAX_MEMORY_BYTES + 1),
        "large.md": memory("lg", "intro\n" + "recall stops here. " * 250 + "\n"),
        "latin1.md": b"---\nname: caf\xe9\n---\n",
        "dates.md": memory("dt", "Deployed yesterday.\n`today` and https://x.test/today\n"),
        "zz-copy.md": memory("copy", "Integration tests   hit a real\ndatabase.\n"),
        "nodesc.md": memory("nd", "no description\n", description='""'),
        "unterminated.md": b"---\nname: x\nno end\n",
        "unlisted.md": memory("ul", "Nobody links here.\n"),
        "Other.md": memory("o", "other\n"),
        "other.md": memory("o2", "other two\n"),
    }
    for name, data in files.items():
        (root / name).write_bytes(data)
    listed = sorted(n for n in files if n not in ("unlisted.md", "good.md", "long-hook.md"))
    index = [
        "# Index",
        "- [Good](good.md) — fine",
        "- [Gone](gone.md) — this file does not exist",
        "- [Good](good.md) —  fine",  # listed twice: a repeat (another hook would stay)
        "- [Long](long-hook.md) — " + "x" * 150,
        "- [Plan](../../plans/x.md) — a plan file outside the folder",
        "- [Web](https://example.test/page) — external links are not checked",
        *(f"- [{n}]({n}) — entry" for n in listed),
    ]
    (root / "MEMORY.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    (root / "link.md").symlink_to(root / "good.md")
    (root / "back\\slash.md").write_bytes(memory("b", "backslash\n"))
    return {
        ("MEMORY.md", 3, "index-dangling-link"),
        ("MEMORY.md", 4, "index-duplicate-line"),
        ("MEMORY.md", 5, "index-line-too-long"),
        ("MEMORY.md", 6, "index-outside-link"),
        ("nofm.md", 1, "frontmatter-missing"),
        ("badyaml.md", 5, "frontmatter-invalid"),
        ("colon.md", 3, "frontmatter-lenient"),
        ("list.md", 2, "frontmatter-not-mapping"),
        ("notype.md", 1, "type-missing"),
        ("weird.md", 4, "type-unknown"),
        ("user.md", 4, "user-in-team"),
        ("secret.md", 6, "secret"),
        ("conflict.md", 6, "conflict-marker"),
        ("big.md", 1, "file-too-large"),
        ("large.md", 7, "memory-over-recall-size"),
        ("latin1.md", 2, "not-utf8"),
        ("dates.md", 6, "relative-date"),
        ("zz-copy.md", 6, "duplicate-memory"),
        ("nodesc.md", 3, "empty-description"),
        ("unterminated.md", 1, "frontmatter-invalid"),
        ("unlisted.md", 1, "index-missing-entry"),
        ("other.md", 1, "case-collision"),
        ("link.md", 1, "unsafe-path"),
        ("back\\slash.md", 1, "unsafe-path"),
    }


def found(report: CheckReport) -> set[tuple[str, int, str]]:
    return {(f.path, f.line, f.rule) for f in report.findings}


@posix_only
def test_every_rule_is_found_with_file_and_line(tmp_path: Path) -> None:
    expected = plant(tmp_path / "team")
    report = run_check(tmp_path / "team", cwd=tmp_path / "team")
    assert found(report) == expected
    index_only = {"index-too-many-lines", "index-too-many-chars", "index-near-limit"}
    index_only.add("unreadable-file")  # root reads every file: test_surface_badinput has it
    assert {rule for _, _, rule in expected} | index_only == {rule.id for rule in RULES}
    assert report.has_errors
    by_rule = {f.rule: f for f in report.findings}
    assert by_rule["frontmatter-missing"].severity == "error"  # team scope
    assert by_rule["relative-date"].column == len("Deployed ") + 1
    assert by_rule["secret"].column == len("the token is ") + 1
    assert FAKE_TOKEN not in render(report, "json") + render(report, "text")
    assert report.counts == {
        "error": sum(RULES_BY_ID[r].severity == "error" for _, _, r in expected),
        "warning": sum(RULES_BY_ID[r].severity == "warning" for _, _, r in expected),
    }


@posix_only
def test_private_scope_relaxes_missing_frontmatter_and_allows_user(tmp_path: Path) -> None:
    plant(tmp_path / "mem")
    report = run_check(tmp_path / "mem", cwd=tmp_path)
    rules = {(f.path, f.rule): f.severity for f in report.findings}
    assert rules[("mem/nofm.md", "frontmatter-missing")] == "warning"
    assert ("mem/user.md", "user-in-team") not in rules
    forced = run_check(tmp_path / "mem", scope="team", cwd=tmp_path)
    assert ("mem/user.md", 4, "user-in-team") in found(forced)


def test_a_clean_directory_has_no_finding(tmp_path: Path) -> None:
    write_memory(tmp_path, "testing.md", "testing policy", "Use a real database.\n")
    write_memory(tmp_path, "notes/deploy.md", "deploy", "Deploys happen on 2026-03-05.\n")
    write_memory(tmp_path, "archive/old.md", "old", "Archived and unlisted on purpose.\n")
    (tmp_path / "MEMORY.md").write_text(
        "# Memory\n\n- [Testing](testing.md) — real DB\n- [Deploy](./notes/deploy.md#when) — x\n"
        "- [Site](https://example.test) — external\n",
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text("ignored, not a memory", encoding="utf-8")
    report = run_check(tmp_path, cwd=tmp_path)
    assert report.findings == ()
    assert report.files_checked == 4
    assert not report.has_errors
    assert render(report, "text").endswith(f"0 errors, 0 warnings in 4 files ({tmp_path})\n")


def test_index_over_the_limits_points_at_the_first_invisible_line(tmp_path: Path) -> None:
    lines = [f"- [m{i:03}](m{i:03}.md) — " + "h" * 120 for i in range(230)]
    for i in range(230):
        write_memory(tmp_path, f"m{i:03}.md", f"m{i}", f"memory number {i}\n")
    (tmp_path / "MEMORY.md").write_text("\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    report = run_check(tmp_path, cwd=tmp_path)
    by_rule = {f.rule: f for f in report.findings}
    assert by_rule["index-too-many-lines"].line == 2 + 200 + 1
    width = len(lines[0]) + 1
    assert by_rule["index-too-many-chars"].line == 2 + 25_000 // width + 1
    assert {f.rule for f in report.findings} == {"index-too-many-lines", "index-too-many-chars"}


def test_index_characters_are_counted_in_utf16_units_as_claude_code_counts(
    tmp_path: Path,
) -> None:
    # An adversarial team review (T12): each 🚀 is two UTF-16 code units to Claude Code
    # (JavaScript's length, lastIndexOf and slice), one code point to Python. This index is
    # 20,183 code points and 35,333 units: the client keeps 106 of its 150 lines, and
    # `check` said "80 %" and passed.
    from memsync.model.index import measure_index, visible_part

    lines = []
    for i in range(1, 151):
        write_memory(tmp_path, f"m{i}.md", f"m{i}", f"Note {i}.\n", description=f"deploy {i}")
        lines.append(f"- [🚀 Deploy {i}](m{i}.md) — " + "🚀" * 100 + " launch")
    text = "\n".join(lines) + "\n"
    (tmp_path / "MEMORY.md").write_text(text, encoding="utf-8")
    # The client's cut, computed on the UTF-16 encoding itself.
    units = text.strip().encode("utf-16-le")
    cut = units[: 2 * 25_001].decode("utf-16-le", "ignore").rfind("\n")
    client = text.strip()[:cut]
    assert client.count("\n") + 1 == 106
    assert visible_part(text) == client
    assert measure_index(text).chars == len(units) // 2 == 35_333
    report = run_check(tmp_path, cwd=tmp_path)
    [over] = [f for f in report.findings if f.rule == "index-too-many-chars"]
    assert over.line == 107  # the first line Claude Code no longer sees
    assert "35,333 characters" in over.message and "loads only the first 25,000" in over.message
    assert report.has_errors


@pytest.mark.parametrize(
    ("count", "width", "expected"),
    [
        (159, 20, set()),  # just under 80 % of 200 lines
        (160, 20, {("index-near-limit", 160, "160 lines, 80 %")}),
        (199, 20, {("index-near-limit", 160, "199 lines, 99 %")}),
        (140, 143, {("index-near-limit", 140, "characters, 80 % of the 25,000")}),
        (140, 142, set()),  # 19,880 characters
    ],
)
def test_index_near_a_limit_is_a_warning(
    tmp_path: Path, count: int, width: int, expected: set[tuple[str, int, str]]
) -> None:
    lines = [f"- [m{i:03}](m{i:03}.md) — ".ljust(width - 1, "h") for i in range(count)]
    for i in range(count):
        write_memory(tmp_path, f"m{i:03}.md", f"m{i}", f"memory number {i}\n")
    (tmp_path / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = run_check(tmp_path, cwd=tmp_path)
    got = {(f.rule, f.line, f.message) for f in report.findings}
    assert {(rule, line) for rule, line, _ in got} == {(r, n) for r, n, _ in expected}
    for rule, _, words in expected:
        assert any(words in message for r, _, message in got if r == rule)
    assert not report.has_errors


def test_unindexed_memories_without_any_index(tmp_path: Path) -> None:
    write_memory(tmp_path, "a.md", "a", "alpha\n")
    findings = check_files({"a.md": (tmp_path / "a.md").read_bytes()}, "team", prefix="t/")
    assert [(f.path, f.rule) for f in findings] == [("t/a.md", "index-missing-entry")]
    assert "t/MEMORY.md (there is none)" in findings[0].message


def test_index_links_resolve_relative_to_the_index_and_decode(tmp_path: Path) -> None:
    files = {
        "MEMORY.md": b"- [A](<a b.md>)\n- [B](b%20c.md)\n- [Up](../x.md)\n- [Img](pic.png)\n"
        b"- [E]()\n",
        "a b.md": memory("a", "one\n"),
        "b c.md": memory("b", "two\n"),
    }
    findings = check_files(files, "private")
    assert [(f.line, f.rule) for f in findings] == [
        (3, "index-outside-link"),  # out of the folder: never read, so not "does not exist"
        (5, "index-dangling-link"),
    ]


# --- single files (the push-time validation uses these) ---


def test_check_file_scope_rules() -> None:
    plain = b"no frontmatter\n"
    assert [f.severity for f in check_file("a.md", plain, "team")] == ["error"]
    assert [f.severity for f in check_file("a.md", plain, "private")] == ["warning"]
    user = memory("u", "me\n", type_="user")
    assert [f.rule for f in check_file("team/u.md", user, "team")] == ["user-in-team"]
    assert check_file("u.md", user, "private") == []


def test_check_file_refuses_unsafe_and_large_files_first() -> None:
    assert [f.rule for f in check_file("../x.md", b"", "team")] == ["unsafe-path"]
    big = b"<<<<<<< \n" + b"x" * MAX_MEMORY_BYTES
    assert [f.rule for f in check_file("big.md", big, "team")] == ["file-too-large"]


def test_check_file_on_an_index() -> None:
    data = f"- [A](a.md) — {FAKE_TOKEN}\n- [A](a.md)\n".encode()
    rules = [(f.line, f.rule) for f in check_file("MEMORY.md", data, "team", index=True)]
    assert rules == [(1, "secret"), (2, "index-duplicate-line")]
    assert [f.rule for f in check_file("MEMORY.md", b"\xff", "team", index=True)] == ["not-utf8"]


def test_allow_marker_silences_a_secret() -> None:
    data = memory("s", f"sample {FAKE_TOKEN} memsync:allow-secret\n")
    assert check_file("s.md", data, "team") == []


def test_non_string_fields() -> None:
    data = b"---\nname: n\ndescription: 3\ntype: [project]\n---\nx\n"
    findings = sorted((f.line, f.rule) for f in check_file("n.md", data, "team"))
    assert findings == [(3, "empty-description"), (4, "type-unknown")]
    assert check_file("e.md", b"---\n---\nx\n", "team")[0].rule == "type-missing"


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n", [1]),
        ("<<<<<<< HEAD\na\n||||||| base\nb\n=======\nc\n>>>>>>> x\n", [1]),
        ("Heading\n=======\ntext\n", []),
        ("text\n\n=======\n", [3]),
        ("=======\n", [1]),
        ("a\n>>>>>>> theirs\n", [2]),
        ("a\n|||||||\n", [2]),
        ("<<<<<<<< eight\n", []),
        ("   <<<<<<< indented\n", []),
        ("```\n<<<<<<< x\n=======\n>>>>>>> y\n```\n<<<<<<< real\n", [6]),
        ("~~~~\n```\n<<<<<<< x\n~~~~\n", []),
        ("<<<<<<< a\n```\n=======\n```\n>>>>>>> b\n", [1]),
        ("x\r\n<<<<<<< crlf\r\n", [2]),
    ],
)
def test_conflict_markers(text: str, lines: list[int]) -> None:
    assert [f.line for f in conflict_markers("m.md", text)] == lines


@pytest.mark.parametrize(
    ("text", "expressions"),
    [
        ("Fixed yesterday, ship tomorrow.", ["yesterday", "tomorrow"]),
        ("Today we moved. Last week too.", ["Today", "Last week"]),
        ("3 days ago and in 2 weeks", ["3 days ago", "in 2 weeks"]),
        ("the day after tomorrow", ["the day after tomorrow"]),
        ("next Friday, this month", ["next Friday", "this month"]),
        ("`today` in code, https://x.test/yesterday, [link](today.md)", []),
        ("```\nyesterday\n```\nafter the block: today", ["today"]),
        ("weekly reports, todays, Yesterday's", ["Yesterday's"]),
        ("description: fixed yesterday", ["yesterday"]),
        ("May 3rd, a second, now, Sunday school", []),
    ],
)
def test_relative_dates(text: str, expressions: list[str]) -> None:
    assert [expr for _, _, expr in relative_date_positions(text)] == expressions


def test_every_date_the_grammar_finds_passes_the_keyword_prefilter() -> None:
    from memsync.check.rules import DATE_WORDS
    from memsync.consolidate.dates import find_relative_dates

    corpus = Path(__file__).parent / "data" / "dates" / "sentences.tsv"
    found = 0
    for row in corpus.read_text(encoding="utf-8").splitlines():
        if row.startswith("#") or not row.strip():
            continue
        text = row.split("\t")[3].replace("\\n", "\n")
        for match in find_relative_dates(text):
            found += 1
            lowered = match.expression.lower()
            assert any(word in lowered for word in DATE_WORDS), match.expression
    assert found > 200


def test_relative_date_positions() -> None:
    (hit,) = relative_dates("m.md", "line one\nsee you tomorrow\n", first_line=6)
    assert (hit.line, hit.column) == (7, len("see you ") + 1)
    text = "---\nname: n\ndescription: done yesterday\ntype: project\n---\nbody\n"
    (in_description,) = check_file("n.md", text.encode(), "team")
    assert (in_description.line, in_description.rule) == (3, "relative-date")


# --- formats ---


def _sample_report(tmp_path: Path) -> CheckReport:
    findings = (
        Finding("team/a b.md", 3, "secret", "error", "possible secret (github-pat): ghp_…"),
        Finding("MEMORY.md", 201, "index-too-many-lines", "error", "too long"),
        Finding("x,y:z.md", 1, "relative-date", "warning", "100% sure\nsecond line", column=5),
    )
    return CheckReport(str(tmp_path), findings, 3)


def test_sarif_is_valid_against_the_official_schema(tmp_path: Path) -> None:
    sarif = json.loads(render(_sample_report(tmp_path), "sarif"))
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validate(sarif, schema, cls=jsonschema.Draft4Validator)
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.id for r in RULES]
    assert all(r["help"]["text"] and r["shortDescription"]["text"] for r in rules)
    first = run["results"][0]
    assert first["ruleId"] == "secret" and first["level"] == "error"
    assert rules[first["ruleIndex"]]["id"] == "secret"
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "team/a%20b.md"
    assert location["region"] == {"startLine": 3, "startColumn": 1}
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"].endswith("/")


def test_sarif_of_a_planted_directory_is_valid(tmp_path: Path) -> None:
    write_memory(tmp_path, "a.md", "a", "yesterday\n", type_="opinion")
    sarif = json.loads(render(run_check(tmp_path, cwd=tmp_path), "sarif"))
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validate(sarif, schema, cls=jsonschema.Draft4Validator)
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} == {
        "type-unknown",
        "relative-date",
        "index-missing-entry",
    }


def test_github_workflow_commands_escape_what_the_runner_parses(tmp_path: Path) -> None:
    lines = render(_sample_report(tmp_path), "github").splitlines()
    assert lines[0] == (
        "::error file=team/a b.md,line=3,col=1,title=memsync%3A Possible secret [secret]"
        "::possible secret (github-pat): ghp_…"
    )
    assert lines[2].startswith("::warning file=x%2Cy%3Az.md,line=1,col=5,")
    assert lines[2].endswith("::100%25 sure%0Asecond line")
    assert len(lines) == 3
    assert github_command(_sample_report(tmp_path).findings[1]).startswith("::error file=MEMORY.md")


def test_json_and_text_formats(tmp_path: Path) -> None:
    report = _sample_report(tmp_path)
    data = json.loads(render(report, "json"))
    assert data["counts"] == {"error": 2, "warning": 1}
    assert data["findings"][0] == {
        "path": "team/a b.md",
        "line": 3,
        "column": 1,
        "rule": "secret",
        "severity": "error",
        "message": "possible secret (github-pat): ghp_…",
    }
    text = render(report, "text")
    assert text.splitlines()[0] == (
        "team/a b.md:3: error: possible secret (github-pat): ghp_… [secret]"
    )
    assert "2 errors, 1 warning in 3 files" in text


def test_rich_rendering_for_a_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _render_check(_sample_report(tmp_path))
    out = capsys.readouterr().out
    assert "team/a b.md:3: error possible secret" in out
    assert "[secret]" in out
    assert "2 errors, 1 warning in 3 files" in out


# --- targets: store checkouts, Claude Code's directory, single files ---


def _store(root: Path, *, scaffold: bool = True) -> Path:
    root.mkdir(parents=True)
    git("init", "-q", str(root), cwd=root.parent)
    (root / "README.md").write_text("# Team memory\n\nNot a memory.\n", encoding="utf-8")
    if scaffold:
        workflow = root / ".github" / "workflows" / "memsync-check.yml"
        workflow.parent.mkdir(parents=True)
        workflow.write_text("name: memsync check\n", encoding="utf-8")
    return root


def test_store_checkout_checks_every_project_folder(tmp_path: Path) -> None:
    store = _store(tmp_path / "team-memory")
    for key in ("acme-api", "acme-web"):
        write_memory(store / key, "a.md", "a", f"{key} alpha\n")
        (store / key / "MEMORY.md").write_text("- [A](a.md) — alpha\n", encoding="utf-8")
    write_memory(store / "acme-web", "me.md", "me", "personal\n", type_="user")
    (store / "empty").mkdir()
    (store / ".github" / "PULL_REQUEST_TEMPLATE.md").write_text("x\n", encoding="utf-8")
    report = run_check(store, cwd=store)
    # A personal memory is in the wrong store, not a memory missing its line (f3): the one
    # finding, as `consolidate` gives it no line.
    assert found(report) == {("acme-web/me.md", 4, "user-in-team")}
    assert [(t.prefix, t.scope) for t in report.trees] == [
        ("acme-api/", "team"),
        ("acme-web/", "team"),
    ]
    assert report.files_checked == 5
    # --all without PATH: the work tree around the current directory.
    inside = run_check(None, all_projects=True, cwd=store / "acme-web")
    assert found(inside) == found(report)


def test_a_stray_file_at_a_store_root_leaves_the_project_folders_alone(tmp_path: Path) -> None:
    # An adversarial team review (T11): one `.md` at the root of a team checkout switched the
    # whole checkout to the one-project layout: every project memory became "not listed in
    # MEMORY.md (there is none)" although its folder's MEMORY.md lists it.
    store = _store(tmp_path / "ca")
    write_memory(store / "proj", "ok.md", "ok", "fine\n")
    (store / "proj" / "MEMORY.md").write_text("- [ok](ok.md) — ok\n", encoding="utf-8")
    assert run_check(store, all_projects=True, cwd=store).findings == ()
    write_memory(store, "stray.md", "stray", "stray\n")
    report = run_check(store, all_projects=True, cwd=store)
    assert [(f.path, f.rule) for f in report.findings] == [("stray.md", "index-missing-entry")]
    [stray] = report.findings
    assert "outside any project folder" in stray.message and "move it into" in stray.message
    assert "proj/" in [t.prefix for t in report.trees]
    assert report.files_checked == 3


def test_one_project_store_ignores_people_files(tmp_path: Path) -> None:
    store = _store(tmp_path / "repo")
    write_memory(store, "a.md", "a", "alpha\n")
    (store / "MEMORY.md").write_text("- [A](a.md) — alpha\n", encoding="utf-8")
    (store / "CONTRIBUTING.md").write_text("no frontmatter\n", encoding="utf-8")
    (store / ".github" / "notes.md").write_text("no frontmatter\n", encoding="utf-8")
    report = run_check(store, cwd=tmp_path)
    assert report.findings == ()
    assert report.files_checked == 2
    assert [t.prefix for t in report.trees] == ["repo/"]


def test_empty_store_checkout_is_clean(tmp_path: Path) -> None:
    store = _store(tmp_path / "new")
    report = run_check(store, all_projects=True, cwd=tmp_path)
    assert report.findings == () and report.files_checked == 0


def test_store_scope_comes_from_config_then_scaffold(tmp_path: Path) -> None:
    store = _store(tmp_path / "mine", scaffold=False)
    assert checkout_scope(store) == "private"
    git("remote", "add", "origin", "git@github.com:Acme/Memory.git", cwd=store)
    (store / ".gitattributes").write_text("*.md merge=memsync\n", encoding="utf-8")
    assert checkout_scope(store) == "team"
    config = Config().with_store(StoreConfig("p", "private", "https://github.com/acme/memory"))
    save_config(config)
    assert checkout_scope(store) == "private"


def test_claude_code_directory_is_the_default(tmp_path: Path) -> None:
    project = tmp_path / "code"
    project.mkdir()
    git("init", "-q", str(project), cwd=tmp_path)
    memory_dir = locate_project(project).memory_dir
    write_memory(memory_dir, "me.md", "me", "personal\n", type_="user")
    write_memory(memory_dir, "team/me.md", "me", "personal in team\n", type_="user")
    (memory_dir / "MEMORY.md").write_text("- [Me](me.md) — me\n", encoding="utf-8")
    (memory_dir / "team" / "MEMORY.md").write_text("- [Me](me.md) — me\n", encoding="utf-8")
    (memory_dir / ".consolidate-lock").write_text("1", encoding="utf-8")
    report = run_check(None, project=project, cwd=tmp_path)
    assert found(report) == {("team/me.md", 4, "user-in-team")}
    assert report.base == str(memory_dir)
    assert [(t.prefix, t.scope) for t in report.trees] == [("", "private"), ("team/", "team")]


def test_missing_claude_directory_is_a_usage_error(tmp_path: Path) -> None:
    from memsync.errors import UsageError

    with pytest.raises(UsageError, match="no Claude Code memory directory"):
        run_check(None, cwd=tmp_path)
    with pytest.raises(UsageError, match="not inside a git work tree"):
        run_check(None, all_projects=True, cwd=tmp_path)
    with pytest.raises(UsageError, match="does not exist"):
        run_check(tmp_path / "absent", cwd=tmp_path)
    with pytest.raises(UsageError, match="--scope"):
        run_check(tmp_path, scope="public", cwd=tmp_path)


def test_a_single_file(tmp_path: Path) -> None:
    path = write_memory(tmp_path / "team", "u.md", "u", "me\n", type_="user")
    report = run_check(path, cwd=tmp_path)
    assert found(report) == {("team/u.md", 4, "user-in-team")}
    index = tmp_path / "MEMORY.md"
    index.write_text("- [A](a.md)\n- [A](a.md)\n", encoding="utf-8")
    assert found(run_check(index, cwd=tmp_path)) == {("MEMORY.md", 2, "index-duplicate-line")}


# --- the command line ---


def _memsync(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "memsync", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _exit_code(*args: str) -> int:
    """Run the real entry point in-process (typer exits, MemsyncError maps to SPEC codes)."""
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    return int(exited.value.code or 0)


def test_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = tmp_path / "clean"
    write_memory(clean, "a.md", "a", "alpha\n")
    (clean / "MEMORY.md").write_text("- [A](a.md) — alpha\n", encoding="utf-8")
    warned = tmp_path / "warned"
    write_memory(warned, "a.md", "a", "done yesterday\n")
    broken = tmp_path / "broken"
    write_memory(broken, "a.md", "a", "<<<<<<< HEAD\n")
    assert _exit_code("check", str(clean)) == 0
    assert _exit_code("check", str(warned)) == 0
    assert _exit_code("check", str(broken)) == 1
    assert _exit_code("check", str(tmp_path / "absent")) == 2
    assert "does not exist" in capsys.readouterr().err
    assert _exit_code("check", "--format", "xml", str(clean)) == 2
    assert _exit_code("check", "--scope", "public", str(clean)) == 2


def test_exit_code_of_the_real_command(tmp_path: Path) -> None:
    write_memory(tmp_path / "broken", "a.md", "a", "<<<<<<< HEAD\n")
    failed = _memsync("check", "broken", cwd=tmp_path)
    assert failed.returncode == 1
    assert "broken/a.md:6: error: conflict marker" in failed.stdout
    assert failed.stdout.endswith(f"1 error, 1 warning in 1 file ({tmp_path})\n")


def test_cli_formats_through_the_typer_app(tmp_path: Path) -> None:
    write_memory(tmp_path, "a.md", "a", "alpha\n", type_="opinion")
    runner = CliRunner()
    result = runner.invoke(app, ["check", str(tmp_path), "--format", "github"])
    assert result.exit_code == 1
    assert "::error file=a.md,line=4," in result.output
    result = runner.invoke(app, ["check", str(tmp_path), "--format", "JSON", "--scope", "team"])
    assert json.loads(result.output)["counts"] == {"error": 1, "warning": 1}
    result = runner.invoke(app, ["check", str(tmp_path), "--format", "sarif"])
    assert json.loads(result.output)["version"] == "2.1.0"


def test_check_does_not_import_gitpython_or_deepdiff(tmp_path: Path) -> None:
    write_memory(tmp_path, "a.md", "a", "alpha\n")
    code = (
        "import sys\n"
        "from memsync.cli.app import main\n"
        "try:\n"
        f"    main(['check', {str(tmp_path)!r}, '--format', 'json'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('git', 'deepdiff'))\n"
        "sys.stderr.write('HEAVY=' + ','.join(heavy))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "HEAVY=" in proc.stderr
    assert proc.stderr.split("HEAVY=")[1] == ""
    assert '"files_checked": 1' in proc.stdout


def test_one_file_over_the_limit_is_a_finding_with_its_size(tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_bytes(b"x" * (MAX_MEMORY_BYTES * 4))
    report = run_check(big, cwd=tmp_path)
    assert [(f.rule, f.path) for f in report.findings] == [("file-too-large", "big.md")]
    assert f"({MAX_MEMORY_BYTES * 4:,})" in report.findings[0].message


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="POSIX permissions")
def test_one_unreadable_file_is_a_usage_error_naming_it(tmp_path: Path) -> None:
    from memsync.errors import UsageError

    locked = tmp_path / "locked.md"
    locked.write_text("---\nname: x\n---\nbody\n", encoding="utf-8")
    locked.chmod(0)
    try:
        with pytest.raises(UsageError, match=r"cannot read locked\.md: Permission denied"):
            run_check(locked, cwd=tmp_path)
    finally:
        locked.chmod(0o644)


def test_check_calls_duplicates_exactly_what_consolidate_merges(tmp_path: Path) -> None:
    from memsync.consolidate.dedupe import Candidate, find_duplicates

    write_memory(tmp_path, "a.md", "a", "Use PNPM for installs.\n\nNever npm.\n")
    write_memory(tmp_path, "b.md", "b", "use pnpm  for installs.\nnever NPM.\n")  # same, by case
    write_memory(tmp_path, "c.md", "c", "Use PNPM for installs. Never npm.\n")  # re-wrapped
    write_memory(tmp_path, "d.md", "d", "Use PNPM for installs.\nNever yarn.\n")  # other words
    report = run_check(tmp_path, cwd=tmp_path)
    flagged = {(f.path, f.message) for f in report.findings if f.rule == "duplicate-memory"}
    assert flagged == {("b.md", "same body as a.md"), ("c.md", "same body as a.md")}
    bodies = {
        n: (tmp_path / f"{n}.md").read_text(encoding="utf-8").split("---\n", 2)[2] for n in "abcd"
    }
    groups = find_duplicates([Candidate(f"{n}.md", None, body) for n, body in bodies.items()])
    exact = {frozenset(g.members) for g in groups if g.kind == "exact"}
    assert exact == {frozenset({"a.md", "b.md", "c.md"})}


def test_check_flags_exactly_the_relative_dates_consolidate_converts(tmp_path: Path) -> None:
    """A review over 43 real folders: check flagged 272 phrases consolidate never converts, in
    `archive/` (never consolidated) and in index entry lines (then rebuilt from descriptions;
    now kept as written, and converted)."""
    from memsync.consolidate.engine import make_plan

    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "x.md").write_text(
        '---\nname: x\ndescription: "Fix: merged today"\nmetadata:\n  type: project\n---\n\n'
        "Shipped yesterday.\n",
        encoding="utf-8",
    )
    write_memory(folder / "archive", "old.md", "old", "Shipped yesterday.\n")
    (folder / "MEMORY.md").write_text(
        "- [x](x.md) — Bob produced today\n\nPlanned tomorrow.\n", encoding="utf-8"
    )
    report = run_check(folder, cwd=tmp_path)
    flagged = {(f.path, f.line) for f in report.findings if f.rule == "relative-date"}
    plan = make_plan(folder)
    converted = {(f"memory/{d.path}", d.line) for d in plan.folders[0].dates}
    assert (
        flagged
        == converted
        == {
            ("memory/x.md", 3),  # a quoted description is no quotation: the memory's words
            ("memory/x.md", 8),
            ("memory/MEMORY.md", 1),  # an entry's hook stays as written: converted there
            ("memory/MEMORY.md", 3),
        }
    )


def test_a_push_asks_no_dates_of_archive_as_check_does(tmp_path: Path) -> None:
    """A push warned `archive/freeze.md:8: relative date` while `check` reported none (a new
    user's walkthrough): a push's validation and `check` read `archive/` alike."""
    from memsync.check.validate import validate_edit
    from memsync.config import Settings

    data = memory("old", "Shipped yesterday.\n")
    settings = Settings()
    archived = validate_edit("archive/old.md", data, "team", settings)
    assert archived == ([], [])
    live_errors, live_warnings = validate_edit("old.md", data, "team", settings)
    assert live_errors == []
    assert [(f.rule, f.line) for f in live_warnings] == [("relative-date", 6)]


def test_text_output_keeps_a_hostile_file_name_on_its_line(tmp_path: Path) -> None:
    """A file named `a\\n::warning::X.md` started a line of its own in `--format text`: a
    workflow command in a CI log (an adversarial team review). JSON, SARIF and GitHub's
    format escaped it already."""
    (tmp_path / "a\n::warning::INJECTED.md").write_bytes(memory("a", "A fact.\n"))
    text = render(run_check(tmp_path, cwd=tmp_path), "text")
    assert not any(line.startswith("::") for line in text.splitlines())
    assert "a\\n::warning::INJECTED.md:1: error:" in text
