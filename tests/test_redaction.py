"""No secret is printed anywhere: check formats, errors, hook output, pull requests."""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memsync.check.findings import Finding
from memsync.check.secrets import redact
from memsync.cli.app import app
from memsync.errors import UserMessageError
from memsync.team import reviewflow
from testing.gitrepo import remote_head
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory


def _aws(seed: str) -> str:
    return "AKIA" + "".join(random.Random(seed).choices(string.ascii_uppercase + "234567", k=16))


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_check_never_prints_a_key_quoted_in_a_message(tmp_path: Path, fmt: str) -> None:
    key = _aws(fmt)
    write_memory(tmp_path, "a.md", "a", "alpha\n", type_=key)
    result = CliRunner().invoke(app, ["check", str(tmp_path), "--format", fmt])
    assert result.exit_code == 1
    assert key not in result.output
    assert "aws-access-token" in result.output


def test_findings_redact_their_message_and_path() -> None:
    key = _aws("finding")
    found = Finding(f"notes/{key}.md", 3, "type-unknown", "error", f"unknown type {key!r}")
    assert key not in found.describe()
    assert "(aws-access-token: AKIA…(redacted 16 chars))" in found.message


def test_redact_keeps_plain_text_and_hides_every_secret() -> None:
    assert (
        redact("2 memories updated (ci.md, deploy.md)") == "2 memories updated (ci.md, deploy.md)"
    )
    pat = "ghp_" + "".join(random.Random("r").choices(string.ascii_letters, k=36))
    out = redact(f"pushed **{pat}** and {_aws('r')}")
    assert pat not in out and _aws("r") not in out
    assert "(github-pat: ghp_…(redacted 36 chars))" in out


def test_pull_request_text_with_a_secret_is_refused() -> None:
    key = _aws("pr")
    with pytest.raises(UserMessageError) as caught:
        reviewflow._refuse_secrets(f"rotate {key}", "body")
    assert key not in str(caught.value) and "pull request title" in str(caught.value)
    reviewflow._refuse_secrets("memsync(acme): 2 memories from alice", "Changes:\n- a.md\n")


def test_private_stores_only_warn_about_secrets_in_what_leaves(
    machines: list[Machine],
    remotes: tuple[Path, Path],
) -> None:
    private, _ = remotes
    alice = machines[0]
    project = setup_machine(alice, private, None, "src/api")
    write_memory(memory_dir(alice, project), "ci.md", "ci", "CI runs on every push.\n")
    key = _aws("private")
    result = alice.memsync("push", "-m", f"rotate {key}", cwd=project, check=False)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert key not in out
    assert "aws-access-token" in out
    assert remote_head(private)
