"""Bad input from an adversarial review of the CLI: never a traceback or exit 70, the file
named with what to do, a hook exits 0 and says what happened, nothing lost."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory


def _hook(machine: Machine, command: str, project: Path) -> str:
    done = machine.memsync(
        command, "--hook", cwd=project, stdin=json.dumps({"cwd": str(project)}), check=False
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return str(json.loads(done.stdout)["systemMessage"])


def test_a_file_where_the_memory_folder_belongs_is_named_with_its_fix(
    machines: list[Machine], tmp_path: Path
) -> None:
    """F16: pull and push crashed with FileExistsError (exit 70); the hook said only
    `pull failed: FileExistsError(17, 'File exists'); run memsync pull`."""
    alice = machines[0]
    project = setup_machine(alice, make_bare_remote(tmp_path / "p.git"), None, "src/api")
    live = memory_dir(alice, project)
    write_memory(live, "deploy.md", "deploy", "Deploys go out on Fridays.")
    alice.memsync("push", cwd=project)
    for child in live.iterdir():
        child.unlink()
    live.rmdir()
    live.write_text("i am a file\n")
    for command in ("pull", "push"):
        done = alice.memsync(command, cwd=project, check=False)
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr and "unexpected error" not in done.stderr
        assert f"{live} is a file, not a folder" in done.stderr
        assert "Rename or move" in done.stderr
        message = _hook(alice, command, project)
        assert f"{live} is a file, not a folder" in message, message
        assert "Rename or move" in message
    status = alice.memsync("status", cwd=project, check=False)
    assert "is a file, not a folder" in status.stdout, status.stdout
    assert live.read_text() == "i am a file\n"  # left untouched
    live.unlink()
    alice.memsync("pull", cwd=project)  # the store still has every memory
    assert "Fridays" in (live / "deploy.md").read_text()


def test_a_placeholder_modified_stamp_is_ignored_not_a_crash(
    machines: list[Machine], tmp_path: Path
) -> None:
    """F18: `metadata.modified: 0001-01-01T00:00:00Z` in one memory made `consolidate` crash
    (ValueError: year 0 is out of range, exit 70) for the whole folder, and a pull dated the
    file 1901-12-13."""
    alice, bob = machines[0], machines[1]
    remote = make_bare_remote(tmp_path / "p.git")
    project = setup_machine(alice, remote, None, "src/api")
    live = memory_dir(alice, project)
    write_memory(live, "deploy.md", "deploy", "Deploys go out on Fridays.")
    (live / "t3.md").write_text(
        "---\nname: t3\ndescription: d\nmetadata:\n  type: project\n"
        "  modified: 0001-01-01T00:00:00Z\n---\nWe ship yesterday's build.\n"
    )
    done = alice.memsync("consolidate", str(live), "--dry-run", cwd=project, check=False)
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr and "unexpected error" not in done.stderr
    assert "t3.md" in done.stdout + done.stderr  # the folder was consolidated, t3 included
    alice.memsync("push", cwd=project)
    other = setup_machine(bob, remote, None, "src/api")
    pulled = memory_dir(bob, other) / "t3.md"
    assert "yesterday" in pulled.read_text()
    assert pulled.stat().st_mtime > 946684800  # 2000-01-01: the commit's time, not 1901


def test_scaffold_with_a_file_where_a_folder_belongs_names_it(
    machines: list[Machine], tmp_path: Path
) -> None:
    """F6: `.github/workflows` a file made `memsync scaffold DIR` crash (FileExistsError,
    exit 70); the rest of the scaffold was half written."""
    alice = machines[0]
    repo = tmp_path / "team"
    (repo / ".github").mkdir(parents=True)
    (repo / ".github" / "workflows").write_text("garbage\n")
    done = alice.memsync("scaffold", str(repo), "--memsync-spec", "memsync", check=False)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "unexpected error" not in done.stderr
    assert f"{repo / '.github' / 'workflows'} is a file, not a folder" in done.stderr
    assert "Move or rename it" in done.stderr
    assert (repo / ".github" / "workflows").read_text() == "garbage\n"
    assert sorted(p.name for p in repo.rglob("*")) == [".github", "workflows"]  # nothing written
    if Path("/proc/self").is_dir():  # a folder no file can be written into
        done = alice.memsync("scaffold", "/proc/self", "--memsync-spec", "memsync", check=False)
        assert done.returncode == 1, done.stderr
        assert "unexpected error" not in done.stderr and "/proc/self" in done.stderr


def test_deeply_nested_json_is_not_json(machines: list[Machine], tmp_path: Path) -> None:
    """F10: a deeply nested settings.json made `hooks install` crash (RecursionError, exit
    70); fed to a hook it said `pull failed: RecursionError(...)`, as an over-long `cwd` said
    `pull failed: OSError(36, 'File name too long')`."""
    alice = machines[0]
    project = setup_machine(alice, make_bare_remote(tmp_path / "p.git"), None, "src/api")
    settings = alice.claude_dir / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    nested = "[" * 100_000 + "]" * 100_000
    settings.write_text(nested)
    done = alice.memsync("hooks", "install", cwd=project, check=False)
    assert done.returncode == 1, done.stderr
    assert "unexpected error" not in done.stderr and "Traceback" not in done.stderr
    assert f"{settings}: not valid JSON" in done.stderr and "left it untouched" in done.stderr
    assert settings.read_text() == nested
    live = memory_dir(alice, project)
    write_memory(live, "deploy.md", "deploy", "Deploys go out on Fridays.")
    for stdin in (nested, json.dumps({"cwd": "x" * 5000})):
        done = alice.memsync("push", "--hook", cwd=project, stdin=stdin, check=False)
        assert done.returncode == 0, done.stderr
        assert "failed" not in done.stdout + done.stderr, done.stdout + done.stderr
        assert "Error" not in done.stdout + done.stderr


def test_a_hook_with_an_option_it_does_not_know_exits_0_and_says_so(
    machines: list[Machine], tmp_path: Path
) -> None:
    """F17: `pull --hook --bogus` (a hand-edited hook, or one a newer memsync wrote) exited 2
    with a usage box and said nothing to the person; a hook always exits 0."""
    alice = machines[0]
    project = setup_machine(alice, make_bare_remote(tmp_path / "p.git"), None, "src/api")
    cases = {
        ("pull", "--hook", "--bogus"): "--bogus",
        ("pull", "--hook", "--scope", "nope"): "nope",
        ("push", "--hook", "--scope"): "--scope",
        ("push", "--hook", "-m"): "-m",
    }
    for args, named in cases.items():
        done = alice.memsync(*args, cwd=project, stdin="{}", check=False)
        assert done.returncode == 0, (args, done.stderr)
        assert "Traceback" not in done.stderr and "Usage:" not in done.stderr
        message = json.loads(done.stdout)["systemMessage"]
        assert f"`memsync {' '.join(args)}`" in message, message
        assert named in message and "nothing was synced" in message
        assert "memsync hooks install" in message
        assert named in done.stderr


def test_an_invalid_config_gives_only_advice_that_works(
    machines: list[Machine], tmp_path: Path
) -> None:
    """F-cfg: every command said "fix that key by hand, or run `memsync init` again", and
    `memsync init` refused with the same message."""
    alice = machines[0]
    remote = make_bare_remote(tmp_path / "p.git")
    project = setup_machine(alice, remote, None, "src/api")
    config = Path(alice.env["MEMSYNC_CONFIG"])
    text = config.read_text()
    assert "pull_timeout: 10.0" in text
    config.write_text(text.replace("pull_timeout: 10.0", "pull_timeout: ten"))
    for args in (("status",), ("init", "--private", str(remote), "--no-hooks")):
        done = alice.memsync(*args, cwd=project, check=False)
        assert done.returncode == 2, done.stderr
        assert f"the config file {config} is invalid: `settings.pull_timeout`" in done.stderr
        assert "Else move it away and run `memsync init` again" in done.stderr, done.stderr
        assert "or run `memsync init` again" not in done.stderr
    config.rename(config.with_name("config.yaml.broken"))  # the advice, followed
    alice.memsync("init", "--private", str(remote), "--no-hooks", cwd=project)
    assert alice.memsync("status", cwd=project).returncode == 0


def _deny_reading(tmp_path: Path, name: str) -> dict[str, str]:
    """An environment whose memsync cannot open files named NAME (tests run as root, where
    chmod 000 does not bind)."""
    site = tmp_path / "inject"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(
        "import errno, os\n"
        "real = os.open\n"
        "def open_(path, *a, **k):\n"
        f"    if os.fspath(path).endswith('/{name}'):\n"
        "        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)\n"
        "    return real(path, *a, **k)\n"
        "os.open = open_\n"
    )
    return {"PYTHONPATH": f"{site}:{Path(__file__).resolve().parent.parent}"}


def test_each_skipped_file_gets_its_own_reason_and_fix(
    machines: list[Machine], tmp_path: Path
) -> None:
    """F7: the hook said `"fifo.md", "huge5mb.md" (not a regular file)`, one reason for a mixed
    group; F8: `status` told to rename or remove an unreadable file (`unsafe-path`), where the
    fix is its permissions; F13: an oversized MEMORY.md got a memory's fix ("split the
    memory", "team memories") where `memsync consolidate` is the fix."""
    import os
    import subprocess
    import sys

    alice = machines[0]
    project = setup_machine(alice, make_bare_remote(tmp_path / "p.git"), None, "src/api")
    live = memory_dir(alice, project)
    write_memory(live, "deploy.md", "deploy", "Deploys go out on Fridays.")
    os.mkfifo(live / "fifo.md")
    big = "---\nname: h\ndescription: h\nmetadata:\n  type: project\n---\n" + "y" * 260_000
    (live / "huge.md").write_text(big)
    (live / "MEMORY.md").write_text("- [Deploy](deploy.md) — " + "x" * 260_000 + "\n")
    write_memory(live, "locked.md", "locked", "Unreadable body.")
    env = {**os.environ, **alice.env, **_deny_reading(tmp_path, "locked.md")}

    def memsync(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "memsync", *args],
            cwd=project,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    hook = memsync("push", "--hook", stdin=json.dumps({"cwd": str(project)}))
    assert hook.returncode == 0, hook.stderr
    message = json.loads(hook.stdout)["systemMessage"]
    lines = message.splitlines()
    fifo = next(line for line in lines if '"fifo.md"' in line)
    assert "huge.md" not in fifo and "not a regular file" in fifo, message
    huge = next(line for line in lines if '"huge.md"' in line)
    assert "over 250,000 bytes" in huge and "split the memory" in huge, message
    locked = next(line for line in lines if '"locked.md"' in line)
    assert "Permission denied" in locked and "readable" in locked, message
    index = next(line for line in lines if '"MEMORY.md"' in line)
    assert "memsync consolidate" in index and "split the memory" not in index, message
    status = memsync("status").stdout
    assert "locked.md:1: unreadable (Permission denied)" in status, status
    fix = status.split("locked.md:1:", 1)[1].split("fix:", 1)[1].splitlines()[0]
    assert "readable" in fix and "Rename or remove" not in fix, status
    fix = status.split("MEMORY.md:1:", 1)[1].split("fix:", 1)[1].splitlines()[0]
    assert "memsync consolidate" in fix and "team memories" not in fix, status


