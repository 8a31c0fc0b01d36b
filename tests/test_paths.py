"""Where Claude Code keeps memory and which project a directory belongs to."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from memsync.model.paths import (
    canonical_git_root,
    claude_config_dir,
    key_from_url,
    locate_project,
    memory_dir_for,
    origin_url,
    project_key,
    project_root,
    sanitize_path,
)
from testing.gitrepo import git

# Claude Code's sanitizer, as JavaScript, to check the port against the real semantics
# (UTF-16 code units, 32-bit overflow, Math.abs, toString(36)).
_JS_SANITIZE = r"""
const djb2 = (s) => {
  let h = 0;
  for (let i = 0; i < s.length; i++) { h = (h << 5) - h + s.charCodeAt(i); h |= 0; }
  return h;
};
const sanitize = (name) => {
  const s = name.replace(/[^a-zA-Z0-9]/g, "-");
  if (s.length <= 200) return s;
  return `${s.slice(0, 200)}-${Math.abs(djb2(name)).toString(36)}`;
};
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(input.map(sanitize)));
"""

SAMPLE_PATHS = [
    "/home/alice/src/api",
    "/Users/bob/My Project (2)/web.app",
    "C:\\Users\\carol\\repo",
    "/tmp/ünïcödé/😀/x",
    "/" + "a" * 199,
    "/" + "a" * 200,
    "/very/long/" + "segment-" * 40 + "end",
    "/srv/" + "😀" * 120,
    "/" + "x" * 1000,
]


def test_sanitize_replaces_everything_but_ascii_alphanumerics() -> None:
    assert sanitize_path("/home/alice/src/api") == "-home-alice-src-api"
    assert sanitize_path("/a b/c.d_e") == "-a-b-c-d-e"
    # JavaScript sees a character outside the BMP as two code units: two dashes.
    assert sanitize_path("/x/😀") == "-x---"
    assert sanitize_path("/é") == "--"


def test_sanitize_keeps_200_characters_and_appends_a_hash_beyond() -> None:
    exact = "/" + "a" * 199
    assert sanitize_path(exact) == "-" + "a" * 199
    long = "/" + "a" * 250
    result = sanitize_path(long)
    prefix, _, suffix = result.rpartition("-")
    assert prefix == ("-" + "a" * 250)[:200]
    assert suffix.isalnum() and suffix == suffix.lower()
    assert sanitize_path("/" + "a" * 251) != result  # the hash tells long names apart


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_sanitize_matches_the_javascript_original() -> None:
    proc = subprocess.run(
        ["node", "-e", _JS_SANITIZE],
        input=json.dumps(SAMPLE_PATHS),
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    assert [sanitize_path(p) for p in SAMPLE_PATHS] == json.loads(proc.stdout)


def test_claude_config_dir_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert claude_config_dir() == tmp_path / "cfg"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert claude_config_dir() == tmp_path / "home" / ".claude"


def test_memory_dir_is_under_projects_with_the_sanitized_root(tmp_path: Path) -> None:
    root = Path("/work/acme/api")
    expected = claude_config_dir() / "projects" / "-work-acme-api" / "memory"
    assert memory_dir_for(root) == expected


def test_cowork_override_replaces_the_whole_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", str(tmp_path / "elsewhere"))
    assert memory_dir_for(Path("/any/root")) == tmp_path / "elsewhere"


def _repo_with_commit(path: Path, origin: str | None = None) -> Path:
    path.mkdir(parents=True)
    git("init", "-q", str(path), cwd=path.parent)
    (path / "README").write_text("x\n", encoding="utf-8")
    git("add", "README", cwd=path)
    git("commit", "-qm", "init", cwd=path)
    if origin:
        git("remote", "add", "origin", origin, cwd=path)
    return path


def test_all_worktrees_share_the_canonical_root(tmp_path: Path) -> None:
    repo = _repo_with_commit(tmp_path / "repo", "git@github.com:Acme/API.git")
    (repo / "src" / "deep").mkdir(parents=True)
    git("worktree", "add", "-q", str(tmp_path / "feature"), "-b", "feature", cwd=repo)
    worktree = tmp_path / "feature"
    (worktree / "pkg").mkdir()
    assert canonical_git_root(repo / "src" / "deep") == repo.resolve()
    assert canonical_git_root(worktree) == repo.resolve()
    assert project_root(worktree / "pkg") == repo.resolve()
    main, linked = locate_project(repo), locate_project(worktree / "pkg")
    assert main.memory_dir == linked.memory_dir
    assert linked.origin_url == "git@github.com:Acme/API.git"
    assert linked.key == main.key == "acme-api"
    assert linked.team_dir == linked.memory_dir / "team"


def test_outside_git_the_directory_itself_is_the_root(tmp_path: Path) -> None:
    plain = tmp_path / "plain" / "dir"
    plain.mkdir(parents=True)
    assert canonical_git_root(plain) is None
    assert project_root(plain) == plain.resolve()
    location = locate_project(plain)
    assert location.origin_url is None
    assert location.key == "dir"


def test_origin_url_reads_the_repository_config(tmp_path: Path) -> None:
    repo = _repo_with_commit(tmp_path / "r")
    assert origin_url(repo) is None
    git("remote", "add", "upstream", "https://example.com/up.git", cwd=repo)
    assert origin_url(repo) is None
    git("remote", "add", "origin", "https://github.com/Acme/Web.git", cwd=repo)
    assert origin_url(repo) == "https://github.com/Acme/Web.git"


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("git@github.com:Acme/API.git", "acme-api"),
        ("git@github.com:acme/api", "acme-api"),
        ("https://github.com/acme/api", "acme-api"),
        ("https://github.com/Acme/API.git", "acme-api"),
        ("https://github.com/acme/api/", "acme-api"),
        ("https://user:tok@github.com/acme/api.git", "acme-api"),
        ("ssh://git@github.com/Acme/API.git", "acme-api"),
        ("ssh://git@github.com:2222/acme/api.git", "acme-api"),
        ("github.com:acme/api.git", "acme-api"),
        ("https://gitlab.com/Group/Sub/Proj.git", "group-sub-proj"),
        ("git@gitlab.example.org:team/my_proj.v2.git", "team-my_proj.v2"),
        ("file:///srv/git/API.git", "api"),
        ("/srv/git/api.git", "api"),
        ("../api", "api"),
        ("C:\\repos\\Api.git", "api"),
        ("https://github.com", None),
        ("", None),
    ],
)
def test_key_from_url(url: str, key: str | None) -> None:
    assert key_from_url(url) == key


def test_project_key_falls_back_to_the_directory_name() -> None:
    assert project_key(Path("/src/My Project"), None) == "my-project"
    assert project_key(Path("/src/x"), "https://github.com/Acme/API") == "acme-api"
    assert project_key(Path("/src/Fallback"), "https://github.com") == "fallback"
    assert project_key(Path("/src/!!!"), None) == "project"


@pytest.mark.parametrize(
    "spelling",
    [
        "git@github.com:Acme/API.git",
        "git@GitHub.com:acme/api",
        "https://github.com/acme/api",
        "https://github.com/acme/api/",
        "https://GITHUB.com/Acme/API.git/",
        "https://user:token@github.com/acme/api.git",
        "ssh://git@github.com/acme/api.git",
        "ssh://git@github.com:22/acme/api",
        "git+ssh://git@github.com/acme/api",
        "http://github.com:80/acme/api",
        "  github.com:acme/api.git  ",
    ],
)
def test_every_spelling_of_a_repository_normalizes_the_same(spelling: str) -> None:
    from memsync.model.paths import normalize_url

    assert normalize_url(spelling) == "github.com/acme/api"


def test_normalization_keeps_what_names_another_repository(tmp_path: Path) -> None:
    from memsync.model.paths import is_local_url, normalize_url

    assert normalize_url("ssh://git@github.com:2222/acme/api.git") == "github.com:2222/acme/api"
    assert normalize_url("https://gitlab.com/acme/api") != normalize_url(
        "https://github.com/acme/api"
    )
    repo = tmp_path / "Store.git"
    repo.mkdir()
    link = tmp_path / "link.git"
    link.symlink_to(repo)
    # A local remote is one directory however it is reached; `.git` and case are kept.
    assert normalize_url(str(repo)) == str(repo.resolve())
    assert normalize_url(f"file://{repo}/") == str(repo.resolve())
    assert normalize_url(str(link)) == str(repo.resolve())
    assert normalize_url("Store.git", cwd=tmp_path) == str(repo.resolve())
    assert normalize_url(str(tmp_path / "Store")) != normalize_url(str(repo))
    assert is_local_url(normalize_url(str(repo)))
    assert not is_local_url(normalize_url("git@github.com:acme/api"))
    assert normalize_url("C:\\repos\\Api.git") == "C:/repos/Api.git"


def test_store_scope_matches_any_spelling_and_reads_bare_repositories(tmp_path: Path) -> None:
    from memsync.check.scope import store_scope
    from memsync.config import Config, StoreConfig, save_config

    bare = tmp_path / "mirror.git"
    git("init", "-q", "--bare", str(bare), cwd=tmp_path)
    assert store_scope(bare, [], None) == "private"
    assert store_scope(bare, [".github/workflows/memsync-check.yml"], None) == "team"
    assert store_scope(bare, [], b"*.md merge=memsync\n") == "team"
    git("remote", "add", "origin", "git@github.com:Acme/Memory.git", cwd=bare)
    save_config(Config().with_store(StoreConfig("p", "private", "https://github.com/acme/memory/")))
    assert store_scope(bare, [], b"*.md merge=memsync\n") == "private"
    save_config(Config().with_store(StoreConfig("t", "team", "https://gitlab.com/acme/memory")))
    assert store_scope(bare, [], None) == "private"  # another forge: another repository
