"""The scaffolded GitHub workflows: linted, audited, and their `run:` steps executed locally.

`run_job` below plays a workflow job the way a runner would for the parts that matter
here: each `run:` step in bash (`-eo pipefail`), with GitHub's environment files, step
`env:` and `if:` conditions, `continue-on-error`; `uses:` steps are recorded, not run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from memsync.team import scaffold

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ("memsync-check.yml", "memsync-consolidate.yml")
SHA_PIN = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")
POSIX_ONLY = pytest.mark.skipif(
    sys.platform == "win32", reason="runs bash steps as on ubuntu-latest"
)
BASE_SHA_FAKE = "1" * 40
HEAD_SHA_FAKE = "2" * 40


def tool(name: str) -> str | None:
    """A linter on PATH or installed beside this interpreter (the project's venv)."""
    return shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))


def missing(name: str) -> None:
    """Skip without the linter, except in CI, where the test extras always install it."""
    if os.environ.get("CI"):
        pytest.fail(f"{name} is not installed: `pip install -e '.[test]'` installs it")
    pytest.skip(f"{name} is not installed")


@pytest.fixture
def rendered(tmp_path: Path) -> Path:
    """A git repository holding a fresh scaffold."""
    repo = tmp_path / "team"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    scaffold.scaffold(repo, verify=False)
    return repo


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


def load(repo: Path, name: str) -> dict[Any, Any]:
    data: dict[Any, Any] = yaml.safe_load((repo / ".github/workflows" / name).read_text())
    return data


# --- static properties ---------------------------------------------------------------------


@pytest.mark.parametrize("name", WORKFLOWS)
def test_actions_are_pinned_and_permissions_least(rendered: Path, name: str) -> None:
    workflow = load(rendered, name)
    text = (rendered / ".github/workflows" / name).read_text()
    assert workflow["permissions"] == {}
    for job in workflow["jobs"].values():
        assert "permissions" in job
        assert job["timeout-minutes"] <= 30
        for step in job["steps"]:
            if "uses" in step:
                assert SHA_PIN.match(step["uses"]), step["uses"]
                # The version comment keeps the pin reviewable and updatable.
                assert re.search(re.escape(step["uses"]) + r" # v\d+\.\d+\.\d+", text)
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False
                assert step["with"]["fetch-depth"] == 0


def test_consolidate_workflow_shape(rendered: Path) -> None:
    workflow = load(rendered, "memsync-consolidate.yml")
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as a boolean
    assert set(triggers) == {"schedule", "workflow_dispatch"}
    job = workflow["jobs"]["consolidate"]
    assert job["permissions"] == {"contents": "write", "pull-requests": "write"}
    runs = [step.get("run", "") for step in job["steps"]]
    assert any("memsync consolidate . --all --yes --report" in run for run in runs)
    create = next(s for s in job["steps"] if "create-pull-request" in s.get("uses", ""))
    assert create["with"]["body-path"] == "${{ runner.temp }}/memsync-consolidate.md"


def test_check_workflow_shape(rendered: Path) -> None:
    workflow = load(rendered, "memsync-check.yml")
    assert set(workflow[True]) == {"pull_request", "workflow_dispatch"}
    job = workflow["jobs"]["check"]
    assert job["permissions"] == {"contents": "read", "security-events": "write"}
    upload = next(s for s in job["steps"] if "upload-sarif" in s.get("uses", ""))
    assert upload["with"]["sarif_file"] == "memsync.sarif"
    assert job["steps"][-1]["run"] == "memsync check --all --format github"


# --- actionlint and zizmor -----------------------------------------------------------------

BAD_WORKFLOW = """\
on: pull_request
jobs:
  x:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: echo "${{ github.event.pull_request.title }}"
"""


