"""Capture what the model sees after a pull, from a real Claude Code session (for the README).

`python -m testing.capture_session` sets up two simulated machines sharing file:// remotes.
On the laptop the real client (driven by the stand-in model) saves a private memory; the
desktop pulls it. Then the laptop saves a second private memory and a team memory.
A session on the desktop follows: the script prints, from the request the client sent, the
MEMORY.md the client loaded and the block memsync's SessionStart hook added. Last, the laptop
saves a `user` memory under team/ (memsync keeps it out of the team store), and the script
prints the laptop's next session-start hook output, which tells the person.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

from testing.claude_client import claude_binary
from testing.claude_sites import Site, hook_json, memory_text
from testing.gitrepo import make_bare_remote
from testing.machines import make_machine
from testing.messages_api import MessagesStandIn, Recorded, read, write


def _site(base: Path, name: str, where: str, remotes: tuple[Path, Path], binary: Path) -> Site:
    machine = make_machine(base, name)
    machine.env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]
    project = machine.checkout_project("git@github.com:acme/api.git", where)
    private, team = remotes
    machine.memsync("init", "--private", private.as_uri(), "--team", team.as_uri(), cwd=project)
    return Site(machine, project, MessagesStandIn().start(), binary)


def _blocks(request: Recorded) -> list[str]:
    """The memory blocks of a request: the loaded MEMORY.md and the hook's context."""
    found: list[str] = []
    for message in request.body.get("messages", []):
        content = message.get("content")
        for block in content if isinstance(content, list) else [{"text": content}]:
            text = str(block.get("text") or "")
            if "(user's auto-memory" in text or text.startswith("SessionStart hook"):
                text = text.split("\n\n# Env", maxsplit=1)[0]
                found.append(f"[{message.get('role')} message]\n{text}")
    return found


def _story(laptop: Site, desktop: Site) -> None:
    laptop.session(
        [
            write(
                str(laptop.memory / "package-manager.md"),
                memory_text("package-manager", "This project uses pnpm", "project", "Use pnpm."),
            ),
            write(
                str(laptop.memory / "MEMORY.md"),
                "- [Package manager](package-manager.md) — pnpm workspaces, never npm\n",
            ),
        ]
    )
    desktop.machine.memsync("pull", cwd=desktop.project)
    policy = "Never mock the database in integration tests."
    laptop.session(
        [read(str(laptop.memory / "MEMORY.md"))],
        [
            write(
                str(laptop.memory / "ci-runners.md"),
                memory_text("ci-runners", "CI runs on self-hosted runners", "reference", "x"),
            ),
            write(
                str(laptop.memory / "MEMORY.md"),
                "- [Package manager](package-manager.md) — pnpm workspaces, never npm\n"
                "- [CI runners](ci-runners.md) — self-hosted, labels in ci.yml\n",
            ),
            write(
                str(laptop.team / "testing-policy.md"),
                memory_text("testing-policy", "Tests hit a real database", "feedback", policy),
            ),
            write(
                str(laptop.team / "MEMORY.md"),
                "- [Testing policy](testing-policy.md) — integration tests use a real database\n",
            ),
        ],
    )


def main() -> None:
    """Run the sessions and print what the model and the person were shown."""
    binary = claude_binary()
    with tempfile.TemporaryDirectory(prefix="memsync-capture-") as tmp:
        base = Path(tmp).resolve()
        remotes = (
            make_bare_remote(base / "remotes" / "private.git"),
            make_bare_remote(base / "remotes" / "team.git"),
        )
        laptop = _site(base, "laptop", "src/api", remotes, binary)
        desktop = _site(base, "desktop", "work/api", remotes, binary)
        _story(laptop, desktop)
        _, requests = desktop.session()
        shown = _blocks(requests[0])
        # A `user` memory saved under team/: memsync holds the team push back and says so.
        about = memory_text("about-alice", "Alice prefers terse answers", "user", "Be terse.")
        laptop.session([write(str(laptop.team / "about-alice.md"), about)])
        run, _ = laptop.session()
        output = json.dumps(hook_json(run)[0], indent=2, ensure_ascii=False)
        shown.append(f"[laptop: next SessionStart hook output]\n{output}")
        for site in (laptop, desktop):
            site.api.stop()
    sanitized = re.sub(r"[^A-Za-z0-9]", "-", str(base))
    for text in shown:
        print(text.replace(str(base), "/home").replace(sanitized, "-home"), end="\n\n")


if __name__ == "__main__":
    main()
