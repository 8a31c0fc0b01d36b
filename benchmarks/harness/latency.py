"""Latency and throughput benchmarks, each against the plain git commands it replaces.

- hook pull, nothing new, private + team, file:// remotes vs two `git pull`s
- the same through the delay proxy (50 ms RTT) vs two sequential `git pull`s
- `memsync pull` bringing 1,000 changed memories vs `git pull` of the same commits plus
  copying the changed files
Ratios are medians of interleaved repetitions measured in one run.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.harness.daemon import GitDaemon
from benchmarks.harness.machines import Machine, git, memory_text
from benchmarks.harness.proxy import DelayProxy
from benchmarks.harness.world import World, make_world


@dataclass
class Ratio:
    """memsync's median time against the baseline's, and the limit it must stay under."""

    name: str
    memsync_s: float
    baseline_s: float
    limit: float
    repetitions: int
    notes: dict[str, object] = field(default_factory=dict)

    @property
    def ratio(self) -> float:
        """memsync / baseline."""
        return self.memsync_s / self.baseline_s if self.baseline_s else float("inf")

    @property
    def ok(self) -> bool:
        """Within the limit."""
        return self.ratio <= self.limit


def _median_pair(
    ours: Callable[[], None], theirs: Callable[[], None], repetitions: int, warmup: int = 2
) -> tuple[float, float]:
    for _ in range(warmup):
        ours()
        theirs()
    a: list[float] = []
    b: list[float] = []
    for _ in range(repetitions):
        for fn, out in ((ours, a), (theirs, b)):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return statistics.median(a), statistics.median(b)


def _seed(world: World, count: int) -> None:
    """COUNT memories in each scope, pushed."""
    seat = world.seats[0]
    for i in range(count):
        for scope in ("", "team/"):
            path = seat.live / f"{scope}seed-{i:04d}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(memory_text(f"seed {i}", f"Seed memory {i}.\n" * 5), encoding="utf-8")
    result = seat.machine.run("sync", cwd=seat.project)
    if result.returncode != 0:
        raise RuntimeError(f"seeding failed: {result.stderr}")


def _plain_clones(world: World, machine: Machine, base: Path) -> list[Path]:
    clones = []
    for url, name in ((world.private_url, "private"), (world.team_url, "team")):
        target = base / f"plain-{name}"
        git("clone", "-q", url, str(target), cwd=base, env=machine.env)
        clones.append(target)
    return clones


def _hook_pull(machine: Machine, project: Path) -> Callable[[], None]:
    def run() -> None:
        result = machine.run("pull", "--hook", cwd=project, stdin="{}")
        if result.returncode != 0 or result.stderr.strip():
            raise RuntimeError(f"hook pull: {result.returncode} {result.stderr}")

    return run


def _git_pulls(machine: Machine, clones: list[Path]) -> Callable[[], None]:
    def run() -> None:
        for clone in clones:
            git("pull", "-q", cwd=clone, env=machine.env)

    return run


def git_processes(machine: Machine, project: Path, trace: Path) -> int:
    """How many git processes one `pull --hook` starts (GIT_TRACE)."""
    trace.unlink(missing_ok=True)
    machine.run("pull", "--hook", cwd=project, stdin="{}", extra_env={"GIT_TRACE": str(trace)})
    text = trace.read_text(encoding="utf-8", errors="replace")
    return sum(
        1
        for line in text.splitlines()
        if "trace: built-in: git " in line or "trace: exec: " in line
    )


def import_ms(machine: Machine, project: Path) -> tuple[float, list[tuple[str, float]]]:
    """Total import time of the hook path and its five slowest top-level imports (ms)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memsync", "pull", "--hook"],
        cwd=project,
        env=machine.env,
        input="{}",
        capture_output=True,
        text=True,
        check=False,
    )
    top: list[tuple[str, float]] = []
    total = 0.0
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = (part.strip() for part in line.split("|"))
        if not cumulative.isdigit():
            continue
        if not name.startswith(" ") and not line.split("|")[2].startswith("  "):
            total += int(cumulative) / 1000
            top.append((name, int(cumulative) / 1000))
    top.sort(key=lambda t: -t[1])
    return round(total, 1), top[:5]


