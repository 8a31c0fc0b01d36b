"""Work trees: state of a checkout (unfinished operations, local changes)."""

from __future__ import annotations

from pathlib import Path

from memsync.git.run import run_git


def unfinished_operation(repo: Path) -> str | None:
    """The git operation left half done in REPO (merge, rebase, ...), if any."""
    names = {
        "MERGE_HEAD": "merge",
        "rebase-merge": "rebase",
        "rebase-apply": "rebase",
        "CHERRY_PICK_HEAD": "cherry-pick",
        "REVERT_HEAD": "revert",
    }
    args = ["rev-parse", *(arg for name in names for arg in ("--git-path", name))]
    paths = run_git(args, cwd=repo).text.splitlines()
    for marker, path in zip(names, paths, strict=True):
        if (repo / path).exists():
            return names[marker]
    return None


def tracked_changes(repo: Path) -> list[str]:
    """Tracked paths whose index or work tree differs from HEAD (untracked files ignored)."""
    out = run_git(["status", "--porcelain=v1", "-z", "--untracked-files=no"], cwd=repo).stdout
    return [r[3:].decode("utf-8", "surrogateescape") for r in out.split(b"\0") if len(r) > 3]


def checkout_tree(repo: Path, old: str, new: str) -> None:
    """Move index and work tree from commit OLD to NEW, refusing to overwrite local changes."""
    run_git(["read-tree", "-m", "-u", old, new], cwd=repo)


def reset_tree(repo: Path, commit: str) -> None:
    """Put index and tracked work-tree files back to COMMIT (recovery after a failed update)."""
    run_git(["read-tree", "--reset", "-u", commit], cwd=repo)


def work_tree_changes(repo: Path, prefix: str = "") -> set[str]:
    """Paths (relative to the repository) that differ from HEAD or are untracked."""
    args = ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"]
    if prefix:
        args += ["--", prefix.rstrip("/") + "/"]
    result = run_git(args, cwd=repo, check=False)
    if not result.ok:
        return set()
    return {entry[3:] for entry in result.text.split("\0") if len(entry) > 3}
