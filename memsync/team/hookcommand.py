"""Which Claude Code hook commands are memsync's own, and the timeouts its hooks declare.

A command is memsync's when its program is memsync: the `memsync` executable (by name or
path) or `<python> -m memsync`, running `pull` or `push` with `--hook`. A command that only
mentions memsync (`~/bin/notify-memsync push --hook`) is someone else's. What follows the
subcommand (`--review`, `--scope team`, a redirection) is the person's choice and is kept.
"""

from __future__ import annotations

import math
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memsync.configschema import Settings

PULL_ARGS = "pull --hook"
PUSH_ARGS = "push --hook"

# The hook process may outlive its limit by the watchdog's 2 s (sync/hookmode arms it at the
# limit plus 2), and Python's start-up before the watchdog is armed plus writing the answer
# need a few seconds more: a hook declaring less is cancelled before memsync answers.
WATCHDOG_MARGIN = 2
START_AND_ANSWER = 3
# Claude Code 2.1.330 stops SessionEnd hooks at 60 s whatever they declare, unless
# CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS says otherwise.
SESSION_END_CAP = 60


@dataclass(frozen=True)
class HookSpec:
    """One Claude Code hook event memsync registers a command for."""

    event: str
    args: str
    timeout: int
    # SessionStart supports matchers (startup, resume, clear, compact); "" matches all.
    matcher: str | None

    @property
    def subcommand(self) -> str:
        """`pull` or `push`."""
        return self.args.split()[0]


def declared_timeout(limit: float, floor: int) -> int:
    """Seconds a hook declares for a sync time limit of LIMIT, never below FLOOR."""
    return max(floor, math.ceil(limit) + WATCHDOG_MARGIN + START_AND_ANSWER)


def hook_specs(settings: Settings | None = None) -> tuple[HookSpec, ...]:
    """memsync's hooks, declaring timeouts that fit SETTINGS' pull and push limits."""
    settings = settings or Settings()
    # Floors of 15 s and 30 s: what the defaults (10 s, 20 s) always declared, so an install
    # with the default settings changes nothing in a settings file written before.
    return (
        HookSpec("SessionStart", PULL_ARGS, declared_timeout(settings.pull_timeout, 15), ""),
        HookSpec("SessionEnd", PUSH_ARGS, declared_timeout(settings.push_timeout, 30), None),
    )


def configured_hook_specs() -> tuple[HookSpec, ...]:
    """memsync's hooks for the limits in the config file (the defaults when there is none)."""
    from memsync.config import load_config

    return hook_specs(load_config().settings)


def timeout_fits(entry: dict[str, Any], spec: HookSpec) -> bool:
    """True when ENTRY declares at least the timeout SPEC needs."""
    value = entry.get("timeout")
    # bool is an int to Python, not a number of seconds to Claude Code.
    return isinstance(value, int | float) and not isinstance(value, bool) and value >= spec.timeout


def cap_warnings(specs: tuple[HookSpec, ...]) -> tuple[str, ...]:
    """A warning when push_timeout needs a SessionEnd hook longer than Claude Code allows."""
    return tuple(
        f"push_timeout needs a SessionEnd hook of {spec.timeout} s, but Claude Code stops "
        f"SessionEnd hooks at {SESSION_END_CAP} s unless CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS "
        f"allows more; set push_timeout to at most "
        f"{SESSION_END_CAP - WATCHDOG_MARGIN - START_AND_ANSWER} or raise that variable"
        for spec in specs
        if spec.event == "SessionEnd" and spec.timeout > SESSION_END_CAP
    )


def memsync_command_prefix() -> str:
    """The shell words that start memsync from a hook, independent of the hook's PATH."""
    found = shutil.which("memsync")
    if found:
        return memsync_command_prefix_for(Path(found))
    return f"{shlex.quote(sys.executable)} -m memsync"


def memsync_command_prefix_for(executable: Path) -> str:
    """The shell-quoted absolute path of a memsync executable."""
    # Absolute but not symlink-resolved: pipx and uv put a stable shim in ~/.local/bin
    # that survives upgrades, while the venv path behind it may not.
    return shlex.quote(str(executable.absolute()))


def hook_command(spec: HookSpec, command_prefix: str) -> str:
    """The full command line of one hook."""
    return f"{command_prefix} {spec.args}"


# --- recognising memsync's commands ------------------------------------------------------

# One shell word: unquoted characters, '…', "…" and backslash escapes, up to a space or an
# operator (; & | < > ( )), where the simple command the program starts ends.
_WORD = re.compile(r"""(?:[^\s'"\\;&|<>()]+|'[^']*'|"(?:[^"\\]|\\.)*"|\\.)+""", re.S)
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_MEMSYNC = re.compile(r"memsync(?:\.exe)?", re.I)
_PYTHON = re.compile(r"(?:python|pypy|py)[0-9.]*[tw]?(?:\.exe)?", re.I)


@dataclass(frozen=True)
class OwnCommand:
    """A hook command whose program is memsync, split around the program."""

    subcommand: str
    # Variable assignments before the program, and everything from the subcommand on, as
    # the person wrote them: only the program itself is memsync's to rewrite.
    lead: str
    rest: str

    def with_prefix(self, prefix: str) -> str:
        """The same command with the program replaced by PREFIX."""
        return f"{self.lead}{prefix} {self.rest}"


def _past_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _words(command: str, pos: int = 0) -> tuple[list[tuple[str, int]], int]:
    """(unquoted word, start offset) of the simple command at POS, and where it ends."""
    words: list[tuple[str, int]] = []
    pos = _past_space(command, pos)
    while (word := _WORD.match(command, pos)) is not None and not word.group().startswith("#"):
        try:
            value = shlex.split(word.group())
        except ValueError:
            break
        words.append((value[0] if value else "", word.start()))
        pos = _past_space(command, word.end())
    return words, pos


# Between simple commands: `cd /x && memsync push --hook`, `…; memsync pull --hook`.
_SEPARATOR = re.compile(r"&&|\|\||;")


def own_command(command: str) -> OwnCommand | None:
    """COMMAND split around its program when that is memsync running pull/push --hook, as
    its first simple command or one after `&&`, `||` or `;` (`cd /x && memsync …`)."""
    pos = 0
    while pos <= len(command):
        words, end = _words(command, pos)
        own = _own_in(command, words)
        if own is not None:
            return own
        separator = _SEPARATOR.match(command, end)
        if separator is None:
            return None
        pos = separator.end()
    return None


def _own_in(command: str, words: list[tuple[str, int]]) -> OwnCommand | None:
    """The OwnCommand of one simple command's WORDS, or None when memsync is not its program."""
    first = 0
    while first < len(words) and _ASSIGNMENT.match(command, words[first][1]):
        first += 1
    if first == len(words):
        return None
    program = words[first][0]
    name = re.split(r"[/\\]", program)[-1]
    values = [value for value, _ in words]
    if _MEMSYNC.fullmatch(name):
        sub = first + 1
    elif (_PYTHON.fullmatch(name) or program == sys.executable) and values[
        first + 1 : first + 3
    ] == ["-m", "memsync"]:
        sub = first + 3
    else:
        return None
    if sub >= len(words) or values[sub] not in ("pull", "push") or "--hook" not in values[sub:]:
        return None
    return OwnCommand(values[sub], command[: words[first][1]], command[words[sub][1] :])
