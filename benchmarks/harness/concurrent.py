"""Concurrency: many machines pushing to one team remote at once; two processes on one store."""

from __future__ import annotations

import json
import statistics
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.harness.daemon import GitDaemon
from benchmarks.harness.machines import (
    Machine,
    git,
    make_machine,
    make_remote,
    memory_text,
    read_tree,
    remote_files,
    wait_quietly,
)
from benchmarks.harness.proxy import DelayProxy


def percentile(values: list[float], pct: float) -> float:
    """The PCT percentile (nearest rank) of VALUES."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


@dataclass
class PushersResult:
    """What the concurrent-pushers scenario measured."""

    machines: int
    memories_each: int
    expected: int
    on_remote: int
    exit_codes: dict[int, int]
    forced_updates: int
    ref_updates: int
    latency_p50: float
    latency_p95: float
    latency_max: float
    attempts_p50: float
    attempts_max: int
    retries_total: int
    converged_machines: int
    rtt_ms: float
    seconds: float
    problems: list[str] = field(default_factory=list)


def concurrent_pushers(
    base: Path,
    *,
    machines: int = 20,
    memories: int = 10,
    rtt: float = 0.05,
    log: object = None,
    settings: dict[str, object] | None = None,
) -> PushersResult:
    """MACHINES machines push MEMORIES team memories each at the same moment."""
    started = time.monotonic()
    served = base / "served"
    served.mkdir(parents=True)
    team = make_remote(served / "team.git", log_updates=True)
    make_remote(served / "private.git")
    with (
        GitDaemon(served) as daemon,
        DelayProxy(daemon.port, delay_up=rtt / 2, delay_down=rtt / 2) as proxy,
    ):
        fleet: list[tuple[Machine, Path]] = []
        for index in range(machines):
            machine = make_machine(base / "machines", f"pusher-{index:02d}")
            project = machine.checkout_project()
            machine.init(project, proxy.url("private.git"), proxy.url("team.git"))
            if settings:
                machine.set_settings(**settings)
            fleet.append((machine, project))
        if callable(log):
            log(f"pushers: {machines} machines set up in {time.monotonic() - started:.0f} s")
        for index, (machine, project) in enumerate(fleet):
            team_dir = machine.live_dir(project) / "team"
            for i in range(memories):
                name = f"m{index:02d}-{i:02d}"
                (team_dir / f"{name}.md").write_text(
                    memory_text(name, f"Learned by machine {index}, note {i}.\n"), encoding="utf-8"
                )
        procs = []
        launch = time.monotonic()
        for machine, project in fleet:
            procs.append(
                (time.monotonic(), machine.start("push", "--scope", "team", "--json", cwd=project))
            )
        latencies: list[float] = []
        attempts: list[int] = []
        codes: dict[int, int] = {}
        problems: list[str] = []
        ended: dict[int, float] = {}
        deadline = time.monotonic() + 600
        while len(ended) < len(procs) and time.monotonic() < deadline:
            for index, (_, proc) in enumerate(procs):
                if index not in ended and proc.poll() is not None:
                    ended[index] = time.monotonic()
            time.sleep(0.01)
        for index, (began, proc) in enumerate(procs):
            code, out, err = wait_quietly(proc, 5)
            latencies.append(ended.get(index, time.monotonic()) - began)
            codes[code if code is not None else -1] = (
                codes.get(code if code is not None else -1, 0) + 1
            )
            reports: list[dict[str, object]] = []
            try:
                reports = json.loads(out)
                attempts.append(max(int(str(r.get("push_attempts", 0))) for r in reports))
            except (json.JSONDecodeError, ValueError):
                problems.append(f"no JSON from a pusher (exit {code}): {err.strip()[-300:]}")
            if code != 0:
                errors = [r.get("error") for r in reports if r.get("error")] if out.strip() else []
                problems.append(f"pusher exited {code}: {errors or err.strip()[-300:]}")
        if callable(log):
            log(f"pushers: all done {time.monotonic() - launch:.1f} s after launch")
        files = remote_files(team)
        expected = {f"m{i:02d}-{j:02d}.md" for i in range(machines) for j in range(memories)}
        on_remote = len(expected & set(files))
        updates = (team / "update-log").read_text(encoding="utf-8").splitlines()
        forced = [u for u in updates if u.endswith("FORCED")]
        # Every machine ends with all memories after one more pull.
        converged = 0
        for machine, project in fleet:
            result = machine.run("pull", "--scope", "team", cwd=project)
            live = read_tree(machine.live_dir(project) / "team")
            if result.returncode == 0 and expected <= set(live):
                converged += 1
        fsck = subprocess.run(
            ["git", "fsck", "--no-progress"], cwd=team, capture_output=True, text=True, check=False
        )
        if fsck.returncode != 0:
            problems.append(f"git fsck on the team remote: {fsck.stderr[-300:]}")
    return PushersResult(
        machines=machines,
        memories_each=memories,
        expected=len(expected),
        on_remote=on_remote,
        exit_codes=codes,
        forced_updates=len(forced),
        ref_updates=len(updates),
        latency_p50=round(percentile(latencies, 50), 2),
        latency_p95=round(percentile(latencies, 95), 2),
        latency_max=round(max(latencies), 2),
        attempts_p50=statistics.median(attempts) if attempts else 0,
        attempts_max=max(attempts) if attempts else 0,
        retries_total=sum(max(0, a - 1) for a in attempts),
        converged_machines=converged,
        rtt_ms=rtt * 1000,
        seconds=round(time.monotonic() - started, 1),
        problems=problems,
    )


@dataclass
class SameStoreResult:
    """Two memsync processes on one machine's stores at once."""

    case: str
    exit_codes: list[int | None]
    lock_reported: bool
    consistent: bool
    problems: list[str] = field(default_factory=list)


