"""A `type: user` memory in a team folder is personal (SPEC section 2): `consolidate` gives it no
line in the team MEMORY.md and says so, by the rule `check` reports it with (user-in-team)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from memsync.check.run import run_check
from memsync.consolidate.engine import apply_plan, make_plan
from testing.gitrepo import git
from testing.memories import write_memory

SOURCE = str(Path(__file__).resolve().parent.parent)
SAID = "me.md: `type: user` memories are personal: keep them in your private memory"


def _memories(folder: Path) -> None:
    write_memory(folder, "ci.md", "ci", "CI runs on push.\n", description="CI runs on push")
    write_memory(folder, "me.md", "me", "I prefer tabs.\n", type_="user", description="tabs")


def test_consolidate_leaves_a_user_memory_of_the_team_folder_unindexed(tmp_path: Path) -> None:
    live = tmp_path / "memory"
    write_memory(live, "mine.md", "mine", "Mine.\n", type_="user", description="mine")
    _memories(live / "team")
    (live / "team" / "MEMORY.md").write_text("# Team\n", encoding="utf-8")
    plan = make_plan(live)
    apply_plan(plan)
    # The private folder indexes its user memory; the team folder only the project one.
    assert (live / "MEMORY.md").read_text(encoding="utf-8") == "- [mine](mine.md) — mine\n"
    team = (live / "team" / "MEMORY.md").read_text(encoding="utf-8")
    assert team == "# Team\n- [ci](ci.md) — CI runs on push\n"
    (team_plan,) = (f for f in plan.folders if f.root.name == "team")
    assert [p for p in team_plan.problems if "me.md" in p] == [
        f"{SAID} (not added to the team MEMORY.md; `memsync check` reports it as user-in-team)"
    ]
    # `check` agrees: the memory is in the wrong store, not a memory missing its line.
    found = {(f.path, f.rule) for f in run_check(live, cwd=tmp_path).findings}
    assert found == {("memory/team/me.md", "user-in-team")}


def test_consolidate_all_on_a_team_checkout_indexes_no_user_memory(tmp_path: Path) -> None:
    store = tmp_path / "team-memory"
    store.mkdir()
    git("init", "-q", cwd=store)
    workflow = store / ".github" / "workflows" / "memsync-check.yml"  # the team scaffold
    workflow.parent.mkdir(parents=True)
    workflow.write_text("name: memsync check\n", encoding="utf-8")
    _memories(store / "acme-api")
    (store / "acme-api" / "MEMORY.md").write_text("- [CI](ci.md) — CI runs on push\n")
    done = subprocess.run(
        [sys.executable, "-m", "memsync", "consolidate", ".", "--all", "--yes"],
        cwd=store,
        env={**os.environ, "PYTHONPATH": SOURCE},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert SAID in " ".join(done.stdout.split())
    index = (store / "acme-api" / "MEMORY.md").read_text(encoding="utf-8")
    assert index == "- [CI](ci.md) — CI runs on push\n"
