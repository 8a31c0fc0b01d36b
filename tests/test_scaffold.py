"""Scaffolding a team repository from templates/."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import yaml

import memsync
from memsync.errors import UsageError, UserMessageError
from memsync.team import scaffold

EXPECTED = [
    Path(".github/workflows/memsync-check.yml"),
    Path(".github/workflows/memsync-consolidate.yml"),
    Path(".github/dependabot.yml"),
    Path(".gitattributes"),
    Path(".pre-commit-config.yaml"),
    Path("README.md"),
]
RECORD = Path(".memsync/scaffold.json")
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def test_scaffold_writes_every_file_into_an_empty_repository(tmp_path: Path) -> None:
    result = scaffold.scaffold(tmp_path, verify=False)
    assert list(result.written) == EXPECTED
    assert result.skipped == ()
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file()) == sorted(
        [*EXPECTED, RECORD]
    )
    for relative in EXPECTED:
        text = (tmp_path / relative).read_text()
        assert "{{ memsync_" not in text, relative
    check = (tmp_path / ".github/workflows/memsync-check.yml").read_text()
    assert f'pip install "memsync=={memsync.__version__}"' in check
    # GitHub's own expressions survive rendering.
    assert "${{ github.event.pull_request.base.sha }}" in check


def test_gitattributes_enables_the_merge_driver(tmp_path: Path) -> None:
    scaffold.scaffold(tmp_path, verify=False)
    lines = (tmp_path / ".gitattributes").read_text().splitlines()
    assert "*.md merge=memsync" in lines
    assert "/README.md merge=text" in lines


def test_existing_files_are_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("our own readme\n")
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "memsync-check.yml").write_text("name: edited by the team\n")
    try:
        (tmp_path / ".gitattributes").symlink_to(tmp_path / "nowhere")
    except OSError:  # Windows without the symlink privilege
        (tmp_path / ".gitattributes").write_text("* text=auto\n")

    result = scaffold.scaffold(tmp_path, verify=False)
    assert set(result.skipped) == {
        Path("README.md"),
        Path(".github/workflows/memsync-check.yml"),
        Path(".gitattributes"),
    }
    assert set(result.written) == {
        Path(".github/workflows/memsync-consolidate.yml"),
        Path(".github/dependabot.yml"),
        Path(".pre-commit-config.yaml"),
    }
    assert (tmp_path / "README.md").read_text() == "our own readme\n"
    assert (workflows / "memsync-check.yml").read_text() == "name: edited by the team\n"
    assert not (tmp_path / "nowhere").exists()

    again = scaffold.scaffold(tmp_path, verify=False)
    assert again.written == ()
    assert set(again.skipped) == set(EXPECTED)


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    result = scaffold.scaffold(tmp_path, dry_run=True, verify=False)
    assert list(result.written) == EXPECTED
    assert list(tmp_path.iterdir()) == []


def test_custom_requirement_reaches_workflows_and_pre_commit(tmp_path: Path) -> None:
    requirement = "memsync @ git+https://github.com/acme/memsync@v0.2.0"
    scaffold.scaffold(tmp_path, memsync_spec=requirement, verify=False)
    for workflow in ("memsync-check.yml", "memsync-consolidate.yml"):
        text = (tmp_path / ".github/workflows" / workflow).read_text()
        assert f'python -m pip install "{requirement}"' in text
    config = yaml.safe_load((tmp_path / ".pre-commit-config.yaml").read_text())
    hook = config["repos"][0]["hooks"][0]
    assert hook["additional_dependencies"] == [requirement]
    assert hook["entry"] == "memsync check"


@pytest.mark.parametrize(
    "requirement", ['memsync"; curl evil', "memsync==$(id)", "memsync\nrun: x", "`x`"]
)
def test_requirements_that_could_inject_shell_are_refused(tmp_path: Path, requirement: str) -> None:
    with pytest.raises(UsageError, match="cannot quote safely"):
        scaffold.scaffold(tmp_path, memsync_spec=requirement, verify=False)
    assert list(tmp_path.iterdir()) == []


def test_render_rejects_unknown_placeholders_and_keeps_github_expressions() -> None:
    variables = {"memsync_version": "1.2.3"}
    assert scaffold.render("v{{memsync_version}} ${{ github.sha }}", variables) == (
        "v1.2.3 ${{ github.sha }}"
    )
    with pytest.raises(UserMessageError, match="unknown template variable"):
        scaffold.render("{{ memsync_typo }}", variables, name="x.yml")


def test_scaffold_into_a_missing_directory_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not a directory"):
        scaffold.scaffold(tmp_path / "missing", verify=False)


def test_rendered_yaml_files_parse(tmp_path: Path) -> None:
    files = scaffold.rendered_files()
    for relative, text in files.items():
        if relative.suffix in {".yml", ".yaml"}:
            assert isinstance(yaml.safe_load(text), dict), relative
    project_hooks = yaml.safe_load((TEMPLATES.parent / ".pre-commit-hooks.yaml").read_text())
    assert [hook["id"] for hook in project_hooks] == ["memsync-check"]
    assert project_hooks[0]["pass_filenames"] is False


def test_installed_package_templates_are_found_outside_a_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a source checkout, the templates come from package memsync.templates."""
    site = tmp_path / "site" / "memsync"
    shutil.copytree(TEMPLATES, site / "templates")
    (site / "templates" / "README.md").write_text("installed copy {{ memsync_version }}\n")
    monkeypatch.setattr(scaffold, "__file__", str(tmp_path / "elsewhere" / "scaffold.py"))
    monkeypatch.setattr(memsync, "__path__", [*memsync.__path__, str(site)])
    monkeypatch.delitem(sys.modules, "memsync.templates", raising=False)

    scaffold.scaffold(tmp_path / "site", verify=False)
    assert (tmp_path / "site" / "README.md").read_text() == (
        f"installed copy {memsync.__version__}\n"
    )


def test_missing_templates_say_to_reinstall(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(scaffold, "__file__", str(tmp_path / "elsewhere" / "scaffold.py"))
    monkeypatch.setattr(memsync, "__path__", [str(tmp_path / "empty")])
    monkeypatch.delitem(sys.modules, "memsync.templates", raising=False)
    with pytest.raises(UserMessageError, match="Reinstall memsync"):
        scaffold.templates_root()