def _clone_ok(machine: Machine) -> list[str]:
    problems = []
    for clone in (machine.data_dir / "stores").glob("*.git"):
        fsck = subprocess.run(
            ["git", "fsck", "--no-progress", "--no-dangling"],
            cwd=clone,
            capture_output=True,
            text=True,
            check=False,
        )
        if fsck.returncode != 0:
            problems.append(f"{clone.name}: git fsck: {fsck.stderr.strip()[-200:]}")
    leftover = list((machine.data_dir / "locks").glob("*"))
    if leftover:
        problems.append(f"lock files left: {[p.name for p in leftover]}")
    return problems


def same_store(
    base: Path, *, memories: int = 300, log: object = None, only: tuple[int, ...] = (0, 1, 2, 3)
) -> list[SameStoreResult]:
    """Two sessions starting together, pull racing push, and a lock that times out."""
    from benchmarks.harness.world import make_world

    world = make_world(base, ("desk", "peer"))
    desk, peer = world.seats
    results = []

    def fill(seat_index: int, tag: str) -> None:
        seat = world.seats[seat_index]
        for i in range(memories):
            scope = "team/" if i % 3 == 0 else ""
            path = seat.live / f"{scope}{tag}-{i:03d}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(memory_text(f"{tag} {i}", f"{tag} body {i}\n" * 20), encoding="utf-8")

    cases = [
        ("two session starts (pull --hook x2)", ("pull", "--hook"), ("pull", "--hook"), None),
        ("pull and push together", ("pull",), ("push",), None),
        ("sync and sync together", ("sync",), ("sync",), None),
        ("second one times out on the lock", ("push",), ("push",), 0.2),
    ]
    for number, (name, first, second, lock_timeout) in enumerate(cases):
        if number not in only:
            continue
        fill(1, f"peer{number}")
        peer.machine.run("sync", cwd=peer.project)
        fill(0, f"desk{number}")
        if lock_timeout is not None:
            desk.machine.set_settings(lock_timeout=lock_timeout)
        a = desk.machine.start(*first, cwd=desk.project, stdin_data="{}")
        b = desk.machine.start(*second, cwd=desk.project, stdin_data="{}")
        out_a = wait_quietly(a, 300)
        out_b = wait_quietly(b, 300)
        if lock_timeout is not None:
            desk.machine.set_settings(lock_timeout=30.0)
        codes = [out_a[0], out_b[0]]
        text = out_a[2] + out_b[2]
        lock_reported = "locked by" in text or "busy" in text
        problems = []
        for code, _, err in (out_a, out_b):
            if "Traceback" in err:
                problems.append(f"traceback: {err.strip()[-300:]}")
            if code not in (0, 4):
                problems.append(f"exit {code}: {err.strip()[-300:]}")
            if code == 4 and "locked by pid" not in err:
                problems.append(f"exit 4 without naming the holder: {err.strip()[-200:]}")
        problems += _clone_ok(desk.machine)
        final = desk.machine.run("sync", cwd=desk.project)
        if final.returncode != 0:
            problems.append(f"the next sync exited {final.returncode}: {final.stderr[-300:]}")
        live = desk.files()
        remote = world.remote_tree()
        missing = sorted(p for p in remote if p not in live)
        if missing:
            problems.append(f"{len(missing)} remote files missing locally, e.g. {missing[:3]}")
        mine = [p for p in live if f"desk{number}-" in p]
        unsent = [p for p in mine if p not in remote]
        if len(mine) != memories or unsent:
            problems.append(f"desk memories: {len(mine)} live, {len(unsent)} not on the remote")
        results.append(
            SameStoreResult(name, codes, lock_reported or 4 in codes, not problems, problems)
        )
        if callable(log):
            log(f"same-store: {name}: exits {codes} {problems or 'ok'}")
    return results


