"""Project identity, the folder identity file and the binding manifest, unit by unit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsync.config import ProjectIdentity
from memsync.errors import UserMessageError
from memsync.git import root_commit
from memsync.model.paths import locate_project
from memsync.sync.identity import (
    FolderRecord,
    format_record,
    parse_record,
    refuse_mismatch,
    resolve_project,
)
from memsync.sync.manifest import (
    Manifest,
    PreviousBinding,
    legacy_manifest_path,
    load_manifest,
    manifest_path,
    save_manifest,
)
from testing.gitrepo import git


def _repo(path: Path, *, commit: bool = True, origin: str | None = None) -> Path:
    path.mkdir(parents=True)
    git("init", "-q", str(path), cwd=path.parent)
    if origin:
        git("remote", "add", "origin", origin, cwd=path)
    if commit:
        (path / "f").write_text("x\n")
        git("add", "-A", cwd=path)
        git("commit", "-qm", "first", cwd=path)
    return path


def test_origin_wins_and_the_root_commit_is_recorded_too(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "api", origin="git@github.com:Acme/API.git")
    resolved = resolve_project(locate_project(repo))
    assert resolved.key == "acme-api" and resolved.warning is None
    assert resolved.identity.origin == "github.com/acme/api"
    assert resolved.identity.root_commit == root_commit(repo)


def test_without_origin_the_root_commit_keys_the_project(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "web")
    root = git("rev-parse", "HEAD", cwd=repo).strip()
    resolved = resolve_project(locate_project(repo))
    assert resolved.key == f"root-{root[:12]}"
    assert resolved.identity == ProjectIdentity(root_commit=root, directory="web")
    # Later commits and merges of a foreign history keep the first-parent root.
    other = _repo(tmp_path / "lib")
    git("fetch", "-q", str(other), "HEAD", cwd=repo)
    git("merge", "-q", "--allow-unrelated-histories", "-m", "subtree", "FETCH_HEAD", cwd=repo)
    assert root_commit(repo) == root


def test_a_repository_without_commits_falls_back_to_its_name_with_a_warning(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path / "Web App", commit=False)
    resolved = resolve_project(locate_project(repo))
    assert resolved.key == "web-app"
    assert resolved.warning is not None and "has no commit yet" in resolved.warning
    assert resolved.identity == ProjectIdentity(directory="Web App")


def test_the_identity_file_round_trips_and_ignores_what_it_does_not_know() -> None:
    identity = ProjectIdentity(origin="github.com/acme/api", root_commit="ab" * 20, directory="x")
    text = format_record(FolderRecord(identity, moved_to="api")).decode()
    assert text.startswith("# memsync:")
    assert "moved-to: api\n" in text and "directory" not in text
    parsed = parse_record(text.encode() + b"future-field: 1\nno colon here\n")
    assert parsed.moved_to == "api"
    assert parsed.identity == ProjectIdentity(origin="github.com/acme/api", root_commit="ab" * 20)
    weak = format_record(FolderRecord(ProjectIdentity(directory="web"))).decode()
    assert "directory: web" in weak


def test_a_mismatch_names_both_projects_and_the_subdir_to_use() -> None:
    mine = ProjectIdentity(root_commit="1" * 40, directory="web")
    theirs = ProjectIdentity(root_commit="2" * 40, directory="web")
    refuse_mismatch("web", mine, mine, "private", "web")  # the same project: fine
    with pytest.raises(UserMessageError) as caught:
        refuse_mismatch("web", theirs, mine, "private", "web")
    text = str(caught.value)
    assert "belongs to another project (root commit 222222222222)" in text
    assert "this project is root commit 111111111111" in text
    assert "memsync init --subdir web-2" in text


def test_a_manifest_for_another_store_or_folder_becomes_a_migration(tmp_path: Path) -> None:
    live = tmp_path / "live"
    path = manifest_path(tmp_path, live)
    save_manifest(
        path,
        Manifest(str(live), "team", "api", {"a.md": "1" * 40}, "c" * 40, store_url="/old.git"),
    )
    same = load_manifest(path, live, "team", "api", "/old.git")
    assert same.files == {"a.md": "1" * 40} and same.previous is None
    moved = load_manifest(path, live, "team", "api", "/new.git")
    assert moved.files == {} and moved.commit is None
    assert moved.previous is not None and moved.previous.store_url == "/old.git"
    assert moved.previous.files == {"a.md": "1" * 40}
    refoldered = load_manifest(path, live, "team", "web", "/old.git")
    assert refoldered.previous is not None and refoldered.previous.subdir == "api"
    assert "previous" not in json.loads(path.read_text())


def test_a_manifest_of_the_first_release_is_read_as_a_migration(tmp_path: Path) -> None:
    live = tmp_path / "live"
    legacy = legacy_manifest_path(tmp_path, "team-acme", live)
    legacy.parent.mkdir(parents=True)
    legacy.write_text(json.dumps({"subdir": "api", "files": {"a.md": "1" * 40}}))
    loaded = load_manifest(legacy, live, "team-acme", "api", "github.com/acme/memory")
    assert loaded.files == {} and loaded.previous is not None
    assert loaded.previous.store_url == "" and loaded.previous.files == {"a.md": "1" * 40}
    assert load_manifest(tmp_path / "none.json", live, "s", "api", "u") == Manifest(
        str(live), "s", "api", store_url="u"
    )
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text("{")
    # Damaged is not "nothing synced" (F15): a migration from the same store and folder.
    assert load_manifest(corrupt, live, "s", "api", "u") == Manifest(
        str(live), "s", "api", store_url="u", previous=PreviousBinding("u", "api", damaged=True)
    )
