"""The team scaffold through the installed `memsync` command (issue 17, item 4).

The memsync spec the workflows and the pre-commit hook install is a setting, checked for
resolvability; `scaffold --update` brings in new templates by a three-way merge that
keeps local edits and reports each file; an existing `.gitattributes` gets the merge
driver; Dependabot keeps the pinned actions current.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

import memsync
from memsync.team import scaffold
from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine

CHECK = Path(".github/workflows/memsync-check.yml")
CONSOLIDATE = Path(".github/workflows/memsync-consolidate.yml")
PRE_COMMIT = Path(".pre-commit-config.yaml")
DEPENDABOT = Path(".github/dependabot.yml")
# pip here resolves from nothing but what a test offers it.
NO_INDEX = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "", "PIP_CONFIG_FILE": os.devnull}


def memsync_cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the installed console script."""
    exe = Path(sys.executable).parent / "memsync"
    return subprocess.run(
        [str(exe), *args],
        cwd=cwd,
        env={**os.environ, **NO_INDEX, **(env or {})},
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def actions(out: str) -> dict[str, str]:
    """`path -> action` from scaffold's report lines (`action   path (note)`)."""
    found = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 2 and not line.startswith("memsync spec"):
            found[words[1]] = words[0]
    return found


def fake_wheel(directory: Path, version: str) -> Path:
    """A minimal wheel of memsync VERSION, so pip can resolve `memsync==VERSION` offline."""
    directory.mkdir(parents=True, exist_ok=True)
    wheel = directory / f"memsync-{version}-py3-none-any.whl"
    info = f"memsync-{version}.dist-info"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(
            f"{info}/METADATA", f"Metadata-Version: 2.1\nName: memsync\nVersion: {version}\n"
        )
        archive.writestr(
            f"{info}/WHEEL",
            "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        archive.writestr(f"{info}/RECORD", f"{info}/METADATA,,\n{info}/WHEEL,,\n{info}/RECORD,,\n")
    return wheel


def test_default_spec_is_this_version_and_checked(tmp_path: Path) -> None:
    repo = tmp_path / "team"
    repo.mkdir()
    pinned = f"memsync=={memsync.__version__}"
    done = memsync_cli("scaffold", str(repo), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"memsync spec: {pinned}" in done.stdout
    # Nothing serves that version here: the scaffold says so, and how to fix it.
    assert f"the memsync spec '{pinned}' may not install in CI" in done.stderr
    assert "Could not find a version that satisfies the requirement" in done.stderr
    assert "memsync scaffold --update --memsync-spec SPEC" in done.stderr
    assert f'pip install "{pinned}"' in (repo / CHECK).read_text()
    record = json.loads((repo / ".memsync/scaffold.json").read_text())
    assert record["memsync_spec"] == pinned

    # Where the version resolves (an index that serves it), there is no warning.
    links = tmp_path / "wheels"
    fake_wheel(links, memsync.__version__)
    other = tmp_path / "other"
    other.mkdir()
    ok = memsync_cli("scaffold", str(other), cwd=tmp_path, env={"PIP_FIND_LINKS": str(links)})
    assert ok.returncode == 0 and "warning" not in ok.stderr, ok.stderr


def test_dependabot_keeps_pinned_actions_current(tmp_path: Path) -> None:
    memsync_cli("scaffold", str(tmp_path), cwd=tmp_path)
    config = yaml.safe_load((tmp_path / DEPENDABOT).read_text())
    [update] = config["updates"]
    assert update["package-ecosystem"] == "github-actions" and update["directory"] == "/"
    assert update["cooldown"]["default-days"] >= 1


def test_an_existing_gitattributes_gets_the_merge_driver_line(tmp_path: Path) -> None:
    (tmp_path / ".gitattributes").write_text("* text=auto\n*.png binary")
    done = memsync_cli("scaffold", str(tmp_path), cwd=tmp_path)
    assert actions(done.stdout)[".gitattributes"] == "appended"
    lines = (tmp_path / ".gitattributes").read_text().splitlines()
    assert lines[:2] == ["* text=auto", "*.png binary"]
    assert "*.md merge=memsync" in lines and "/README.md merge=text" in lines
    again = memsync_cli("scaffold", str(tmp_path), cwd=tmp_path)
    assert actions(again.stdout)[".gitattributes"] == "kept"
    assert (tmp_path / ".gitattributes").read_text().count("merge=memsync") == 1


def test_an_existing_pre_commit_config_gets_the_memsync_hook(tmp_path: Path) -> None:
    """A walkthrough: scaffold kept a team's own config promising `--update` would merge the
    template, and `--update` then kept it as "your edits": the hook was never installed."""
    theirs = (
        "# our hooks\nrepos:\n    - repo: local  # lint first\n      hooks:\n"
        "          - id: lint\n            name: lint\n            entry: 'true'\n"
        "            language: system\nfail_fast: true\n"
    )
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(theirs)
    done = memsync_cli("scaffold", str(tmp_path), cwd=tmp_path)
    assert "appended .pre-commit-config.yaml (the `memsync check` hook)" in done.stdout
    text = config.read_text()
    assert text.startswith("# our hooks\nrepos:\n    - repo: local\n      hooks:\n")
    assert text.endswith(theirs.split("repos:\n", 1)[1])  # theirs as written, comments too
    loaded = yaml.safe_load(text)
    assert [hook["id"] for repo in loaded["repos"] for hook in repo["hooks"]] == [
        "memsync-check",
        "lint",
    ]
    assert loaded["fail_fast"] is True
    for update in ([], ["--update"]):
        again = memsync_cli("scaffold", *update, str(tmp_path), cwd=tmp_path)
        assert "kept     .pre-commit-config.yaml (yours, with the `memsync-check` hook)" in (
            again.stdout
        )
        assert config.read_text() == text


@pytest.mark.parametrize(
    "theirs",
    ["repos: [{repo: local, hooks: [{id: lint, name: l, entry: x, language: system}]}]\n",
     "repos: []\n", "- not a mapping\n", "repos: {bad: [\n"],
)  # fmt: skip
def test_a_pre_commit_config_memsync_cannot_edit_safely_is_left_with_a_note(
    tmp_path: Path, theirs: str
) -> None:
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(theirs)
    for update in ([], ["--update"]):
        done = memsync_cli("scaffold", *update, str(tmp_path), cwd=tmp_path)
        assert (
            "kept     .pre-commit-config.yaml (exists, in a shape memsync does not edit: "
            "add the `memsync-check` hook by hand)"
        ) in done.stdout
        assert config.read_text() == theirs


def test_update_leaves_a_readme_memsync_never_wrote(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# Our team\n")
    for update in ([], ["--update"]):
        done = memsync_cli("scaffold", *update, str(tmp_path), cwd=tmp_path)
        assert "kept     README.md (exists; not written by memsync, left as it is)" in done.stdout
        assert (tmp_path / "README.md").read_text() == "# Our team\n"


def test_update_merges_templates_with_local_edits(tmp_path: Path) -> None:
    memsync_cli("scaffold", str(tmp_path), "--memsync-spec", "memsync==0.0.1", cwd=tmp_path)
    check = tmp_path / CHECK
    check.write_text(check.read_text().replace("timeout-minutes: 10", "timeout-minutes: 15"))
    (tmp_path / DEPENDABOT).unlink()
    pre_commit = tmp_path / PRE_COMMIT
    pre_commit.write_text(pre_commit.read_text().replace('["memsync==0.0.1"]', '["memsync"]'))

    done = memsync_cli(
        "scaffold", str(tmp_path), "--update", "--memsync-spec", "memsync==0.0.2", cwd=tmp_path
    )
    # A hand merge left to do needs the user (SPEC 7): exit 1, so that
    # `scaffold --update && git add -A && git commit` stops before committing half of it.
    assert done.returncode == 1, done.stderr
    assert (
        f"memsync: 1 file needs a hand merge: {PRE_COMMIT} (the new template is "
        f"{PRE_COMMIT}.memsync-new); merge it, delete the .memsync-new file, then commit"
    ) in " ".join(done.stderr.split()), done.stderr
    report = actions(done.stdout)
    assert report[CHECK.as_posix()] == "merged"
    assert report[CONSOLIDATE.as_posix()] == "updated"
    assert report[DEPENDABOT.as_posix()] == "deleted"
    assert report[PRE_COMMIT.as_posix()] == "conflict"
    text = check.read_text()
    assert "timeout-minutes: 15" in text and 'pip install "memsync==0.0.2"' in text
    assert 'pip install "memsync==0.0.2"' in (tmp_path / CONSOLIDATE).read_text()
    assert not (tmp_path / DEPENDABOT).exists()
    # A conflicting file keeps the team's version; the new template waits beside it.
    assert '["memsync"]' in pre_commit.read_text()
    assert '["memsync==0.0.2"]' in (tmp_path / f"{PRE_COMMIT}.memsync-new").read_text()
    assert "merge it by hand" in done.stdout
    record = json.loads((tmp_path / ".memsync/scaffold.json").read_text())
    assert record["memsync_spec"] == "memsync==0.0.2"

    # Updating again changes nothing and says so: the edits stay, the rest is current.
    # Until the .memsync-new file is merged and deleted, the conflict stays and exits 1.
    pending = memsync_cli("scaffold", str(tmp_path), "--update", cwd=tmp_path)
    assert pending.returncode == 1
    assert actions(pending.stdout)[PRE_COMMIT.as_posix()] == "conflict"
    assert "the hand merge is not done" in pending.stdout
    # Merged by hand (the team keeps its unpinned hook): the edit of the new template stays.
    (tmp_path / f"{PRE_COMMIT}.memsync-new").unlink()
    again = memsync_cli("scaffold", str(tmp_path), "--update", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert actions(again.stdout)[PRE_COMMIT.as_posix()] == "kept"
    assert '["memsync"]' in pre_commit.read_text()
    assert actions(again.stdout)[CHECK.as_posix()] == "kept"
    assert actions(again.stdout)[CONSOLIDATE.as_posix()] == "current"
    assert 'pip install "memsync==0.0.2"' in check.read_text()


def test_update_of_a_scaffold_without_a_record(tmp_path: Path) -> None:
    """An older memsync wrote the files but no record: today's template is the base."""
    for relative, text in scaffold.rendered_files("memsync==0.1.0").items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    spec = "memsync @ git+https://github.com/acme/memsync@v0.2.0"
    done = memsync_cli("scaffold", str(tmp_path), "--update", "--memsync-spec", spec, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert actions(done.stdout)[CHECK.as_posix()] == "updated"
    assert f'pip install "{spec}"' in (tmp_path / CHECK).read_text()
    hook = yaml.safe_load((tmp_path / PRE_COMMIT).read_text())["repos"][0]["hooks"][0]
    assert hook["additional_dependencies"] == [spec]


def test_init_scaffolds_with_the_configured_spec(machines: list[Machine], tmp_path: Path) -> None:
    alice = machines[0]
    project = alice.checkout_project("git@github.com:Acme/API.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    source = make_bare_remote(tmp_path / "remotes" / "memsync-source.git")
    spec = f"memsync @ git+file://{source}"
    env = {**alice.env, **NO_INDEX}
    done = memsync_cli(
        "init", "--team", str(team), "--no-hooks", "--memsync-spec", spec, cwd=project, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr  # the spec resolves: its repository answers
    workflow = git("show", f"main:{CHECK.as_posix()}", cwd=team)
    assert f'pip install "{spec}"' in workflow
    record = json.loads(git("show", "main:.memsync/scaffold.json", cwd=team))
    assert record["memsync_spec"] == spec

    other = make_bare_remote(tmp_path / "remotes" / "team2.git")
    second = alice.checkout_project("https://github.com/acme/web", "src/web")
    pinned = memsync_cli("init", "--team", str(other), "--no-hooks", cwd=second, env=env)
    assert pinned.returncode == 0, pinned.stderr
    assert "may not install in CI" in pinned.stderr


ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_scaffolded_pre_commit_hook_passes_on_its_first_run(tmp_path: Path) -> None:
    """pre-commit installs the configured spec and runs `memsync check` on its first run."""
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    if pre_commit is None:
        pytest.skip("pre-commit is not installed")
    repo = tmp_path / "team"
    repo.mkdir()
    git("init", "-q", "-b", "main", str(repo), cwd=tmp_path)
    # This checkout as the spec: what a team gets with a spec its runners can install.
    scaffold.scaffold(repo, memsync_spec=f"memsync @ {ROOT.as_uri()}", verify=False)
    folder = repo / "acme-api"
    folder.mkdir()
    (folder / "a.md").write_text("---\nname: a\ndescription: a\ntype: project\n---\nBody.\n")
    (folder / "MEMORY.md").write_text("- [a](a.md) — a memory\n")
    git("add", "-A", cwd=repo)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    env.pop("PYTHONPATH", None)

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [pre_commit, "run", "--all-files", "--color=never"],
            cwd=repo, env=env, capture_output=True, text=True, timeout=900, check=False,
        )  # fmt: skip

    first = run()
    assert first.returncode == 0, first.stdout + first.stderr
    assert re.search(r"memsync check\.+Passed", first.stdout)
    (folder / "broken.md").write_text("---\nname: [unclosed\n---\nBody.\n")
    git("add", "-A", cwd=repo)
    second = run()
    assert second.returncode == 1
    assert re.search(r"memsync check\.+Failed", second.stdout)
    assert "broken.md" in second.stdout


def test_a_dry_run_says_what_would_happen(tmp_path: Path) -> None:
    """A walkthrough: the dry run printed `would wrote` and `would appended`."""
    (tmp_path / ".gitattributes").write_text("* text=auto\n")
    (tmp_path / "README.md").write_text("# Our team\n")
    done = memsync_cli("scaffold", "--dry-run", str(tmp_path), cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert "would write .github/workflows/memsync-check.yml" in lines
    assert "would append .gitattributes (the merge-driver lines)" in lines
    assert "would keep README.md (exists; not written by memsync, left as it is)" in lines
    assert not any(word in done.stdout for word in ("would wrote", "would appended", "would kept"))
    assert sorted(p.name for p in tmp_path.iterdir()) == [".gitattributes", "README.md"]
