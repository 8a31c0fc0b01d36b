"""Refs: resolving, updating and comparing branches and commits."""

from __future__ import annotations

import os
from pathlib import Path

from memsync.git.ids import ZERO_SHA
from memsync.git.run import error_for, run_git

# State files git leaves when a merge, rebase or similar was interrupted by hand.
_OPERATION_STATE = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply")


def operation_in_progress(repo: Path) -> str | None:
    """The state file of a git operation left half done in REPO (`MERGE_HEAD`, …), if any."""
    return next((name for name in _OPERATION_STATE if (repo / name).exists()), None)


def _is_sha(text: str) -> bool:
    return len(text) == 40 and all(c in "0123456789abcdef" for c in text)


def _files_backend(repo: Path) -> bool:
    # Reading refs from files is only right for the classic `files` ref store.
    return (repo / "refs").is_dir() and not (repo / "reftable").exists()


def _read_ref_file(repo: Path, ref: str, depth: int = 0) -> str | None:
    try:
        text = (repo / ref).read_text(encoding="utf-8").strip()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        text = ""
    if text.startswith("ref: ") and depth < 5:
        return _read_ref_file(repo, text[len("ref: ") :], depth + 1)
    if _is_sha(text):
        return text
    try:
        packed = (repo / "packed-refs").read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    for line in packed.splitlines():
        sha, _, name = line.partition(" ")
        if name == ref and _is_sha(sha):
            return sha
    return None


# Refs memsync reads as files: branches, remote-tracking branches and its own records
# (refs/memsync/fetched/*), never tags (an annotated tag names a tag object, not a commit).
_FILE_REFS = ("refs/heads/", "refs/remotes/", "refs/memsync/")
# What a clone last fetched of each branch (see sync/rewritten): refs/memsync/fetched/BRANCH.
FETCHED_PREFIX = "refs/memsync/fetched/"


def resolve_refs(repo: Path, *refs: str) -> list[str | None]:
    """Commit ids of full REFS (None when missing); read from the ref files, no git process."""
    if _files_backend(repo) and all(r.startswith(_FILE_REFS) for r in refs):
        return [_read_ref_file(repo, ref) for ref in refs]
    out: list[str | None] = []
    for ref in refs:
        single = run_git(
            ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], cwd=repo, check=False
        )
        out.append(single.text.strip() if single.ok else None)
    return out


def symbolic_head(repo: Path) -> str | None:
    """The branch HEAD points to, or None when HEAD is detached."""
    if _files_backend(repo):
        try:
            head = (repo / "HEAD").read_text(encoding="utf-8").strip()
        except OSError:
            head = ""
        if head.startswith("ref: "):
            ref = head[len("ref: ") :]
            return ref.removeprefix("refs/heads/") if ref.startswith("refs/heads/") else None
        if _is_sha(head):
            return None
    result = run_git(["symbolic-ref", "-q", "HEAD"], cwd=repo, check=False)
    ref = result.text.strip()
    return ref.removeprefix("refs/heads/") if result.ok and ref.startswith("refs/heads/") else None


def head_branch(repo: Path) -> str:
    """The branch a clone syncs: the one its HEAD names (the remote's default branch, recorded
    at init), `main` when HEAD names none."""
    return symbolic_head(repo) or "main"


def branch_tip(repo: Path) -> str | None:
    """The commit of the branch HEAD names (`main` when HEAD names none); None before the
    first commit."""
    (tip,) = resolve_refs(repo, f"refs/heads/{head_branch(repo)}")
    return tip


def shallow_commits(repo: Path) -> frozenset[str]:
    """The commits a shallow clone (`git clone --depth`, actions/checkout's default) cut the
    parents of, from its `shallow` file (gitrepository-layout); empty for a whole history."""
    result = run_git(["rev-parse", "--git-path", "shallow"], cwd=repo, check=False)
    if not result.ok:
        return frozenset()
    try:
        listed = (repo / result.text.strip()).read_text(encoding="ascii", errors="replace")
    except OSError:  # no file: not shallow
        return frozenset()
    return frozenset(listed.split())


def grafted_cuts(repo: Path) -> frozenset[str]:
    """The commits `git replace --graft C` (no parents) cut the history of: blame calls them
    roots, yet their lines may be older; empty when nothing is replaced (one git process)."""
    args = ["for-each-ref", "--format=%(objecttype) %(objectname) %(refname)", "refs/replace/"]
    grafts = {}
    for line in run_git(args, cwd=repo).text.splitlines():
        kind, replacement, ref = line.split(" ", 2)
        if kind == "commit":
            grafts[replacement] = ref.rsplit("/", 1)[-1]
    if not grafts:
        return frozenset()
    # Both sides as stored: a replacement with no parents of a commit that had some is a cut
    # (a replaced root, or an original pruned since, cuts nothing that blame would misdate).
    args = ["--no-replace-objects", "rev-list", "--no-walk", "--parents", "--ignore-missing"]
    listed = run_git([*args, *grafts, *grafts.values()], cwd=repo, check=False)
    parents = {row[0]: row[1:] for row in map(str.split, listed.text.splitlines()) if row}
    return frozenset(
        original
        for replacement, original in grafts.items()
        if replacement in parents and not parents[replacement] and parents.get(original)
    )


