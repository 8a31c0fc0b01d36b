"""Hostile input through the commands a person and the hooks run (review m1): never a
traceback, the file named with what to do, nothing lost or rewritten behind the person's back."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from testing.gitrepo import git
from testing.machines import Machine, memory_dir, remote_files, setup_machine
from testing.memories import write_memory

LATIN1_LINE = b"- Notes from the caf\xe9 meeting\n"


def _bad_byte(before: bytes) -> int:
    """Where LATIN1_LINE's bad byte lands after the bytes BEFORE it."""
    return len(before) + LATIN1_LINE.index(b"\xe9")


def test_consolidate_leaves_a_folder_whose_index_is_not_utf8(
    machines: list[Machine], tmp_path: Path
) -> None:
    """m1: `consolidate --yes` rewrote a Latin-1 `MEMORY.md` with U+FFFD in place of each
    byte it could not read (the person's text lost; sync holds such an index back). Now the
    folder is left as it is and the index is named with the fix."""
    live = tmp_path / "memory"
    write_memory(live, "deploy.md", "deploy", "Deploys go out on Fridays.")
    write_memory(live, "dupa.md", "dupa", "identical body\n")
    write_memory(live, "dupb.md", "dupb", "identical body\n")
    index = live / "MEMORY.md"
    good = b"- [deploy](deploy.md) \xe2\x80\x94 Fridays\n"
    index.write_bytes(good + LATIN1_LINE)
    before = {p.name: p.read_bytes() for p in live.iterdir()}
    done = machines[0].memsync("consolidate", str(live), "--yes", check=False)
    said = done.stdout + done.stderr
    assert done.returncode in (0, 1) and "Traceback" not in said, said
    assert f"{index} is not valid UTF-8 (line 2, byte {_bad_byte(good)})" in said, said
    assert "save it as UTF-8, then consolidate again" in said, said
    assert {p.name: p.read_bytes() for p in live.iterdir()} == before


def test_consolidate_leaves_a_folder_whose_archived_index_lines_are_not_utf8(
    machines: list[Machine], tmp_path: Path
) -> None:
    """m1: the same for `archive/index-lines.md`, which consolidation rewrites too."""
    live = tmp_path / "memory"
    write_memory(live, "deploy.md", "deploy", "Deploys go out on Fridays.")
    (live / "MEMORY.md").write_text("- [gone](gone.md) — dangling\n", encoding="utf-8")
    lines = live / "archive" / "index-lines.md"
    lines.parent.mkdir()
    good = b"# Index lines\n\n"
    lines.write_bytes(good + LATIN1_LINE)
    before = {p.relative_to(live).as_posix(): p.read_bytes() for p in live.rglob("*.md")}
    done = machines[0].memsync("consolidate", str(live), "--yes", check=False)
    said = done.stdout + done.stderr
    assert "Traceback" not in said, said
    assert f"{lines} is not valid UTF-8 (line 3, byte {_bad_byte(good)})" in said, said
    after = {p.relative_to(live).as_posix(): p.read_bytes() for p in live.rglob("*.md")}
    assert after == before


