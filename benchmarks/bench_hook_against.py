"""Session start against an earlier commit: `memsync pull --hook` with nothing new, paired.

    python benchmarks/bench_hook_against.py REV [--pairs 31]

One simulated machine (bench_hook.py's world: a project bound to a private and a team store,
50 memories each, in sync) runs the hook of this checkout (A) and of REV (B, a detached git
worktree of this repository in a scratch directory), alternately, in the same world and the
same interpreter: what a change cost the session start, whatever the machine's load.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.harness.latency import _seed  # noqa: E402
from benchmarks.harness.machines import Machine  # noqa: E402
from benchmarks.harness.world import make_world  # noqa: E402
from benchmarks.paired import HEADER, command, load, paired  # noqa: E402


def hook_of(checkout: Path, machine: Machine, project: Path) -> Callable[[], None]:
    """The hook as Claude Code runs it, importing memsync from CHECKOUT."""
    env = {**machine.env, "PYTHONPATH": str(checkout)}
    return command(machine.command("pull", "--hook"), cwd=project, env=env, stdin="{}")


def main(argv: list[str] | None = None) -> int:
    """Build the world, check out REV, time both hooks pair by pair, print the row."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev")
    parser.add_argument("--pairs", type=int, default=31)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="memsync-against-") as scratch:
        base = Path(scratch)
        old = base / "old"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(old), args.rev],
            check=True,
        )
        try:
            world = make_world(base / "world", ("bench",), url_of=lambda p: f"file://{p}")
            _seed(world, 50)
            seat = world.seats[0]
            ours = hook_of(ROOT, seat.machine, seat.project)
            theirs = hook_of(old, seat.machine, seat.project)
            for run in (ours, theirs, ours):  # the first starts record what they fetched
                run()
            before = load()
            result = paired(
                f"`pull --hook`, nothing new, this checkout against {args.rev}",
                ours,
                theirs,
                pairs=args.pairs,
                labels=("this checkout", args.rev),
            )
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)], check=False
            )
    print(f"load before: {before}\nload after: {load()}\n")
    print(HEADER)
    print(result.row())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