def held_lock(base: Path, log: object = None) -> SameStoreResult:
    """A live process holds the store lock: memsync exits 4 naming it, then takes over."""
    import json as _json
    import socket
    import sys

    from benchmarks.harness.world import make_world

    world = make_world(base, ("desk",))
    desk = world.seats[0]
    (desk.live / "held.md").write_text(memory_text("held", "Waiting for the lock.\n"))
    locks = desk.machine.data_dir / "locks"
    clone = next((desk.machine.data_dir / "stores").glob("private-*.git"))
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    problems: list[str] = []
    try:
        # What a running memsync writes into the lock file of the store it works on.
        record = {"pid": holder.pid, "host": socket.gethostname(), "command": "pull"}
        locks.mkdir(parents=True, exist_ok=True)
        (locks / (clone.name.removesuffix(".git") + ".lock")).write_text(
            _json.dumps({**record, "since": time.time()})
        )
        desk.machine.set_settings(lock_timeout=0.3)
        first = desk.machine.run("push", "--scope", "private", cwd=desk.project)
        if first.returncode != 4 or f"pid {holder.pid}" not in first.stderr:
            problems.append(
                f"expected exit 4 naming pid {holder.pid}: {first.returncode} {first.stderr[-300:]}"
            )
        hooked = desk.machine.run(
            "push", "--hook", "--scope", "private", cwd=desk.project, stdin="{}"
        )
        if hooked.returncode != 0 or "locked by" not in hooked.stderr:
            problems.append(f"hook mode: {hooked.returncode} {hooked.stderr[-300:]}")
    finally:
        holder.kill()
        holder.wait()
    # The holder died: its lock is stale and the next run takes over.
    second = desk.machine.run("push", "--scope", "private", cwd=desk.project)
    if second.returncode != 0:
        problems.append(f"after the holder died: exit {second.returncode} {second.stderr[-300:]}")
    if "held.md" not in remote_files(world.private_remote):
        problems.append("held.md not pushed after the takeover")
    desk.machine.set_settings(lock_timeout=30.0)
    problems += _clone_ok(desk.machine)
    codes: list[int | None] = [first.returncode, second.returncode]
    result = SameStoreResult(
        "lock held by a live process, then by a dead one", codes, True, not problems, problems
    )
    if callable(log):
        log(f"same-store: {result.case}: exits {codes} {problems or 'ok'}")
    return result


def head_of(remote: Path) -> str:
    """The remote's main commit."""
    return git("rev-parse", "main", cwd=remote).strip()
