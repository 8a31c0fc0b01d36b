"""The real client's fold of an inline YAML comment meets a real edit on another machine (F4)."""

from __future__ import annotations

import pytest

from memsync.model.memory import parse_yaml_mapping
from testing.messages_api import edit, read

pytestmark = pytest.mark.realclient

SHARED = (
    "---\nname: deploys\ndescription: How we deploy  # kept short for the index\n"
    "type: project\n---\n\nDeploys go through staging.\n"
)


def test_a_comment_the_client_folds_into_a_value_is_no_conflict_with_an_edit(site) -> None:
    a, b = site("alice-laptop"), site("alice-desktop")
    path_a = a.memory / "deploys.md"
    path_a.write_text(SHARED, encoding="utf-8")
    a.machine.memsync("push", cwd=a.project)
    b.machine.memsync("pull", cwd=b.project)
    path_b = b.memory / "deploys.md"
    assert path_b.read_text(encoding="utf-8") == SHARED
    # On A the model edits the body: the client's first stamp folds the comment in.
    body = "Deploys go through staging."
    a.session([read(str(path_a))], [edit(str(path_a), body, body + " Then production.")])
    folded = path_a.read_text(encoding="utf-8")
    assert 'description: "How we deploy  # kept short for the index"' in folded, folded
    # On B the person rewrites the description (the comment stays a comment).
    path_b.write_text(SHARED.replace("How we deploy  #", "How we ship  #"), encoding="utf-8")
    synced = b.machine.memsync("sync", cwd=b.project)
    output = synced.stdout + synced.stderr
    # The fold read as a change of `description`: "both sides changed", the fold recorded.
    assert "both sides changed" not in output, output
    merged = path_b.read_text(encoding="utf-8")
    fields, problem, _, _ = parse_yaml_mapping(merged.split("---\n")[1])
    assert problem is None and fields["description"] == "How we ship", merged
    assert "Then production." in merged