def merge_base(repo: Path, one: str, two: str) -> str | None:
    """The best common ancestor of two commits, None for unrelated histories."""
    result = run_git(["merge-base", one, two], cwd=repo, check=False)
    if result.returncode == 1:
        return None
    if not result.ok:
        raise error_for(result, repo)
    return result.text.split()[0]


def merge_bases(repo: Path, one: str, two: str) -> list[str]:
    """Every best common ancestor of two commits (`merge-base --all`): none when unrelated."""
    result = run_git(["merge-base", "--all", one, two], cwd=repo, check=False)
    if result.returncode == 1:
        return []
    if not result.ok:
        raise error_for(result, repo)
    return result.text.split()


def is_ancestor(repo: Path, one: str, two: str) -> bool:
    """Whether commit ONE is in TWO's history (TWO itself included)."""
    result = run_git(["merge-base", "--is-ancestor", one, two], cwd=repo, check=False)
    if result.returncode not in (0, 1):
        raise error_for(result, repo)
    return result.returncode == 0


def refs_under(repo: Path, prefix: str) -> dict[str, tuple[str, int]]:
    """Ref name -> (commit, its committer date) of every ref under PREFIX (one `for-each-ref`)."""
    args = ["for-each-ref", "--format=%(objectname) %(committerdate:unix) %(refname)", prefix]
    refs: dict[str, tuple[str, int]] = {}
    for line in run_git(args, cwd=repo).text.splitlines():
        sha, when, ref = line.split(" ", 2)
        refs[ref] = (sha, int(when or 0))
    return refs


def any_ref_under(repo: Path, prefix: str) -> bool:
    """Whether a ref under PREFIX exists; read from the ref files (no git process) when it can."""
    if _files_backend(repo) and prefix.startswith(_FILE_REFS):
        folder = repo / prefix
        if folder.is_dir() and any(files for _, _, files in os.walk(folder)):
            return True
        try:
            packed = (repo / "packed-refs").read_text(encoding="utf-8")
        except FileNotFoundError:
            return False
        return f" {prefix}" in packed
    args = ["for-each-ref", "--count=1", "--format=%(refname)", prefix]
    return bool(run_git(args, cwd=repo).text.strip())


def ahead_behind(repo: Path, local: str, upstream: str) -> tuple[int, int]:
    """(commits only in LOCAL, commits only in UPSTREAM)."""
    if local == upstream and len(local) in (40, 64):
        return 0, 0  # one commit (the usual answer of `status`): no git process to ask
    result = run_git(["rev-list", "--left-right", "--count", f"{local}...{upstream}"], cwd=repo)
    ahead, behind = result.text.split()
    return int(ahead), int(behind)


def count_commits(repo: Path, ref: str) -> int:
    """How many commits REF has."""
    return int(run_git(["rev-list", "--count", ref], cwd=repo).text.strip())


def review_refs(repo: Path, prefix: str, base: str) -> list[str]:
    """The refs under PREFIX with commits BASE lacks (`for-each-ref --no-merged`)."""
    args = ["for-each-ref", "--format=%(refname)", f"--no-merged={base}", prefix]
    return run_git(args, cwd=repo).text.split()


def count_beyond(repo: Path, ref: str, others: list[str]) -> int:
    """How many commits of REF none of OTHERS has."""
    return int(run_git(["rev-list", "--count", ref, "--not", *others], cwd=repo).text.strip())


def update_ref(repo: Path, ref: str, new: str, old: str, message: str) -> None:
    """Move REF to NEW only if it still points at OLD (GitError otherwise)."""
    run_git(["update-ref", "-m", message, ref, new, old], cwd=repo)


def delete_ref(repo: Path, ref: str, old: str) -> None:
    """Delete REF only if it still points at OLD (GitError otherwise)."""
    run_git(["update-ref", "-d", ref, old], cwd=repo)


def set_head(repo: Path, branch: str) -> None:
    """Point HEAD at BRANCH (which need not exist yet)."""
    run_git(["symbolic-ref", "HEAD", f"refs/heads/{branch}"], cwd=repo)


def update_branch(repo: Path, branch: str, new: str, old: str | None, message: str) -> None:
    """Move BRANCH from OLD to NEW atomically; fails if someone else moved it meanwhile."""
    run_git(["update-ref", "-m", message, f"refs/heads/{branch}", new, old or ZERO_SHA], cwd=repo)
