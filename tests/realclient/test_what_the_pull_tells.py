"""What the SessionStart hook tells the model of a pull, checked against what the real client
loaded before the hook ran (CLAUDE-CODE.md section 2): nothing stale, nothing missing."""

from __future__ import annotations

import pytest

from testing.claude_sites import first_context, memory_text

pytestmark = pytest.mark.realclient

OUT_OF_DATE = "so the copy loaded above is out of date: Read "


def test_a_retitle_alone_is_told_and_a_body_edit_alone_does_not_call_the_index_stale(
    site,
) -> None:
    a, b = site("alice-laptop"), site("alice-desktop")
    a.memory.mkdir(parents=True, exist_ok=True)
    (a.memory / "one.md").write_text(memory_text("one", "first", "project", "1"), "utf-8")
    (a.memory / "MEMORY.md").write_text("- [One](one.md) — first\n", encoding="utf-8")
    a.machine.memsync("push", cwd=a.project)
    b.machine.memsync("pull", cwd=b.project)
    # Another machine retitles the line; no memory changes.
    retitled = "- [One](one.md) — first, and pnpm only"
    (a.memory / "MEMORY.md").write_text(retitled + "\n", encoding="utf-8")
    a.machine.memsync("push", cwd=a.project)
    _, requests = b.session()
    context = first_context(requests)
    loaded, hook = context.split("SessionStart hook additional context:", 1)
    assert "- [One](one.md) — first\n" in loaded and retitled not in loaded
    # The client showed the old line: the hook gives the new one and says the copy is stale.
    assert f"{OUT_OF_DATE}{b.memory / 'MEMORY.md'} before you change it" in hook
    assert retitled in hook
    # Now only the memory's body changes: the index this session loaded is current.
    (a.memory / "one.md").write_text(memory_text("one", "first", "project", "1 and 2"), "utf-8")
    a.machine.memsync("push", cwd=a.project)
    _, requests = b.session()
    context = first_context(requests)
    loaded, hook = context.split("SessionStart hook additional context:", 1)
    assert retitled in loaded
    assert OUT_OF_DATE not in hook
    assert "(the index itself is unchanged)" in hook
    assert f"{retitled}\n" in hook
