"""Defects a new user's walkthrough found (docs/WALKTHROUGH.md), through the installed command.

Each test drives the `memsync` console script as a person would and asserts what they read.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, installed, memory_dir, setup_machine
from testing.memories import write_memory


def test_consolidate_dry_run_shows_rewritten_index_lines_before_and_after(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "deploy.md").write_text(
        "---\nname: Deploy freeze\ndescription: no deploys on fridays\n"
        "metadata:\n  type: project\n---\n\nNo deploys on Fridays.\n"
    )
    # A line with no hook of its own is rebuilt from the memory (one with a hook stays).
    old = "- [deploy](deploy.md)"
    (folder / "MEMORY.md").write_text(old + "\n")
    done = installed(alice, "consolidate", str(folder), "--dry-run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    new = "- [Deploy freeze](deploy.md) — no deploys on fridays"
    # Like every other rewritten line: the old one with `-`, the new one with `+`.
    at = lines.index(f"- {old}")
    assert lines[at + 1] == f"+ {new}"
    assert (folder / "MEMORY.md").read_text() == old + "\n"  # a dry run changes nothing
    as_json = installed(alice, "consolidate", str(folder), "--dry-run", "--json", cwd=tmp_path)
    assert '"before": "- [deploy](deploy.md)' in as_json.stdout


def test_hook_mode_escapes_paths_for_the_terminal(machines: list[Machine], tmp_path: Path) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    project = setup_machine(alice, private, team, "src/api")
    team_dir = memory_dir(alice, project) / "team"
    # A personal memory in the team folder is held back, its name in rich markup; a file
    # whose name carries a terminal escape sequence and a bidirectional override is skipped.
    write_memory(team_dir, "me [/b][red].md", "me", "About me.\n", type_="user")
    write_memory(team_dir, "x\x1b[2J\u202ey.md", "x", "X.\n")
    hook_input = json.dumps({"cwd": str(project), "hook_event_name": "SessionEnd"})
    done = installed(alice, "push", "--hook", cwd=project, stdin=hook_input)
    assert done.returncode == 0
    message = json.loads(done.stdout)["systemMessage"]
    for text in (message, done.stderr):
        assert "\x1b" not in text and "\u202e" not in text
        assert "me [/b][red].md" in text  # printed as written, not as markup
        assert "[2J" in text  # the escape sequence is shown, escaped
    assert "not synced: me [/b][red].md" in message
    assert "user-in-team" in message
    # A broken configuration file whose path carries controls: named, escaped, exit 0.
    config = tmp_path / "c\x1b[2J\u202e" / "config.yaml"
    config.parent.mkdir()
    config.write_text("stores: [unclosed\n")
    broken = Machine(alice.name, alice.home, {**alice.env, "MEMSYNC_CONFIG": str(config)})
    done = installed(broken, "pull", "--hook", cwd=project, stdin=hook_input)
    assert done.returncode == 0
    message = json.loads(done.stdout)["systemMessage"]
    for text in (message, done.stderr):
        assert "\x1b" not in text and "\u202e" not in text
        assert "c\\x1b[2J\\u202e" in text and "config.yaml" in text
    assert "Traceback" not in done.stderr


HIDE_PIP = """\
import importlib.abc, sys
class _NoPip(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "pip" or name.startswith("pip."):
            raise ModuleNotFoundError(name)
        return None
sys.meta_path.insert(0, _NoPip())
"""

FAKE_UV = """\
#!/bin/sh
cat > "$(dirname "$0")/asked"
echo "$@" >> "$(dirname "$0")/asked"
echo "error: No solution found when resolving dependencies" >&2
echo "  cause: Because memsync was not found in the package registry and you require" \\
  "memsync==0.0.1, we can conclude that your requirements are unsatisfiable." >&2
exit 1
"""


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands in for uv")
def test_the_spec_is_checked_without_pip_of_its_own(
    machines: list[Machine], tmp_path: Path
) -> None:
    # pipx and `uv tool install` environments have no pip: the check asks uv on PATH.
    alice = machines[0]
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(HIDE_PIP)
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "uv").write_text(FAKE_UV)
    (tools / "uv").chmod(0o755)
    env = {"PYTHONPATH": str(site), "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    pipless = Machine(alice.name, alice.home, {**alice.env, **env})
    repo = tmp_path / "team"
    repo.mkdir()
    done = installed(pipless, "scaffold", str(repo), "--memsync-spec", "memsync==0.0.1", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "memsync==0.0.1" in (tools / "asked").read_text()  # uv got the spec on stdin
    assert "pip compile" in (tools / "asked").read_text()
    warning = " ".join(done.stderr.split())
    assert "the memsync spec 'memsync==0.0.1' may not install in CI" in warning
    assert "uv: Because memsync was not found in the package registry" in warning
    assert "no pip" not in warning


def _token() -> str:
    """A GitHub token made at run time (never committed), from the test corpus' template."""
    import random
    import string

    rng = random.Random(17)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def test_a_held_back_memory_keeps_its_index_line_local(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice, bob = machines[0], machines[2]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    project = setup_machine(alice, private, team, "src/api")
    theirs = setup_machine(bob, private, team, "work/api")
    live = memory_dir(alice, project) / "team"
    write_memory(live, "deploy.md", "deploy", f"Deploy with {_token()}.\n")
    write_memory(live, "style.md", "style", "Use black.\n", type_="feedback")
    index = "- [deploy](deploy.md) — deploy notes\n- [style](style.md) — code style\n"
    (live / "MEMORY.md").write_text(index)
    done = installed(alice, "push", "--scope", "team", cwd=project)
    assert done.returncode == 1
    assert "pushed 2; blocked: deploy.md (secret)" in done.stdout
    pushed = git("show", "main:acme-api/MEMORY.md", cwd=team)
    # The valid memory and its line went out; the held-back one's line stayed with it.
    assert pushed == "- [style](style.md) — code style\n"
    assert (live / "MEMORY.md").read_text() == index  # the live index is as written
    # status lists the held-back file with its fix, and not the index as a pending edit.
    status = installed(alice, "status", "--scope", "team", "--exit-code", cwd=project)
    assert status.returncode == 1
    assert "local      0 edit(s) not yet pushed" in status.stdout
    assert "held back  1 file(s) that push will not send:" in status.stdout
    assert "deploy.md:6: possible secret (github-pat)" in status.stdout, status.stdout
    # A new memory, an edited one and a deleted one: +, ~ and -.
    write_memory(live, "new.md", "new", "New.\n", type_="feedback")
    write_memory(live, "style.md", "style", "Use black, line length 100.\n", type_="feedback")
    signs = installed(alice, "status", "--scope", "team", cwd=project).stdout
    assert "+ new.md" in signs and "~ style.md" in signs, signs
    (live / "new.md").unlink()
    # The teammate's check of what arrived passes: no line links to a missing file.
    installed(bob, "pull", cwd=theirs)
    assert installed(bob, "check", "--scope", "team", cwd=theirs).returncode == 0
    # The teammate adds a memory; pulling it keeps the held-back line in the live index.
    bob_team = memory_dir(bob, theirs) / "team"
    write_memory(bob_team, "ci.md", "ci", "CI runs on main.\n")
    with (bob_team / "MEMORY.md").open("a") as out:
        out.write("- [ci](ci.md) — ci notes\n")
    assert installed(bob, "push", "--scope", "team", cwd=theirs).returncode == 0
    again = installed(alice, "pull", "--scope", "team", cwd=project)
    assert "blocked: deploy.md (secret)" in again.stdout
    lines = (live / "MEMORY.md").read_text().splitlines()
    assert sorted(lines) == sorted([*index.splitlines(), "- [ci](ci.md) — ci notes"])
    assert "deploy" not in git("show", "main:acme-api/MEMORY.md", cwd=team)
    # Fixed: the memory and its index line go out together.
    write_memory(live, "deploy.md", "deploy", "Deploy with the token from the vault.\n")
    fixed = installed(alice, "push", "--scope", "team", cwd=project)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    remote_index = git("show", "main:acme-api/MEMORY.md", cwd=team)
    assert "- [deploy](deploy.md) — deploy notes" in remote_index
    assert "- [ci](ci.md) — ci notes" in remote_index
    assert installed(alice, "status", "--exit-code", cwd=project).returncode == 0
    (live / "ci.md").unlink()
    removed = installed(alice, "status", "--scope", "team", cwd=project).stdout
    assert "- ci.md" in removed, removed


def linter(name: str) -> str:
    """A linter from the test extras; a CI run without it fails instead of skipping."""
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is not installed: `pip install -e '.[test]'` installs it")
        pytest.skip(f"{name} is not installed")
    return found


def test_a_team_repository_scaffolded_by_init_lints_clean(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    project = alice.checkout_project("git@github.com:Acme/API.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    spec = "memsync @ https://example.invalid/memsync-0.1.0-py3-none-any.whl"
    done = installed(
        alice, "init", "--team", str(team), "--no-hooks", "--memsync-spec", spec, cwd=project
    )
    assert done.returncode == 0, done.stderr
    assert "scaffolded the empty team repository" in done.stdout
    # The first push sent the scaffold and the folder's identity record, no memory: said so.
    assert "team (team-team): pushed (the project's folder; no memory yet)" in done.stdout
    clone = tmp_path / "team-clone"
    git("clone", "-q", str(team), str(clone), cwd=tmp_path)
    pre_commit = (clone / ".pre-commit-config.yaml").read_text()
    assert f'additional_dependencies: ["{spec}"]' in pre_commit
    workflows = sorted((clone / ".github" / "workflows").glob("*.yml"))
    assert len(workflows) == 2
    for workflow in workflows:
        assert f'python -m pip install "{spec}"' in workflow.read_text()
    lint = [linter("actionlint"), "-color=false", *map(str, workflows)]
    linted = subprocess.run(lint, capture_output=True, text=True, check=False, cwd=clone)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    audit = [linter("zizmor"), "--offline", "--no-progress", "--color=never", str(clone)]
    audited = subprocess.run(audit, capture_output=True, text=True, check=False)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert "No findings" in audited.stdout + audited.stderr
    # The repository's own check passes on the scaffold (README and dot-folders are not memory).
    checked = installed(alice, "check", "--all", cwd=clone)
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_file_the_disk_will_not_take_is_not_called_unsafe(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice, bob = machines[0], machines[2]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    project = setup_machine(alice, private, team, "src/api")
    theirs = setup_machine(bob, private, team, "work/api")
    write_memory(memory_dir(bob, theirs) / "team", "big.md", "big", "x" * 4000 + "\n")
    assert installed(bob, "push", "--scope", "team", cwd=theirs).returncode == 0
    # The disk takes no file over 2 KB (as when it is full): Python gets EFBIG, not a signal.
    site = tmp_path / "site"
    site.mkdir()
    # Only the soft limit, lifted again at exit: a coverage run saves its data then.
    (site / "sitecustomize.py").write_text(
        "import atexit, resource\n"
        "_, hard = resource.getrlimit(resource.RLIMIT_FSIZE)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (2048, hard))\n"
        "atexit.register(resource.setrlimit, resource.RLIMIT_FSIZE, (hard, hard))\n"
    )
    # No coverage in these runs: its data file is written at exit, and a write cut short by
    # the limit left a malformed database whose traceback the next save printed (seen in CI).
    quiet = {"COVERAGE_PROCESS_CONFIG": "", "COVERAGE_PROCESS_START": ""}
    full = Machine(alice.name, alice.home, {**alice.env, **quiet, "PYTHONPATH": str(site)})
    hook_input = json.dumps({"cwd": str(project), "hook_event_name": "SessionStart"})
    done = installed(full, "pull", "--hook", "--scope", "team", cwd=project, stdin=hook_input)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    message = json.loads(done.stdout)["systemMessage"]
    assert 'could not write 1 file(s) into the memory folder: "big.md"' in message
    assert "cannot write it here: File too large" in message
    assert "unsafe" not in message
    by_hand = installed(full, "pull", "--scope", "team", cwd=project)
    # By hand as in the hook: the folder, the file, why, and what to do (i1's wording).
    assert "into the memory folder" in by_hand.stderr
    assert '"big.md" (cannot write it here: File too large)' in by_hand.stderr
    assert "free space or make the folder writable" in by_hand.stderr
    assert installed(alice, "pull", "--scope", "team", cwd=project).returncode == 0
    assert (memory_dir(alice, project) / "team" / "big.md").is_file()  # the next run finishes


def test_a_warning_on_pull_says_warning_once(machines: list[Machine], tmp_path: Path) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    project = setup_machine(alice, private, None, "src/api")
    write_memory(memory_dir(alice, project), "notes.md", "notes", "We shipped yesterday.\n")
    done = installed(alice, "pull", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "ahead by 1 commit, not pushed: pull never pushes: run `memsync push`" in done.stdout
    assert "  notes.md:6: warning: relative date 'yesterday'" in done.stdout, done.stdout
    assert "warning: notes.md" not in done.stdout
    # `log FILE` of a file with no history says so, not that nothing was ever recorded.
    quiet = installed(alice, "log", "nothere.md", cwd=project)
    assert "no recorded change of nothere.md" in quiet.stdout


def test_no_memory_folder_is_a_usage_error_for_check_and_consolidate(
    machines: list[Machine],
) -> None:
    alice = machines[0]
    project = alice.checkout_project("https://github.com/acme/web")
    for command in ("check", "consolidate"):
        done = installed(alice, command, cwd=project)
        assert done.returncode == 2, (command, done.stderr)
        assert "memory" in done.stderr and "Traceback" not in done.stderr
        assert "PATH" in done.stderr  # the hint says what to pass instead


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script is the server's hook")
def test_a_push_the_server_refuses_quotes_the_server_on_one_line(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    project = setup_machine(alice, private, team, "src/api")
    hook = team / "hooks" / "pre-receive"
    refusal = "GH006: Protected branch update failed for refs/heads/main."
    hook.write_text(f"#!/bin/sh\necho '{refusal}' >&2\nexit 1\n")
    hook.chmod(0o755)
    write_memory(memory_dir(alice, project) / "team", "a.md", "alpha", "A\n")
    done = installed(alice, "push", "--scope", "team", cwd=project)
    assert done.returncode == 1
    [summary] = [line for line in done.stdout.splitlines() if line.startswith("team (")]
    assert (
        "failed: the remote refused the push of main: remote: GH006: Protected branch update "
        "failed for refs/heads/main.; ahead by 1 commit, not pushed: the push failed"
    ) in summary
    assert "use `memsync push --review`" in done.stderr
    hook_input = json.dumps({"cwd": str(project), "hook_event_name": "SessionEnd"})
    quiet = installed(alice, "push", "--hook", "--scope", "team", cwd=project, stdin=hook_input)
    message = json.loads(quiet.stdout)["systemMessage"]
    assert "failed to push some refs" not in message and "  " not in message
    assert message.endswith(
        "(A server-side hook or branch protection said no; use `memsync push --review`.)"
    )


def test_reports_on_stdout_escape_terminal_controls(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    folder = tmp_path / "memory"
    evil = "x\x1b[2J\u202ey.md"
    write_memory(folder, evil, "evil", "We met yesterday.\n")
    runs = [
        ("consolidate", str(folder), "--dry-run"),
        ("consolidate", str(folder), "--dry-run", "--json"),
        ("check", str(folder)),
        ("check", str(folder), "--format", "json"),
        ("check", str(folder), "--format", "sarif"),
        ("check", str(folder), "--format", "github"),
    ]
    for args in runs:
        done = installed(alice, *args, cwd=tmp_path)
        assert "Traceback" not in done.stderr, args
        out = done.stdout + done.stderr
        assert "\x1b" not in out and "\u202e" not in out, args
        if "sarif" in args:
            assert "x%1B%5B2J" in out, args  # a URI: percent-encoded
        else:
            assert "[2J" in out, args  # the name is there, escaped
        if {"--json", "json", "sarif"} & set(args):
            data = json.loads(done.stdout)  # still valid JSON
            if "sarif" not in args:
                name = json.dumps(evil, ensure_ascii=False)[1:-1]
                assert name in json.dumps(data, ensure_ascii=False), args  # the name intact


def test_asking_for_a_team_store_that_is_not_there_is_a_usage_error(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    project = setup_machine(alice, make_bare_remote(tmp_path / "private.git"), None, "src/api")
    write_memory(memory_dir(alice, project), "a.md", "alpha", "A\n")
    for args in (
        ("status", "--scope", "team"),
        ("push", "--scope", "team"),
        ("pull", "--scope", "team"),
        ("push", "--review"),
        ("promote", "a.md"),
    ):
        done = installed(alice, *args, cwd=project)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "team store" in done.stderr and "memsync init --team URL" in done.stderr, args


@pytest.mark.skipif(sys.platform == "win32", reason="shell scripts stand in for installers")
def test_the_spec_check_falls_back_and_gives_up_clearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    from memsync.team import memsyncspec

    sleep = shutil.which("sleep")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)  # no pip of its own
    tools = tmp_path / "bin"
    tools.mkdir()
    monkeypatch.setenv("PATH", str(tools))
    assert memsyncspec.check_spec("memsync==0.0.1", timeout=5) is not None
    assert "neither pip nor uv is available" in str(memsyncspec.check_spec("memsync==0.0.1", 5))
    pip = tools / "pip3"
    pip.write_text(
        "#!/bin/sh\necho 'ERROR: No matching distribution found for memsync==0.0.1'\nexit 1\n"
    )
    pip.chmod(0o755)
    said = str(memsyncspec.check_spec("memsync==0.0.1", timeout=5))
    assert "(pip: No matching distribution found for memsync==0.0.1)" in said
    pip.write_text("#!/bin/sh\nexit 0\n")
    assert memsyncspec.check_spec("memsync==0.0.1", timeout=5) is None
    uv = tools / "uv"
    uv.write_text(f"#!/bin/sh\n{sleep} 5\n")
    uv.chmod(0o755)
    assert "uv did not answer within 1 s" in str(memsyncspec.check_spec("memsync==0.0.1", 1))
