"""The facts of CLAUDE-CODE.md memsync is built on, asserted against the real client alone.

No memsync here: a bare machine, the client, its own settings and the stand-in. Run with
`MEMSYNC_CLAUDE_CODE_VERSION=<version>` to learn whether a newer release still holds them
(docs/COMPATIBILITY.md); a failure names the fact that moved."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from memsync.model.index import visible_part
from memsync.model.limits import MAX_INDEX_CHARS, MAX_INDEX_LINES
from memsync.model.paths import MAX_SANITIZED_LENGTH, memory_dir_for, project_root
from memsync.model.textcodec import js_length
from memsync.sync.hookoutput import CONTEXT_LIMIT
from testing.claude_sites import Site, first_context
from testing.loaded_probes import PROBED
from testing.machines import make_machine
from testing.messages_api import MessagesStandIn, edit, read, write

pytestmark = pytest.mark.realclient

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def _session_start(site: Site, command: str) -> None:
    """Give the person's settings.json one SessionStart hook running COMMAND."""
    claude_dir = site.machine.claude_dir
    claude_dir.mkdir(parents=True, exist_ok=True)
    hooks = {"SessionStart": [{"hooks": [{"type": "command", "command": command}]}]}
    (claude_dir / "settings.json").write_text(json.dumps({"hooks": hooks}), encoding="utf-8")


@pytest.fixture
def bare(tmp_path: Path, claude_bin: Path) -> Iterator[Site]:
    """A machine without memsync whose project sits at a path with an accent and an emoji."""
    machine = make_machine(tmp_path / "machines", "solo")
    project = machine.checkout_project("git@github.com:acme/api.git", "w1/my projé 🚀/api")
    api = MessagesStandIn().start()
    yield Site(machine, project, api, claude_bin)
    api.stop()


def test_memory_md_is_read_before_session_start_hooks_and_the_team_index_is_not(bare) -> None:
    memory = bare.memory
    (memory / "team").mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [a](a.md) — BEFORE_THE_HOOK\n", encoding="utf-8")
    (memory / "team" / "MEMORY.md").write_text("- [t](t.md) — TEAM_INDEX\n", encoding="utf-8")
    rewrite = f"printf -- '- [b](b.md) — WRITTEN_BY_THE_HOOK\\n' > '{memory}/MEMORY.md'"
    _session_start(bare, f"{rewrite}; echo PLAIN_STDOUT")
    _, requests = bare.session()
    context = first_context(requests)
    assert "BEFORE_THE_HOOK" in context and "WRITTEN_BY_THE_HOOK" not in context
    assert "TEAM_INDEX" not in context and f"{memory}/team" not in context
    assert "SessionStart:startup hook success: PLAIN_STDOUT" in context
    assert f"memory at `{memory}/`" in context  # the folder the model is told to write to
    _, requests = bare.session()
    assert "WRITTEN_BY_THE_HOOK" in first_context(requests)


def test_memsync_names_the_memory_folder_the_client_uses(bare, tmp_path: Path) -> None:
    with bare.machine.active():
        assert memory_dir_for(project_root(bare.project)) == bare.memory  # accent and emoji
    deep = bare.machine.checkout_project("git@github.com:acme/api.git", "deep/" + "x" * 200)
    assert len(str(deep)) > MAX_SANITIZED_LENGTH  # the client hashes such a name
    bare.project = deep
    context = first_context(bare.session()[1])
    with bare.machine.active():
        assert f"memory at `{memory_dir_for(project_root(deep))}/`" in context


def _context_of_hook_json(bare: Site, additional: str, system_message: str) -> str:
    payload = bare.machine.home / "payload.json"
    output = {"hookEventName": "SessionStart", "additionalContext": additional}
    data = {"hookSpecificOutput": output, "systemMessage": system_message}
    payload.write_text(json.dumps(data), encoding="utf-8")
    _session_start(bare, f"cat '{payload}'")
    return first_context(bare.session()[1])