def test_an_index_link_out_of_the_folder_is_unsafe_not_missing(
    machines: list[Machine], tmp_path: Path
) -> None:
    """F9: `check` said a `../outside.md` or absolute index link points to a file that "does
    not exist" (it exists) and advised to "restore it"."""
    folder = tmp_path / "p" / "memory"
    write_memory(folder, "a1.md", "a1", "body a1")
    write_memory(folder.parent, "outside.md", "outside", "x")
    (folder / "MEMORY.md").write_text(
        f"- [A1](a1.md) — first\n- [Out](../outside.md) — x\n"
        f"- [Abs]({folder.parent / 'outside.md'}) — y\n- [Gone](gone.md) — z\n"
    )
    done = machines[0].memsync("check", str(folder), cwd=tmp_path, check=False)
    assert done.returncode == 1, done.stderr
    out = done.stdout + done.stderr
    for number, target in ((2, "../outside.md"), (3, str(folder.parent / "outside.md"))):
        line = next(x for x in out.splitlines() if f"MEMORY.md:{number}:" in x)
        assert f"links to {target}, outside the memory folder" in line, out
        assert "does not exist" not in line and "[index-outside-link]" in line
    gone = next(x for x in out.splitlines() if "MEMORY.md:4:" in x)
    assert "gone.md, which does not exist" in gone  # a missing file is still that


