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


def merge_text(ours: Path, base: Path, theirs: Path, *, marker_size: int, cwd: Path) -> int | None:
    """Git's own three-way text merge of the files, into OURS: the number of conflicts.

    Conflicts are marked the way `git merge` marks them, with MARKER_SIZE-long markers.
    None when git cannot merge the files as text (binary content): OURS is left as it was.
    """
    labels = ("-L", "ours", "-L", "base", "-L", "theirs")
    args = ["merge-file", f"--marker-size={marker_size}", *labels, str(ours), str(base)]
    result = run_git([*args, str(theirs)], cwd=cwd, check=False)
    if 0 <= result.returncode <= 127 and "error:" not in result.stderr:
        return result.returncode
    return None
