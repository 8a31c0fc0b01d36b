"""An index line inside an HTML comment is the person's text, never that memory's entry: every
reader of index lines (model, check, consolidate, merge, the session-end keep) agrees."""

from __future__ import annotations

from pathlib import Path

from memsync.check.rules import check_files
from memsync.consolidate.engine import apply_plan, make_plan
from memsync.merge.index import merge_index
from memsync.model.index import IndexLine, commented_lines, parse_entry, parse_index_text
from memsync.model.loaded import hidden_lines
from memsync.sync.hookcontext import _changed_lines
from memsync.sync.indexkeep import dropped_entries
from memsync.sync.report import StoreReport
from testing.gitrepo import git
from testing.loaded_probes import PROBED
from testing.machines import Machine, shared_index
from testing.memories import write_memory

COMMENTED = (
    "# Memory\n\n"
    "- [New](new.md) — the new memory\n"
    "<!--\n"
    "- [Old](old.md) — hidden for now\n"
    "- [Gone](gone.md) — a memory since deleted\n"
    "-->\n"
    "<!-- - [Old](old.md) — one-line comment -->\n"
)


def _folder(tmp_path: Path, index: str, *names: str) -> Path:
    folder = tmp_path / "store" / "proj"
    for name in names:
        write_memory(folder, f"{name}.md", name, f"Body of {name}.\n", description=f"{name} now")
    (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    git("init", "-q", cwd=folder.parent)
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*.md")}


def _clean_then_consolidated(tmp_path: Path, index: str, *names: str) -> list[str]:
    """`check` finds nothing in a folder of INDEX and memories NAMES; its entry lines once
    consolidated."""
    folder = _folder(tmp_path, index, *names)
    assert check_files(_files(folder), "private") == []
    apply_plan(make_plan(folder))
    text = (folder / "MEMORY.md").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith("- [")]


def test_a_line_inside_a_comment_is_no_entry_and_stays_so_when_lines_change() -> None:
    index = parse_index_text(COMMENTED + "- [Trail](trail.md) — kept <!-- a note -->\n<!--\n")
    # The trailing comment does not hide its line; an unclosed `<!--` comments nothing out.
    assert index.targets == ["new.md", "trail.md"]
    after = parse_index_text("- [Late](late.md)\n-->\n")
    assert after.targets == ["late.md"]
    # Lines put together by a rebuild or a merge follow the same rule.
    texts = ["<!--", "- [Old](old.md) — hidden", "-->", "- [New](new.md)"]
    rebuilt = index.with_lines([IndexLine(t, parse_entry(t)) for t in texts])
    assert rebuilt.targets == ["new.md"]
    assert rebuilt.lines[1] == IndexLine("- [Old](old.md) — hidden")


def test_check_does_not_count_a_commented_line_as_the_memory_s_entry(tmp_path: Path) -> None:
    index = COMMENTED + "<!-- - [New](new.md) — older wording -->\n"
    folder = _folder(tmp_path, index, "new", "old")
    found = {(f.path, f.rule): f.message for f in check_files(_files(folder), "private")}
    # old.md is unindexed as Claude Code sees it; gone.md's commented line is no broken link,
    # new.md's commented second line no duplicate.
    assert ("old.md", "index-missing-entry") in found
    assert [key for key in found if key != ("old.md", "index-missing-entry")] == []


def test_consolidate_keeps_a_commented_line_verbatim_and_indexes_the_memory(
    tmp_path: Path,
) -> None:
    index = COMMENTED + "<!-- - [New](new.md) — older wording -->\n"
    folder = _folder(tmp_path, index, "new", "old")
    apply_plan(make_plan(folder))
    text = (folder / "MEMORY.md").read_text(encoding="utf-8")
    # The comment is untouched (not rewritten from old.md's description, the missing gone.md's
    # line not taken out, new.md's second line not moved to archive/): old.md gets a live line.
    # new.md's live line keeps its hook as written (test_consolidate_hooks).
    assert text == index + "- [old](old.md) — old now\n"
    assert not (folder / "archive").exists()


def test_a_merge_that_deletes_a_memory_keeps_its_commented_line() -> None:
    base = COMMENTED.encode()
    ours = base.replace(b"the new memory", b"the new memory, edited")
    merged = merge_index(base, ours, base, gone={"old.md", "gone.md"}).content
    assert merged == ours


