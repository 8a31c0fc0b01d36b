"""A small team world: private and team remotes, machines set up on one project, a ledger."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.harness.machines import (
    Machine,
    make_machine,
    make_remote,
    marker_lines,
    memory_text,
    read_tree,
    remote_files,
)


@dataclass
class Ledger:
    """What must be true after sync: each live file and the fact lines it must contain."""

    required: dict[str, set[str]] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)
    counter: int = 0

    def fact(self, who: str) -> str:
        """A unique line nobody else writes."""
        self.counter += 1
        return f"fact {who} {self.counter}"

    def check(self, files: dict[str, bytes]) -> list[str]:
        """Paths (with the missing fact) that FILES lost; deleted files that came back."""
        problems: list[str] = []
        for path, facts in sorted(self.required.items()):
            data = files.get(path)
            if data is None:
                problems.append(f"{path}: missing")
                continue
            text = data.decode("utf-8", "replace")
            lines = set(text.splitlines())
            missing = [f for f in facts if f not in lines]
            if missing:
                problems.append(f"{path}: lost {len(missing)} line(s), e.g. {missing[0]!r}")
        for path in sorted(self.deleted):
            if path in files and path not in self.required:
                problems.append(f"{path}: deleted but back")
        return problems


@dataclass
class Seat:
    """One machine of the world with its project checkout."""

    machine: Machine
    project: Path

    @property
    def live(self) -> Path:
        """The private live directory (team/ is inside it)."""
        return self.machine.live_dir(self.project)

    def files(self) -> dict[str, bytes]:
        """Every synced file of both scopes, team files as `team/...`."""
        return read_tree(self.live)


@dataclass
class World:
    """Remotes plus machines sharing one project."""

    base: Path
    private_remote: Path
    team_remote: Path
    private_url: str
    team_url: str
    seats: list[Seat]
    ledger: Ledger = field(default_factory=Ledger)

    def remote_tree(self) -> dict[str, bytes]:
        """The project's files on both remotes, team files as `team/...`."""
        files = remote_files(self.private_remote)
        files.update({f"team/{p}": d for p, d in remote_files(self.team_remote).items()})
        return files

    def markers(self, files: dict[str, bytes]) -> list[str]:
        """Conflict-marker lines in FILES."""
        return marker_lines(files)


def make_world(
    base: Path,
    names: Iterable[str],
    *,
    url_of: object = None,
    log_updates: bool = False,
) -> World:
    """Create remotes and machines, run `memsync init` on each; URL_OF maps a remote to its URL."""
    remotes = base / "remotes"
    private = make_remote(remotes / "private.git", log_updates=log_updates)
    team = make_remote(remotes / "team.git", log_updates=log_updates)
    to_url = url_of if callable(url_of) else str
    private_url, team_url = to_url(private), to_url(team)
    seats = []
    for name in names:
        machine = make_machine(base / "machines", name)
        project = machine.checkout_project()
        machine.init(project, private_url, team_url)
        seats.append(Seat(machine, project))
    return World(base, private, team, private_url, team_url, seats)


def random_body(rng: random.Random, facts: list[str], size: int) -> str:
    """A memory body carrying FACTS, padded with prose to about SIZE bytes."""
    words = ("deploy", "cache", "schema", "review", "flaky", "index", "retry", "token", "shard")
    lines = list(facts)
    total = sum(len(f) for f in facts)
    while total < size:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(6, 14))) + "."
        lines.append(line)
        total += len(line) + 1
    rng.shuffle(lines)
    return "\n".join(lines) + "\n"


def new_memory(seat: Seat, ledger: Ledger, rel: str, rng: random.Random, size: int) -> None:
    """Write a new memory at REL (relative to the live dir) carrying one fresh fact."""
    fact = ledger.fact(seat.machine.name)
    path = seat.live / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(memory_text(Path(rel).stem, random_body(rng, [fact], size)), encoding="utf-8")
    ledger.required[rel] = {fact}
    ledger.deleted.discard(rel)


def append_fact(seat: Seat, ledger: Ledger, rel: str) -> bool:
    """Append a fresh fact line to an existing live file; False when it is not there."""
    path = seat.live / rel
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    fact = ledger.fact(seat.machine.name)
    if not text.endswith("\n"):
        text += "\n"
    path.write_text(text + fact + "\n", encoding="utf-8")
    ledger.required.setdefault(rel, set()).add(fact)
    return True


def delete_memory(seat: Seat, ledger: Ledger, rel: str) -> None:
    """Delete a live file and expect it to stay deleted."""
    (seat.live / rel).unlink(missing_ok=True)
    ledger.required.pop(rel, None)
    ledger.deleted.add(rel)
