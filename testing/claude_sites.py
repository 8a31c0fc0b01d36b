"""A simulated machine running the real Claude Code with memsync's hooks on one project.

A `Site` is one machine's checkout of the project (each machine at a different path),
configured with `memsync init` (which installs the hooks the client runs), plus the
Messages API stand-in that machine's sessions talk to.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from testing.claude_client import ClaudeRun, client_env, run_claude
from testing.machines import Machine
from testing.messages_api import MessagesStandIn, Recorded, ToolCall

SOURCE_ROOT = Path(__file__).resolve().parent.parent


def memory_dir_of(claude_dir: Path, project_root: Path) -> Path:
    """The client's memory directory for PROJECT_ROOT (SPEC §1), computed independently."""
    # The client counts UTF-16 code units: a character outside the BMP (an emoji) is two
    # dashes (seen with 2.1.330: `my projé 🚀/api` is `my-proj-----api`).
    key = re.sub(
        r"[^A-Za-z0-9]",
        lambda m: "-" * (2 if ord(m.group()) > 0xFFFF else 1),
        str(project_root.resolve()),
    )
    return claude_dir / "projects" / key / "memory"


@dataclass
class Site:
    """One machine with the project checked out, memsync configured and a stand-in API."""

    machine: Machine
    project: Path
    api: MessagesStandIn
    binary: Path

    @property
    def memory(self) -> Path:
        """The live private memory directory the client uses for this checkout."""
        return memory_dir_of(Path(self.machine.env["CLAUDE_CONFIG_DIR"]), self.project)

    @property
    def team(self) -> Path:
        """The live team memory folder."""
        return self.memory / "team"

    def env(self) -> dict[str, str]:
        """The client's environment: this machine, the stand-in, and this tree's memsync."""
        env = client_env(self.machine.env, self.api.url)
        # The hooks `memsync init` installed must run this checkout's memsync.
        bindir = os.path.dirname(sys.executable)
        env["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")
        existing = os.environ.get("PYTHONPATH")
        env["PYTHONPATH"] = str(SOURCE_ROOT) + (os.pathsep + existing if existing else "")
        return env

    def session(
        self,
        *turns: Sequence[ToolCall],
        prompt: str = "Note what we agreed.",
        args: Sequence[str] = (),
    ) -> tuple[ClaudeRun, list[Recorded]]:
        """One `claude -p` session whose model makes TURNS of tool calls; the requests sent.
        ARGS go to the client first (`--continue` resumes the last session)."""
        self.api.play(*turns)
        debug = self.machine.home / "claude-debug.txt"
        run = run_claude(self.binary, self.project, self.env(), prompt, debug, args=args)
        if run.returncode != 0:
            raise AssertionError(
                f"[{self.machine.name}] claude exited {run.returncode}\n"
                f"stdout:\n{run.stdout}\nstderr:\n{run.stderr}\ndebug:\n{run.debug_log[-4000:]}"
            )
        return run, self.api.main_requests()


def memory_text(name: str, description: str, type_: str, body: str) -> str:
    """A memory as the client's prompt tells the model to write one (type nested)."""
    return (
        f"---\nname: {name}\ndescription: {description}\nmetadata:\n  type: {type_}\n---\n\n"
        f"{body}\n"
    )


def save_private_memory(site: Site, name: str, description: str, body: str, line: str) -> None:
    """A session on SITE in which the model saves one private memory NAME and its index LINE."""
    from testing.messages_api import write

    site.session(
        [
            write(str(site.memory / f"{name}.md"), memory_text(name, description, "project", body)),
            write(str(site.memory / "MEMORY.md"), line + "\n"),
        ]
    )


def first_context(requests: Sequence[Recorded]) -> str:
    """Everything the model was given in the session's first main-loop request."""
    if not requests:
        raise AssertionError("the client sent no main-loop request to the stand-in")
    return requests[0].text()


def hook_json(run: ClaudeRun, event: str = "SessionStart") -> list[Mapping[str, Any]]:
    """The JSON objects EVENT's hooks printed, as the client's debug log recorded them."""
    import json

    found: list[Mapping[str, Any]] = []
    parsed: Mapping[str, Any] | None = None
    for line in run.debug_log.splitlines():
        _, marker, rest = line.partition("Hooks: Parsed initial response: ")
        if marker:
            parsed = json.loads(rest)
        elif parsed is not None and ("SessionStart:" in line or "SessionEnd:" in line):
            # The line after the output names the hook that printed it: `SessionStart:startup`.
            if f"{event}:" in line:
                found.append(parsed)
            parsed = None
    return found