def test_hook_context_is_shown_whole_up_to_the_limit_in_utf16_units(bare) -> None:
    assert CONTEXT_LIMIT == 10_000
    fits = "😀" * (CONTEXT_LIMIT // 2)
    context = _context_of_hook_json(bare, fits, "TO_THE_PERSON")
    assert f"SessionStart hook additional context: {fits}" in context
    assert "TO_THE_PERSON" not in context
    over = fits + "x"
    context = _context_of_hook_json(bare, over, "TO_THE_PERSON")
    assert over not in context
    assert "SessionStart hook additional context: <persisted-output>" in context


def test_memory_md_is_cut_where_memsync_measures_it(bare) -> None:
    memory = bare.memory
    memory.mkdir(parents=True)
    # Comments and frontmatter out, then 200 lines; then 25,000 UTF-16 units at a line break.
    head = "---\nname: index\n---\n<!-- a note\nover two lines -->\n"
    by_lines = head + "".join(f"- line {i:03d}\n" for i in range(MAX_INDEX_LINES + 1))
    (memory / "MEMORY.md").write_text(by_lines, encoding="utf-8")
    context = first_context(bare.session()[1])
    assert visible_part(by_lines) in context and "line 199" in context
    assert "- line 200\n" not in context and "a note" not in context
    by_units = "".join(f"L{i:03d} {'😀' * 150}\n" for i in range(MAX_INDEX_LINES - 50))
    assert js_length(by_units) > MAX_INDEX_CHARS > len(by_units)
    (memory / "MEMORY.md").write_text(by_units, encoding="utf-8")
    context = first_context(bare.session()[1])
    kept = visible_part(by_units)
    assert kept in context and kept.endswith("😀")
    assert by_units[: len(kept) + 6] not in context


def test_the_client_stamps_frontmatter_as_memsync_expects(bare) -> None:
    memory = bare.memory
    (memory / "team").mkdir(parents=True)
    legacy = str(memory / "legacy.md")
    team = str(memory / "team" / "shared.md")
    flat = str(memory / "team" / "flat.md")
    old = (
        "---\nname: Legacy Name\ndescription: Deploys via CI, never by hand\n"
        "type: project # the kind\nowner: alice\nempty:\nwhen: 2026-03-05\nflag: yes\n---\n\n"
        "Body.\n"
    )
    shared = "---\nname: shared\ndescription: team fact\nmetadata:\n  type: project\n---\n\nT.\n"
    flat_text = "---\nname: flat\ndescription: flat fact\ntype: reference\n---\n\nF.\n"
    bare.session([write(legacy, old), write(team, shared), write(flat, flat_text)])
    first = Path(legacy).read_text(encoding="utf-8")
    assert re.fullmatch(
        '---\nname: legacy-name\ndescription: "Deploys via CI, never by hand"\nmetadata:\n'
        '  node_type: memory\n  type: "project # the kind"\n  owner: alice\n'
        f'  when: 2026-03-05\n  flag: "yes"\n  originSessionId: {UUID}\n  modified: {STAMP}\n'
        "---\n\nBody.\n",
        first,
    ), first
    assert re.fullmatch(
        f"---\nname: shared\ndescription: team fact\nmetadata:\n  type: project\n"
        f"  modified: {STAMP}\n---\n\nT.\n",
        Path(team).read_text(encoding="utf-8"),
    )
    assert re.fullmatch(
        f"---\nname: flat\ndescription: flat fact\ntype: reference\nmodified: {STAMP}\n---\n\nF.\n",
        Path(flat).read_text(encoding="utf-8"),
    )
    bare.session([read(legacy)], [edit(legacy, "Body.", "Body, edited.")])
    second = Path(legacy).read_text(encoding="utf-8")
    unstamped = re.sub(f"modified: {STAMP}", "modified: T", second)
    assert unstamped == re.sub(f"modified: {STAMP}", "modified: T", first).replace(
        "Body.", "Body, edited."
    )
    assert second != first.replace("Body.", "Body, edited.")  # the stamp moved


@pytest.mark.parametrize("name", sorted(PROBED))
def test_the_probe_table_is_what_the_client_loads(bare, name: str) -> None:
    index, loaded = PROBED[name]
    bare.memory.mkdir(parents=True)
    (bare.memory / "MEMORY.md").write_text(index, encoding="utf-8", newline="")
    context = first_context(bare.session()[1])
    assert loaded in context, context[-2000:]
    # Nothing else of the file either: from START to END the client shows what the table says.
    start = context.index("START")
    assert context[start : context.index("END", start) + 3] == loaded[loaded.index("START") :]


def test_the_default_memory_folder_is_nfc_normalised(bare, tmp_path: Path) -> None:
    decomposed = tmp_path / "cafe\u0301" / "claude"
    decomposed.mkdir(parents=True)
    bare.machine.env["CLAUDE_CONFIG_DIR"] = str(decomposed)
    context = first_context(bare.session()[1])
    with bare.machine.active():
        folder = memory_dir_for(project_root(bare.project))
    assert "caf\u00e9/claude/projects/" in str(folder)
    assert f"memory at `{folder}/`" in context
