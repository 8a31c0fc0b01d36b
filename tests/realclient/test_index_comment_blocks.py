"""Which MEMORY.md lines are entries, read where the client's Markdown blocks and memsync's
might part: a comment mark in code after a fence or a comment block, a comment that ends a
list item holding a fence, a fence never closed. The real client decides."""

from __future__ import annotations

import pytest

from memsync.model.index import commented_lines, parse_index_text, visible_part
from memsync.model.loaded import hidden_lines
from testing.claude_sites import first_context

pytestmark = pytest.mark.realclient

INDEX = (
    "# Memory\n\n"
    "Text\n```\nx\n```\n"
    "    <!-- code right after a fence\n"
    "- [C](c.md) — c\n"
    "-->\n\n"
    "<!-- a note -->\n"
    "    <!-- code right after a comment block\n"
    "- [D](d.md) — d\n"
    "-->\n\n"
    "- [A](a.md) — a\n"
    "  ```\n"
    "<!--\n"
    "- [B](b.md) — b, in a comment that ends the item and its fence\n"
    "-->\n"
    "  ```\n"
    "<!--\n"
    "- [E](e.md) — e, in a fence never closed\n"
    "-->\n"
    "END\n"
)


def test_memsync_reads_entries_where_the_client_shows_them(site) -> None:
    a = site("alice-laptop")
    (a.memory / "MEMORY.md").write_text(INDEX, encoding="utf-8")
    _, requests = a.session()
    context = first_context(requests)
    assert visible_part(INDEX) in context, context
    assert "- [B](b.md)" not in context
    for shown in ("    <!-- code right after a fence\n- [C](c.md) — c", "- [E](e.md) — e"):
        assert shown in context
    lines = INDEX.split("\n")
    assert hidden_lines(INDEX) <= commented_lines(lines)
    # B is hidden by the client; C, D and E follow code it shows as written, not a comment.
    assert parse_index_text(INDEX).targets == ["c.md", "d.md", "a.md", "e.md"]
