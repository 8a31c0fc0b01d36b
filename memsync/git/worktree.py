"""Work trees: what a checkout changed or does not track."""

from __future__ import annotations

from pathlib import Path

from memsync.git.run import run_git


def work_tree_changes(repo: Path, prefix: str = "") -> set[str]:
    """Paths (relative to the repository) that differ from HEAD or are untracked."""
    args = ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"]
    if prefix:
        args += ["--", prefix.rstrip("/") + "/"]
    result = run_git(args, cwd=repo, check=False)
    if not result.ok:
        return set()
    return {entry[3:] for entry in result.text.split("\0") if len(entry) > 3}