def hook_pull_file(base: Path, repetitions: int = 15) -> Ratio:
    """`memsync pull --hook` with nothing new vs two `git pull`s, file:// remotes."""
    world = make_world(base, ("bench",), url_of=lambda p: f"file://{p}")
    _seed(world, 50)
    seat = world.seats[0]
    clones = _plain_clones(world, seat.machine, base)
    ours, theirs = _median_pair(
        _hook_pull(seat.machine, seat.project), _git_pulls(seat.machine, clones), repetitions
    )
    processes = git_processes(seat.machine, seat.project, base / "trace.log")
    imports, slowest = import_ms(seat.machine, seat.project)
    return Ratio(
        "hook pull, nothing new, file://",
        ours,
        theirs,
        4.0,
        repetitions,
        {"git_processes": processes, "import_ms": imports, "slowest_imports": slowest},
    )


def hook_pull_proxy(base: Path, repetitions: int = 15, rtt: float = 0.05) -> Ratio:
    """The same through git daemon and the delay proxy (RTT split evenly)."""
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
        ours, theirs = _median_pair(
            _hook_pull(seat.machine, seat.project), _git_pulls(seat.machine, clones), repetitions
        )
        connections = proxy.stats.connections
    return Ratio(
        f"hook pull, nothing new, git:// via proxy ({rtt * 1000:.0f} ms RTT)",
        ours,
        theirs,
        1.0,
        repetitions,
        {"proxy_connections": connections},
    )


def pull_thousand(base: Path, repetitions: int = 5, count: int = 1000) -> Ratio:
    """`memsync pull` of COUNT changed memories vs `git pull` of the same commits + copying."""
    world = make_world(base, ("reader", "writer"), url_of=lambda p: f"file://{p}")
    reader, writer = world.seats
    for i in range(count):
        (writer.live / f"n{i:04d}.md").write_text(memory_text(f"n{i}", "v0\n"), encoding="utf-8")
    writer.machine.run("sync", cwd=writer.project)
    reader.machine.run("pull", "--scope", "private", cwd=reader.project)
    plain = base / "plain"
    git("clone", "-q", world.private_url, str(plain), cwd=base, env=reader.machine.env)
    copies = base / "copies"
    a: list[float] = []
    b: list[float] = []
    for round_ in range(1, repetitions + 1):
        for i in range(count):
            (writer.live / f"n{i:04d}.md").write_text(
                memory_text(f"n{i}", f"version {round_}\n" + "text\n" * round_), encoding="utf-8"
            )
        result = writer.machine.run("push", "--scope", "private", cwd=writer.project)
        if result.returncode != 0:
            raise RuntimeError(result.stderr)
        start = time.perf_counter()
        result = reader.machine.run("pull", "--scope", "private", cwd=reader.project)
        a.append(time.perf_counter() - start)
        if result.returncode != 0:
            raise RuntimeError(result.stderr)
        start = time.perf_counter()
        git("pull", "-q", cwd=plain, env=reader.machine.env)
        shutil.rmtree(copies, ignore_errors=True)
        shutil.copytree(plain / "acme-api", copies)
        b.append(time.perf_counter() - start)
        changed = sum(
            1
            for i in range(count)
            if (reader.live / f"n{i:04d}.md").read_text(encoding="utf-8").count("text") == round_
        )
        if changed != count:
            raise RuntimeError(f"pull brought {changed} of {count} changes")
    return Ratio(
        f"pull bringing {count:,} changed memories",
        statistics.median(a),
        statistics.median(b),
        2.0,
        repetitions,
    )
