"""What Claude Code loads of MEMORY.md: frontmatter and HTML comment blocks stripped.

Every expected text below is what the real Claude Code 2.1.330 put in the model's context
for that MEMORY.md (probed against a loopback Messages API stand-in; docs/CONSOLIDATION.md,
"What Claude Code loads")."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.check.rules import check_index
from memsync.consolidate.engine import apply_plan, make_plan
from memsync.model.index import measure_index, visible_part
from memsync.model.loaded import loaded_text, loaded_view
from testing.loaded_probes import PROBED
from testing.memories import write_memory


@pytest.mark.parametrize("name", sorted(PROBED))
def test_loaded_text_is_what_the_real_client_loads(name: str) -> None:
    index, loaded = PROBED[name]
    assert visible_part(index) == loaded


def test_comment_lines_do_not_count_against_the_limits() -> None:
    comment = "<!--\n" + "".join(f"maintainer note {i}\n" for i in range(40)) + "-->\n"
    entries = "".join(f"- [p{i}](p{i}.md) — project note {i}\n" for i in range(180))
    size = measure_index(comment + entries)
    assert (size.lines, size.chars, size.fits) == (180, len(entries) - 1, True)
    # A comment that is not a block of its own is loaded, and counted.
    assert measure_index(entries + "- [q](q.md) — q <!-- not a block -->\n").lines == 181


def test_loaded_view_names_the_file_line_of_each_loaded_character() -> None:
    text = "---\na: b\n---\n<!--\nnote\n-->\nfirst\n<!-- x -->\nsecond\n"
    view = loaded_view(text)
    assert view.text == "first\nsecond\n"
    assert view.source_line(0) == 7 and view.source_line(view.text.index("second")) == 9
    assert loaded_text("plain\n") == "plain\n"


def _folder_with_comment(tmp_path: Path) -> Path:
    folder = tmp_path / "memory"
    comment = "<!--\n" + "".join(f"maintainer note {i}\n" for i in range(40)) + "-->\n"
    lines = []
    for i in range(180):
        write_memory(folder, f"p{i:03d}.md", f"p{i:03d}", f"Project fact {i}.\n")
        lines.append(f"- [p{i:03d}](p{i:03d}.md) — p{i:03d}\n")
    (folder / "MEMORY.md").write_text(comment + "".join(lines), encoding="utf-8")
    return folder


def test_check_and_consolidate_measure_what_is_loaded(tmp_path: Path) -> None:
    folder = _folder_with_comment(tmp_path)
    found = check_index("MEMORY.md", (folder / "MEMORY.md").read_bytes())
    assert "index-too-many-lines" not in {f.rule for f in found}
    [near] = [f for f in found if f.rule == "index-near-limit"]
    assert (near.line, near.message.split(",")[0]) == (42 + 160, "index has 180 lines")
    plan = make_plan(folder)
    assert plan.folders[0].archives == () and not plan.changed
    apply_plan(plan)
    assert not (folder / "archive").exists()


def test_check_names_the_file_line_where_the_cut_falls(tmp_path: Path) -> None:
    folder = _folder_with_comment(tmp_path)
    index = folder / "MEMORY.md"
    extra = "".join(f"- [q{i}](q{i}.md) — q\n" for i in range(30))
    index.write_text(index.read_text(encoding="utf-8") + extra, encoding="utf-8")
    [over] = [
        f for f in check_index("MEMORY.md", index.read_bytes()) if f.rule == "index-too-many-lines"
    ]
    # 42 comment lines, then the 201st loaded line.
    assert (over.line, over.message.split(":")[0]) == (42 + 201, "index has 210 lines")


def test_the_hook_tells_the_model_the_index_it_would_load(tmp_path: Path) -> None:
    from memsync.sync.hookmode import team_section

    (tmp_path / "MEMORY.md").write_text(
        "---\nname: team\n---\n<!-- maintainers: keep this short -->\n- [A](a.md) — a\n",
        encoding="utf-8",
    )
    assert team_section(tmp_path).lines == ("- [A](a.md) — a",)
