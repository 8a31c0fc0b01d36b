"""What `memsync check` looks at: a memory directory, Claude Code's, or a store checkout."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memsync.check.cache import FindingCache
from memsync.check.findings import CheckedTree, CheckReport, Finding, sort_findings
from memsync.check.rules import check_file, check_files, too_large
from memsync.errors import UsageError
from memsync.fsutil.scan import scan_directory
from memsync.model.limits import INDEX_NAME, MAX_FOLDER_DEPTH, TEAM_DIR
from memsync.model.safety import SCOPES, Scope, Skipped, is_memory_file, one_project_store


@dataclass(frozen=True)
class Tree:
    """One directory to check as one memory tree of one scope."""

    root: Path
    scope: Scope
    store_root: bool = False  # the root of a store checkout: skip README.md, dot-folders
    # Only the files at the root of a store of project folders: memories no project loads.
    top_only: bool = False


def run_check(
    path: Path | None = None,
    *,
    scope: str | None = None,
    all_projects: bool = False,
    project: Path | None = None,
    cwd: Path | None = None,
) -> CheckReport:
    """Resolve what to check, check it, and report with paths relative to a useful base."""
    cwd = (cwd or Path.cwd()).resolve()
    chosen = _scope(scope)
    if path is not None and path.is_file():
        return _check_single_file(path.resolve(), chosen, cwd)
    trees = resolve_trees(path, scope=chosen, all_projects=all_projects, project=project, cwd=cwd)
    if not trees:  # a store checkout without any memory yet
        return CheckReport(str((path or cwd).resolve()), (), 0, ())
    anchor = trees[0].root if len(trees) == 1 else _common_root(trees)
    base = cwd if _is_within(anchor, cwd) else anchor
    findings: list[Finding] = []
    checked: list[CheckedTree] = []
    files = 0
    cache = FindingCache.open()
    for tree in trees:
        prefix = _prefix(tree.root, base)
        scan = scan_directory(tree.root, tree.scope, repository_root=tree.store_root)
        content, skipped = scan.files, scan.skipped
        if tree.scope == "private" and not tree.store_root and (tree.root / TEAM_DIR).is_symlink():
            skipped += (Skipped(TEAM_DIR, "symlink"),)  # the team folder, left out of the trees
        if tree.top_only:
            content = {p: d for p, d in content.items() if "/" not in p}
            skipped = tuple(s for s in skipped if "/" not in s.path)
            findings.extend(_stray(check_files(content, tree.scope, skipped, prefix=prefix)))
        else:
            findings.extend(check_files(content, tree.scope, skipped, prefix=prefix, cache=cache))
        files += len(content) + len(skipped)
        checked.append(CheckedTree(str(tree.root), prefix, tree.scope))
    cache.save()
    return CheckReport(str(base), sort_findings(findings), files, tuple(checked))


def resolve_trees(
    path: Path | None,
    *,
    scope: Scope | None,
    all_projects: bool,
    project: Path | None,
    cwd: Path,
) -> list[Tree]:
    """The memory trees PATH stands for (or, without PATH, the current project's)."""
    if path is None:
        start = (project or cwd).resolve()
        if all_projects:
            from memsync.model.paths import find_git_root

            found = find_git_root(start)
            if found is None:
                raise UsageError(
                    f"--all checks every project folder of a store checkout, and {start} is "
                    "not inside a git work tree",
                    hint="Run it inside a clone of a memory repository, or pass its PATH.",
                )
            return store_trees(found[0], scope)
        from memsync.model.paths import locate_project

        memory_dir = locate_project(start).memory_dir
        if not memory_dir.is_dir():
            raise UsageError(
                f"this project has no Claude Code memory directory yet ({memory_dir})",
                hint="Pass the PATH of a memory directory or store checkout to check.",
            )
        return directory_trees(memory_dir, scope)
    path = path.resolve()
    if not path.exists():
        raise UsageError(f"{path} does not exist", hint="Pass a memory directory or a file.")
    if not path.is_dir():
        raise UsageError(f"{path} is not a directory or a regular file")
    if (path / ".git").exists():
        return store_trees(path, scope)
    return directory_trees(path, scope)


def directory_trees(root: Path, scope: Scope | None) -> list[Tree]:
    """A plain memory directory; Claude Code's keeps team memory in `team/` (team scope)."""
    if scope is not None:
        return [Tree(root, scope)]
    if root.name == TEAM_DIR:
        return [Tree(root, "team")]
    trees = [Tree(root, "private")]
    if (root / TEAM_DIR).is_dir() and not (root / TEAM_DIR).is_symlink():  # never read through
        trees.append(Tree(root / TEAM_DIR, "team"))
    return trees


def store_trees(root: Path, scope: Scope | None) -> list[Tree]:
    """Every project folder of a store checkout (or its root, for a one-project store)."""
    scope = scope or checkout_scope(root)
    top = [
        e.name
        for e in _entries(root)
        if e.is_file() and is_memory_file(e.name, scope, repository_root=True)
    ]
    folders = [
        Path(e.path)
        for e in _entries(root)
        if e.is_dir(follow_symlinks=False) and not e.name.startswith(".") and _has_memory(e.path)
    ]
    indexes = [f"{f.name}/{INDEX_NAME}" for f in folders if (f / INDEX_NAME).is_file()]
    if one_project_store(top + indexes):
        return [Tree(root, scope, store_root=True)]
    stray = [Tree(root, scope, store_root=True, top_only=True)] if top else []
    return [Tree(folder, scope) for folder in folders] + stray


def _stray(found: list[Finding]) -> list[Finding]:
    """The findings on memories at the root of a store of project folders, where no
    project's Claude Code loads them: "not in the index" says what to do about it."""
    from dataclasses import replace

    message = (
        "a memory outside any project folder: no project loads it and memsync never syncs "
        "it; move it into its project's folder (or delete it)"
    )
    return [replace(f, message=message) if f.rule == "index-missing-entry" else f for f in found]


def checkout_scope(root: Path) -> Scope:
    """A store checkout's scope, by the one rule (`check.scope.store_scope`)."""
    from memsync.check.scope import SCAFFOLD_WORKFLOW
    from memsync.check.scope import store_scope as scope_of

    attributes = root / ".gitattributes"
    scaffold = [SCAFFOLD_WORKFLOW] if (root / SCAFFOLD_WORKFLOW).is_file() else []
    return scope_of(root, scaffold, attributes.read_bytes() if attributes.is_file() else None)


def _check_single_file(path: Path, scope: Scope | None, cwd: Path) -> CheckReport:
    if scope is None:
        scope = "team" if path.parent.name == TEAM_DIR else "private"
    base = cwd if _is_within(path, cwd) else path.parent
    shown = path.relative_to(base).as_posix()
    from memsync.fsutil.reads import TooLargeError, read_regular

    try:
        # Named on the command line, so a link is followed; never read past the limit.
        data = read_regular(path, follow=True)
    except TooLargeError as exc:
        findings = [too_large(shown, exc.size)]
    except OSError as exc:
        raise UsageError(f"cannot read {shown}: {exc.strerror or exc}") from None
    else:
        findings = check_file(shown, data, scope, index=path.name == INDEX_NAME)
    tree = CheckedTree(str(path), "", scope)
    return CheckReport(str(base), sort_findings(findings), 1, (tree,))


def _scope(scope: str | None) -> Scope | None:
    if scope is None:
        return None
    lowered = scope.lower()
    for name in SCOPES:
        if lowered == name:
            return name
    raise UsageError(f"--scope must be private or team, not {scope!r}")


def _entries(root: Path) -> list[os.DirEntry[str]]:
    with os.scandir(root) as iterator:
        return sorted(iterator, key=lambda e: e.name)


def _has_memory(directory: str) -> bool:
    """Whether any memory lies below DIRECTORY (stops at the first)."""
    for here, dirs, files in os.walk(directory):
        rel = Path(here).relative_to(directory).as_posix()
        prefix = "" if rel == "." else rel + "/"
        if any(is_memory_file(prefix + name, "team") for name in files):
            return True
        # Not git's and the client's own; nor deeper than any synced memory (os.walk recurses).
        deep = prefix.count("/") >= MAX_FOLDER_DEPTH
        dirs[:] = [] if deep else [d for d in dirs if not d.startswith(".")]
    return False


def _is_within(path: Path, base: Path) -> bool:
    return path == base or base in path.parents


def _common_root(trees: list[Tree]) -> Path:
    return Path(os.path.commonpath([str(tree.root) for tree in trees]))


def _prefix(root: Path, base: Path) -> str:
    relative = root.relative_to(base).as_posix() if _is_within(root, base) else root.as_posix()
    return "" if relative == "." else relative + "/"
