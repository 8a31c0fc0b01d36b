"""Write and update the team-repository scaffold: workflows, pre-commit, .gitattributes,
README and a Dependabot config that keeps the workflows' pinned actions current.

The files come from the project's `templates/` folder, shipped as package
`memsync.templates`. A first scaffold never overwrites a file (an existing
`.gitattributes` only gets the merge-driver lines it lacks). `.memsync/scaffold.json`
records the memsync spec the workflows install and the template text each file was made
from, so `scaffold --update` can bring in new templates by a three-way merge that keeps
the team's own edits, and report what it did per file.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memsync import __version__
from memsync.errors import UsageError, UserMessageError, os_error
from memsync.team.memsyncspec import check_spec, default_spec, validate_spec

if TYPE_CHECKING:
    # importlib.resources.abc only exists from 3.11 on.
    from importlib.abc import Traversable

# template (relative to templates/) -> destination (relative to the team repository).
# Dot-files are stored without their dot so they do not act on memsync's own repository.
SCAFFOLD_FILES: tuple[tuple[str, str], ...] = (
    ("workflows/memsync-check.yml", ".github/workflows/memsync-check.yml"),
    ("workflows/memsync-consolidate.yml", ".github/workflows/memsync-consolidate.yml"),
    ("dependabot.yml", ".github/dependabot.yml"),
    ("gitattributes", ".gitattributes"),
    ("pre-commit-config.yaml", ".pre-commit-config.yaml"),
    ("README.md", "README.md"),
)
RECORD = Path(".memsync/scaffold.json")
GITATTRIBUTES = Path(".gitattributes")
PRE_COMMIT = Path(".pre-commit-config.yaml")
_MEMSYNC_HOOK = "id: memsync-check"
_REPOS_KEY = re.compile(r"^repos:[ \t]*(?:#.*)?\n", re.MULTILINE)
_FIRST_ITEM = re.compile(r"^([ \t]*)- ", re.MULTILINE)
_WRITTEN_BY = "memsync scaffold"  # in every template's header comment

# `{{ memsync_x }}` but not GitHub's own `${{ ... }}` expressions.
_PLACEHOLDER = re.compile(r"(?<!\$)\{\{\s*(memsync_[a-z_]+)\s*\}\}")
# What an older scaffold put in a file, to rebuild the template it started from.
_OLD_SPEC = re.compile(r'(?:pip install "|additional_dependencies: \[")([^"]+)"')
_OLD_VERSION = re.compile(r"\(memsync ([^)\s]+)\)")


@dataclass(frozen=True)
class ScaffoldFile:
    """One scaffold file and what happened to it (`action`), with a word on why (`note`)."""

    path: Path
    action: str
    note: str = ""


@dataclass(frozen=True)
class ScaffoldResult:
    """Per file what was done, the memsync spec in use, and warnings about it."""

    files: tuple[ScaffoldFile, ...]
    memsync_spec: str
    warnings: tuple[str, ...] = field(default=())

    @property
    def written(self) -> tuple[Path, ...]:
        """Files created from a template."""
        return tuple(f.path for f in self.files if f.action == "wrote")

    @property
    def conflicts(self) -> tuple[Path, ...]:
        """Files whose new template waits beside them (`.memsync-new`) for a hand merge."""
        return tuple(f.path for f in self.files if f.action == "conflict")

    @property
    def skipped(self) -> tuple[Path, ...]:
        """Files left exactly as they were."""
        return tuple(f.path for f in self.files if f.action in ("kept", "current"))


def default_requirement(version: str = __version__) -> str:
    """`memsync==VERSION` (what older scaffolds always installed)."""
    return f"memsync=={version}"


def template_variables(memsync_spec: str | None = None) -> dict[str, str]:
    """The values substituted into templates."""
    spec = validate_spec(memsync_spec or default_requirement())
    return {"memsync_version": __version__, "memsync_requirement": spec}


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


def rendered_files(memsync_spec: str | None = None) -> dict[Path, str]:
    """Destination path (relative) -> rendered content, for every scaffold file."""
    variables = template_variables(memsync_spec)
    return {
        Path(dest): render(read_template(src), variables, name=src) for src, dest in SCAFFOLD_FILES
    }


def record_text(memsync_spec: str, bases: dict[Path, str]) -> str:
    """The `.memsync/scaffold.json` that remembers the spec and each file's template."""
    data = {
        "memsync_version": __version__,
        "memsync_spec": memsync_spec,
        "templates": {path.as_posix(): text for path, text in sorted(bases.items())},
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def read_record(repo_dir: Path) -> tuple[str | None, dict[Path, str]]:
    """The recorded spec and template texts ((None, {}) when there is no usable record)."""
    try:
        data = json.loads((repo_dir / RECORD).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None, {}  # RecursionError: `[[[[…` nested too deep for the parser
    if not isinstance(data, dict):
        return None, {}
    spec = data.get("memsync_spec")
    templates = data.get("templates")
    bases = {
        Path(k): v
        for k, v in (templates.items() if isinstance(templates, dict) else ())
        if isinstance(k, str) and isinstance(v, str)
    }
    return (spec if isinstance(spec, str) else None), bases


def _guessed_base(relative: Path, ours: str) -> str:
    """The template an unrecorded file probably came from: today's, with its spec and version."""
    src = next(s for s, d in SCAFFOLD_FILES if Path(d) == relative)
    spec = _OLD_SPEC.search(ours)
    version = _OLD_VERSION.search(ours)
    variables = {
        "memsync_version": version.group(1) if version else __version__,
        "memsync_requirement": spec.group(1) if spec else default_requirement(),
    }
    return render(read_template(src), variables, name=src)


def _missing_attribute_lines(ours: str, template: str) -> list[str]:
    present = {line.strip() for line in ours.splitlines()}
    rules = [line for line in template.splitlines() if line.strip() and not line.startswith("#")]
    return [line for line in rules if line.strip() not in present]


def _first_time(relative: Path, ours: str, theirs: str) -> tuple[ScaffoldFile, str | None]:
    """A file that exists but was never scaffolded: keep it; give .gitattributes our lines
    and a pre-commit config our hook."""
    if ours == theirs:
        return ScaffoldFile(relative, "current"), None
    if relative == GITATTRIBUTES:
        missing = _missing_attribute_lines(ours, theirs)
        if missing:
            lines = "\n".join(missing)
            glue = "" if ours.endswith("\n") or not ours else "\n"
            text = f"{ours}{glue}# Added by `memsync scaffold`: memsync's merge driver.\n{lines}\n"
            return ScaffoldFile(relative, "appended", "the merge-driver lines"), text
    if relative == PRE_COMMIT and _MEMSYNC_HOOK in ours:
        return ScaffoldFile(relative, "kept", "yours, with the `memsync-check` hook"), None
    if relative == PRE_COMMIT:
        added = _with_our_hook(ours, theirs)
        if added is not None:
            return ScaffoldFile(relative, "appended", "the `memsync check` hook"), added
        note = "exists, in a shape memsync does not edit: add the `memsync-check` hook by hand"
        return ScaffoldFile(relative, "kept", note), None
    return ScaffoldFile(relative, "kept", "exists; not written by memsync, left as it is"), None


def _with_our_hook(ours: str, theirs: str) -> str | None:
    """OURS with the template's `repos:` entries first, or None unless that is certain."""
    import yaml

    repos = _REPOS_KEY.search(ours)
    item = _FIRST_ITEM.search(ours, repos.end()) if repos else None
    try:
        before = yaml.safe_load(ours)
        template = yaml.safe_load(theirs)
    except yaml.YAMLError:
        return None
    if repos is None or item is None or not isinstance(before, dict):
        return None
    ours_list, entries = before.get("repos"), template["repos"]
    template_repos = _REPOS_KEY.search(theirs)
    if template_repos is None:  # pragma: no cover - the template has its `repos:` line
        return None
    block = theirs[template_repos.end() :]
    indent = item.group(1)
    lines = [indent + line[2:] if line.strip() else line for line in block.splitlines(True)]
    text = ours[: repos.end()] + "".join(lines).rstrip("\n") + "\n" + ours[repos.end() :]
    try:
        after = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    # Only a result that is exactly our entries, then theirs, is written.
    wanted = {**before, "repos": [*entries, *(ours_list or [])]}
    return text if isinstance(ours_list, list) and after == wanted else None


def _three_way(relative: Path, base: str, ours: str, theirs: str) -> tuple[ScaffoldFile, str]:
    """(what happened, the text to write) for a file updated against its template."""
    from memsync.merge.diff3 import merge_text

    if ours == theirs:
        return ScaffoldFile(relative, "current"), ours
    if ours == base:
        return ScaffoldFile(relative, "updated", "to the new template"), theirs
    if theirs == base:
        return ScaffoldFile(relative, "kept", "your edits; the template has not changed"), ours
    merged = merge_text(base, ours, theirs, a_first=True)
    if merged.conflicts:
        note = (
            "your edits and the new template change the same lines: kept yours; "
            f"the new template is {relative}.memsync-new, merge it by hand"
        )
        return ScaffoldFile(relative, "conflict", note), ours
    return ScaffoldFile(relative, "merged", "the new template with your edits"), merged.text


_LINK = "a symbolic link; memsync never writes through a symlink: replace it by a real folder"


def _check_room(repo_dir: Path, relative: Path) -> None:
    """Refuse, before anything is written, a file (or special file) where RELATIVE, a file
    the scaffold writes, or one of its folders belongs."""
    folders = [repo_dir / parent for parent in reversed(relative.parents) if parent != Path()]
    for folder in folders:
        if folder.is_symlink():
            return  # a link is kept, never written through (see plan_scaffold)
        if os.path.lexists(folder) and not folder.is_dir():
            raise UserMessageError(
                f"{folder} is a file, not a folder: the scaffold writes {relative} into it; "
                "memsync wrote nothing",
                hint="Move or rename it, then run `memsync scaffold` again.",
            )
    target = repo_dir / relative
    if os.path.lexists(target) and not target.is_symlink() and not target.is_file():
        raise UserMessageError(
            f"{target} is not a regular file: the scaffold writes {relative} there; "
            "memsync wrote nothing",
            hint="Move or rename it, then run `memsync scaffold` again.",
        )


def plan_scaffold(
    repo_dir: Path, *, memsync_spec: str | None = None, update: bool = False
) -> tuple[ScaffoldResult, dict[Path, str], dict[Path, str]]:
    """(result, texts to write, template bases to record) without touching the disk."""
    from memsync.fsutil.reads import NEVER_THROUGH_LINKS, linked_part

    if (linked := linked_part(repo_dir, RECORD.as_posix())) is not None:
        raise UserMessageError(
            f"{repo_dir / linked} is a symbolic link; {NEVER_THROUGH_LINKS}, and it keeps its "
            "scaffold record there",
            hint=f"Replace {repo_dir / linked} by a real folder (or remove it), then rerun.",
        )
    _check_room(repo_dir, RECORD)
    recorded_spec, bases = read_record(repo_dir)
    spec = validate_spec(memsync_spec or recorded_spec or default_spec())
    files: list[ScaffoldFile] = []
    writes: dict[Path, str] = {}
    new_bases = dict(bases)
    for relative, theirs in rendered_files(spec).items():
        target = repo_dir / relative
        _check_room(repo_dir, relative)
        linked = linked_part(repo_dir, relative.as_posix())
        if linked is not None:
            # Writing would follow it out of the repository: never.
            note = "a symbolic link" if linked == relative.as_posix() else f"{linked} is {_LINK}"
            files.append(ScaffoldFile(relative, "kept", note))
            continue
        if not target.exists():
            if update and relative in bases:
                files.append(ScaffoldFile(relative, "deleted", "removed by the team; left out"))
                continue
            files.append(ScaffoldFile(relative, "wrote"))
            writes[relative] = new_bases[relative] = theirs
            continue
        ours = target.read_text(encoding="utf-8")
        if not update:
            item, text = _first_time(relative, ours, theirs)
            if item.action == "current":
                new_bases[relative] = theirs
            files.append(item)
            if text is not None:
                writes[relative] = text
            continue
        if relative not in bases and _WRITTEN_BY not in ours:
            # Never scaffolded and not ours: an update adds what a first run adds, no more.
            item, text = _first_time(relative, ours, theirs)
            files.append(item)
            if text is not None:
                writes[relative] = text
            continue
        base = bases.get(relative) or _guessed_base(relative, ours)
        item, text = _three_way(relative, base, ours, theirs)
        waiting = Path(f"{relative}.memsync-new")
        if (repo_dir / waiting).is_file():
            # The hand merge of an earlier conflict is not done until its file is deleted.
            note = f"the hand merge is not done: merge {waiting} into it, then delete {waiting}"
            item, text = ScaffoldFile(relative, "conflict", note), ours
        files.append(item)
        if item.action == "conflict":
            # As git: once merged by hand, the file is the team's edit of the new template.
            writes[waiting] = new_bases[relative] = theirs
            continue
        new_bases[relative] = theirs
        if text != ours:
            writes[relative] = text
    return ScaffoldResult(tuple(files), spec), writes, new_bases


def scaffold(
    repo_dir: Path,
    *,
    memsync_spec: str | None = None,
    dry_run: bool = False,
    update: bool = False,
    verify: bool = True,
) -> ScaffoldResult:
    """Scaffold REPO_DIR (or `update` an earlier scaffold); VERIFY checks the spec resolves."""
    if not repo_dir.is_dir():
        raise UsageError(f"{repo_dir}: not a directory.")
    result, writes, bases = plan_scaffold(repo_dir, memsync_spec=memsync_spec, update=update)
    warnings = []
    if verify:
        warning = check_spec(result.memsync_spec)
        if warning:
            warnings.append(warning)
    if not dry_run:
        try:
            for relative, text in writes.items():
                _write(repo_dir / relative, text)
            _write(repo_dir / RECORD, record_text(result.memsync_spec, bases))
        except OSError as exc:
            where = exc.filename or repo_dir
            raise os_error(exc) or UserMessageError(
                f"could not write {where}: {exc.strerror or exc}",
                hint="Scaffold a folder of a git repository you can write to.",
            ) from exc
    return ScaffoldResult(result.files, result.memsync_spec, tuple(warnings))


def _write(target: Path, text: str) -> None:
    from memsync.fsutil.atomic import atomic_write

    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, text.encode("utf-8"))
