"""What leaves the machine is scanned, and a purged remote history is never resurrected.

Real git, file:// team remotes, separate simulated machines; tokens are generated here.
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest

from testing.gitrepo import git, remote_head
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory


def _token(prefix: str, n: int, seed: str) -> str:
    rng = random.Random(seed)
    return prefix + "".join(rng.choices(string.ascii_letters + string.digits, k=n))


def _remote_text(remote: Path) -> str:
    """Every blob and message reachable from any ref of REMOTE, as one text."""
    log = git("log", "--all", "-p", "--format=%H %B", cwd=remote)
    return log + git("for-each-ref", cwd=remote)


def _team(machine: Machine, project: Path) -> Path:
    return memory_dir(machine, project) / "team"


def _b64_lines(seed: str, count: int = 5) -> str:
    rng = random.Random(seed)
    alphabet = string.ascii_letters + string.digits + "+/"
    return "".join("".join(rng.choices(alphabet, k=64)) + "\n" for _ in range(count))


def test_a_key_assembled_by_a_merge_is_refused(
    machines: list[Machine],
    remotes: tuple[Path, Path],
) -> None:
    private, team = remotes
    alice, _, bob = machines
    pa = setup_machine(alice, private, team, "src/api")
    pb = setup_machine(bob, private, team, "code/api")
    base = "Key material lives here.\nL2 setup notes.\nL3 more notes.\nL4 the end.\n"
    write_memory(_team(alice, pa), "deploy.md", "deploy", base)
    alice.memsync("push", "--scope", "team", cwd=pa)
    bob.memsync("pull", cwd=pb)
    # Alice wraps the notes in a header pair; Bob adds base64 lines: each side is clean.
    header = base.replace("Key material lives here.\n", "Key material lives here.\n"
                          "-----BEGIN RSA PRIVATE KEY-----\n").replace(
        "L4 the end.\n", "L4 the end.\n-----END RSA PRIVATE KEY-----\n")  # fmt: skip
    write_memory(_team(alice, pa), "deploy.md", "deploy", header)
    alice.memsync("push", "--scope", "team", cwd=pa)
    body = _b64_lines("body")
    write_memory(_team(bob, pb), "deploy.md", "deploy", base.replace("L3", body + "L3"))
    before = remote_head(team)
    result = bob.memsync("push", "--scope", "team", cwd=pb, check=False)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "private-key" in out and "deploy.md" in out
    assert body.splitlines()[0] not in out
    assert remote_head(team) == before
    assert body.splitlines()[0] not in _remote_text(team)


def test_a_token_in_the_commit_message_is_refused_and_never_printed(
    machines: list[Machine],
    remotes: tuple[Path, Path],
) -> None:
    private, team = remotes
    alice = machines[0]
    project = setup_machine(alice, private, team, "src/api")
    write_memory(_team(alice, project), "ci.md", "ci", "CI runs on every push.\n")
    token = _token("ghp_", 36, "message")
    before = remote_head(team)
    result = alice.memsync(
        "push", "--scope", "team", "-m", f"rotate **{token}**", cwd=project, check=False
    )
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "github-pat" in out and "commit" in out
    assert token not in out
    assert remote_head(team) == before
    # The edit is kept: without the token in the message the next push goes through.
    alice.memsync("push", "--scope", "team", cwd=project)
    assert token not in _remote_text(team)
    assert "ci.md" in git("ls-tree", "-r", "--name-only", "main", cwd=team)


def test_a_token_in_a_file_name_is_refused_and_never_printed(
    machines: list[Machine],
    remotes: tuple[Path, Path],
) -> None:
    private, team = remotes
    alice = machines[0]
    project = setup_machine(alice, private, team, "src/api")
    token = _token("sk_live_", 24, "name")
    write_memory(_team(alice, project), f"stripe-{token}.md", "stripe", "Billing notes.\n")
    before = remote_head(team)
    result = alice.memsync("push", "--scope", "team", cwd=project, check=False)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "stripe-access-token" in out
    assert token not in out
    assert remote_head(team) == before
    # Run again with nothing touched (a walkthrough): the redacted name is still the blocked
    # file, not "1 file edited during the sync", and the fix is to rename it.
    again = alice.memsync("push", "--scope", "team", cwd=project, check=False)
    summary = next(line for line in again.stdout.splitlines() if line.startswith("team ("))
    assert summary.endswith("(secret); kept local, not committed"), summary
    assert "fix: Rename the file: no line can allow a secret in its name." in again.stdout
    assert "memsync:allow-secret" not in again.stdout


@pytest.mark.parametrize(("command", "said"), [
    ("pull", "committed a possible secret (the next push sends it)"),
    ("push", "pushed a possible secret"),
])  # fmt: skip
def test_a_private_secret_synced_by_a_hook_is_told_the_person(
    machines: list[Machine], remotes: tuple[Path, Path], command: str, said: str
) -> None:
    """Private stores warn (SPEC section 4), and a hook has no terminal: the SessionEnd push
    sent a token with empty stdout and stderr (an adversarial client review)."""
    private, _ = remotes
    alice = machines[0]
    project = setup_machine(alice, private, None, "src/api")
    token = _token("ghp_", 36, "private")
    write_memory(memory_dir(alice, project), "deploy.md", "deploy", f"Deploy token: {token}\n")
    result = alice.memsync(command, "--hook", cwd=project, stdin="{}")
    message = json.loads(result.stdout)["systemMessage"]
    told = (
        f"memsync: private: {said}: deploy.md:6: error: possible secret (github-pat): "
        "ghp_…[redacted 36 chars] [secret]; Remove the credential (and rotate it if it was "
        "ever pushed)."
    )
    assert message == told  # one line: the push scan's own finding of it is not repeated
    assert f"memsync: private: {said}: deploy.md:6:" in result.stderr
    assert token not in result.stdout + result.stderr


def test_what_a_session_end_said_is_told_at_the_next_start(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """Claude Code 2.1.330 shows nothing a SessionEnd hook prints (an adversarial review of
    the real client): the session end's lines come back in the next start's systemMessage,
    once."""
    private, _ = remotes
    alice = machines[0]
    project = setup_machine(alice, private, None, "src/api")
    token = _token("ghp_", 36, "private")
    write_memory(memory_dir(alice, project), "deploy.md", "deploy", f"Deploy token: {token}\n")
    alice.memsync("push", "--hook", cwd=project, stdin="{}")
    start = json.loads(alice.memsync("pull", "--hook", cwd=project, stdin="{}").stdout)
    assert start["systemMessage"] == (
        "memsync: at the last session end, private: pushed a possible secret: deploy.md:6: "
        "error: possible secret (github-pat): ghp_…[redacted 36 chars] [secret]; Remove the "
        "credential (and rotate it if it was ever pushed)."
    )
    assert token not in json.dumps(start)
    again = alice.memsync("pull", "--hook", cwd=project, stdin="{}").stdout
    assert "at the last session end" not in again  # told once


def test_a_session_ends_line_the_start_says_again_is_said_once(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """A file skipped at every run: the session end's line and the start's own are one."""
    private, _ = remotes
    alice = machines[0]
    project = setup_machine(alice, private, None, "src/api")
    (memory_dir(alice, project) / "latin.md").write_bytes(b"caf\xe9 notes\n")
    end = json.loads(alice.memsync("push", "--hook", cwd=project, stdin="{}").stdout)
    (skipped,) = end["systemMessage"].splitlines()
    assert skipped.startswith('memsync: private: skipped 1 unsafe file(s): "latin.md"')
    start = json.loads(alice.memsync("pull", "--hook", cwd=project, stdin="{}").stdout)
    assert start["systemMessage"] == skipped


def _purge(team: Path, tmp: Path, secret_path: str) -> None:
    """An admin rewrites the team history without SECRET_PATH and force-pushes."""
    work = tmp / "admin-purge"
    git("clone", "-q", str(team), str(work), cwd=tmp)
    git("config", "user.email", "admin@example.invalid", cwd=work)
    git("config", "user.name", "admin", cwd=work)
    git("rm", "-q", secret_path, cwd=work)
    git("commit", "-q", "-m", "purge", cwd=work)
    # A squash of the whole history into one new root commit, as a purge tool would leave.
    tree = git("rev-parse", "HEAD^{tree}", cwd=work).strip()
    root = git("commit-tree", tree, "-m", "team memory (history purged)", cwd=work).strip()
    git("push", "-q", "--force", "origin", f"{root}:refs/heads/main", cwd=work)


@pytest.mark.parametrize("via", ["sync", "hooks"])
def test_a_purged_secret_is_not_pushed_back_by_a_teammate(
    machines: list[Machine],
    remotes: tuple[Path, Path],
    tmp_path: Path,
    via: str,
) -> None:
    private, team = remotes
    alice, _, bob = machines
    pa = setup_machine(alice, private, team, "src/api")
    pb = setup_machine(bob, private, team, "code/api")
    write_memory(_team(alice, pa), "ci.md", "ci", "CI runs on every push.\n")
    alice.memsync("push", "--scope", "team", cwd=pa)
    # A secret reaches the team remote outside memsync (a plain git push).
    token = _token("ghp_", 36, "purge")
    work = tmp_path / "leak"
    git("clone", "-q", str(team), str(work), cwd=tmp_path)
    folder = next(p.parent for p in work.rglob("ci.md"))
    (folder / "leak.md").write_text(
        f"---\nname: leak\ndescription: leak\ntype: project\n---\nToken {token}\n",
        encoding="utf-8",
    )
    git("add", "-A", cwd=work)
    git("-c", "user.name=x", "-c", "user.email=x@example.invalid", "commit", "-qm", "leak",
        cwd=work)  # fmt: skip
    git("push", "-q", "origin", "HEAD:main", cwd=work)
    bob.memsync("pull", "--scope", "team", cwd=pb)
    assert (_team(bob, pb) / "leak.md").is_file()
    old_head = remote_head(team)
    # Bob edits a memory and does not push yet; the admin purges the secret.
    write_memory(_team(bob, pb), "bob.md", "bob notes", "Deploys happen on Tuesdays.\n")
    _purge(team, tmp_path, str((folder / "leak.md").relative_to(work)))
    if via == "sync":
        result = bob.memsync("sync", "--scope", "team", cwd=pb, check=False)
        out = result.stdout + result.stderr
        assert result.returncode == 0, out
        assert "rewritten" in out
    else:
        # Hooks start their fetch before the engine looks at the remote-tracking ref.
        for command in ("pull", "push"):
            result = bob.memsync(command, "--hook", cwd=pb, stdin="{}", check=False)
            assert result.returncode == 0, result.stdout + result.stderr
            assert token not in result.stdout + result.stderr
    text = _remote_text(team)
    assert token not in text
    assert old_head not in git("rev-list", "--all", cwd=team)
    assert "bob.md" in git("ls-tree", "-r", "--name-only", "main", cwd=team)
    assert not (_team(bob, pb) / "leak.md").exists()


def test_a_local_edit_of_the_purged_file_is_refused_not_resurrected(
    machines: list[Machine],
    remotes: tuple[Path, Path],
    tmp_path: Path,
) -> None:
    private, team = remotes
    alice, _, bob = machines
    pa = setup_machine(alice, private, team, "src/api")
    pb = setup_machine(bob, private, team, "code/api")
    write_memory(_team(alice, pa), "ci.md", "ci", "CI runs on every push.\n")
    alice.memsync("push", "--scope", "team", cwd=pa)
    token = _token("glpat-", 20, "edit")
    work = tmp_path / "leak"
    git("clone", "-q", str(team), str(work), cwd=tmp_path)
    folder = next(p.parent for p in work.rglob("ci.md"))
    leak = folder / "leak.md"
    leak.write_text(f"---\nname: leak\ndescription: l\ntype: project\n---\nT {token}\n", "utf-8")
    git("add", "-A", cwd=work)
    git("-c", "user.name=x", "-c", "user.email=x@example.invalid", "commit", "-qm", "leak",
        cwd=work)  # fmt: skip
    git("push", "-q", "origin", "HEAD:main", cwd=work)
    bob.memsync("pull", "--scope", "team", cwd=pb)
    # Bob appends to the leaked memory (his copy still holds the token), then the purge.
    live_leak = _team(bob, pb) / "leak.md"
    live_leak.write_text(live_leak.read_text("utf-8") + "More notes.\n", "utf-8")
    _purge(team, tmp_path, str(leak.relative_to(work)))
    purged = remote_head(team)
    result = bob.memsync("sync", "--scope", "team", cwd=pb, check=False)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "gitlab-pat" in out and "leak.md" in out and "rewritten" in out
    assert token not in out
    assert remote_head(team) == purged
    assert token not in _remote_text(team)
