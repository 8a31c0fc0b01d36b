"""sync/reviewland in process (tests/test_review_revert.py plays the same team through the
memsync command, which a mutation tester cannot see): where a review merged with a merge
commit landed, and which of its files the default branch undid."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync import git as gitcmd
from memsync.sync.reviewland import MERGED, Landing, landing, undone
from testing.gitrepo import git

OLD = b"Deploy on Fridays.\n"
SENT = b"Never deploy on Friday.\nUse the blue-green script.\n"


def _commit(repo: Path, message: str, **files: bytes | None) -> str:
    for name, data in files.items():
        path = repo / f"{name}.md"
        if data is None:
            path.unlink()
        else:
            path.write_bytes(data)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "--allow-empty", "-m", message, cwd=repo)
    return git("rev-parse", "HEAD", cwd=repo).strip()


def _head(repo: Path) -> str:
    return git("rev-parse", "HEAD", cwd=repo).strip()


def _blob(data: bytes) -> gitcmd.ModeOid:
    return ("100644", gitcmd.blob_sha(data))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """main with x.md (OLD); branch `review` changes x.md and adds deploy.md (the review
    sent); main moves on with a teammate's note.md before anything is merged."""
    work = tmp_path / "team"
    work.mkdir()
    git("init", "-q", "-b", "main", cwd=work)
    _commit(work, "base", x=OLD)
    git("checkout", "-q", "-b", "review", cwd=work)
    _commit(work, "review", x=SENT, deploy=SENT)
    git("checkout", "-q", "main", cwd=work)
    _commit(work, "teammate", note=b"A teammate's note.\n")
    return work


def _merge(repo: Path, branch: str = "review") -> str:
    git("merge", "-q", "--no-ff", "-m", f"Merge {branch}", branch, cwd=repo)
    return _head(repo)


def _base(repo: Path) -> str:
    return git("rev-list", "--max-parents=0", "HEAD", cwd=repo).strip()


def test_a_merge_commit_is_the_landing_with_what_was_sent_against_its_branch(
    repo: Path,
) -> None:
    sent = git("rev-parse", "review", cwd=repo).strip()
    merge = _merge(repo)
    _commit(repo, "later", note=b"Later.\n")  # a later commit of main is no merge of it
    found = landing(repo, sent, _head(repo), _base(repo), squash=False)
    changes = {"deploy.md": (None, _blob(SENT)), "x.md": (_blob(OLD), _blob(SENT))}
    assert found == Landing(merge, changes)


def test_a_merge_commit_this_machine_has_or_a_fast_forward_is_merged(repo: Path) -> None:
    sent = git("rev-parse", "review", cwd=repo).strip()
    merge = _merge(repo)
    assert landing(repo, sent, merge, merge, squash=False) is MERGED  # pulled already
    assert landing(repo, sent, merge, sent, squash=False) != MERGED  # not pulled
    # The review branch fast-forwarded: no merge commit took it in.
    assert landing(repo, sent, sent, _base(repo), squash=False) is MERGED


def test_the_oldest_merge_on_the_way_is_the_landing(repo: Path) -> None:
    """The review merged into `dev`, dev merged into main: the first merge took it in.

    Not the merge onto main's first-parent line (h2 tried it): a teammate's memsync merge puts
    his local branch first (see the next test), so main's first-parent line runs through his
    commits and that rule took his merge for the landing. A merge into dev then dev into main
    has the same shape as a merge into main then a teammate's merge, so git cannot tell them
    apart; the oldest merge is right for the common one (docs/TEAM.md says the limit)."""
    sent = git("rev-parse", "review", cwd=repo).strip()
    git("checkout", "-q", "-b", "dev", _base(repo), cwd=repo)
    _commit(repo, "dev work", dev=b"Dev.\n")
    into_dev = _merge(repo)
    git("checkout", "-q", "main", cwd=repo)
    into_main = _merge(repo, "dev")
    found = landing(repo, sent, into_main, _base(repo), squash=False)
    assert found is not None and found.commit == into_dev, (into_dev, into_main)
    # This machine has the first merge: merged, whatever came after.
    assert landing(repo, sent, into_main, into_dev, squash=False) is MERGED


