"""Real memory files from public repositories (tests/data/realformat) through check, a team
push and concurrent edits on two machines: the client's nested `metadata:` format."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memsync.check.run import run_check
from memsync.model.memory import memory_type, parse_memory
from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine

DATA = Path(__file__).parent / "data" / "realformat"
ORIGIN = "git@github.com:Acme/API.git"
NESTED = sorted((DATA / "nested").glob("*.md"))
OLD = sorted((DATA / "old").glob("*.md"))
USER = sorted((DATA / "user").glob("*.md"))
# What these real files legitimately earn: long index lines from their own indexes, and one
# memory over the 4 KB recall shows.
EXPECTED_WARNINGS = {"index-line-too-long", "memory-over-recall-size"}


def memory_folder(root: Path) -> Path:
    """nested/ and old/ in one directory with their index, as the client keeps them."""
    root.mkdir(parents=True, exist_ok=True)
    for path in [*NESTED, *OLD, DATA / "MEMORY.md"]:
        shutil.copyfile(path, root / path.name)
    return root


def test_the_data_is_what_it_claims() -> None:
    assert len(NESTED) >= 10 and len(OLD) >= 4 and len(USER) == 2
    for path in NESTED:
        fields = parse_memory(path.read_bytes()).fields
        assert memory_type(fields)[1] == ("metadata", "type"), path.name
        assert "type" not in fields, path.name
    for path in OLD:
        assert memory_type(parse_memory(path.read_bytes()).fields)[1] == ("type",), path.name
    for path in USER:
        assert parse_memory(path.read_bytes()).type == "user"
    assert any(b"\r\n" in p.read_bytes() for p in OLD)  # CRLF files stay CRLF
    assert any(b"metadata: \n" in p.read_bytes() for p in NESTED)  # a trailing space
    sources = (DATA / "SOURCES.tsv").read_text(encoding="utf-8").splitlines()[1:]
    listed = {line.split("\t")[0] for line in sources}
    assert listed == {p.relative_to(DATA).as_posix() for p in [*NESTED, *OLD, *USER]}


@pytest.mark.parametrize("scope", ["private", "team"])
def test_check_finds_no_false_errors_in_real_files(tmp_path: Path, scope: str) -> None:
    root = memory_folder(tmp_path / "memory")
    report = run_check(root, scope=scope, cwd=tmp_path)
    assert report.files_checked == len(NESTED) + len(OLD) + 1
    assert [f.describe() for f in report.findings if f.severity == "error"] == []
    assert {f.rule for f in report.findings} <= EXPECTED_WARNINGS
    big = [f for f in report.findings if f.rule == "memory-over-recall-size"]
    assert [f.path for f in big] == ["memory/project_confidence_cbc_normalization_fix.md"]


def test_a_real_nested_user_memory_is_refused_in_team_scope_only(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    for path in USER:
        shutil.copyfile(path, root / path.name)
    private = run_check(root, scope="private", cwd=tmp_path)
    assert not private.has_errors
    team = run_check(root, scope="team", cwd=tmp_path)
    errors = [f for f in team.findings if f.severity == "error"]
    assert {(f.rule, Path(f.path).name) for f in errors} == {("user-in-team", p.name) for p in USER}
    for finding in errors:
        raw = (root / Path(finding.path).name).read_text(encoding="utf-8").split("\n")
        assert raw[finding.line - 1].strip() == "type: user"  # the nested line itself
        assert "`metadata.type: user`" in finding.message


def test_check_json_has_no_python_dates(tmp_path: Path, machines: list[Machine]) -> None:
    root = memory_folder(tmp_path / "memory")
    (root / "stamped.md").write_text(
        "---\nname: s\ndescription: d\nmetadata:\n  type: project\n"
        "  modified: 2026-03-04T10:12:44.120Z\n  since: 2026-03-05\n  enabled: yes\n---\nb\n",
        encoding="utf-8",
    )
    out = machines[0].memsync("check", str(root), "--format", "json", check=False)
    assert "datetime" not in out.stdout and "Traceback" not in out.stderr
    assert json.loads(out.stdout)["counts"]["error"] == 0


# --- two machines and a team remote ---


def _machine(machine: Machine, private: Path, team: Path) -> tuple[Path, Path]:
    project = machine.checkout_project(ORIGIN, "src/api")
    machine.memsync(
        "init", "--private", str(private), "--team", str(team), "--no-hooks", cwd=project
    )
    status = json.loads(machine.memsync("status", "--json", cwd=project).stdout)
    live = Path(next(s["live_dir"] for s in status if s["scope"] == "private"))
    return project, live


def _remote_file(remote: Path, path: str) -> bytes | None:
    listing = git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    if path not in listing:
        return None
    return git("show", f"main:{path}", cwd=remote).encode()


@pytest.fixture
def team_setup(
    tmp_path: Path, machines: list[Machine]
) -> tuple[Machine, Machine, Path, Path, Path, Path, Path]:
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    alice, bob = machines[0], machines[2]
    pa, la = _machine(alice, private, team)
    pb, lb = _machine(bob, private, team)
    return alice, bob, team, pa, la, pb, lb


def test_a_nested_project_memory_reaches_the_team_and_a_nested_user_memory_never_does(
    team_setup: tuple[Machine, Machine, Path, Path, Path, Path, Path],
) -> None:
    alice, bob, team, pa, la, pb, lb = team_setup
    project = DATA / "nested" / "project_human_in_the_loop.md"
    user = USER[0]
    (la / "team").mkdir(exist_ok=True)
    shutil.copyfile(project, la / "team" / project.name)
    pushed = alice.memsync("push", "--scope", "team", cwd=pa)
    assert "no `type`" not in pushed.stdout + pushed.stderr
    assert _remote_file(team, f"acme-api/{project.name}") == project.read_bytes()
    bob.memsync("pull", "--scope", "team", cwd=pb)
    assert (lb / "team" / project.name).read_bytes() == project.read_bytes()

    shutil.copyfile(user, la / "team" / user.name)
    refused = alice.memsync("push", "--scope", "team", cwd=pa, check=False)
    assert refused.returncode == 1
    said = refused.stdout + refused.stderr
    assert user.name in said and "user" in said
    assert _remote_file(team, f"acme-api/{user.name}") is None
    assert not any(user.name in p for p in git("log", "--all", "--name-only", cwd=team).split())


def test_client_files_in_the_memory_directory_are_never_synced_or_reported(
    team_setup: tuple[Machine, Machine, Path, Path, Path, Path, Path],
) -> None:
    alice, bob, _, pa, la, pb, lb = team_setup
    shutil.copyfile(NESTED[0], la / NESTED[0].name)
    owned = {
        ".consolidate-lock": b"4242",
        ".memory-sync": b"{}",
        ".memory-sync-basis": b"{}",
        ".memory-sync.1.stage": b"{}",
        ".draft.md.tmp": b"x",
        "note.md.tmp.1a2b3c4d": b"---\nname: x\n---\n",
        ".hidden/inside.md": b"---\nname: h\n---\n",
        "logs/2026/11/23.md": b"# log\n",
        "sessions/s1.md": b"# session\n",
        "proposals/p1.md": b"# proposal\n",
    }
    for rel, data in owned.items():
        (la / rel).parent.mkdir(parents=True, exist_ok=True)
        (la / rel).write_bytes(data)
    out = alice.memsync("push", cwd=pa)
    status = alice.memsync("status", cwd=pa)
    for rel in owned:
        assert Path(rel).name not in out.stdout + out.stderr + status.stdout, rel
    bob.memsync("pull", cwd=pb)
    assert (lb / NESTED[0].name).is_file()
    for rel in owned:
        assert not (lb / rel).exists(), rel
    # A pull that deletes nothing of the client's own
    (lb / NESTED[0].name).unlink()
    bob.memsync("push", cwd=pb)
    alice.memsync("pull", cwd=pa)
    assert not (la / NESTED[0].name).exists()
    for rel, data in owned.items():
        assert (la / rel).read_bytes() == data, rel


def test_concurrent_edits_of_a_real_nested_memory_converge_with_both(
    team_setup: tuple[Machine, Machine, Path, Path, Path, Path, Path],
) -> None:
    alice, bob, _, pa, la, pb, lb = team_setup
    real = DATA / "nested" / "project_vcs_strategy.md"
    shutil.copyfile(real, la / real.name)
    alice.memsync("push", cwd=pa)
    bob.memsync("pull", cwd=pb)
    original = (lb / real.name).read_text(encoding="utf-8")
    assert "  type: project\n" in original and "modified" not in original
    # A: the client re-types the memory and stamps `modified`.
    a_text = original.replace("  type: project\n", "  type: reference\n", 1)
    a_text = a_text.replace("---\n\n", "  modified: 2026-11-23T09:00:00.000Z\n---\n\n", 1)
    (la / real.name).write_text(a_text, encoding="utf-8")
    # B, later: a body edit with its own, newer `modified` stamp.
    lines = original.split("\n")
    body_at = max(i for i, line in enumerate(lines) if line.strip())
    lines[body_at] += " (edited on bob's machine)"
    b_text = "\n".join(lines).replace("---\n\n", "  modified: 2026-11-23T10:30:00.000Z\n---\n\n", 1)
    (lb / real.name).write_text(b_text, encoding="utf-8")
    alice.memsync("push", cwd=pa)
    bob.memsync("sync", cwd=pb)
    alice.memsync("pull", cwd=pa)
    a_final, b_final = (la / real.name).read_bytes(), (lb / real.name).read_bytes()
    assert a_final == b_final
    merged = parse_memory(a_final)
    assert merged.type == "reference"  # A's type change survives B's newer stamp
    assert "(edited on bob's machine)" in merged.body
    assert merged.modified == "2026-11-23T10:30:00.000Z"
    assert merged.name == parse_memory(real.read_bytes()).name


def test_status_lists_only_what_push_sends_in_a_one_project_store(
    tmp_path: Path, machines: list[Machine]
) -> None:
    """Issue 19: status listed a README.md that push never sends (`--subdir .`)."""
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    project = alice.checkout_project(ORIGIN, "src/api")
    alice.memsync(
        "init",
        "--private",
        str(private),
        "--team",
        str(team),
        "--subdir",
        ".",
        "--no-hooks",
        cwd=project,
    )
    status = json.loads(alice.memsync("status", "--json", cwd=project).stdout)
    team_live = Path(next(s["live_dir"] for s in status if s["scope"] == "team"))
    team_live.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(NESTED[0], team_live / NESTED[0].name)
    (team_live / "README.md").write_text("# About this team memory\n", encoding="utf-8")
    (team_live / ".notes.md").write_text("client-owned\n", encoding="utf-8")
    status = json.loads(alice.memsync("status", "--json", cwd=project).stdout)
    edits = next(s["local_edits"] for s in status if s["scope"] == "team")
    assert edits == [NESTED[0].name]
    alice.memsync("push", "--scope", "team", cwd=project)
    assert _remote_file(team, NESTED[0].name) == NESTED[0].read_bytes()
    assert _remote_file(team, "README.md") != b"# About this team memory\n"
    assert _remote_file(team, ".notes.md") is None
    status = json.loads(alice.memsync("status", "--json", cwd=project).stdout)
    assert next(s["local_edits"] for s in status if s["scope"] == "team") == []
