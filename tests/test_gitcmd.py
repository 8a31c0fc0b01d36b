"""The git boundary: plumbing on a bare clone, scrubbed environment, actionable errors."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import pytest

from memsync import git as gitcmd
from memsync.errors import GitError, RemoteUnavailableError
from testing.gitrepo import git, make_bare_remote

ME = gitcmd.Identity("Tester", "tester@example.invalid")


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    remote = make_bare_remote(tmp_path / "remote.git")
    repo = tmp_path / "clone.git"
    gitcmd.init_bare(repo, str(remote))
    return repo


def test_blob_sha_matches_git(tmp_path: Path) -> None:
    data = b"---\nname: x\n---\nbody\r\n\xef\xbb\xbf"
    (tmp_path / "f").write_bytes(data)
    assert gitcmd.blob_sha(data) == git("hash-object", "f", cwd=tmp_path).strip()


def test_commits_trees_and_blobs_round_trip(clone: Path) -> None:
    odd = 'a "quoted" name.md'
    first = gitcmd.write_commit(
        clone,
        parents=[],
        changes={"p/a.md": b"A\n", "p/b.md": b"B", f"p/{odd}": b"Q", "q/c.md": b"C"},
        message="first\n",
        author=ME,
        when=1_700_000_000,
    )
    gitcmd.update_branch(clone, "main", first, None, "test")
    second = gitcmd.write_commit(
        clone,
        parents=[first],
        changes={"p/a.md": b"A2\n", "p/b.md": None},
        message="second\n",
        author=ME,
        when=1_700_000_100,
    )
    gitcmd.update_branch(clone, "main", second, first, "test")
    tree = gitcmd.list_tree(clone, second, "p")
    assert sorted(tree) == sorted(["a.md", odd])
    blobs = gitcmd.read_blobs(clone, [tree["a.md"].sha, tree[odd].sha, "0" * 40])
    assert blobs[tree["a.md"].sha] == b"A2\n"
    assert blobs[tree[odd].sha] == b"Q"
    assert gitcmd.path_times(clone, second, "p") == {
        "a.md": 1_700_000_100,
        "b.md": 1_700_000_100,
        odd: 1_700_000_000,
    }
    assert gitcmd.resolve_refs(clone, "refs/heads/main", "refs/remotes/origin/main") == [
        second,
        None,
    ]
    assert gitcmd.count_commits(clone, second) == 2
    assert gitcmd.authored_time(clone, second) == 1_700_000_100  # author = committer here
    assert gitcmd.symbolic_head(clone) == "main"
    # A stale expected value is refused: nobody's update is silently lost.
    with pytest.raises(GitError):
        gitcmd.update_branch(clone, "main", first, first, "test")


def test_push_fetch_and_a_lost_race(clone: Path, tmp_path: Path) -> None:
    c1 = gitcmd.write_commit(
        clone, parents=[], changes={"a.md": b"1"}, message="1\n", author=ME, when=1
    )
    gitcmd.update_branch(clone, "main", c1, None, "t")
    assert gitcmd.push(clone, "main", 30)
    other = tmp_path / "other.git"
    gitcmd.init_bare(other, git("config", "remote.origin.url", cwd=clone).strip())
    gitcmd.fetch(other, 30)
    c2 = gitcmd.write_commit(
        other, parents=[c1], changes={"b.md": b"2"}, message="2\n", author=ME, when=2
    )
    gitcmd.update_branch(other, "main", c2, None, "t")
    assert gitcmd.push(other, "main", 30)
    c3 = gitcmd.write_commit(
        clone, parents=[c1], changes={"c.md": b"3"}, message="3\n", author=ME, when=3
    )
    gitcmd.update_branch(clone, "main", c3, c1, "t")
    assert gitcmd.push(clone, "main", 30) is False
    gitcmd.fetch(clone, 30)
    assert gitcmd.ahead_behind(clone, "main", "origin/main") == (1, 1)
    assert gitcmd.merge_base(clone, "main", "origin/main") == c1
    assert gitcmd.remote_default_branch(clone, 30) == "main"


def test_an_unreachable_remote_is_reported_as_such(tmp_path: Path) -> None:
    repo = tmp_path / "clone.git"
    gitcmd.init_bare(repo, str(tmp_path / "nowhere.git"))
    with pytest.raises(RemoteUnavailableError) as info:
        gitcmd.fetch(repo, 30)
    assert "unreachable" in info.value.message


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("scheme", ["git", "ssh"])
def test_an_unreachable_remote_says_why(tmp_path: Path, scheme: str) -> None:
    # git prints the transport's reason beside its `fatal:` line; the hook's systemMessage
    # and `pull` must carry it, not only "Could not read from remote repository".
    if scheme == "ssh" and shutil.which("ssh") is None:
        pytest.skip("no ssh client")
    repo = tmp_path / "clone.git"
    gitcmd.init_bare(repo, f"{scheme}://127.0.0.1:{_closed_port()}/memory.git")
    with pytest.raises(RemoteUnavailableError) as info:
        gitcmd.fetch(repo, 30)
    assert "Connection refused" in info.value.message, info.value.message


def test_inherited_git_variables_are_scrubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_DIR", "/somewhere/else")
    monkeypatch.setenv("GIT_WORK_TREE", "/else")
    env = gitcmd.git_env()
    assert "GIT_DIR" not in env and "GIT_WORK_TREE" not in env
    assert env["GIT_TERMINAL_PROMPT"] == "0"
    assert "BatchMode=yes" in env["GIT_SSH_COMMAND"]


def test_git_failures_name_the_command(tmp_path: Path) -> None:
    with pytest.raises(GitError) as info:
        gitcmd.run_git(["rev-parse", "--verify", "nope"], cwd=tmp_path)
    assert "git rev-parse" in info.value.message


def test_refs_are_read_from_loose_and_packed_files(clone: Path) -> None:
    c1 = gitcmd.write_commit(
        clone, parents=[], changes={"a.md": b"1"}, message="1\n", author=ME, when=1
    )
    gitcmd.update_branch(clone, "main", c1, None, "t")
    git("update-ref", "refs/remotes/origin/main", c1, cwd=clone)
    git("pack-refs", "--all", cwd=clone)
    c2 = gitcmd.write_commit(
        clone, parents=[c1], changes={"b.md": b"2"}, message="2\n", author=ME, when=2
    )
    gitcmd.update_branch(clone, "main", c2, c1, "t")  # loose again, shadowing the packed one
    assert gitcmd.resolve_refs(
        clone, "refs/heads/main", "refs/remotes/origin/main", "refs/heads/x"
    ) == [c2, c1, None]
    assert gitcmd.resolve_refs(clone, "HEAD") == [c2]
    git("update-ref", "--no-deref", "HEAD", c1, cwd=clone)
    assert gitcmd.symbolic_head(clone) is None


@pytest.mark.parametrize("name", ["1700000000", "2026\x01.md"])
def test_log_times_never_take_a_name_for_a_time(clone: Path, name: str) -> None:
    first = gitcmd.write_commit(
        clone, parents=[], changes={"a.md": b"A"}, message="1\n", author=ME, when=1_600_000_000
    )
    second = gitcmd.write_commit(
        clone, parents=[first], changes={name: b"N"}, message="2\n", author=ME, when=1_700_000_100
    )
    expected = {"a.md": 1_600_000_000, name: 1_700_000_100}
    assert gitcmd.path_times(clone, second) == expected
    assert gitcmd.change_times(clone, None, second) == expected


def test_change_times_are_when_the_edit_was_made(clone: Path) -> None:
    """A merge orders two sides' changes by when each was made (the author date), not by when
    it was synced: a laptop back online with a 09:00 edit must not beat a 10:00 one."""
    edit = gitcmd.write_commit(
        clone,
        parents=[],
        changes={"d.md": b"B"},
        message="1\n",
        author=ME,
        when=1_700_009_000,  # synced last
        authored=1_700_000_000,  # written first
    )
    assert gitcmd.change_times(clone, None, edit) == {"d.md": 1_700_000_000}
    assert gitcmd.authored_time(clone, edit) == 1_700_000_000


def test_an_empty_local_remote_names_its_default_branch_by_its_head(tmp_path: Path) -> None:
    # git 2.39 advertises no HEAD for an empty repository: read it from disk when local.
    work = tmp_path / "work"
    git("init", "-q", "-b", "trunk", str(work), cwd=tmp_path)
    clone = tmp_path / "clone.git"
    gitcmd.init_bare(clone, str(work))
    assert gitcmd.remote_default_branch(clone, 10) == "trunk"  # a working repository's .git
    git("-c", "user.name=u", "-c", "user.email=u@e", "commit", "-q", "--allow-empty", "-m", "x",
        cwd=work)  # fmt: skip
    git("symbolic-ref", "HEAD", "refs/heads/gone", cwd=work)
    # Branches and a HEAD naming none of them: not an empty repository, nothing to adopt.
    assert gitcmd.remote_default_branch(clone, 10) is None


def test_any_ref_under_reads_loose_and_packed_refs_without_git(clone: Path) -> None:
    c1 = gitcmd.write_commit(
        clone, parents=[], changes={"a.md": b"1"}, message="1\n", author=ME, when=1
    )
    records = "refs/memsync/reviews/"
    assert not gitcmd.any_ref_under(clone, records)
    git("update-ref", f"{records}memsync/alice/2026-11-27", c1, cwd=clone)
    assert gitcmd.any_ref_under(clone, records)
    git("pack-refs", "--all", cwd=clone)
    assert not (clone / records / "memsync/alice/2026-11-27").exists()  # packed only
    assert gitcmd.any_ref_under(clone, records)
    git("update-ref", f"{records}other", c1, cwd=clone)
    git("update-ref", "-d", f"{records}memsync/alice/2026-11-27", cwd=clone)
    assert gitcmd.any_ref_under(clone, records)
    git("update-ref", "-d", f"{records}other", cwd=clone)
    assert not gitcmd.any_ref_under(clone, records)  # empty folders git left count as none
    git("update-ref", "refs/memsync/fetched/main", c1, cwd=clone)
    assert not gitcmd.any_ref_under(clone, records)


def test_any_ref_under_counts_no_empty_folder_and_asks_git_outside_the_ref_files(
    clone: Path,
) -> None:
    c1 = gitcmd.write_commit(
        clone, parents=[], changes={"a.md": b"1"}, message="1\n", author=ME, when=1
    )
    records = "refs/memsync/reviews/"
    (clone / records / "memsync" / "alice").mkdir(parents=True)  # as pack-refs can leave it
    assert not gitcmd.any_ref_under(clone, records)
    # refs/tags/ is not read from files: git says.
    assert not gitcmd.any_ref_under(clone, "refs/tags/")
    git("update-ref", "refs/tags/v1", c1, cwd=clone)
    assert gitcmd.any_ref_under(clone, "refs/tags/")
    # Another ref store (reftable): git is asked even under refs/memsync/, never the files; a
    # file there that is no ref is none to git.
    (clone / records / "memsync" / "alice" / "broken").write_text("not a ref\n")
    assert gitcmd.any_ref_under(clone, records)  # the files backend reads the folder
    (clone / "reftable").mkdir()
    assert not gitcmd.any_ref_under(clone, records)