def test_a_teammates_merge_after_the_review_merge_is_not_the_landing(repo: Path) -> None:
    """The review merged into main; a teammate's machine, which had not pulled it, merges
    main into its own commit (memsync puts the local side first) and pushes: the review's
    merge is still the landing, and the author who pulled it has it (a later revert is a
    teammate's deletion)."""
    sent = git("rev-parse", "review", cwd=repo).strip()
    before = _head(repo)
    merge = _merge(repo)
    git("checkout", "-q", "-b", "bob", before, cwd=repo)
    _commit(repo, "bob's note", bob=b"Bob.\n")
    bobs = _merge(repo, "main")  # first parent: bob's commit, not main's line
    found = landing(repo, sent, bobs, _base(repo), squash=False)
    assert found is not None and found.commit == merge, (merge, bobs)
    assert landing(repo, sent, bobs, merge, squash=False) is MERGED


def test_a_review_that_changed_nothing_is_merged(repo: Path) -> None:
    base = _base(repo)
    _merge(repo)
    assert landing(repo, base, _head(repo), base, squash=False) is MERGED


def test_without_squash_a_branch_not_merged_has_no_landing(repo: Path) -> None:
    sent = git("rev-parse", "review", cwd=repo).strip()
    _commit(repo, "squash", x=SENT, deploy=SENT)  # main holds what was sent, as a squash
    squash = _head(repo)
    assert landing(repo, sent, squash, _base(repo), squash=False) is None
    found = landing(repo, sent, squash, _base(repo))
    assert found is not None and found.commit == squash
    assert landing(repo, sent, squash, squash) is MERGED  # the squash pulled already


def test_a_reverted_merge_undoes_every_file_it_brought(repo: Path) -> None:
    sent = git("rev-parse", "review", cwd=repo).strip()
    _merge(repo)
    found = landing(repo, sent, _head(repo), _base(repo), squash=False)
    assert found is not None
    assert undone(repo, found, _head(repo)) == {}  # not reverted: nothing undone
    git("revert", "--no-edit", "-m", "1", "HEAD", cwd=repo)
    assert undone(repo, found, _head(repo)) == {"deploy.md": None, "x.md": _blob(OLD)}
    _commit(repo, "x again", x=SENT)  # the team put one file back
    assert undone(repo, found, _head(repo)) == {"deploy.md": None}


def test_a_file_the_reviewer_took_out_before_the_merge_is_not_undone(repo: Path) -> None:
    """The merge commit itself holds x.md as before: the reviewer's change, not an undo."""
    sent = git("rev-parse", "review", cwd=repo).strip()
    git("merge", "-q", "--no-ff", "--no-commit", "review", cwd=repo)
    git("checkout", "HEAD", "--", "x.md", cwd=repo)
    git("commit", "-q", "-m", "Merge review without x", cwd=repo)
    found = landing(repo, sent, _head(repo), _base(repo), squash=False)
    assert found is not None and found.commit == _head(repo)
    git("revert", "--no-edit", "-m", "1", "HEAD", cwd=repo)
    assert undone(repo, found, _head(repo)) == {"deploy.md": None}


def test_a_reviewers_commit_on_the_branch_before_the_merge_commit_is_not_the_landing(
    repo: Path,
) -> None:
    """The merge commit took what was sent in, with the reviewer's commit on the branch."""
    sent = git("rev-parse", "review", cwd=repo).strip()
    git("checkout", "-q", "review", cwd=repo)
    _commit(repo, "reviewer's fix", deploy=SENT + b"Ask ops first.\n")
    git("checkout", "-q", "main", cwd=repo)
    merge = _merge(repo)
    found = landing(repo, sent, merge, _base(repo), squash=False)
    assert found is not None and found.commit == merge


def test_a_machine_that_pulled_the_branch_merged_into_but_not_the_merge_has_no_merged(
    repo: Path,
) -> None:
    """Her branch has the teammate's commit (the merge's first parent), not the merge."""
    sent = git("rev-parse", "review", cwd=repo).strip()
    teammate = _head(repo)
    merge = _merge(repo)
    found = landing(repo, sent, merge, teammate, squash=False)
    assert found is not None and found.commit == merge


