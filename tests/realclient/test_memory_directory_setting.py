"""Claude Code's `autoMemoryDirectory` setting moves the memory folder, and memsync follows:
the real client, its hooks running memsync, machines sharing remotes (docs/COMPATIBILITY.md)."""

from __future__ import annotations

import json

import pytest

from testing.claude_sites import Site, first_context, save_private_memory

pytestmark = pytest.mark.realclient

ADDED = "SessionStart hook additional context:"


def _set_memory_directory(site: Site, value: str) -> None:
    """Add `autoMemoryDirectory` to the person's settings.json (where init put the hooks)."""
    settings = site.machine.claude_dir / "settings.json"
    data = json.loads(settings.read_text(encoding="utf-8")) if settings.is_file() else {}
    data["autoMemoryDirectory"] = value
    settings.write_text(json.dumps(data), encoding="utf-8")


def test_a_pull_lands_in_the_folder_autoMemoryDirectory_names(site) -> None:
    a, b = site("alice-laptop"), site("alice-desktop")
    _set_memory_directory(b, "~/notes/claude-memory")
    custom = b.machine.home / "notes" / "claude-memory"
    line = "- [Package manager](package-manager.md) — pnpm workspaces, never npm"
    save_private_memory(a, "package-manager", "This project uses pnpm", "Use pnpm.", line)
    _, requests = b.session()  # its SessionStart hook pulls
    context = first_context(requests)
    assert f"memory at `{custom}/`" in context  # where the client tells the model to save
    assert (custom / "package-manager.md").read_text(encoding="utf-8").startswith("---\nname:")
    assert not (b.memory / "package-manager.md").exists()  # the folder the client left
    _, requests = b.session()
    context = first_context(requests)
    # The client itself loaded the pulled index from the folder the setting names.
    before_hooks = context.split(ADDED)[0]
    assert line in before_hooks, context[-3000:]
