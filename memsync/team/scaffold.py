"""Write the team-repository scaffold (workflows, .gitattributes, README, pre-commit).

The files come from the project's `templates/` folder, shipped as package
`memsync.templates`. Existing files are never overwritten: a team that edited its
workflows keeps them, and re-running `init` or `scaffold` is safe.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memsync import __version__
from memsync.errors import UsageError, UserMessageError

if TYPE_CHECKING:
    # importlib.resources.abc only exists from 3.11 on.
    from importlib.abc import Traversable

# template (relative to templates/) -> destination (relative to the team repository).
# Dot-files are stored without their dot so they do not act on memsync's own repository.
SCAFFOLD_FILES: tuple[tuple[str, str], ...] = (
    ("workflows/memsync-check.yml", ".github/workflows/memsync-check.yml"),
    ("workflows/memsync-consolidate.yml", ".github/workflows/memsync-consolidate.yml"),
    ("gitattributes", ".gitattributes"),
    ("pre-commit-config.yaml", ".pre-commit-config.yaml"),
    ("README.md", "README.md"),
)

# `{{ memsync_x }}` but not GitHub's own `${{ ... }}` expressions.
_PLACEHOLDER = re.compile(r"(?<!\$)\{\{\s*(memsync_[a-z_]+)\s*\}\}")
# The requirement lands inside double quotes in shell and YAML: keep it to the characters
# a requirement specifier or a URL needs, so it can never inject anything.
_SAFE_REQUIREMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+\-\[\],<>=!~@/:#%?& ]*$")


@dataclass(frozen=True)
class ScaffoldResult:
    """Paths (relative to the repository) written and those left alone because they exist."""

    written: tuple[Path, ...]
    skipped: tuple[Path, ...]


def default_requirement(version: str = __version__) -> str:
    """What the workflows install: exactly the running memsync's version."""
    return f"memsync=={version}"


def template_variables(memsync_requirement: str | None = None) -> dict[str, str]:
    """The values substituted into templates."""
    requirement = memsync_requirement or default_requirement()
    if not _SAFE_REQUIREMENT.match(requirement):
        raise UsageError(
            f"memsync requirement {requirement!r} has characters a workflow cannot quote safely.",
            hint='Use a pip requirement such as "memsync==0.1.0" or "memsync @ https://…".',
        )
    return {"memsync_version": __version__, "memsync_requirement": requirement}


def render(text: str, variables: dict[str, str], *, name: str = "template") -> str:
    """Replace `{{ memsync_* }}` placeholders; an unknown one is an error, not a silent gap."""

    def substitute(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in variables:
            raise UserMessageError(f"{name}: unknown template variable {{{{ {key} }}}}.")
        return variables[key]

    return _PLACEHOLDER.sub(substitute, text)


def templates_root() -> Traversable:
    """The templates folder: a source checkout's own, else the installed package's."""
    # In a source checkout the sibling folder wins, so a developer's edited templates are
    # the ones used even when another memsync is installed in the same environment.
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "templates" / "workflows").is_dir():
        return checkout / "templates"
    from importlib.resources import files

    try:
        return files("memsync.templates")
    except ModuleNotFoundError as exc:
        raise UserMessageError(
            "memsync's templates are missing from this installation.",
            hint="Reinstall memsync (pipx reinstall memsync).",
        ) from exc


def read_template(relative: str) -> str:
    """One template's raw text."""
    node = templates_root()
    for part in relative.split("/"):
        node = node / part
    return node.read_text(encoding="utf-8")


def rendered_files(memsync_requirement: str | None = None) -> dict[Path, str]:
    """Destination path (relative) -> rendered content, for every scaffold file."""
    variables = template_variables(memsync_requirement)
    return {
        Path(dest): render(read_template(src), variables, name=src) for src, dest in SCAFFOLD_FILES
    }


def scaffold(
    repo_dir: Path, *, memsync_requirement: str | None = None, dry_run: bool = False
) -> ScaffoldResult:
    """Write the scaffold files missing from `repo_dir`; never touch existing ones."""
    if not repo_dir.is_dir():
        raise UsageError(f"{repo_dir}: not a directory.")
    written: list[Path] = []
    skipped: list[Path] = []
    for relative, content in rendered_files(memsync_requirement).items():
        target = repo_dir / relative
        # A dangling symlink "exists" for our purpose too: writing would follow it.
        if target.exists() or target.is_symlink():
            skipped.append(relative)
            continue
        if not dry_run:
            target.parent.mkdir(parents=True, exist_ok=True)
            # "x": fail instead of overwriting a file that appeared meanwhile.
            with target.open("x", encoding="utf-8", newline="\n") as handle:
                handle.write(content)
        written.append(relative)
    return ScaffoldResult(tuple(written), tuple(skipped))
