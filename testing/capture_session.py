"""Capture what the model sees after a pull, from a real Claude Code session (for the README).

`python -m testing.capture_session` sets up two simulated machines sharing file:// remotes,
lets the real client on the first save a private and a team memory (through the stand-in
model), then starts a session on the second and prints, from the request the client sent,
the blocks memsync's SessionStart hook added, and what the hook showed the person.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from testing.claude_client import claude_binary
from testing.claude_sites import Site, hook_json
from testing.messages_api import MessagesStandIn, write
from tests.conftest import make_bare_remote, make_machine


def _site(base: Path, name: str, where: str, remotes: tuple[Path, Path], binary: Path) -> Site:
    machine = make_machine(base, name)
    machine.env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]
    project = machine.checkout_project("git@github.com:acme/api.git", where)
    private, team = remotes
    machine.memsync("init", "--private", private.as_uri(), "--team", team.as_uri(), cwd=project)
    return Site(machine, project, MessagesStandIn().start(), binary)


def _memory(name: str, description: str, type_: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\nmetadata:\n  type: {type_}\n---\n\n{body}\n"


def main() -> None:
    """Run the two sessions and print the captured context."""
    binary = claude_binary()
    with tempfile.TemporaryDirectory(prefix="memsync-capture-") as tmp:
        base = Path(tmp)
        remotes = (
            make_bare_remote(base / "remotes" / "private.git"),
            make_bare_remote(base / "remotes" / "team.git"),
        )
        laptop = _site(base, "alice-laptop", "src/api", remotes, binary)
        desktop = _site(base, "alice-desktop", "work/api", remotes, binary)
        laptop.session(
            [
                write(
                    str(laptop.memory / "package-manager.md"),
                    _memory("package-manager", "This project uses pnpm", "project", "Use pnpm."),
                ),
                write(
                    str(laptop.memory / "MEMORY.md"),
                    "- [Package manager](package-manager.md) — pnpm workspaces, never npm\n",
                ),
                write(
                    str(laptop.team / "testing-policy.md"),
                    _memory(
                        "testing-policy",
                        "Integration tests hit a real database",
                        "feedback",
                        "Never mock the database in integration tests.",
                    ),
                ),
                write(
                    str(laptop.team / "MEMORY.md"),
                    "- [Testing policy](testing-policy.md) — integration tests use a real DB\n",
                ),
            ]
        )
        run, requests = desktop.session()
        system = requests[0].body.get("messages", [])
        for message in system:
            content = message.get("content")
            blocks = content if isinstance(content, list) else [{"text": content}]
            for block in blocks:
                text = str(block.get("text") or "")
                if "MEMORY.md (user's auto-memory" in text or text.startswith("SessionStart hook"):
                    shown = text.split("\n\n# Environment", 1)[0]
                    print(f"--- {message.get('role')} message ---")
                    print(shown.replace(tmp, "/tmp/demo"))
        print("--- hook output (debug log) ---")
        print(json.dumps(hook_json(run), indent=2, ensure_ascii=False).replace(tmp, "/tmp/demo"))
        for site in (laptop, desktop):
            site.api.stop()


if __name__ == "__main__":
    main()
