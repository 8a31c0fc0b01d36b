"""What the SessionStart hook tells the model of a pull, checked against what the real client
loaded before the hook ran (CLAUDE-CODE.md section 2): nothing stale, nothing missing."""

from __future__ import annotations

import pytest

from testing.claude_sites import first_context, hook_json, memory_text
from testing.gitrepo import git
from testing.messages_api import write

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


def test_a_team_memory_arriving_with_a_long_team_index_keeps_its_line_in_what_fits(
    site,
) -> None:
    a, b = site("alice-laptop"), site("bob-laptop")
    a.team.mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(100):
        name = f"convention-{i:03d}"
        (a.team / f"{name}.md").write_text(
            memory_text(name, f"Convention {i}", "project", f"Rule {i}."), encoding="utf-8"
        )
        lines.append(f"- [Convention {i:03d}]({name}.md) — " + "what everyone does, " * 5 + "x")
    (a.team / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    a.machine.memsync("push", cwd=a.project)
    b.machine.memsync("pull", cwd=b.project)
    # A teammate adds one memory; its line is the last of an index too long for the hook.
    newest = "- [Newest](newest.md) — the convention everyone must hear of"
    (a.team / "newest.md").write_text(
        memory_text("newest", "Newest", "project", "New rule."), encoding="utf-8"
    )
    (a.team / "MEMORY.md").write_text("\n".join([*lines, newest]) + "\n", encoding="utf-8")
    a.machine.memsync("push", cwd=a.project)
    _, requests = b.session()
    context = first_context(requests)
    assert "persisted-output" not in context
    assert 'New or changed by this pull: "newest.md"' in context
    assert newest in context
    hidden = [line for line in lines if line not in context]
    assert hidden and lines[0] in context
    assert f"({len(hidden)} more lines not shown: Read {b.team / 'MEMORY.md'})" in context


def test_a_secret_the_model_saved_in_team_memory_stays_here_and_both_are_told(
    site, remotes
) -> None:
    _, team_remote = remotes
    a = site("alice-laptop")
    # Not one of the client's own 52 rules (it refuses those writes): memsync's generic one.
    body = 'Staging DB: password = "hX9kq2Lm7Vr4Tz8Wc1Np5Bs3"\nConnect with psql.'
    line = "- [Staging DB](staging-db.md) — psql to staging"
    a.session(
        [
            write(
                str(a.team / "staging-db.md"),
                memory_text("staging-db", "How to reach staging", "reference", body),
            ),
            write(str(a.team / "MEMORY.md"), line + "\n"),
        ]
    )
    pushed = git("ls-tree", "-r", "--name-only", "main", cwd=team_remote).split()
    assert "acme-api/staging-db.md" not in pushed
    index = git("show", "main:acme-api/MEMORY.md", cwd=team_remote)
    assert "staging-db" not in index and "hX9kq2" not in index
    run, requests = a.session()
    # The person hears of it at the next start (nobody sees a SessionEnd hook's output).
    [output] = hook_json(run)
    message = output["systemMessage"]
    assert "memsync: team: not synced: staging-db.md:9: error: possible secret" in message
    assert "Remove the credential" in message
    # The model sees the memory in the team index: it is told the team does not have it.
    context = first_context(requests)
    assert line in context
    assert "Not shared: memsync holds these back on this machine until they are fixed" in context
    assert '"staging-db.md" (secret)' in context
    assert "hX9kq2" not in output["hookSpecificOutput"]["additionalContext"]
