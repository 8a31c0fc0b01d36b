"""Network faults: unreachable, refused, stalled mid-fetch, stalled mid-push.

Both stores are served by `git daemon` behind the fault proxy. For each fault the victim
runs the hook command (must return within its limit, exit 0, with a short warning) and the
normal command (must exit 3). Local work must be intact, and once the network is back the
next normal `sync` must complete and deliver it.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.harness.daemon import GitDaemon
from benchmarks.harness.machines import memory_text, read_tree, remote_files
from benchmarks.harness.proxy import DelayProxy
from benchmarks.harness.world import Seat, World, make_world

# Hook limits for the scenario (seconds); the watchdog adds 2 s, Python start-up ~0.5 s.
PULL_LIMIT = 3.0
PUSH_LIMIT = 4.0
SLACK = 3.5


@dataclass
class FaultResult:
    """One fault, one command, one mode."""

    fault: str
    command: str
    mode: str
    exit_code: int | None
    seconds: float
    limit: float | None
    stderr_lines: int
    ok: bool
    problems: list[str] = field(default_factory=list)


@dataclass
class FaultEnv:
    """The served world: daemon, proxy, victim and peer."""

    world: World
    daemon: GitDaemon
    proxy: DelayProxy
    victim: Seat
    peer: Seat
    counter: int = 0


def _apply(env: FaultEnv, fault: str) -> None:
    proxy = env.proxy
    if fault == "unreachable":
        proxy.set_mode("blackhole")
    elif fault == "refused":
        proxy.set_mode("refuse")
    elif fault == "stalled mid-fetch":
        # The ref advertisement gets through, the pack does not.
        proxy.set_mode("stall", direction="down", after_bytes=600)
    elif fault == "stalled mid-push":
        proxy.set_mode("stall", direction="up", after_bytes=2000)
    elif fault == "dropped mid-fetch":
        proxy.set_mode("drop", direction="down", after_bytes=600)
    else:
        raise ValueError(fault)


def _prepare(env: FaultEnv, fault: str) -> dict[str, bytes]:
    """Give fetch and push real work: the peer pushes, the victim writes."""
    env.counter += 1
    n = env.counter
    peer_team = env.peer.live / "team"
    for i in range(30):
        (peer_team / f"peer-{n}-{i}.md").parent.mkdir(parents=True, exist_ok=True)
        (peer_team / f"peer-{n}-{i}.md").write_text(
            memory_text(f"peer {n} {i}", "x" * 3000 + "\n"), encoding="utf-8"
        )
    env.peer.machine.run("sync", cwd=env.peer.project)
    mine = {}
    for i in range(20):
        rel = f"team/victim-{n}-{i}.md"
        data = memory_text(f"victim {n} {i}", f"{fault}: " + "y" * 4000 + "\n").encode()
        (env.victim.live / rel).parent.mkdir(parents=True, exist_ok=True)
        (env.victim.live / rel).write_bytes(data)
        mine[rel] = data
    return mine


def run_fault(env: FaultEnv, fault: str, command: str, hook: bool) -> FaultResult:
    """One fault against one command in one mode, then the recovery."""
    mine = _prepare(env, fault)
    before = read_tree(env.victim.live)
    _apply(env, fault)
    args = (command, "--hook") if hook else (command,)
    started = time.monotonic()
    result = env.victim.machine.run(*args, cwd=env.victim.project, stdin="{}", timeout=180)
    seconds = time.monotonic() - started
    env.proxy.set_mode("pass")
    problems: list[str] = []
    limit = (PULL_LIMIT if command == "pull" else PUSH_LIMIT) if hook else None
    err_lines = [line for line in result.stderr.splitlines() if line.strip()]
    if hook:
        if result.returncode != 0:
            problems.append(f"hook exited {result.returncode}")
        if limit is not None and seconds > limit + SLACK:
            problems.append(f"hook took {seconds:.1f} s (limit {limit:.0f} s)")
        if not err_lines:
            problems.append("no warning on stderr")
        if len(err_lines) > 4:
            problems.append(f"{len(err_lines)} lines on stderr")
    elif result.returncode != 3:
        problems.append(f"normal mode exited {result.returncode}, not 3: {result.stderr[-300:]}")
    if "Traceback" in result.stderr:
        problems.append("traceback")
    after = read_tree(env.victim.live)
    lost = [p for p, data in before.items() if after.get(p) != data and p in mine]
    if lost:
        problems.append(f"local work changed or lost: {lost[:3]}")
    # The network is back: the next normal run completes and sends everything.
    recovery = env.victim.machine.run("sync", cwd=env.victim.project, timeout=180)
    if recovery.returncode != 0:
        problems.append(f"next sync exited {recovery.returncode}: {recovery.stderr[-300:]}")
    team = remote_files(env.world.team_remote)
    unsent = [p for p in mine if team.get(p.removeprefix("team/")) != mine[p]]
    if unsent:
        problems.append(f"{len(unsent)} memories not on the remote after recovery")
    return FaultResult(
        fault,
        command,
        "hook" if hook else "normal",
        result.returncode,
        round(seconds, 2),
        limit,
        len(err_lines),
        not problems,
        problems,
    )


FAULTS = ("unreachable", "refused", "stalled mid-fetch", "stalled mid-push", "dropped mid-fetch")


def network_faults(
    base: Path, *, faults: tuple[str, ...] = FAULTS, normal_stalls: bool = True, log: object = None
) -> list[FaultResult]:
    """Every fault against pull and push, hook and normal mode (stalls in normal mode take
    git's 60 s network timeout each; NORMAL_STALLS=False leaves them out)."""
    served = base / "served"
    served.mkdir(parents=True)
    results: list[FaultResult] = []
    with GitDaemon(served) as daemon, DelayProxy(daemon.port) as proxy:

        def url_of(remote: Path) -> str:
            target = served / remote.name
            if not target.exists():
                shutil.move(str(remote), str(target))
            return proxy.url(remote.name)

        world = make_world(base, ("victim", "peer"), url_of=url_of)
        world.private_remote = served / "private.git"
        world.team_remote = served / "team.git"
        victim, peer = world.seats
        victim.machine.set_settings(pull_timeout=PULL_LIMIT, push_timeout=PUSH_LIMIT)
        env = FaultEnv(world, daemon, proxy, victim, peer)
        for fault in faults:
            commands = (
                ("pull",)
                if fault.endswith("fetch")
                else ("push",)
                if fault.endswith("push")
                else ("pull", "push")
            )
            for command in commands:
                for hook in (True, False):
                    if (
                        not hook
                        and fault.startswith(("stalled", "unreachable"))
                        and not normal_stalls
                    ):
                        continue
                    result = run_fault(env, fault, command, hook)
                    results.append(result)
                    if callable(log):
                        log(
                            f"net {'ok  ' if result.ok else 'FAIL'} {fault} {command} "
                            f"{result.mode}: exit {result.exit_code} in {result.seconds:.1f} s "
                            f"{'; '.join(result.problems)}"
                        )
    return results
