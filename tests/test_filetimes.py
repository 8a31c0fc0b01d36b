"""Modification times of files memsync writes into live directories (SPEC §4, CLAUDE-CODE §2)."""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from memsync.sync.filetimes import WriteTimes, stamped_time
from memsync.sync.livefiles import write_live
from testing.gitrepo import git, make_bare_remote

STAMP = datetime(2026, 3, 4, 10, 12, 44, 120000, tzinfo=timezone.utc).timestamp()


@pytest.mark.parametrize(
    "text",
    [
        "---\nname: a\nmetadata:\n  type: project\n  modified: 2026-03-04T10:12:44.120Z\n---\nx\n",
        "---\nname: a\nmetadata:\n  modified: '2026-03-04T10:12:44.120Z'\n---\n",
        '---\nmodified: "2026-03-04T10:12:44.12+00:00"\n---\n',
        "---\r\nmodified: 2026-03-04T11:12:44.120+01:00\r\n---\r\nbody\r\n",
        "\ufeff---\nmodified: 2026-03-04 10:12:44.120 Z\n---\n",
        "---\nmodified: 2026-03-04T10:12:44.120000999Z # the client's stamp\n---\n",
    ],
)
def test_the_stamp_is_read_in_every_form_yaml_and_the_client_write(text: str) -> None:
    assert stamped_time(text.encode("utf-8")) == pytest.approx(STAMP, abs=0.001)


def test_the_nested_stamp_wins_over_a_top_level_one() -> None:
    text = (
        "---\nmodified: 2020-01-01\nmetadata:\n  type: project\n"
        "  modified: 2026-03-04T10:12:44.120Z\nother:\n  modified: 2019-01-01\n---\n"
    )
    assert stamped_time(text.encode()) == pytest.approx(STAMP, abs=0.001)
    date_only = "---\nmodified: 2026-03-04\n---\n"
    assert stamped_time(date_only.encode()) == datetime(2026, 3, 4, tzinfo=timezone.utc).timestamp()


@pytest.mark.parametrize(
    "text",
    [
        "no frontmatter\nmodified: 2026-03-04\n",
        "---\nname: a\n---\nmodified: 2026-03-04\n",  # in the body, not the frontmatter
        "---\nmodified: 2026-03-04\n",  # never closed
        "---\nmodified: yesterday\n---\n",
        "---\nmodified:\n---\n",
        "---\nother:\n  modified: 2026-03-04\n---\n",  # nested, but not under metadata
        # A placeholder, not a time: a pull stamped it 1901-12-13 (the 32-bit floor).
        "---\nmetadata:\n  modified: 0001-01-01T00:00:00Z\n---\n",
        "---\nmodified: 1969-07-20\n---\n",  # before memories existed
    ],
)
def test_no_stamp_is_none(text: str) -> None:
    assert stamped_time(text.encode()) is None


def test_unstamped_files_get_the_author_time_of_their_last_commit(tmp_path: Path) -> None:
    repo = tmp_path / "work"
    git("init", "-q", str(repo), cwd=tmp_path)
    (repo / "proj").mkdir()
    (repo / "proj" / "MEMORY.md").write_text("- [A](a.md) — a\n")
    git("add", ".", cwd=repo)
    env = {**os.environ, "GIT_AUTHOR_DATE": "@1700000000 +0000"}
    git("commit", "-qm", "one", cwd=repo, env=env)
    head = git("rev-parse", "HEAD", cwd=repo).strip()
    times = WriteTimes(repo, head, "proj")
    assert times("MEMORY.md", b"- [A](a.md) - a\n") == 1_700_000_000
    assert times("missing.md", b"x") is None
    assert WriteTimes(repo, None, "proj")("MEMORY.md", b"x") is None
    future = b"---\nmodified: 2999-01-01T00:00:00Z\n---\n"
    assert times("a.md", future) <= time.time()  # a clock ahead elsewhere is not believed


def test_write_live_dates_each_file_before_it_appears(tmp_path: Path) -> None:
    live = tmp_path / "live"
    seen: list[str] = []

    def time_of(path: str, data: bytes) -> float | None:
        seen.append(path)
        return None if path == "now.md" else 1_600_000_000.0

    many = {f"m{i}.md": f"memory {i}\n".encode() for i in range(10)}  # the batched path
    outcome = write_live(live, {**many, "now.md": b"n\n"}, {}, {}, set(), time_of=time_of)
    assert sorted(outcome.written) == sorted([*many, "now.md"])
    assert all((live / p).stat().st_mtime == 1_600_000_000.0 for p in many)
    assert (live / "now.md").stat().st_mtime > 1_600_000_000.0 + 86_400
    assert sorted(seen) == sorted(outcome.written)


def test_a_pull_dates_files_by_their_stamp_or_their_commit(machines, tmp_path: Path) -> None:
    laptop, desktop, _ = machines
    remote = make_bare_remote(tmp_path / "remotes" / "private.git")
    projects = []
    for machine, where in ((laptop, "src/api"), (desktop, "elsewhere/api")):
        project = machine.checkout_project("https://github.com/acme/api", where)
        machine.memsync("init", "--private", remote.as_uri(), "--no-hooks", cwd=project)
        projects.append(project)
    from memsync.model.paths import memory_dir_for

    with laptop.active():
        live = memory_dir_for(projects[0].resolve())
    stamped = "---\nname: a\nmetadata:\n  type: project\n  modified: 2026-03-04T10:12:44.120Z\n"
    stamped += "---\n"
    (live / "a.md").write_text(stamped)
    (live / "b.md").write_text("---\nname: b\ntype: project\n---\nplain\n")
    laptop.memsync("push", cwd=projects[0])
    authored = int(git("log", "-1", "--format=%at", "main", "--", "acme-api/b.md", cwd=remote))
    desktop.memsync("pull", cwd=projects[1])
    with desktop.active():
        other = memory_dir_for(projects[1].resolve())
    assert (other / "a.md").stat().st_mtime == pytest.approx(STAMP, abs=0.001)
    assert (other / "b.md").stat().st_mtime == authored


def test_a_commit_is_dated_by_the_same_stamp_a_pulled_file_gets(tmp_path: Path) -> None:
    from memsync.sync.store import write_time

    # Both stamps: the nested one is the client's (CLAUDE-CODE.md), for commits as for files.
    data = (
        b"---\nname: n\nmodified: 2026-01-01T00:00:00Z\nmetadata:\n"
        b"  type: project\n  modified: 2026-03-01T00:00:00Z\n---\nbody\n"
    )
    path = tmp_path / "n.md"
    path.write_bytes(data)
    os.utime(path, (0, 0))
    march = datetime(2026, 3, 1, tzinfo=timezone.utc).timestamp()
    assert write_time(path, data) == stamped_time(data) == march
    os.utime(path, (2_000_000_000, 2_000_000_000))  # a later file time wins
    assert write_time(path, data) == 2_000_000_000