def test_actionlint_accepts_the_workflows(rendered: Path) -> None:
    actionlint = tool("actionlint")
    if actionlint is None:
        missing("actionlint")
    files = [str(rendered / ".github/workflows" / name) for name in WORKFLOWS]
    done = subprocess.run(
        [actionlint, "-color=false", *files],
        check=False,
        capture_output=True,
        text=True,
        cwd=rendered,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    bad = rendered / "bad.yml"
    bad.write_text("on: pull_request\njobs:\n  x:\n    steps: []\n")
    assert subprocess.run([actionlint, str(bad)], check=False, capture_output=True).returncode != 0


def test_zizmor_finds_nothing(rendered: Path, tmp_path: Path) -> None:
    zizmor = tool("zizmor")
    if zizmor is None:
        missing("zizmor")
    shutil.copy(ROOT / ".pre-commit-hooks.yaml", rendered / ".pre-commit-hooks.yaml")
    command = [zizmor, "--offline", "--no-progress", "--color=never", "--no-config"]
    done = subprocess.run(
        [*command, "--collect=all", str(rendered)], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "memsync-consolidate.yml" in done.stderr  # it did audit the workflows
    assert "dependabot.yml" in done.stderr  # and the Dependabot config (cooldown and all)
    control = tmp_path / "control" / ".github" / "workflows"
    control.mkdir(parents=True)
    (control / "bad.yml").write_text(BAD_WORKFLOW)
    assert (
        subprocess.run(
            [*command, str(control.parent.parent)], check=False, capture_output=True
        ).returncode
        != 0
    )


# --- a small local runner for `run:` steps -------------------------------------------------

_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_COMPARE = re.compile(r"^([\w.-]+)\s*(==|!=)\s*'([^']*)'$")


@dataclass(frozen=True)
class StepResult:
    """What one step did."""

    name: str
    status: str  # "success", "failure", "skipped" (if: false), "uses" (not executed)
    returncode: int | None = None
    output: str = ""


@dataclass
class JobResult:
    """The steps of one job run and where its GitHub files ended up."""

    steps: list[StepResult] = field(default_factory=list)
    summary: str = ""

    @property
    def succeeded(self) -> bool:
        """False when a step failed without continue-on-error."""
        return all(s.status != "failure" for s in self.steps)

    def step(self, name: str) -> StepResult:
        """The result of the step called `name`."""
        return next(s for s in self.steps if s.name == name)


def lookup(context: Mapping[str, Any], dotted: str) -> Any:
    value: Any = context
    for part in dotted.split("."):
        value = value.get(part, "") if isinstance(value, Mapping) else ""
    return value


def expand(text: str, context: Mapping[str, Any]) -> str:
    """Replace `${{ a.b.c }}` with context values; anything else is not supported here."""

    def one(match: re.Match[str]) -> str:
        expr = match.group(1)
        if not re.fullmatch(r"[\w.-]+", expr):
            raise ValueError(f"unsupported expression {expr!r}")
        return str(lookup(context, expr))

    return _EXPR.sub(one, text)


def condition(expr: str | None, context: Mapping[str, Any], failed: bool) -> bool:
    """Evaluate the `if:` forms the templates use."""
    expr = (expr or "success()").strip()
    wrapped = _EXPR.fullmatch(expr)
    if wrapped is not None:
        expr = wrapped.group(1)
    if expr == "success()":
        return not failed
    if expr == "always()":
        return True
    if expr == "failure()":
        return failed
    compare = _COMPARE.match(expr)
    if compare is None:
        raise ValueError(f"unsupported condition {expr!r}")
    left, op, right = compare.groups()
    return not failed and ((lookup(context, left) == right) == (op == "=="))


def run_job(
    workflow: dict[str, Any],
    job_id: str,
    workspace: Path,
    *,
    context: Mapping[str, Any],
    env: Mapping[str, str],
    skip: frozenset[str] = frozenset(),
) -> JobResult:
    """Run the `run:` steps of one job in `workspace`, GitHub-style; `skip` names steps."""
    job = workflow["jobs"][job_id]
    temp = Path(context["runner"]["temp"])
    temp.mkdir(parents=True, exist_ok=True)
    summary = temp / "step_summary.md"
    summary.touch()
    base_env = {
        **env,
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_EVENT_NAME": str(context["github"]["event_name"]),
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(temp),
    }
    for scope in (workflow, job):
        base_env.update({k: expand(str(v), context) for k, v in scope.get("env", {}).items()})
    result = JobResult()
    failed = False
    for step in job["steps"]:
        name = step.get("name") or step.get("uses") or step["run"]
        if "uses" in step:
            result.steps.append(StepResult(name, "uses"))
            continue
        if name in skip or not condition(step.get("if"), context, failed):
            result.steps.append(StepResult(name, "skipped"))
            continue
        if step.get("shell", "bash") != "bash":
            raise ValueError(f"{name}: only bash steps are supported")
        step_env = {k: expand(str(v), context) for k, v in step.get("env", {}).items()}
        script = temp / "step.sh"
        script.write_text(expand(step["run"], context))
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace / step.get("working-directory", "."),
            env={**base_env, **step_env},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        ok = done.returncode == 0 or bool(step.get("continue-on-error"))
        status = "success" if done.returncode == 0 else "failure"
        result.steps.append(StepResult(name, status, done.returncode, done.stdout + done.stderr))
        failed = failed or not ok
    result.summary = summary.read_text()
    return result


def isolated_env(tmp_path: Path, bindir: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {
        "PATH": f"{bindir}:/usr/bin:/bin",
        "HOME": str(home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
        "MEMSYNC_HOME": str(tmp_path / "memsync-home"),
        "MEMSYNC_CONFIG": str(tmp_path / "memsync-config.toml"),
        "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),
    }


def play(
    repo: Path,
    tmp_path: Path,
    name: str,
    bindir: Path,
    *,
    event: str = "pull_request",
    base: str = "",
    head: str = "",
    env: Mapping[str, str] | None = None,
    skip: frozenset[str] = frozenset(),
) -> tuple[JobResult, dict[str, Any]]:
    """Run the only job of a scaffolded workflow for `event`, memsync taken from `bindir`."""
    workflow = load(repo, name)
    context: dict[str, Any] = {
        "github": {
            "event_name": event,
            "ref": "refs/pull/1/merge",
            "event": {"pull_request": {"base": {"sha": base}, "head": {"sha": head}}},
        },
        "runner": {"temp": str(tmp_path / "runner-temp")},
    }
    (job_id,) = workflow["jobs"]
    result = run_job(
        workflow,
        job_id,
        repo,
        context=context,
        env={**isolated_env(tmp_path, bindir), **(env or {})},
        # The stand-in or this checkout's memsync replaces the pip install.
        skip=frozenset({"Install memsync", *skip}),
    )
    return result, context


# --- the runner on the check workflow, with a stand-in memsync ------------------------------

FAKE_MEMSYNC = """\
import json, os, sys
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
args = sys.argv[1:]
code = int(os.environ.get("FAKE_CHECK_EXIT", "0"))
if args[0] == "check" and "sarif" in args:
    print(json.dumps({"version": "2.1.0", "runs": []}))
    sys.exit(code)
if args[0] == "check":
    if code:
        print("::error file=acme/x.md,line=2::type: user memories cannot be shared")
    sys.exit(code)
if args[0] == "review":
    print("## Memory changes\\n- added `acme/x.md`")
if args[0] == "consolidate":
    report = args[args.index("--report") + 1]
    with open(report, "w") as handle:
        handle.write("# Consolidation report\\nNothing to do.\\n")
"""


def python_wrapper(exe: Path, script: Path) -> None:
    """An executable running `script` with this interpreter (a shebang breaks on spaces)."""
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n')
    exe.chmod(0o755)


def fake_memsync(tmp_path: Path) -> tuple[Path, Path]:
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    exe = bindir / "memsync"
    script = bindir / "fake_memsync.py"
    script.write_text(FAKE_MEMSYNC)
    python_wrapper(exe, script)
    return bindir, tmp_path / "calls.jsonl"


def calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


@POSIX_ONLY
@pytest.mark.parametrize(
    ("check_exit", "succeeded", "sarif_status"),
    [(0, True, "success"), (1, False, "success"), (2, False, "failure")],
)
def test_check_workflow_steps_with_a_stand_in(
    rendered: Path, tmp_path: Path, check_exit: int, succeeded: bool, sarif_status: str
) -> None:
    bindir, log = fake_memsync(tmp_path)
    env = {"FAKE_LOG": str(log), "FAKE_CHECK_EXIT": str(check_exit)}
    result, _ = play(
        rendered,
        tmp_path,
        "memsync-check.yml",
        bindir,
        base=BASE_SHA_FAKE,
        head=HEAD_SHA_FAKE,
        env=env,
    )
    assert result.succeeded is succeeded
    assert result.step("Write the SARIF report").status == sarif_status
    assert result.step("Upload the SARIF report to code scanning").status == "uses"
    if check_exit == 2:
        # A crash of memsync stops the job before the later steps.
        assert result.step("Check the memories").status == "skipped"
        return
    assert json.loads((rendered / "memsync.sarif").read_text())["version"] == "2.1.0"
    assert calls(log) == [
        ["check", "--all", "--format", "sarif"],
        ["review", "--base", BASE_SHA_FAKE, "--head", HEAD_SHA_FAKE, "--format", "markdown"],
        ["check", "--all", "--format", "github"],
    ]
    assert "## Memory changes" in result.summary
    final = result.step("Check the memories")
    assert (final.returncode, "::error file=acme/x.md" in final.output) == (
        check_exit,
        bool(check_exit),
    )


@POSIX_ONLY
def test_review_summary_is_only_written_for_pull_requests(rendered: Path, tmp_path: Path) -> None:
    bindir, log = fake_memsync(tmp_path)
    result, _ = play(
        rendered,
        tmp_path,
        "memsync-check.yml",
        bindir,
        event="workflow_dispatch",
        env={"FAKE_LOG": str(log)},
    )
    assert result.succeeded
    assert result.step("Summarize the memory changes").status == "skipped"
    assert result.summary == ""


@POSIX_ONLY
def test_consolidate_workflow_leaves_the_report_where_the_pr_step_reads_it(
    rendered: Path, tmp_path: Path
) -> None:
    bindir, log = fake_memsync(tmp_path)
    result, context = play(
        rendered,
        tmp_path,
        "memsync-consolidate.yml",
        bindir,
        event="schedule",
        env={"FAKE_LOG": str(log)},
    )
    assert result.succeeded
    steps = load(rendered, "memsync-consolidate.yml")["jobs"]["consolidate"]["steps"]
    create = next(s for s in steps if "create-pull-request" in s.get("uses", ""))
    report = Path(expand(create["with"]["body-path"], context))
    assert report.read_text().startswith("# Consolidation report")
    assert calls(log)[0][:5] == ["consolidate", ".", "--all", "--yes", "--report"]


def test_runner_refuses_what_it_cannot_evaluate() -> None:
    with pytest.raises(ValueError, match="unsupported expression"):
        expand("${{ toJSON(github) }}", {})
    with pytest.raises(ValueError, match="unsupported condition"):
        condition("contains(github.ref, 'x')", {}, failed=False)
    assert condition("${{ always() }}", {}, failed=True)
    assert not condition(None, {}, failed=True)
    assert condition("github.event_name != 'push'", {"github": {"event_name": "pr"}}, False)


# --- the real memsync CLI, once its commands exist -----------------------------------------


def cli_has(command: str) -> bool:
    """Whether memsync's CLI registers `command`; a broken CLI fails instead of skipping."""
    probe = (
        "import sys; from memsync.cli.app import main; sys.argv[0] = 'memsync'; sys.exit(main())"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, command, "--help"],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if done.returncode == 0:
        return True
    missing = ("No module named 'memsync.cli.app'", "No such command")
    if any(text in done.stderr + done.stdout for text in missing):
        return False
    pytest.fail(f"`memsync {command} --help` failed:\n{done.stdout}{done.stderr}")


def real_memsync(tmp_path: Path) -> Path:
    """A `memsync` on PATH that runs this checkout's package, like the pip-installed one."""
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    exe = bindir / "memsync"
    script = bindir / "memsync_entry.py"
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
        "from memsync.cli.app import main\nsys.exit(main())\n"
    )
    python_wrapper(exe, script)
    return bindir


MEMORY = """\
---
name: {name}
description: {name} in one line
type: {type}
---
{body}
"""


def commit_memories(repo: Path, memories: dict[str, str], message: str) -> str:
    project = repo / "acme-api"
    project.mkdir(exist_ok=True)
    index = []
    for name, kind in memories.items():
        slug = name.replace(" ", "-")
        body = f"{name.capitalize()} applies to every change."
        (project / f"{slug}.md").write_text(MEMORY.format(name=name, type=kind, body=body))
        index.append(f"- [{name.capitalize()}]({slug}.md) — {name} in one line")
    (project / "MEMORY.md").write_text("\n".join(index) + "\n")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD")


@POSIX_ONLY
@pytest.mark.parametrize("shared_kind", ["feedback", "user"])
def test_check_workflow_with_the_real_cli(rendered: Path, tmp_path: Path, shared_kind: str) -> None:
    if not cli_has("check"):
        pytest.skip("`memsync check` is not registered in the CLI yet")
    base = commit_memories(rendered, {"testing policy": "feedback"}, "base")
    head = commit_memories(
        rendered, {"testing policy": "feedback", "deploy freeze": shared_kind}, "head"
    )
    # `memsync review` may land later than `check`: its step is skipped until then.
    skip = frozenset() if cli_has("review") else frozenset({"Summarize the memory changes"})
    bindir = real_memsync(tmp_path)
    result, _ = play(
        rendered, tmp_path, "memsync-check.yml", bindir, base=base, head=head, skip=skip
    )
    sarif = json.loads((rendered / "memsync.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    final = result.step("Check the memories")
    if shared_kind == "feedback":
        assert result.succeeded, [s.output for s in result.steps]
        assert "::error" not in final.output
    else:
        # `type: user` in a team store is an error (SPEC section 6), annotated on its file.
        assert not result.succeeded
        assert final.returncode == 1
        assert "::error file=acme-api/deploy-freeze.md" in final.output
    if "Summarize the memory changes" not in skip:
        summary = result.summary
        assert summary.startswith("## Memory review\n\n**1 memory** changed: 1 added.")
        assert f"| added | deploy freeze | {shared_kind} | `acme-api/deploy-freeze.md` |" in summary
        assert "| `acme-api` | 1 → 2 / 200 |" in summary
        # Everything went to $GITHUB_STEP_SUMMARY, nothing to the log.
        assert result.step("Summarize the memory changes").output == ""
        if shared_kind == "user":
            assert "| ❌ | `acme-api/deploy-freeze.md` | 4 | user-in-team |" in summary


@POSIX_ONLY
def test_consolidate_workflow_with_the_real_cli(rendered: Path, tmp_path: Path) -> None:
    if not cli_has("consolidate"):
        pytest.skip("`memsync consolidate` is not registered in the CLI yet")
    commit_memories(rendered, {"testing policy": "feedback", "deploy freeze": "project"}, "base")
    bindir = real_memsync(tmp_path)
    result, context = play(rendered, tmp_path, "memsync-consolidate.yml", bindir, event="schedule")
    assert result.succeeded, [s.output for s in result.steps]
    report = Path(context["runner"]["temp"]) / "memsync-consolidate.md"
    assert report.read_text().strip()
