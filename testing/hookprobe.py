"""Running `memsync pull --hook` as Claude Code does, and telling which path answered."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from memsync.config import load_config
from memsync.sync.binding import Binding, resolve_bindings
from testing.machines import SOURCE_ROOT, Machine

# Runs the hook's entry point and says on stderr whether the sync engine was imported.
PROBE = (
    "import sys\n"
    "before = set(sys.modules)  # what the interpreter's start-up loaded (coverage, in CI)\n"
    "from memsync.__main__ import main\n"
    "try:\n    main(['pull', '--hook'])\n"
    "except SystemExit:\n    pass\n"
    "sys.stderr.write('\\nENGINE' if 'memsync.sync.engine' in sys.modules else '\\nQUICK')\n"
)


def run_pull_hook(machine: Machine, project: Path) -> tuple[dict[str, object], str, str]:
    """(the hook's JSON, its stderr, ENGINE or QUICK) for one `pull --hook` run."""
    proc = _probe(machine, project, PROBE)
    stderr, _, path = proc.stderr.rpartition("\n")
    return (json.loads(proc.stdout) if proc.stdout.strip() else {}), stderr, path


def modules_loaded(machine: Machine, project: Path, names: list[str]) -> list[str]:
    """Which of the modules NAMES one `pull --hook` run loaded for real (not deferred); one
    the interpreter had loaded before memsync started does not count."""
    probe = PROBE.replace(
        "sys.stderr.write(",
        f"sys.stderr.write(' '.join(n for n in {names!r} if n in sys.modules and "
        "n not in before and type(sys.modules[n]).__name__ != '_Deferred'))\nsys.stderr.write(",
        1,
    )
    proc = _probe(machine, project, probe)
    return proc.stderr.rpartition("\n")[0].rpartition("\n")[2].split()


def _probe(machine: Machine, project: Path, probe: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=project,
        env={**os.environ, **machine.env, "PYTHONPATH": SOURCE_ROOT},
        input="{}",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc


def bindings_of(machine: Machine, project: Path) -> list[Binding]:
    with machine.active():
        _, bindings = resolve_bindings(load_config(), project, ("private", "team"))
    return bindings
