"""Merges through the real CLI on two machines: one sentence from two edits, decisions seen."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, memory_dir, remote_files, setup_machine
from testing.memories import write_memory


@pytest.fixture
def pair(machines: list[Machine], tmp_path: Path) -> tuple[Machine, Path, Machine, Path]:
    """Two machines sharing one private and one team store, both holding one memory."""
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    alice, _, bob = machines
    pa = setup_machine(alice, private, team, "src/api")
    pb = setup_machine(bob, private, team, "projects/acme/api")
    write_memory(
        memory_dir(alice, pa),
        "setup.md",
        "setup",
        "Setup: run `pnpm install`.\nThen start the dev server.\n",
        description="how to set up the repo",
    )
    alice.memsync("push", cwd=pa)
    bob.memsync("pull", cwd=pb)
    return alice, pa, bob, pb


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_two_edits_to_one_sentence_give_one_sentence_on_both_machines(
    pair: tuple[Machine, Path, Machine, Path],
) -> None:
    alice, pa, bob, pb = pair
    replace(
        memory_dir(alice, pa) / "setup.md", "`pnpm install`", "`pnpm install --frozen-lockfile`"
    )
    replace(memory_dir(bob, pb) / "setup.md", "install`.", "install`. Node 22 is required.")
    alice.memsync("push", cwd=pa)
    bob.memsync("sync", cwd=pb)
    alice.memsync("pull", cwd=pa)
    expected = "Setup: run `pnpm install --frozen-lockfile`. Node 22 is required.\n"
    for machine, project in ((alice, pa), (bob, pb)):
        text = (memory_dir(machine, project) / "setup.md").read_text()
        assert text.endswith(expected + "Then start the dev server.\n"), text
        assert text.count("Setup:") == 1


def test_a_dropped_value_is_in_the_commit_the_log_and_the_hook_message(
    pair: tuple[Machine, Path, Machine, Path],
) -> None:
    alice, pa, bob, pb = pair
    replace(memory_dir(bob, pb) / "setup.md", "how to set up the repo", "bob's wording")
    bob.memsync("push", cwd=pb)
    time.sleep(1.1)  # commit times have one-second resolution: alice's change is newer
    replace(memory_dir(alice, pa) / "setup.md", "how to set up the repo", "alice's wording")
    hook = alice.memsync(
        "pull", "--hook", cwd=pa, stdin=json.dumps({"hook_event_name": "SessionStart"})
    )
    message = json.loads(hook.stdout)["systemMessage"]
    [line] = [line for line in message.splitlines() if "merge:" in line]
    assert line.startswith("memsync: private: merge: setup.md (description): both sides changed")
    assert 'kept "alice\'s wording", lost "bob\'s wording"' in line
    decision = line.removeprefix("memsync: private: merge: ").split(" (`memsync log`")[0]
    assert f"merge: {decision}" in alice.memsync("log", cwd=pa).stdout
    entries = json.loads(alice.memsync("log", "--json", cwd=pa).stdout)
    assert [e["decisions"] for e in entries if e["decisions"]] == [[decision]]
    # The store's merge commit carries it as a git trailer, the project folder in the path.
    clone = next((alice.home).rglob("private*/HEAD")).parent
    trailers = git(
        "log", "--format=%(trailers:key=Memsync-Decision,valueonly)", "main", cwd=clone
    ).strip()
    assert trailers == f"acme-api/{decision}"


def test_the_machine_whose_value_was_dropped_is_told_at_its_next_pull(
    pair: tuple[Machine, Path, Machine, Path],
) -> None:
    """A merge review: only the machine that merged said what was dropped; bob, whose
    wording lost, pulled the merge without a word."""
    alice, pa, bob, pb = pair
    replace(memory_dir(bob, pb) / "setup.md", "how to set up the repo", "bob's wording")
    bob.memsync("push", cwd=pb)
    time.sleep(1.1)  # alice's change is newer: hers is kept, bob's dropped
    replace(memory_dir(alice, pa) / "setup.md", "how to set up the repo", "alice's wording")
    alice.memsync("push", cwd=pa)
    hook = bob.memsync(
        "pull", "--hook", cwd=pb, stdin=json.dumps({"hook_event_name": "SessionStart"})
    )
    message = json.loads(hook.stdout)["systemMessage"]
    [line] = [line for line in message.splitlines() if "merge:" in line]
    assert line == (
        "memsync: private: merge: setup.md (description): both sides changed `description`; "
        'kept the newer change; kept "alice\'s wording", lost "bob\'s wording" (merged on '
        "alice-laptop) (`memsync log` has both versions)"
    )
    # Said once: the next pull brings nothing new.
    again = bob.memsync("pull", "--hook", cwd=pb, stdin="{}")
    assert "merge:" not in again.stdout


def test_a_file_and_a_folder_of_one_name_on_two_machines_keep_both(
    pair: tuple[Machine, Path, Machine, Path],
    tmp_path: Path,
) -> None:
    # F11: bob's unpushed memory `foo.md`, alice's pushed folder `foo.md/inner.md`.
    alice, pa, bob, pb = pair
    write_memory(memory_dir(bob, pb), "foo.md", "foo", "bob's foo\n")
    (memory_dir(bob, pb) / "MEMORY.md").write_text("- [foo](foo.md) — bob's foo\n")
    write_memory(memory_dir(alice, pa) / "foo.md", "inner.md", "inner", "alice's inner\n")
    alice.memsync("push", cwd=pa)
    pulled = bob.memsync("pull", cwd=pb)
    assert (
        "merge: foo.md: a file on one side and a folder on the other share the name foo.md;"
        " kept both, the file as foo-2.md" in pulled.stdout
    ), pulled.stdout
    bob.memsync("push", cwd=pb)
    alice.memsync("pull", cwd=pa)
    remote = tmp_path / "remotes" / "private.git"
    files = remote_files(remote)
    assert any(f.endswith("/foo.md/inner.md") for f in files), files
    assert any(f.endswith("/foo-2.md") for f in files), files
    for machine, project in ((alice, pa), (bob, pb)):
        folder = memory_dir(machine, project)
        assert "alice's inner" in (folder / "foo.md" / "inner.md").read_text()
        assert "bob's foo" in (folder / "foo-2.md").read_text()
        assert "- [foo](foo-2.md) — bob's foo" in (folder / "MEMORY.md").read_text()


def test_names_differing_only_by_case_from_two_machines_keep_both_everywhere(
    pair: tuple[Machine, Path, Machine, Path],
    tmp_path: Path,
) -> None:
    # `Deploy.md` pushed by alice, `deploy.md` written by bob before he pulled it, in both
    # scopes: bob's sync pushed both names (a case clash on the remote, one file on macOS and
    # Windows) and every other machine skipped bob's memory with a fix it could not apply.
    alice, pa, bob, pb = pair
    live_a, live_b = memory_dir(alice, pa), memory_dir(bob, pb)
    for folder in (live_a, live_a / "team"):
        write_memory(folder, "Deploy.md", "Deploy", "alice: deploys on Fridays\n")
    time.sleep(1.1)  # bob's memory is the newer one: it moves
    for folder in (live_b, live_b / "team"):
        write_memory(folder, "deploy.md", "deploy", "bob: deploys need a review\n")
        (folder / "MEMORY.md").write_text("- [deploy](deploy.md) — bob's deploy\n")
    alice.memsync("push", cwd=pa)
    synced = bob.memsync("sync", cwd=pb)
    assert (
        "merge: deploy.md: Deploy.md and deploy.md differ only by case (one file on macOS and"
        " Windows); kept both, the newer as deploy-2.md" in synced.stdout
    ), synced.stdout
    assert "differs only by case" not in synced.stderr, synced.stderr
    alice.memsync("pull", cwd=pa)
    for name in ("private.git", "team.git"):
        files = [f.rsplit("/", 1)[-1] for f in remote_files(tmp_path / "remotes" / name)]
        assert "Deploy.md" in files and "deploy-2.md" in files and "deploy.md" not in files
    for machine, project in ((alice, pa), (bob, pb)):
        for folder in (memory_dir(machine, project), memory_dir(machine, project) / "team"):
            assert "alice: deploys on Fridays" in (folder / "Deploy.md").read_text()
            assert "bob: deploys need a review" in (folder / "deploy-2.md").read_text()
            assert not (folder / "deploy.md").exists()
            assert "- [deploy](deploy-2.md) — bob's deploy" in (folder / "MEMORY.md").read_text()
        status = machine.memsync("status", cwd=project)
        assert "held back" not in status.stdout, status.stdout
