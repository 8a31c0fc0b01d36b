"""Session start: `memsync pull --hook` with nothing new, two stores, paired against its floor.

    python benchmarks/bench_hook.py [--pairs 21] [--rtt-ms 50]

A simulated machine (own HOME, CLAUDE_CONFIG_DIR, MEMSYNC_HOME) has a project bound to a
private and a team store, 50 memories each, already in sync. Measured, as paired ratios:

- file:// remotes: the hook against two `git pull` in plain clones of the same remotes, and
  against the floor: `python -c pass` followed by the two fetches run in parallel (what any
  hook written in Python must at least spend);
- the same remotes behind `git daemon` and a delaying TCP proxy on loopback (half the RTT
  each way, so one round trip costs RTT): the hook against the same floor over that link.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.harness.daemon import GitDaemon  # noqa: E402
from benchmarks.harness.latency import _plain_clones, _seed, git_processes  # noqa: E402
from benchmarks.harness.machines import Machine, git  # noqa: E402
from benchmarks.harness.proxy import DelayProxy  # noqa: E402
from benchmarks.harness.world import make_world  # noqa: E402
from benchmarks.paired import HEADER, Paired, command, load, paired  # noqa: E402

FETCH = ("git", "-c", "protocol.version=0", "fetch", "-q", "--no-tags", "origin")


def floor(machine: Machine, clones: list[Path]) -> Callable[[], None]:
    """`python -c pass`, then the two stores' fetches in parallel."""
    interpreter = command([sys.executable, "-c", "pass"], env=machine.env)

    def run() -> None:
        interpreter()
        procs = [subprocess.Popen(FETCH, cwd=c, env=machine.env) for c in clones]
        if any(p.wait() for p in procs):
            raise RuntimeError("floor fetch failed")

    return run


def git_pulls(machine: Machine, clones: list[Path]) -> Callable[[], None]:
    """Two `git pull` one after the other, as a user syncing two clones would."""

    def run() -> None:
        for clone in clones:
            git("pull", "-q", cwd=clone, env=machine.env)

    return run


def hook(machine: Machine, project: Path) -> Callable[[], None]:
    """`memsync pull --hook` as Claude Code runs it (hook JSON on stdin)."""
    return command(machine.command("pull", "--hook"), cwd=project, env=machine.env, stdin="{}")


def engine_imported(machine: Machine, project: Path) -> bool:
    """Whether `pull --hook` imported the sync engine (nothing new: it must not)."""
    argv = [sys.executable, "-X", "importtime", "-m", "memsync", "pull", "--hook"]
    env = {k: v for k, v in machine.env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    run = subprocess.run(
        argv, cwd=project, env=env, input="{}", capture_output=True, text=True, check=False
    )
    return "memsync.sync.engine" in run.stderr


def file_remotes(base: Path, pairs: int) -> list[Paired]:
    """Both ratios over file:// remotes."""
    world = make_world(base, ("bench",), url_of=lambda p: f"file://{p}")
    _seed(world, 50)
    seat = world.seats[0]
    clones = _plain_clones(world, seat.machine, base)
    ours = hook(seat.machine, seat.project)
    ours()  # the first start after the seeding push records what it fetched (the engine)
    quick = not engine_imported(seat.machine, seat.project)
    processes = git_processes(seat.machine, seat.project, base / "trace.log")
    print(f"nothing new: {'quick path' if quick else 'ENGINE'}, {processes} git processes")
    return [
        paired(
            "`pull --hook`, nothing new, 2 stores, file://",
            ours,
            git_pulls(seat.machine, clones),
            pairs=pairs,
            labels=("memsync", "two `git pull`"),
            goal=2.5,
        ),
        paired(
            "`pull --hook`, nothing new, 2 stores, file://",
            ours,
            floor(seat.machine, clones),
            pairs=pairs,
            labels=("memsync", "floor"),
            goal=3.0,
        ),
    ]


def slow_link(base: Path, pairs: int, rtt: float) -> Paired:
    """The hook against the floor through git daemon and the delaying proxy."""
    served = base / "served"
    served.mkdir(parents=True)
    with (
        GitDaemon(served) as daemon,
        DelayProxy(daemon.port, delay_up=rtt / 2, delay_down=rtt / 2) as proxy,
    ):

        def url_of(remote: Path) -> str:
            target = served / remote.name
            if not target.exists():
                shutil.move(str(remote), str(target))
            return proxy.url(remote.name)

        world = make_world(base, ("bench",), url_of=url_of)
        _seed(world, 50)
        seat = world.seats[0]
        clones = _plain_clones(world, seat.machine, base)
        return paired(
            f"same, through a {rtt * 1000:.0f} ms RTT link (git daemon + delay proxy)",
            hook(seat.machine, seat.project),
            floor(seat.machine, clones),
            pairs=pairs,
            labels=("memsync", "floor"),
            goal=1.5,
        )


def main(argv: list[str] | None = None) -> int:
    """Run both set-ups and print the Markdown rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=21)
    parser.add_argument("--rtt-ms", type=float, default=50.0)
    args = parser.parse_args(argv)
    print(f"load before: {load()}")
    with tempfile.TemporaryDirectory(prefix="memsync-hook-") as tmp:
        rows = file_remotes(Path(tmp) / "file", args.pairs)
        rows.append(slow_link(Path(tmp) / "link", args.pairs, args.rtt_ms / 1000))
    print(f"load after: {load()}\n")
    print(HEADER)
    for row in rows:
        print(row.row())
    return 0 if all(r.ok is not False for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