def test_promote_refuses_an_index_that_is_not_utf8_and_moves_nothing(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """m1: `promote` rewrote a Latin-1 private `MEMORY.md` without its line, every byte it
    could not read turned into U+FFFD, and pushed it (sync holds such an index back). Now it
    refuses before moving anything and names the index with the fix; so for the team index."""
    private, team = remotes
    alice = machines[0]
    project = setup_machine(alice, private, team, "src/api")
    live = memory_dir(alice, project)
    write_memory(live, "policy.md", "policy", "Use the real database in tests.\n")
    write_memory(live / "team", "build.md", "build", "Run make test.\n")
    (live / "team" / "MEMORY.md").write_text("- [build](build.md) — make test\n")
    alice.memsync("push", cwd=project)
    for index in (live / "MEMORY.md", live / "team" / "MEMORY.md"):
        good = index.read_bytes() if index.exists() else b""
        raw = b"- [policy](policy.md) \xe2\x80\x94 real DB\n" + LATIN1_LINE
        index.write_bytes(raw if index.parent == live else good + LATIN1_LINE)
        before = {p.relative_to(live).as_posix(): p.read_bytes() for p in live.rglob("*.md")}
        done = alice.memsync("promote", "policy.md", cwd=project, check=False)
        said = done.stdout + done.stderr
        assert done.returncode == 1 and "Traceback" not in said, said
        assert f"{index} is not valid UTF-8 (line 2, byte" in said, said
        assert "nothing was moved" in said and "Save it as UTF-8" in said, said
        after = {p.relative_to(live).as_posix(): p.read_bytes() for p in live.rglob("*.md")}
        assert after == before
        assert not any(f.endswith("policy.md") for f in remote_files(team))
        index.write_bytes(good)


def test_the_merge_driver_keeps_an_index_that_is_not_utf8_and_stops(tmp_path: Path) -> None:
    """m1: `merge-file` (the team repository's git merge driver) merged a `MEMORY.md` with a
    Latin-1 line on one side, wrote U+FFFD in place of the byte and exited 0: git committed
    the loss. Now OURS is left as it is and the merge stops (exit 1) naming the fix."""
    from testing.machines import make_machine

    machine = make_machine(tmp_path / "machines", "alice")
    a, b, c = (f"- [{n}]({n}.md) \u2014 {n}\n".encode() for n in ("a", "b", "c"))
    base = tmp_path / "base.md"
    base.write_bytes(a + b)
    ours, theirs = tmp_path / "ours.md", tmp_path / "theirs.md"
    cases = (("our", a + LATIN1_LINE + b, a + b + c), ("their", a + b + c, a + b + LATIN1_LINE))
    for bad_side, ours_raw, theirs_raw in cases:
        ours.write_bytes(ours_raw)
        theirs.write_bytes(theirs_raw)
        done = machine.memsync(
            "merge-file", str(base), str(ours), str(theirs), "--path", "MEMORY.md",
            cwd=tmp_path, check=False,
        )  # fmt: skip
        said = done.stdout + done.stderr
        assert done.returncode == 1 and "Traceback" not in said, said
        assert f"MEMORY.md: {bad_side} version is not valid UTF-8 (line " in said, said
        assert "kept our version as it is" in said and "save it as UTF-8" in said, said
        assert ours.read_bytes() == ours_raw


@pytest.fixture
def nests() -> Iterator[list[Path]]:
    """Folders `_nest` made: removed bottom-up at the end, as pytest's own cleanup of the
    temporary folder (shutil.rmtree) recurses once per level and would fail the session."""
    made: list[Path] = []
    yield made
    for top in made:
        here = top
        while (here / "d").is_dir():
            here = here / "d"
        while True:
            for child in here.iterdir():
                child.unlink()
            here.rmdir()
            if here == top:
                break
            here = here.parent


def _nest(top: Path, depth: int, made: list[Path]) -> Path:
    """A folder DEPTH levels below TOP (`d/d/…`), made one level at a time: Path.mkdir's
    parents=True recurses once per level and would itself exhaust the recursion limit."""
    made.append(top / "d")
    here = top
    for _ in range(depth):
        here = here / "d"
        os.mkdir(here)
    return here


def _hook(machine: Machine, command: str, project: Path) -> str:
    done = machine.memsync(
        command, "--hook", cwd=project, stdin=json.dumps({"cwd": str(project)}), check=False
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return str(json.loads(done.stdout).get("systemMessage", ""))


def test_a_folder_nested_a_thousand_deep_is_skipped_not_a_crash(
    machines: list[Machine], remotes: tuple[Path, Path], nests: list[Path]
) -> None:
    """m1: a folder nested 1,100 levels deep in the memory folder made `check`, `status`,
    `diff`, `push` and `pull` crash with RecursionError (exit 70; the hooks said only
    `push failed: RecursionError(…); run memsync push`, which failed again). Now the folder
    is skipped and named, and every other memory syncs."""
    private, team = remotes
    alice, _, bob = machines
    project = setup_machine(alice, private, team, "src/api")
    live = memory_dir(alice, project)
    (live / "deep").mkdir()
    deep = _nest(live / "deep", 1100, nests)
    write_memory(deep, "buried.md", "buried", "Too deep to sync.\n")
    write_memory(live, "deploy.md", "deploy", "Deploys go out on Fridays.\n")
    (live / ".memsync-writing").touch()  # a run killed while writing: the next one sweeps
    for command in ("check", "status", "diff", "push", "pull"):
        done = alice.memsync(command, cwd=project, check=False)
        said = done.stdout + done.stderr
        assert done.returncode in (0, 1) and "RecursionError" not in said, (command, said)
        assert "unexpected error" not in said, (command, said)
    said = alice.memsync("check", cwd=project, check=False).stdout
    assert "nested more than 64 folders deep: memsync never syncs it [unsafe-path]" in said
    assert "nested more than 64 folders deep" in _hook(alice, "push", project)
    assert "nested more than 64 folders deep" in _hook(alice, "pull", project)
    assert any(f.endswith("deploy.md") for f in remote_files(private))
    assert not any("buried" in f for f in remote_files(private))
    assert (deep / "buried.md").read_text().endswith("Too deep to sync.\n")
    bob_project = setup_machine(bob, private, team, "projects/api")
    assert "Fridays" in (memory_dir(bob, bob_project) / "deploy.md").read_text()


def test_a_memory_nested_a_thousand_deep_from_a_teammate_is_skipped(
    machines: list[Machine], remotes: tuple[Path, Path], tmp_path: Path, nests: list[Path]
) -> None:
    """m1: a teammate's plain-git push of a memory 1,100 folders deep made every pull of
    the team store crash (RecursionError in the folder's mkdir; the session start said
    `pull failed: RecursionError(…)`) for everyone, for good. Now that file is skipped and
    named, and the rest of the push arrives."""
    private, team = remotes
    alice = machines[0]
    project = setup_machine(alice, private, team, "src/api")
    work = tmp_path / "plain"
    git("clone", "-q", str(team), str(work), cwd=tmp_path)
    folder = next(p for p in work.iterdir() if p.is_dir() and p.name != ".git")
    (folder / "deep").mkdir()
    write_memory(_nest(folder / "deep", 1100, nests), "buried.md", "buried", "Deep.\n")
    write_memory(folder, "build.md", "build", "Run make test.\n")
    (work / "lost").mkdir()  # a folder holding nothing but the nest (no project's folder)
    write_memory(_nest(work / "lost", 1100, nests), "lost.md", "lost", "Deeper still.\n")
    git("add", ".", cwd=work)
    git("commit", "-q", "-m", "deep", cwd=work)
    git("push", "-q", "origin", "HEAD:main", cwd=work)
    message = _hook(alice, "pull", project)
    assert "nested more than 64 folders deep" in message, message
    team_live = memory_dir(alice, project) / "team"
    assert "make test" in (team_live / "build.md").read_text()
    assert not (team_live / "deep").exists()
    for command, where in (("status", project), ("check", project), ("push", project)):
        done = alice.memsync(command, cwd=where, check=False)
        said = done.stdout + done.stderr
        assert done.returncode in (0, 1) and "unexpected error" not in said, (command, said)
    done = alice.memsync("check", "--all", cwd=work, check=False)  # the team's CI check
    said = done.stdout + done.stderr
    assert done.returncode == 1 and "unexpected error" not in said, said
    assert "nested more than 64 folders deep" in said, said
    done = alice.memsync("consolidate", ".", "--all", "--dry-run", cwd=work, check=False)
    said = done.stdout + done.stderr  # the team's weekly consolidation: it crashed (rglob)
    assert done.returncode == 0 and "unexpected error" not in said, said
    assert "nested more than 64 folders deep" in said, said


def test_a_teammates_index_that_is_not_utf8_is_merged_and_said(
    machines: list[Machine], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    """m1: a teammate's plain-git push added a Latin-1 line to the team `MEMORY.md` while
    this machine added a line of its own: the sync merged them with U+FFFD in place of the
    byte and pushed that, without a word. The merge still goes through (both lines kept, no
    marker), and now says so with the fix, at the command line and in the hook."""
    private, team = remotes
    alice = machines[0]
    project = setup_machine(alice, private, team, "src/api")
    team_live = memory_dir(alice, project) / "team"
    write_memory(team_live, "build.md", "build", "Run make test.\n")
    (team_live / "MEMORY.md").write_text("- [build](build.md) — make test\n")
    alice.memsync("push", cwd=project)
    work = tmp_path / "plain"
    git("clone", "-q", str(team), str(work), cwd=tmp_path)
    index = next(p for p in work.rglob("MEMORY.md") if ".git" not in p.parts)
    index.write_bytes(index.read_bytes() + LATIN1_LINE)
    git("commit", "-q", "-am", "latin-1 line", cwd=work)
    git("push", "-q", "origin", "HEAD:main", cwd=work)
    with (team_live / "MEMORY.md").open("a") as out:
        out.write("- Alice's own note\n")
    message = _hook(alice, "push", project)
    said = "MEMORY.md: their version is not valid UTF-8 (line 2, byte"
    assert said in message and "put the right letters back" in message, message
    merged = git("show", "main:" + index.relative_to(work).as_posix(), cwd=team)
    assert "Alice's own note" in merged and "Notes from the caf\ufffd meeting" in merged
    assert "<<<<<<<" not in merged


def test_a_config_file_that_is_not_utf8_is_named_with_line_and_fix(
    machines: list[Machine], tmp_path: Path
) -> None:
    """m1: a Latin-1 comment in the config file gave `cannot read the config file …:
    'utf-8' codec can't decode byte 0xe9 in position 1185: invalid continuation byte`, with
    no fix, on every command and session start. Now the line, and the fix."""
    from testing.gitrepo import make_bare_remote

    alice = machines[0]
    project = setup_machine(alice, make_bare_remote(tmp_path / "p.git"), None, "src/api")
    config = Path(alice.env["MEMSYNC_CONFIG"])
    good = config.read_bytes()
    config.write_bytes(good + b"# set up in the caf\xe9\n")
    line = good.count(b"\n") + 1
    said = f"cannot read the config file {config}: not valid UTF-8 (line {line}, byte"
    done = alice.memsync("status", cwd=project, check=False)
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert "Save it as UTF-8, then run the command again." in done.stderr
    message = _hook(alice, "pull", project)
    assert said in message and "Save it as UTF-8" in message, message
    assert config.read_bytes().startswith(good)  # left for the person to fix


@pytest.mark.parametrize("kind", ["a folder", "not a regular file"])
def test_promote_refuses_a_folder_or_fifo_where_an_index_goes(
    machines: list[Machine], remotes: tuple[Path, Path], kind: str
) -> None:
    """m1: a folder named `team/MEMORY.md` made `promote` crash (exit 70, IsADirectoryError);
    a FIFO there made it hang for good. Now it refuses before moving anything, naming it."""
    private, team = remotes
    alice = machines[0]
    project = setup_machine(alice, private, team, "src/api")
    live = memory_dir(alice, project)
    write_memory(live, "policy.md", "policy", "Use the real database in tests.\n")
    alice.memsync("push", cwd=project)
    for index in (live / "team" / "MEMORY.md", live / "MEMORY.md"):
        index.unlink(missing_ok=True)
        index.parent.mkdir(exist_ok=True)
        index.mkdir() if kind == "a folder" else os.mkfifo(index)
        done = alice.memsync("promote", "policy.md", cwd=project, check=False)
        said = done.stdout + done.stderr
        assert done.returncode == 1 and "unexpected error" not in said, said
        assert f"{index} is {kind} where promote keeps an index, nothing was moved" in said
        assert f"Rename or move {index}" in said, said
        assert (live / "policy.md").is_file() and not (live / "team" / "policy.md").exists()
        index.rmdir() if kind == "a folder" else index.unlink()
