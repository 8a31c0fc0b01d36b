"""Crash injection: SIGKILL pull/push/sync at random points, then check a normal sync recovers.

Each run: the peer machine B pushes some changes (so fetch and merge have work); the victim A
edits, creates and deletes memories (sizes vary so kills land in every phase), starts a
command in its own process group and kills it with SIGKILL after a random delay (the whole
group like a power loss, or only memsync so orphaned git children race the next run). Then A
runs a normal `memsync sync`, which must exit 0 by itself. The ledger of every fact either
machine wrote is checked against A's live directories and the remotes.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from benchmarks.harness.machines import kill_group, read_tree, wait_quietly
from benchmarks.harness.world import (
    Seat,
    World,
    append_fact,
    delete_memory,
    make_world,
    new_memory,
)

SIZES = (1, 4, 16, 64, 256)
PHASES = ("startup", "commit", "fetch", "merge", "materialize", "push", "finished")


@dataclass
class CrashRun:
    """One killed command and what the recovery found."""

    index: int
    command: str
    size: int
    delay: float
    group_kill: bool
    phase: str
    recovery_exit: int | None
    recovery_tries: int
    manual_repair: bool
    lost: list[str] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)
    remote_lost: list[str] = field(default_factory=list)
    leftovers: list[str] = field(default_factory=list)
    recovery_error: str = ""


@dataclass
class CrashSummary:
    """Totals over a campaign."""

    runs: int = 0
    killed: int = 0
    finished_before_kill: int = 0
    lost: int = 0
    manual_repairs: int = 0
    recovery_failures: int = 0
    markers: int = 0
    remote_lost: int = 0
    leftover_files: int = 0
    phases: dict[str, int] = field(default_factory=dict)
    commands: dict[str, int] = field(default_factory=dict)
    failures: list[dict[str, object]] = field(default_factory=list)
    seconds: float = 0.0


def classify(trace: Path, killed: bool) -> str:
    """Which phase the kill landed in, from the GIT_TRACE log of the killed process."""
    if not killed:
        return "finished"
    try:
        lines = trace.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return "startup"
    phase = "startup"
    integrated = False
    for line in lines:
        if "trace: built-in: git " not in line:
            continue
        args = line.split("trace: built-in: git ", 1)[1]
        cmd = args.split(" ", 1)[0]
        if cmd in ("push", "receive-pack", "send-pack", "pack-objects") and phase != "fetch":
            phase = "push"
        elif cmd in ("fetch", "upload-pack", "index-pack", "unpack-objects"):
            phase, integrated = "fetch", False
        elif cmd == "merge-base":
            phase = "merge"
        elif cmd == "update-ref" and ("memsync: merge" in args or "fast-forward" in args):
            integrated = True
        elif cmd in ("ls-tree", "cat-file", "rev-parse", "fast-import", "update-ref"):
            if phase == "push" or (phase == "fetch" and cmd == "ls-tree"):
                phase = "materialize"
            elif phase == "merge" and integrated:
                phase = "materialize" if cmd == "ls-tree" else phase
            elif phase == "startup":
                phase = "commit"
        elif phase == "startup":
            phase = "commit"
    return phase


def _own_files(seat: Seat, world: World, prefix: str) -> list[str]:
    return sorted(p for p in world.ledger.required if Path(p).name.startswith(prefix))


def peer_turn(world: World, seat: Seat, rng: random.Random, run: int) -> None:
    """B: add, edit and delete a few of its own memories, append to shared ones, sync."""
    ledger = world.ledger
    count = rng.choice((1, 3, 10, 40))
    for i in range(count):
        scope = "team/" if rng.random() < 0.4 else ""
        new_memory(seat, ledger, f"{scope}b-{run}-{i}.md", rng, rng.choice((200, 800, 4000)))
    own = _own_files(seat, world, "b-")
    for rel in rng.sample(own, min(len(own), rng.randint(0, 5))):
        append_fact(seat, ledger, rel)
    for rel in rng.sample(own, min(len(own), rng.randint(0, 3))):
        if rel in ledger.required and not rel.startswith(f"b-{run}-"):
            delete_memory(seat, ledger, rel)
    for rel in ("shared.md", "team/shared.md"):
        if rng.random() < 0.5:
            append_fact(seat, ledger, rel)
    result = seat.machine.run("sync", cwd=seat.project)
    if result.returncode != 0:
        raise RuntimeError(f"peer sync failed ({result.returncode}): {result.stderr[-2000:]}")


def victim_edits(world: World, seat: Seat, rng: random.Random, run: int, size: int) -> None:
    """A: SIZE new memories of varying size, edits and deletions of its own, shared appends."""
    ledger = world.ledger
    big = rng.random() < 0.15
    for i in range(size):
        scope = "team/" if rng.random() < 0.4 else ""
        nbytes = rng.choice((300, 1500, 6000)) if not big else rng.choice((30_000, 120_000))
        new_memory(seat, ledger, f"{scope}a-{run}-{i}.md", rng, nbytes)
    own = _own_files(seat, world, "a-")
    for rel in rng.sample(own, min(len(own), rng.randint(0, 8))):
        append_fact(seat, ledger, rel)
    older = [p for p in own if not Path(p).name.startswith(f"a-{run}-")]
    # Keep the live directory from growing without bound.
    deletions = rng.randint(0, 4) + max(0, len(older) - 400) // 2
    for rel in rng.sample(older, min(len(older), deletions)):
        delete_memory(seat, ledger, rel)
    for rel in ("shared.md", "team/shared.md"):
        if rng.random() < 0.5:
            append_fact(seat, ledger, rel)


def leftovers(world: World, seat: Seat) -> list[str]:
    """Temporary files memsync left in the live directories (litter Claude Code would see)."""
    out = []
    for path in seat.live.rglob("*"):
        if path.is_file() and (path.name.endswith(".tmp") or ".memsync-" in path.name):
            out.append(str(path.relative_to(seat.live)))
    return out


def recover(seat: Seat, run: CrashRun) -> None:
    """A normal `memsync sync` must succeed; retry twice, then repair by hand (counted)."""
    for attempt in range(1, 4):
        result = seat.machine.run("sync", cwd=seat.project, timeout=300)
        run.recovery_tries = attempt
        if attempt == 1:
            run.recovery_exit = result.returncode
        if result.returncode == 0:
            return
        run.recovery_error = (result.stdout + result.stderr)[-1500:]
        time.sleep(1.0)
    # Still stuck: what a user would have to do by hand.
    run.manual_repair = True
    data = seat.machine.data_dir
    for lock in (data / "locks").glob("*"):
        lock.unlink()
    result = seat.machine.run("sync", cwd=seat.project, timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"sync still fails after a manual repair: {result.stderr[-2000:]}")


def crash_campaign(
    base: Path,
    runs: int,
    *,
    seed: int = 1,
    url_of: object = None,
    log: object = None,
    stop_on_failure: bool = False,
    sizes: tuple[int, ...] = SIZES,
    commands: tuple[str, ...] = ("pull", "push", "sync"),
    estimate_s: float | None = None,
) -> tuple[CrashSummary, list[CrashRun]]:
    """RUNS killed commands (plus calibration runs), each followed by a checked recovery."""
    rng = random.Random(seed)
    started = time.monotonic()
    world = make_world(base, ("victim", "peer"), url_of=url_of)
    victim, peer = world.seats
    for rel in ("shared.md", "team/shared.md"):
        new_memory(peer, world.ledger, rel, rng, 400)
    peer.machine.run("sync", cwd=peer.project)
    # Kill delays are drawn over each (command, size)'s duration, measured by one unkilled
    # calibration run unless ESTIMATE_S gives it.
    estimate: dict[tuple[str, int], float] = {
        (c, n): estimate_s for c in commands for n in sizes if estimate_s is not None
    }
    summary = CrashSummary()
    results: list[CrashRun] = []
    index = 0
    while summary.killed < runs and index < runs * 2 + 20:
        index += 1
        peer_turn(world, peer, rng, index)
        command = rng.choice(commands)
        size = rng.choice(sizes)
        victim_edits(world, victim, rng, index, size)
        key = (command, size)
        calibrating = key not in estimate
        # Python's start-up is a fifth of a short run: most kills aim past it, some into it.
        share = rng.uniform(0.0, 0.2) if rng.random() < 0.2 else rng.uniform(0.2, 1.05)
        delay = 0.0 if calibrating else share * estimate[key]
        group = rng.random() < 0.8
        trace = base / "traces" / f"run-{index}.log"
        trace.parent.mkdir(exist_ok=True)
        trace.unlink(missing_ok=True)
        began = time.monotonic()
        proc = victim.machine.start(
            command, cwd=victim.project, extra_env={"GIT_TRACE": str(trace)}
        )
        killed = False
        if calibrating:
            wait_quietly(proc, 300)
            estimate[key] = time.monotonic() - began
        else:
            try:
                proc.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                if group:
                    kill_group(proc)
                else:
                    os.kill(proc.pid, signal.SIGKILL)
                killed = True
            wait_quietly(proc, 60)
            if not killed:
                estimate[key] = max(estimate[key] * 0.9, time.monotonic() - began)
        # Claude Code may write while memsync runs (or right after it died).
        if rng.random() < 0.3:
            own = _own_files(victim, world, "a-")
            if own:
                append_fact(victim, world.ledger, rng.choice(own))
        run = CrashRun(
            index=index,
            command=command,
            size=size,
            delay=round(delay, 3),
            group_kill=group,
            phase=classify(trace, killed),
            recovery_exit=None,
            recovery_tries=0,
            manual_repair=False,
        )
        recover(victim, run)
        live = victim.files()
        run.lost = world.ledger.check(live)
        remote = world.remote_tree()
        run.remote_lost = world.ledger.check(remote)
        run.markers = world.markers(live) + [f"remote:{m}" for m in world.markers(remote)]
        run.leftovers = leftovers(world, victim)
        results.append(run)
        summary.runs += 1
        summary.killed += killed
        summary.finished_before_kill += not killed and not calibrating
        summary.lost += len(run.lost)
        summary.remote_lost += len(run.remote_lost)
        summary.markers += len(run.markers)
        summary.manual_repairs += run.manual_repair
        summary.recovery_failures += run.recovery_exit != 0
        summary.leftover_files += len(run.leftovers)
        if run.lost or run.remote_lost or run.markers or run.manual_repair or run.recovery_exit:
            summary.failures.append(asdict(run))
            # Re-baseline so one failure is counted once, not again in every later run.
            if stop_on_failure:
                break
            for problem in run.lost + run.remote_lost:
                path = problem.split(":", 1)[0]
                world.ledger.required.pop(path, None)
                world.ledger.deleted.discard(path)
        if callable(log):
            log(
                f"crash {index:3d} {command:4s} size={size:3d} {run.phase:11s} "
                f"kill={'grp' if group else 'pid'}@{delay:.2f}s recovery={run.recovery_exit} "
                f"lost={len(run.lost)} markers={len(run.markers)}"
            )
        trace.unlink(missing_ok=True)
    # Convergence: the peer ends with exactly what the victim has.
    result = peer.machine.run("sync", cwd=peer.project)
    peer_lost = world.ledger.check(peer.files()) if result.returncode == 0 else ["peer sync failed"]
    summary.lost += len(peer_lost)
    if peer_lost:
        summary.failures.append({"peer_final": peer_lost[:20]})
    phases = Counter(r.phase for r in results)
    summary.phases = {p: phases.get(p, 0) for p in PHASES}
    summary.commands = dict(Counter(r.command for r in results))
    summary.seconds = round(time.monotonic() - started, 1)
    return summary, results


def check_tree_equal(world: World) -> list[str]:
    """Differences between the victim's live files and the remotes."""
    live = world.seats[0].files()
    remote = world.remote_tree()
    return sorted(set(live) ^ set(remote)) + sorted(
        p for p in live if remote.get(p) not in (None, live[p])
    )


__all__ = ["CrashRun", "CrashSummary", "check_tree_equal", "crash_campaign", "read_tree"]