def test_a_commented_line_survives_a_deletion_synced_from_another_machine(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice, pa, live_a, bob, pb, live_b = shared_index(machines, tmp_path, COMMENTED, "new", "old")
    (live_b / "old.md").unlink()
    bob.memsync("push", cwd=pb)
    # Alice edits the index meanwhile: her push merges with Bob's deletion of old.md.
    edited = COMMENTED.replace("the new memory", "the new memory, edited")
    (live_a / "MEMORY.md").write_text(edited, encoding="utf-8")
    alice.memsync("sync", cwd=pa)
    bob.memsync("pull", cwd=pb)
    assert not (live_a / "old.md").exists()
    for live in (live_a, live_b):
        assert (live / "MEMORY.md").read_text(encoding="utf-8") == edited


def test_the_hook_names_no_commented_line_as_a_changed_memory_s_line() -> None:
    report = StoreReport("private", "s", updated=("old.md",))
    loaded = ["- [A](a.md)", "  <!--", "  - [Old](old.md) — x", "  -->"]
    assert _changed_lines(report, loaded) == ['- "old.md" (no index line)']


def test_an_entry_commented_out_at_session_end_is_not_put_back() -> None:
    # The person's choice: the push's keep of dropped lines (sync/indexkeep) adds no second,
    # live line for a memory whose line a session or a person commented out.
    base = b"- [New](new.md) \xe2\x80\x94 new\n- [Old](old.md) \xe2\x80\x94 old\n"
    live = {"new.md": b"n", "old.md": b"o"}
    for edited in (
        base.replace(b"- [Old]", b"<!-- - [Old]").replace(b"old\n", b"old -->\n"),
        base.replace(b"- [Old]", b"<!--\n- [Old]") + b"-->\n",
    ):
        assert dropped_entries(base, edited, "", live) == []


CODE = (
    "# Memory\n\n"
    "- [HTML](html.md) — a comment opens with `<!--`\n"
    "- [Deploy](deploy.md) — deploy now\n"
    "```\n<!--\n```\n"
    "- [Keep](keep.md) — keep now\n"
    "- [Mermaid](mermaid.md) — arrows are written `-->`\n"
)


def test_a_comment_mark_in_code_hides_no_entry(tmp_path: Path) -> None:
    # `<!--` in a code span or a code fence is code, to the client too: the lines after it
    # stay entries, and consolidate adds no second line for their memories.
    assert parse_index_text(CODE).targets == ["html.md", "deploy.md", "keep.md", "mermaid.md"]
    still = "- [A](a.md) `x` <!--\n- [B](b.md)\n`-->`\n"
    assert parse_index_text(still).targets == ["a.md"]  # a real comment, closed in a code span
    # A fence never closed is no fence (in a list item it ends with the item): the comment holds.
    unclosed = "- [A](a.md) — see\n  ```\n- [B](b.md)\n<!--\n- [Old](old.md)\n-->\n"
    assert parse_index_text(unclosed).targets == ["a.md", "b.md"]
    # Each stays one line, as written (a live line keeps its hook: test_consolidate_hooks).
    assert _clean_then_consolidated(tmp_path, CODE, "html", "deploy", "keep", "mermaid") == [
        "- [HTML](html.md) — a comment opens with `<!--`",
        "- [Deploy](deploy.md) — deploy now",
        "- [Keep](keep.md) — keep now",
        "- [Mermaid](mermaid.md) — arrows are written `-->`",
    ]


def test_the_comment_rule_holds_for_every_position_in_an_index() -> None:
    """Far down a long index; an index that is one commented line; an entry line under a
    prose line whose comment opened at its end."""
    many = "".join(f"- [M{n}](m{n}.md) — memory {n}\n" for n in range(40))
    index = parse_index_text(many + "<!--\n- [Old](old.md) — hidden\n-->\n- [New](new.md) — new\n")
    assert [e.target for e in index.entries][-2:] == ["m39.md", "new.md"]
    assert "old.md" not in [e.target for e in index.entries]
    assert parse_index_text("<!-- - [Old](old.md) — hidden -->").entries == []
    under = parse_index_text("Retired below <!--\n- [Old](old.md) — hidden -->\n")
    assert under.entries == [], under.lines
    assert [line.text for line in under.lines] == [
        "Retired below <!--",
        "- [Old](old.md) — hidden -->",
    ]


INDENTED = (
    "# Memory\n\n"
    "- [HTML](html.md) — comments in the docs\n\n"
    "A comment opens with:\n\n"
    "    <!-- a comment\n\n"
    "and a tab-indented one:\n\n"
    "\t<!--\n\n"
    "- [Deploy](deploy.md) — deploy now\n"
    "- [Keep](keep.md) — keep now\n"
    "Closed with `-->` in the docs -->\n"
)


def test_a_comment_mark_in_indented_code_hides_no_entry(tmp_path: Path) -> None:
    # Four columns (spaces or a tab) after a blank line or a heading, outside a list item:
    # indented code (CommonMark), where `<!--` opens nothing, to the client too.
    assert parse_index_text(INDENTED).targets == ["html.md", "deploy.md", "keep.md"]
    hidden = "    <!--\n- [B](b.md) — b\n-->\n"
    for head in (
        "## Example\n",  # right under a heading
        "Text\n\n    x = 1\n",  # a second line of code
        "- [A](a.md) — a\n## Example\n",  # a heading ends the list item
    ):
        assert "b.md" in parse_index_text(head + hidden).targets, head
    assert _clean_then_consolidated(tmp_path, INDENTED, "html", "deploy", "keep") == [
        "- [HTML](html.md) — comments in the docs",
        "- [Deploy](deploy.md) — deploy now",
        "- [Keep](keep.md) — keep now",
    ]


def test_an_indented_comment_mark_that_is_no_code_still_opens_a_comment() -> None:
    # Indented under a list item (after a blank line too), or under a paragraph line with no
    # blank line between: the item's or the paragraph's text, not code.
    hidden = "<!--\n- [B](b.md) — b\n-->\n"
    for head in (
        "- [A](a.md) — a\n\n",  # the item's text goes on past the blank line
        "- [A](a.md) — a\nlazy text of the item\n\n",
        "- top\n  - [A](a.md) — a\n\n  ",  # under a nested item
        "-      [A](a.md) — a\n\n",  # five spaces after the bullet: the text starts at two
        "1. [A](a.md) — a\n\n ",
        "- [A](a.md) — a\n\nA paragraph\n",  # no blank line: a paragraph line goes on
    ):
        index = parse_index_text(head + "    " + hidden)
        assert "b.md" not in index.targets, (head, index.targets)
    # The list item ended at a line not indented into it, after a blank line: code again.
    ended = parse_index_text("- [A](a.md) — a\n\nProse.\n\n    " + hidden)
    assert ended.targets == ["a.md", "b.md"]
    # A comment open around indented lines keeps them in it.
    assert parse_index_text("<!--\n\n    - [B](b.md) — b\n-->\n").targets == []


def test_every_comment_line_the_client_strips_is_commented() -> None:
    # One reading of the client's blocks has the last word (model.loaded, probed): a comment
    # line it loads none of is never an entry, even where this scanner reads a fence still open.
    for name, (index, _) in PROBED.items():
        if "<!--" not in index:
            continue  # a frontmatter alone: no index line is an entry there either way
        lines = index.replace("\r\n", "\n").split("\n")
        assert hidden_lines(index) <= commented_lines(lines), name
    in_item = "- [A](a.md) — a\n  ```\n<!--\n- [B](b.md) — b\n-->\n  ```\n"
    assert parse_index_text(in_item).targets == ["a.md"]
    assert commented_lines(in_item.split("\n")) == {2, 3, 4}
    # A comment the client loads as written (in an item), closed by a block it strips.
    closed = "- [A](a.md)\n  <!--\n  - [Old](old.md)\n<!-- x -->\n"
    assert parse_index_text(closed).targets == ["a.md"]
    # A fence indented under a paragraph line is its text to the client, which strips the
    # comment block after it: no fence of memsync's reading goes on past that block.
    after = "Text\n    ```\n<!-- x -->\nProse\n   <!--\n- [C](c.md) — c\n-->\n"
    assert parse_index_text(after).targets == []


def test_a_fence_never_closed_at_the_top_runs_to_the_end() -> None:
    # In an item it ends with the item; at the top of the index, with the index (CommonMark,
    # and the client shows the rest as code): a `<!--` in it opens nothing.
    assert parse_index_text("```\n<!--\n- [B](b.md) — b\n-->\n").targets == ["b.md"]
    ended = "- [A](a.md)\n  ```\n  x\n- [B](b.md)\n<!--\n- [Old](old.md)\n-->\n"
    assert parse_index_text(ended).targets == ["a.md", "b.md"]
    # The same in the next item, where the client loads the comment as written: still one.
    in_next = "- [A](a.md)\n  ```\n- [B](b.md)\n  <!--\n  - [Old](old.md)\n  -->\n"
    assert parse_index_text(in_next).targets == ["a.md", "b.md"]
    # A blank line inside the item's fence does not end it.
    blank = "- [A](a.md)\n  ```\n\n  <!--\n  ```\n- [B](b.md) — b\n<!-- -->\n"
    assert parse_index_text(blank).targets == ["a.md", "b.md"]


def test_indented_code_follows_a_fence_or_a_comment_block() -> None:
    hidden = "    <!--\n- [B](b.md) — b\n-->\n"
    for head in ("```\nx\n```\n", "<!-- a note -->\n", "<!--\nnote\n-->\n"):
        assert parse_index_text(head + hidden).targets == ["b.md"], head
    # Right under a paragraph line it goes on with the paragraph: the comment holds. So does a
    # fence indented four columns there (the paragraph's text to the client, no fence).
    assert parse_index_text("Text\n" + hidden).targets == []
    fence = "Text\n    ```\n   <!--\n- [B](b.md) — b\n-->\n"
    assert parse_index_text(fence).targets == []
    item = "- [A](a.md)\n      ```\n   <!--\n- [B](b.md)\n-->\n"  # four past the item's text
    assert parse_index_text(item).targets == ["a.md"]
    # Three past it, the fence is the item's: the `<!--` in it opens nothing.
    assert parse_index_text(item.replace("      ```", "     ```")).targets == ["a.md", "b.md"]
