"""Start-up of everyday commands, paired against a bare interpreter.

    python benchmarks/bench_startup.py [--pairs 21] [--memories 200]

Every command runs as a fresh process, as a Claude Code hook, a pre-commit hook or a CI
step pays for it. Each is timed alternately with `python -c pass` (the same interpreter and
environment), and the table gives the median of the per-pair ratios with their spread, so
the figure compares across machines and survives a noisy neighbour.

- `memsync status` in a project set up with a private and a team store (a simulated
  machine: own HOME, CLAUDE_CONFIG_DIR, MEMSYNC_HOME), MEMORIES memories in sync;
- `memsync check DIR` on MEMORIES generated memories (benchmarks/corpus.py) and their index;
- `memsync --version`, the floor of the command line itself.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import generate  # noqa: E402
from benchmarks.harness.machines import Machine, memory_text  # noqa: E402
from benchmarks.harness.world import make_world  # noqa: E402
from benchmarks.paired import HEADER, Paired, command, load, paired  # noqa: E402


def synced_project(base: Path, memories: int) -> tuple[Machine, Path]:
    """A machine whose project has MEMORIES memories, pushed and in sync."""
    world = make_world(base, ("bench",), url_of=lambda p: f"file://{p}")
    seat = world.seats[0]
    seat.live.mkdir(parents=True, exist_ok=True)
    for i in range(memories):
        text = memory_text(f"memory {i}", f"Memory number {i} says something useful.\n" * 4)
        (seat.live / f"memory-{i:04d}.md").write_text(text, encoding="utf-8")
    result = seat.machine.run("sync", cwd=seat.project)
    if result.returncode != 0:
        raise RuntimeError(f"seeding failed: {result.stderr}")
    return seat.machine, seat.project


def measure(base: Path, pairs: int, memories: int) -> list[Paired]:
    """The paired ratios of status, check and --version against `python -c pass`."""
    machine, project = synced_project(base / "world", memories)
    folder = base / "check"
    generate(folder, memories, seed=3)
    env = machine.env
    bare = command([sys.executable, "-c", "pass"], env=env)
    rows = []
    for name, argv, ok, goal in (
        ("`memsync status`", ["status"], (0,), 6.0),
        (f"`memsync check` ({memories} memories)", ["check", str(folder)], (0, 1), 6.0),
        ("`memsync --version`", ["--version"], (0,), None),
    ):
        ours = command(machine.command(*argv), cwd=project, env=env, ok=ok)
        rows.append(
            paired(name, ours, bare, pairs=pairs, labels=("memsync", "`python -c pass`"), goal=goal)
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the Markdown rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=21)
    parser.add_argument("--memories", type=int, default=200)
    args = parser.parse_args(argv)
    print(f"load before: {load()}")
    with tempfile.TemporaryDirectory(prefix="memsync-startup-") as tmp:
        rows = measure(Path(tmp), args.pairs, args.memories)
    print(f"load after: {load()}\n")
    print(HEADER)
    for row in rows:
        print(row.row())
    return 0 if all(r.ok is not False for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
