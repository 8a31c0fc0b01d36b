"""A store's tree as `memsync review` reads it: memories, project folders, scope, checks."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from memsync.model.limits import INDEX_NAME
from memsync.model.safety import is_memory_file

# What `memsync scaffold` writes into a team repository: its presence names the scope.
ATTRIBUTES = ".gitattributes"


@dataclass(frozen=True)
class CheckNote:
    """A `memsync check` finding on a changed file."""

    path: str
    line: int
    severity: str
    rule: str
    message: str


def is_memory_path(path: str) -> bool:
    """Memory content of a store: `*.md` outside dot-directories, not the repository's own files."""
    return is_memory_file(path, "team", repository_root=True)


@dataclass(frozen=True)
class Layout:
    """How a store's files group into project folders, the way `memsync check` groups them.

    A store holding memories at its root serves one project (`--subdir .`): the root is
    the only folder, `archive/` included. Otherwise each top-level directory is a project.
    """

    one_project: bool

    @classmethod
    def of(cls, paths: Iterable[str]) -> Layout:
        """The layout of a tree with these PATHS."""
        from memsync.model.safety import one_project_store

        return cls(one_project_store(paths))

    def folder(self, path: str) -> str:
        """The project folder of PATH ("" for the root)."""
        return "" if self.one_project or "/" not in path else path.split("/", 1)[0]

    def index(self, folder: str) -> str:
        """The MEMORY.md of FOLDER."""
        return f"{folder}/{INDEX_NAME}" if folder else INDEX_NAME


def check_folders(
    layout: Layout,
    files: Mapping[str, bytes],
    changed: Collection[str],
    removed: Collection[str],
    scope: str,
) -> tuple[CheckNote, ...]:
    """`memsync check` on each project folder in FILES, keeping findings about the change.

    FILES holds every memory of the touched folders at the new commit, so the rules that
    look across files (index links, unindexed or duplicate memories) see the whole folder.
    A folder's index counts as changed when it changed or a memory of the folder went away.
    """
    from memsync.check.rules import check_files
    from memsync.model.safety import filter_files

    notes: list[CheckNote] = []
    for folder in sorted({layout.folder(p) for p in files}):
        prefix = f"{folder}/" if folder else ""
        tree = {p[len(prefix) :]: d for p, d in files.items() if layout.folder(p) == folder}
        scan = filter_files(
            tree, "team" if scope == "team" else "private", repository_root=not folder
        )
        index = layout.index(folder)
        index_touched = index in changed or any(layout.folder(p) == folder for p in removed)
        for found in check_files(scan.files, scope, scan.skipped, prefix=prefix):
            # Secrets have their own section, with the scanner's redacted preview.
            if found.rule == "secret":
                continue
            if found.path in changed or (found.path == index and index_touched):
                notes.append(
                    CheckNote(found.path, found.line, found.severity, found.rule, found.message)
                )
    return tuple(sorted(notes, key=lambda n: (n.path, n.line, n.rule)))
