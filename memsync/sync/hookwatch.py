"""A hook's one answer to Claude Code, given once: by the run, or by the watchdog in its place.

A hook must never block a session, so a watchdog ends the process at the time limit (plus a
margin) whatever is still running. What the session needs most is known early, before any
network wait: the team memory section (read from this machine's folder). The run registers
it as the fallback; if the watchdog fires first, it prints that, with a line saying why the
sync stopped, instead of nothing. Whichever speaks first is the only answer on stdout.
Imports the standard library and `memsync.sync.hookoutput`; the redaction and config
modules are imported when an answer is written.
"""

from __future__ import annotations

import os
import sys
import threading

from memsync.sync.hookoutput import HookOutput

_LOCK = threading.Lock()
_STATE: dict[str, HookOutput | str | bool | threading.Timer] = {"answered": False}


def begin() -> None:
    """A new run: nothing answered yet, no fallback (a process may run several, as tests do)."""
    with _LOCK:
        _disarm()
        _STATE.clear()
        _STATE["answered"] = False


def _disarm() -> None:
    timer = _STATE.get("timer")
    if isinstance(timer, threading.Timer) and timer is not threading.current_thread():
        timer.cancel()


def set_fallback(output: HookOutput, why: str) -> None:
    """What the watchdog prints, with WHY, if it ends the run before the run answers."""
    with _LOCK:
        _STATE["fallback"], _STATE["why"] = output, why


def start_watchdog(seconds: float, what: str) -> threading.Timer:
    """Exit 0 after SECONDS whatever is still running, so a session is never blocked."""

    def give_up() -> None:
        stopped = f"memsync: {what} stopped after {seconds:.0f} s; the next run finishes it"
        stderr_line(stopped)
        fallback = _STATE.get("fallback")
        if isinstance(fallback, HookOutput):
            # Not waiting long for the lock: the run may be stuck writing its own answer.
            emit(fallback.with_person(f"{stopped} ({_STATE.get('why')})"), wait=1.0)
        sys.stderr.flush()
        os._exit(0)

    timer = threading.Timer(seconds, give_up)
    timer.daemon = True
    with _LOCK:
        _STATE["timer"] = timer
    timer.start()
    return timer


def emit(output: HookOutput, wait: float = -1) -> None:
    """Print OUTPUT as the hook's JSON answer, unless an answer was already given; once
    answered, the run has nothing left to guard (a process that goes on, such as a test
    runner calling the hook in-process, is not ended later by the watchdog). WAIT: seconds to
    wait for another answer in progress (-1: as long as it takes)."""
    if not _LOCK.acquire(timeout=wait):
        return
    try:
        if _STATE["answered"]:
            return
        _STATE["answered"] = True
        _disarm()
        text = output.render()
        if text is not None:
            # File names and messages can carry a secret, and this output reaches the model.
            # A redacted span never holds a quote or backslash, so the JSON stays valid.
            sys.stdout.write(_redact(text) + "\n")
            sys.stdout.flush()
    finally:
        _LOCK.release()


def stderr_line(line: str) -> None:
    """LINE on stderr, through the one escaping rule (a terminal or a log may show it)."""
    from memsync.check.printable import printable

    sys.stderr.write(printable(line) + "\n")


def _redact(text: str) -> str:
    """TEXT redacted; a text found clean by the same scanner before is not scanned again."""
    from memsync.check.redaction import redact_remembered
    from memsync.config import data_dir

    return redact_remembered(text, data_dir() / "cache" / "clean-texts.json")