def test_a_held_back_file_is_not_reported_as_edited_during_the_sync(
    machines: list[Machine], tmp_path: Path
) -> None:
    """F13: a synced file an edit made unsafe (an index over 250,000 bytes, a memory turned
    into a symlink) was reported "1 file edited during the sync kept as you left it" by a
    push nothing else ran beside."""
    alice = machines[0]
    project = setup_machine(alice, make_bare_remote(tmp_path / "p.git"), None, "src/api")
    live = memory_dir(alice, project)
    write_memory(live, "a1.md", "a1", "body a1")
    (live / "MEMORY.md").write_text("- [A1](a1.md) — first\n")
    alice.memsync("push", cwd=project)
    (live / "MEMORY.md").write_text("- [A1](a1.md) — " + "x" * 260_000 + "\n")
    (live / "a1.md").unlink()
    (live / "a1.md").symlink_to(tmp_path / "p.git" / "HEAD")
    done = alice.memsync("push", cwd=project, check=False)
    out = done.stdout + done.stderr
    assert "edited during the sync" not in out, out
    assert "skipped MEMORY.md: over 250,000 bytes" in out and "skipped a1.md" in out, out
    assert (live / "MEMORY.md").stat().st_size > 260_000 and (live / "a1.md").is_symlink()


def test_a_deeply_nested_scaffold_record_is_no_record(
    machines: list[Machine], tmp_path: Path
) -> None:
    """Same class as F10: `.memsync/scaffold.json` nested thousands deep is read as no
    record (as any other unreadable record), not a RecursionError (exit 70)."""
    repo = tmp_path / "team"
    (repo / ".memsync").mkdir(parents=True)
    (repo / ".memsync" / "scaffold.json").write_text("[" * 100_000 + "]" * 100_000)
    done = machines[0].memsync(
        "scaffold", str(repo), "--dry-run", "--memsync-spec", "memsync", check=False
    )
    assert done.returncode == 0, done.stderr
    assert "unexpected error" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("kind", ["a folder", "a FIFO"])