def test_a_merged_review_commit_that_changed_nothing_is_merged(repo: Path) -> None:
    git("checkout", "-q", "-b", "empty", _base(repo), cwd=repo)
    sent = _commit(repo, "nothing")  # an empty review commit
    git("checkout", "-q", "main", cwd=repo)
    merge = _merge(repo, "empty")
    assert landing(repo, sent, merge, _base(repo), squash=False) is MERGED


def test_a_squash_is_the_landing_with_what_was_sent_against_the_fork(repo: Path) -> None:
    sent = git("rev-parse", "review", cwd=repo).strip()
    squash = _commit(repo, "squash", x=SENT, deploy=SENT)
    found = landing(repo, sent, squash, _base(repo))
    changes = {"deploy.md": (None, _blob(SENT)), "x.md": (_blob(OLD), _blob(SENT))}
    assert found == Landing(squash, changes)


def test_a_squash_with_most_of_the_sent_lines_is_the_landing(repo: Path) -> None:
    """The reviewer edited one line of three the review added: still its landing."""
    git("checkout", "-q", "-b", "long", _base(repo), cwd=repo)
    sent = _commit(repo, "review", x=OLD + b"One.\nTwo.\nThree.\n")
    git("checkout", "-q", "main", cwd=repo)
    squash = _commit(repo, "squash", x=OLD + b"One.\nTwo.\nThree, edited.\n")
    found = landing(repo, sent, squash, _base(repo))
    assert found is not None and found.commit == squash
    assert landing(repo, sent, _commit(repo, "later"), squash) is MERGED  # pulled already


def test_a_squash_that_left_out_the_edit_of_an_existing_memory_is_no_landing(
    repo: Path,
) -> None:
    """The review appended a line to z.md; main holds deploy.md as sent but z.md as before:
    what was sent did not land, however many of z.md's lines main shares with it."""
    three = b"One.\nTwo.\nThree.\n"
    fork = _commit(repo, "z", z=three)
    git("checkout", "-q", "-b", "append", fork, cwd=repo)
    sent = _commit(repo, "review", z=three + b"Ask ops.\n", deploy=SENT)
    git("checkout", "-q", "main", cwd=repo)
    other = _commit(repo, "deploy only", deploy=SENT)
    assert landing(repo, sent, other, _base(repo)) is None


def test_a_review_that_deleted_a_memory_lands_with_the_deletion(repo: Path) -> None:
    git("checkout", "-q", "-b", "delete", _base(repo), cwd=repo)
    sent = _commit(repo, "review", x=None)
    git("checkout", "-q", "main", cwd=repo)
    squash = _commit(repo, "squash", x=None)
    assert landing(repo, sent, squash, _base(repo)) == Landing(squash, {"x.md": (_blob(OLD), None)})


def test_a_fast_forward_is_the_landing_until_this_machine_has_a_commit_after_it(
    repo: Path,
) -> None:
    """`git merge --ff-only`: what was sent is itself on the default branch's first-parent
    line. The machine that sent it always has it: only a commit after it says it pulled."""
    sent = git("rev-parse", "review", cwd=repo).strip()
    fork = _base(repo)
    git("checkout", "-q", "-b", "ff", fork, cwd=repo)
    git("merge", "-q", "--ff-only", "review", cwd=repo)
    assert landing(repo, sent, sent, sent, squash=False, fork=fork) is MERGED  # nothing after
    reverted = _commit(repo, "revert", x=OLD, deploy=None)
    found = landing(repo, sent, reverted, sent, squash=False, fork=fork)
    changes = {"deploy.md": (None, _blob(SENT)), "x.md": (_blob(OLD), _blob(SENT))}
    assert found == Landing(sent, changes)
    assert undone(repo, found, reverted) == {"deploy.md": None, "x.md": _blob(OLD)}
    later = _commit(repo, "later", note=b"Later.\n")
    found = landing(repo, sent, later, sent, squash=True, fork=fork)  # her branch moved on too
    assert found is not None and found.commit == sent
    assert landing(repo, sent, later, reverted, squash=False, fork=fork) is MERGED  # pulled
    assert landing(repo, sent, later, sent, squash=False) is MERGED  # no fork recorded
