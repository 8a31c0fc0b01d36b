"""`memsync review`: the memory changes between two refs of a store repository."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from memsync import git as gitcmd
from memsync.cli.app import main
from memsync.git import objects as gitobjects
from memsync.git import run as gitrun
from memsync.team.review import review_commits, review_refs
from memsync.team.reviewrender import render_markdown, review_data
from memsync.team.reviewtree import is_memory_path
from testing.gitrepo import git

SECRET = "ghp_" + "Zq8XrT2vLm9KpW4sNb7YcD1fGh6JkA3eUo5i"  # assembled: no scanner trips here

TESTING = """---
name: testing policy
description: integration tests hit a real database
type: feedback
tags: [db]
---
Integration tests must hit a real database.
**Why:** mocks hid a broken migration.
"""
TESTING_AFTER = """---
name: testing policy
description: integration tests hit a real database, never mocks
type: feedback
tags: [db, ci]
---
Integration tests must hit a real database.
**Why:** mocks hid a broken migration.
**How to apply:** CI runs them against Postgres.
"""
DEPLOY = "---\nname: deploy freeze\ndescription: no Friday deploys\ntype: project\n---\nNone.\n"
OLD = "---\nname: old runbook\ndescription: gone\ntype: reference\n---\nSee the wiki.\n"
MOVED = "---\nname: oncall\ndescription: who is on call\ntype: reference\n---\nPagerDuty.\n"
LEAK = f"---\nname: ci token\ndescription: CI access\ntype: reference\n---\nToken: {SECRET}\n"


def commit(repo: Path, files: dict[str, str | None], message: str) -> str:
    """Write (None: delete) FILES in the work tree of REPO and commit them."""
    for rel, text in files.items():
        path = repo / rel
        if text is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", message, cwd=repo)
    return git("rev-parse", "HEAD", cwd=repo).strip()


def index(*names: str) -> str:
    return "".join(f"- [{n}]({n}.md) — about {n}\n" for n in names)


@dataclass
class Store:
    repo: Path
    base: str
    head: str


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """A team store on `main` and a branch `review` that touches every kind of change."""
    repo = tmp_path / "team"
    repo.mkdir()
    git("init", "-q", "-b", "main", str(repo), cwd=tmp_path)
    base = commit(
        repo,
        {
            "README.md": "# Team memory\n",
            ".gitattributes": "*.md merge=memsync\n",  # a team store, for the checks
            "acme-api/MEMORY.md": index("testing", "old", "oncall"),
            "acme-api/testing.md": TESTING,
            "acme-api/old.md": OLD,
            "acme-api/oncall.md": MOVED,
            "acme-web/MEMORY.md": index("deploy"),
            "acme-web/deploy.md": DEPLOY,
        },
        "base",
    )
    git("checkout", "-qb", "review", cwd=repo)
    head = commit(
        repo,
        {
            "README.md": "# Team memory, reviewed\n",
            ".github/workflows/extra.md": "not a memory\n",
            "acme-api/MEMORY.md": index("testing", "ci", "people/oncall"),
            "acme-api/testing.md": TESTING_AFTER,
            "acme-api/old.md": None,
            "acme-api/oncall.md": None,
            "acme-api/people/oncall.md": MOVED,
            "acme-api/ci.md": LEAK,
            "acme-api/notes.txt": "not markdown\n",
        },
        "review",
    )
    return Store(repo, base, head)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    out, err = capsys.readouterr()
    code = exited.value.code
    return (code if isinstance(code, int) else 0), out, err


def test_which_paths_are_memories() -> None:
    assert is_memory_path("acme/testing.md")
    assert is_memory_path("MEMORY.md")  # a repository dedicated to one project
    assert is_memory_path("acme/archive/old.md")
    assert not is_memory_path("README.md")
    assert not is_memory_path("CONTRIBUTING.md")
    assert is_memory_path("acme/README.md")  # inside a project folder it is a memory
    assert not is_memory_path("acme/README.txt")
    assert not is_memory_path(".github/PULL_REQUEST_TEMPLATE.md")
    assert not is_memory_path("acme/.drafts/x.md")


def test_review_names_every_changed_memory(store: Store) -> None:
    review = review_refs(store.repo, "main", "review")
    assert (review.base, review.head) == (store.base, store.head)
    by_path = {c.path: c for c in review.changes}
    assert {p: c.status for p, c in by_path.items()} == {
        "acme-api/ci.md": "added",
        "acme-api/old.md": "removed",
        "acme-api/people/oncall.md": "renamed",
        "acme-api/testing.md": "changed",
    }
    assert review.counts() == {"added": 1, "removed": 1, "renamed": 1, "changed": 1}
    assert (by_path["acme-api/old.md"].name, by_path["acme-api/old.md"].type) == (
        "old runbook",
        "reference",
    )
    assert by_path["acme-api/people/oncall.md"].old_path == "acme-api/oncall.md"
    changed = by_path["acme-api/testing.md"]
    fields = {f.path: (f.before, f.after) for f in changed.fields}
    assert fields == {
        "description": (
            "integration tests hit a real database",
            "integration tests hit a real database, never mocks",
        ),
        "tags[1]": (None, "ci"),
    }
    assert "+**How to apply:** CI runs them against Postgres." in changed.body_diff
    # README, dot-directories and non-Markdown files are not memories, but are listed.
    assert review.other_files == (".github/workflows/extra.md", "README.md", "acme-api/notes.txt")
    # acme-web did not change: no index row for it.
    (api_index,) = review.indexes
    assert (api_index.folder, api_index.before.lines, api_index.after.lines) == ("acme-api", 3, 3)  # type: ignore[union-attr]
    assert api_index.entries_added == ("ci.md", "people/oncall.md")
    assert api_index.entries_removed == ("old.md", "oncall.md")


def test_markdown_summary(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "review", str(store.repo), "--base", "main", "--head", "review")
    assert code == 0
    assert out.startswith("## Memory review\n\n**4 memories** changed: 1 added · 1 removed")
    for row in (
        "| added | ci token | reference | `acme-api/ci.md` |",
        "| removed | old runbook | reference | `acme-api/old.md` |",
        "| renamed | oncall | reference | `acme-api/oncall.md` → `acme-api/people/oncall.md` |",
        "| changed | testing policy | feedback | `acme-api/testing.md` (2 field(s), body) |",
        "| `description` | integration tests hit a real database "
        "| integration tests hit a real database, never mocks |",
        "| `tags[1]` | — | ci |",
        "| `acme-api` | 3 → 3 / 200 |",
    ):
        assert row in out
    assert "```diff\n@@" in out
    assert "+**How to apply:** CI runs them against Postgres." in out


def test_secrets_are_flagged_and_never_printed(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    for fmt in ("markdown", "json"):
        code, out, err = run_cli(
            capsys, "review", str(store.repo), "--base", "main", "--head", "review", "--format", fmt
        )
        assert code == 0
        assert SECRET not in out + err
        assert SECRET[4:20] not in out + err
        if fmt == "json":
            (found,) = json.loads(out)["secrets"]
            assert (found["path"], found["line"], found["rule_id"]) == (
                "acme-api/ci.md",
                6,
                "github-pat",
            )
        else:
            assert "### ⚠️ Possible secrets (1)" in out
            assert "| `acme-api/ci.md` | 6 | github-pat |" in out


def test_json_format(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "review", str(store.repo), "--base", "main", "--format", "JSON")
    assert code == 0
    data = json.loads(out)
    assert (data["base"], data["head"]) == (store.base, store.head)  # --head defaults to HEAD
    assert data["counts"] == {"added": 1, "removed": 1, "renamed": 1, "changed": 1}
    assert {c["path"]: c["status"] for c in data["changes"]}["acme-api/people/oncall.md"] == (
        "renamed"
    )
    (idx,) = data["indexes"]
    assert idx["before"] == {
        "lines": 3,
        "chars": len(index("testing", "old", "oncall").strip()),
        "line_limit": 200,
        "char_limit": 25_000,
        "fits": True,
    }
    assert (data["scope"], data["findings"]) == ("team", [])


def test_default_base_is_the_fork_point_with_origin(store: Store, tmp_path: Path) -> None:
    git("checkout", "-q", "main", cwd=store.repo)
    remote = tmp_path / "remote.git"
    git("clone", "-q", "--bare", str(store.repo), str(remote), cwd=tmp_path)
    clone = tmp_path / "clone"
    git("clone", "-q", str(remote), str(clone), cwd=tmp_path)
    git("checkout", "-q", "review", cwd=clone)
    # main moves on after the branch forked: its new memory is not part of the review.
    commit(store.repo, {"acme-web/later.md": DEPLOY.replace("deploy", "later")}, "later")
    git("push", "-q", str(remote), "main", cwd=store.repo)
    git("fetch", "-q", cwd=clone)
    review = review_refs(clone)
    assert review.base == store.base
    assert review.base_label == "merge-base of origin/HEAD and HEAD"
    assert "acme-web/later.md" not in {c.path for c in review.changes}
    assert len(review.changes) == 4


def test_bare_repository(store: Store, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git("clone", "-q", "--bare", str(store.repo), str(bare), cwd=tmp_path)
    review = review_refs(bare, head="review")  # default base: main
    assert review.base == store.base
    assert len(review.changes) == 4
    assert review_refs(bare, "review", "review").changes == ()


def test_one_ls_tree_per_ref_and_one_cat_file(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real = gitcmd.run_git

    def counting(args: list[str], **kwargs: object) -> gitcmd.GitResult:
        calls.append(args[0])
        return real(args, **kwargs)  # type: ignore[arg-type]

    # Every module of the git boundary that the review reaches calls run_git by name.
    for module in (gitrun, gitobjects):
        monkeypatch.setattr(module, "run_git", counting)
    review_commits(store.repo, store.base, store.head, scope="team")
    assert calls == ["ls-tree", "ls-tree", "cat-file"]
    calls.clear()
    # The scope comes from origin's URL, read from the repository's config file (no git).
    review_commits(store.repo, store.base, store.head)
    assert sorted(calls) == ["cat-file", "ls-tree", "ls-tree"]


def test_bad_refs_and_paths_are_usage_errors(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "review", str(store.repo), "--base", "nope")
    assert code == 2
    assert "--base nope: no such commit" in err
    assert "fetch-depth: 0" in err
    plain = tmp_path / "plain"
    plain.mkdir()
    code, _, err = run_cli(capsys, "review", str(plain))
    assert (code, "is not a git repository" in err) == (2, True)
    code, _, err = run_cli(capsys, "review", str(store.repo), "--format", "html")
    # The choices come from the option itself (and show in `review -h`).
    assert (code, "'html' is not one of 'markdown', 'json'" in err) == (2, True)
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    git("init", "-q", "-b", "trunk", str(lonely), cwd=tmp_path)
    commit(lonely, {"a/x.md": DEPLOY}, "first")
    code, _, err = run_cli(capsys, "review", str(lonely))
    assert (code, "cannot tell the default branch" in err) == (2, True)


def test_a_dedicated_repository_and_an_index_over_the_limit(tmp_path: Path) -> None:
    repo = tmp_path / "dedicated"
    repo.mkdir()
    git("init", "-q", "-b", "main", str(repo), cwd=tmp_path)
    base = commit(repo, {"MEMORY.md": index("deploy"), "deploy.md": DEPLOY}, "base")
    names = [f"note-{i:03}" for i in range(210)]
    head = commit(
        repo,
        {
            "MEMORY.md": index("deploy", *names),
            "archive/deploy.md": DEPLOY,
            "deploy.md": None,
            **{f"{n}.md": DEPLOY.replace("deploy freeze", n) for n in names},
        },
        "grow",
    )
    review = review_commits(repo, base, head)
    (root,) = review.indexes  # archive/ belongs to the root folder's index
    assert (root.folder, root.before.lines, root.after.lines) == (".", 1, 211)  # type: ignore[union-attr]
    assert root.after is not None and root.after.over_lines
    text = render_markdown(review)
    assert "| `.` | 1 → 211 / 200 |" in text
    assert "⚠️ over the limit" in text
    assert "| renamed | deploy freeze | project | `deploy.md` → `archive/deploy.md` |" in text


def test_long_reviews_are_cut_at_a_unit_boundary(tmp_path: Path) -> None:
    repo = tmp_path / "big"
    repo.mkdir()
    git("init", "-q", "-b", "main", str(repo), cwd=tmp_path)
    long_body = "".join(f"line {i} of a long memory\n" for i in range(60))
    files = {f"p/m{i:03}.md": TESTING for i in range(80)}
    base = commit(repo, {"p/MEMORY.md": "- [x](x.md)\n", **files}, "base")
    head = commit(repo, dict.fromkeys(files, TESTING_AFTER + long_body), "head")
    review = review_commits(repo, base, head)
    full = render_markdown(review, limit=10_000_000)
    assert full.count("<details><summary>body diff (41 lines)</summary>") == 80
    cut = render_markdown(review, limit=20_000)
    assert len(cut) <= 20_000
    assert re.search(r"_Summary cut to fit 20,000 characters: [\d,]+ more part\(s\) not shown", cut)
    assert f"memsync review --base {base[:12]} --head {head[:12]}" in cut
    assert cut.count("<details>") == cut.count("</details>")
    assert cut.count("```") % 2 == 0
    # The default limit keeps every pull request body under GitHub's 65,536 characters.
    assert len(render_markdown(review)) <= 65_000


def test_cells_cannot_break_the_markdown(tmp_path: Path) -> None:
    repo = tmp_path / "odd"
    repo.mkdir()
    git("init", "-q", "-b", "main", str(repo), cwd=tmp_path)
    base = commit(repo, {"p/MEMORY.md": ""}, "base")
    odd = "---\nname: a | b </details> <script>\ntype: project\n---\n```\nx ``` y\n"
    head = commit(repo, {"p/odd`name.md": odd}, "odd")
    text = render_markdown(review_commits(repo, base, head))
    assert (
        "| added | a \\| b &lt;/details&gt; &lt;script&gt; | project | ``p/odd`name.md`` |" in text
    )
    assert "<script>" not in text


def test_check_findings_on_the_changed_files(tmp_path: Path) -> None:
    repo = tmp_path / "checked"
    repo.mkdir()
    git("init", "-q", "-b", "main", str(repo), cwd=tmp_path)
    quiet = DEPLOY.replace("description: no Friday deploys", "description:")
    base = commit(
        repo,
        {
            ".github/workflows/memsync-check.yml": "on: pull_request\n",  # scaffolded: team
            "p/MEMORY.md": index("a", "b", "d"),
            "p/a.md": DEPLOY.replace("deploy freeze", "a"),
            "p/b.md": DEPLOY.replace("deploy freeze", "b"),
            "p/d.md": quiet.replace("deploy freeze", "d"),  # a warning nobody touched
            "q/MEMORY.md": index("e"),
            "q/e.md": quiet.replace("deploy freeze", "e"),  # another folder, untouched
        },
        "base",
    )
    head = commit(
        repo,
        {
            "p/a.md": DEPLOY.replace("None.", "We decided this yesterday."),
            "p/b.md": None,  # removed, its index line left behind
            "p/c.md": DEPLOY.replace("type: project", "type: user"),
        },
        "head",
    )
    review = review_commits(repo, base, head)
    assert review.scope == "team"
    assert [(f.path, f.line, f.severity, f.rule) for f in review.findings] == [
        ("p/MEMORY.md", 2, "error", "index-dangling-link"),
        ("p/a.md", 6, "warning", "relative-date"),
        # A personal memory in a team folder is told to move, not to get a team index line.
        ("p/c.md", 4, "error", "user-in-team"),
    ]
    text = render_markdown(review)
    assert "### Checks: 2 error(s), 1 warning(s)" in text
    assert "| ❌ | `p/c.md` | 4 | user-in-team |" in text
    # The same change in a private store: `type: user` is fine there, and wants its line.
    private = review_commits(repo, base, head, scope="private")
    assert "user-in-team" not in {f.rule for f in private.findings}
    assert ("p/c.md", 1, "warning", "index-missing-entry") in [
        (f.path, f.line, f.severity, f.rule) for f in private.findings
    ]


def test_nothing_changed(store: Store) -> None:
    review = review_commits(store.repo, store.base, store.base)
    text = render_markdown(review)
    assert text.startswith("## Memory review\n\nNo memory changes:")
    assert review_data(review)["counts"] == {"added": 0, "removed": 0, "renamed": 0, "changed": 0}


def test_an_index_s_lines_are_shown_and_a_secret_in_them_is_not(tmp_path: Path) -> None:
    repo = tmp_path / "index"
    repo.mkdir()
    git("init", "-q", "-b", "main", str(repo), cwd=tmp_path)
    base = commit(repo, {"p/MEMORY.md": "- [A](a.md) — a\n", "p/a.md": TESTING}, "base")
    head = commit(repo, {"p/MEMORY.md": "- [A](a.md) — the policy\n"}, "reword")
    (index,) = review_commits(repo, base, head).indexes
    assert index.line_diff == ("@@ -1 +1 @@", "-- [A](a.md) — a", "+- [A](a.md) — the policy")
    leaked = commit(repo, {"p/MEMORY.md": f"- [A](a.md) — log in with {SECRET}\n"}, "leak")
    review = review_commits(repo, head, leaked)
    assert review.indexes[0].line_diff == ("(hidden: possible secret)",)
    for output in (render_markdown(review), json.dumps(review_data(review))):
        assert SECRET[4:20] not in output


def test_secret_values_and_lines_never_reach_the_summary(tmp_path: Path) -> None:
    repo = tmp_path / "leaky"
    repo.mkdir()
    git("init", "-q", "-b", "main", str(repo), cwd=tmp_path)
    base = commit(repo, {"p/MEMORY.md": "", "p/a.md": TESTING, "p/b.md": LEAK}, "base")
    leaked = TESTING.replace("a real database\n", f"a real database {SECRET}\n", 1)
    leaked += f"CI uses {SECRET} to log in.\n"
    head = commit(repo, {"p/a.md": leaked, "p/b.md": LEAK.replace(SECRET, "<in the vault>")}, "x")
    review = review_commits(repo, base, head)
    # Only the new versions count as findings; the old version of b.md is only hidden.
    assert [(s.path, s.line) for s in review.secrets] == [("p/a.md", 3), ("p/a.md", 9)]
    assert review.hidden_bodies == ("p/a.md", "p/b.md")
    (field,) = next(c for c in review.changes if c.path == "p/a.md").fields
    assert (field.path, field.after) == ("description", "(hidden: possible secret)")
    text = render_markdown(review)
    data = json.dumps(review_data(review))
    for output in (text, data):
        assert SECRET not in output
        assert SECRET[4:20] not in output
    assert text.count("_Body not shown: this memory holds a possible secret") == 2
    assert "| `p/b.md` (body) |" in text


def test_an_added_memory_shows_its_body(store: Store) -> None:
    git("checkout", "-q", "review", cwd=store.repo)
    head = commit(store.repo, {"acme-web/new.md": DEPLOY}, "new")
    review = review_commits(store.repo, store.head, head)
    (change,) = review.changes
    assert change.body_diff == ("@@ -0,0 +1 @@", "+None.")
    assert "```diff\n@@ -0,0 +1 @@\n+None.\n```" in render_markdown(review)