def test_consolidate_names_a_folder_or_fifo_where_the_index_goes(
    machines: list[Machine], tmp_path: Path, kind: str
) -> None:
    """h3: `MEMORY.md` a folder made `consolidate --yes` crash (exit 70, IsADirectoryError on
    the rename of its new index) after planning an index entry for `MEMORY.md/inner.md`; a
    FIFO there was replaced by a file. Now the folder is left as it is, named with the fix."""
    live = tmp_path / "memory"
    write_memory(live, "deploy.md", "deploy", "Deploys go out on Fridays.")
    write_memory(live, "dupa.md", "dupa", "identical body\n")
    write_memory(live, "dupb.md", "dupb", "identical body\n")
    index = live / "MEMORY.md"
    if kind == "a folder":
        write_memory(index, "inner.md", "inner", "A memory inside the folder.")
    else:
        os.mkfifo(index)
    before = sorted((p.relative_to(live).as_posix(), p.is_file()) for p in live.rglob("*"))
    done = machines[0].memsync("consolidate", str(live), "--yes", check=False)
    said = done.stdout + done.stderr
    assert done.returncode in (0, 1) and "Traceback" not in said, said
    assert "unexpected error" not in said
    assert f"{index} is {kind} where consolidation keeps a file: rename or move it" in said, said
    assert sorted((p.relative_to(live).as_posix(), p.is_file()) for p in live.rglob("*")) == before
    if kind == "a folder":
        assert "A memory inside the folder." in (index / "inner.md").read_text()
    else:
        assert stat.S_ISFIFO(index.lstat().st_mode)


def test_a_case_twin_skipped_here_and_in_the_store_is_named_once(
    machines: list[Machine], tmp_path: Path
) -> None:
    """h3: a teammate's `Testing.md` pushed with plain git beside the team's `testing.md`:
    from the second session start on, the hook listed the skipped twin twice (`skipped 2
    unsafe file(s): "testing.md", "testing.md"`), once as a live file, once as a store file."""
    alice = machines[0]
    team = make_bare_remote(tmp_path / "team.git")
    project = setup_machine(alice, make_bare_remote(tmp_path / "p.git"), team, "src/api")
    write_memory(memory_dir(alice, project) / "team", "testing.md", "testing", "Real db.\n")
    alice.memsync("push", cwd=project)
    work = tmp_path / "plain"
    git("clone", "-q", str(team), str(work), cwd=tmp_path)
    twin = next(p for p in work.rglob("testing.md") if ".git" not in p.parts)
    twin.with_name("Testing.md").write_text(twin.read_text().replace("Real db.", "Upper twin."))
    git("add", ".", cwd=work)
    git("commit", "-q", "-m", "twin", cwd=work)
    git("push", "-q", "origin", "HEAD:main", cwd=work)
    for _ in range(2):
        message = _hook(alice, "pull", project)
        # The newcomer is the one skipped: the long-synced name keeps its file (h3 found the
        # long-synced one skipped, because `T` sorts before `t`).
        said = 'skipped 1 unsafe file(s): "Testing.md" (differs only by case from testing.md'
        assert said in message, message
    live = memory_dir(alice, project) / "team"
    assert "Real db." in next(live.rglob("testing.md")).read_text()
    assert not list(live.rglob("Testing.md"))
