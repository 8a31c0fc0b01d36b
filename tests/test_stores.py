"""Changing a store's URL or a project's identity never loses or mixes memory (issue 13).

Real git throughout: bare remotes over plain paths, simulated machines with their own
HOME, Claude directory and memsync directories.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmarks.harness.daemon import GitDaemon
from benchmarks.harness.daemon import available as daemon_available
from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine
from testing.memories import write_memory

ORIGIN = "git@github.com:Acme/API.git"


def live_dirs(machine: Machine, project: Path) -> dict[str, Path]:
    """The live directories of PROJECT on MACHINE, by scope."""
    out = machine.memsync("status", "--json", cwd=project, check=False)
    return {s["scope"]: Path(s["live_dir"]) for s in json.loads(out.stdout)}


def names(directory: Path) -> set[str]:
    return {p.name for p in directory.glob("*.md") if p.name != "MEMORY.md"}


def remote_files(remote: Path) -> set[str]:
    return set(git("ls-tree", "-r", "--name-only", "main", cwd=remote).split())


def root_commits(remote: Path) -> list[str]:
    return git("rev-list", "--max-parents=0", "main", cwd=remote).split()


def config_file(machine: Machine) -> Path:
    return Path(machine.env["MEMSYNC_CONFIG"])


@pytest.fixture
def team_setup(machines: list[Machine], tmp_path: Path) -> tuple[Machine, Path, Path, Path]:
    """alice with a project bound to a private and a team store holding two team memories."""
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    project = alice.checkout_project(ORIGIN)
    alice.memsync("init", "--private", str(private), "--team", str(team), "--no-hooks", cwd=project)
    live = live_dirs(alice, project)["team"]
    write_memory(live, "deploy.md", "deploy", "Deploys go through staging.\n")
    write_memory(live, "review.md", "review", "Two approvals for schema changes.\n")
    alice.memsync("push", cwd=project)
    assert {"acme-api/deploy.md", "acme-api/review.md"} <= remote_files(team)
    return alice, project, team, tmp_path


def _point_team_at(machine: Machine, url: str) -> None:
    """Edit the config file by hand, as a person would: the team store's url only."""
    import yaml

    path = config_file(machine)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    (team,) = [s for s in data["stores"].values() if s["scope"] == "team"]
    text = path.read_text(encoding="utf-8").replace(f"url: {team['url']}\n", f"url: {url}\n")
    path.write_text(text, encoding="utf-8")


def test_config_edit_to_an_unreachable_url_keeps_live_memory_and_the_fix_sends_it(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, team, tmp_path = team_setup
    live = live_dirs(alice, project)["team"]
    _point_team_at(alice, str(tmp_path / "remotes" / "typo.git"))
    write_memory(live, "meanwhile.md", "meanwhile", "Written while the URL was wrong.\n")
    pushed = alice.memsync("push", cwd=project, check=False)
    assert pushed.returncode == 3, pushed.stdout + pushed.stderr
    assert "unreachable" in (pushed.stdout + pushed.stderr).lower()
    assert names(live) == {"deploy.md", "review.md", "meanwhile.md"}
    # A second run against the broken URL still deletes nothing.
    alice.memsync("pull", cwd=project, check=False)
    assert names(live) == {"deploy.md", "review.md", "meanwhile.md"}
    _point_team_at(alice, str(team))
    alice.memsync("sync", cwd=project)
    assert names(live) == {"deploy.md", "review.md", "meanwhile.md"}
    assert "acme-api/meanwhile.md" in remote_files(team)
    assert "Written while the URL was wrong." in (live / "meanwhile.md").read_text()


@pytest.mark.parametrize(
    ("scope", "subdir", "why"),
    [
        ("team", "x/../acme-api", "cannot name a folder of a store (path contains '..')"),
        ("private", ".", "`.` is for a team store of its own"),
    ],
)
def test_a_hand_edited_subdir_init_would_refuse_is_a_config_error(
    team_setup: tuple[Machine, Path, Path, Path], scope: str, subdir: str, why: str
) -> None:
    """A merge review: `x/../acme-api` wrote `..` tree entries into the team remote (git fsck
    `hasDotdot`, a plain clone failed), and `.` in a private binding pulled every project."""
    alice, project, team, _ = team_setup
    before = git("rev-parse", "main", cwd=team)
    live = live_dirs(alice, project)["team"]
    path = config_file(alice)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip() == f"{scope}:")
    edited = next(i for i in range(at, len(lines)) if lines[i].strip().startswith("subdir:"))
    lines[edited] = lines[edited].split("subdir:")[0] + f"subdir: {subdir!r}\n"
    path.write_text("".join(lines), encoding="utf-8")
    write_memory(live, "new.md", "new", "Not sent through a broken folder.\n")
    pushed = alice.memsync("push", cwd=project, check=False)
    assert pushed.returncode == 2, pushed.stdout + pushed.stderr
    assert f"the config's {scope} folder for {project} ({subdir!r}) is not usable: " in (
        pushed.stderr
    )
    assert why in pushed.stderr
    assert git("rev-parse", "main", cwd=team) == before
    hook = alice.memsync("pull", "--hook", cwd=project, stdin=json.dumps({"cwd": str(project)}))
    assert why in json.loads(hook.stdout)["systemMessage"]


def test_a_remote_that_vanishes_and_returns_loses_nothing(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, team, _ = team_setup
    live = live_dirs(alice, project)["team"]
    moved = team.with_name("team-away.git")
    team.rename(moved)
    write_memory(live, "offline.md", "offline", "Written while the remote was away.\n")
    pushed = alice.memsync("push", cwd=project, check=False)
    assert pushed.returncode == 3
    assert "team: remote unreachable" in pushed.stderr and "local work kept" in pushed.stderr
    assert names(live) == {"deploy.md", "review.md", "offline.md"}
    moved.rename(team)
    alice.memsync("sync", cwd=project)
    assert names(live) == {"deploy.md", "review.md", "offline.md"}
    assert "acme-api/offline.md" in remote_files(team)


def test_init_with_an_unreachable_url_changes_nothing_and_quotes_git(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, _, tmp_path = team_setup
    live = live_dirs(alice, project)["team"]
    before = config_file(alice).read_bytes()
    stores_before = sorted(p.name for p in (alice.home / ".memsync" / "stores").iterdir())
    typo = tmp_path / "remotes" / "tema.git"
    result = alice.memsync("init", "--team", str(typo), "--no-hooks", cwd=project, check=False)
    assert result.returncode == 2, result.stdout + result.stderr
    output = result.stdout + result.stderr
    assert f"{typo} is not a git repository memsync can use: git said:" in output
    assert "does not appear to be a git repository" in output  # git's own words
    assert "Nothing was changed" in output
    assert config_file(alice).read_bytes() == before
    assert sorted(p.name for p in (alice.home / ".memsync" / "stores").iterdir()) == stores_before
    write_memory(live, "after.md", "after", "Still syncing to the right store.\n")
    alice.memsync("push", cwd=project)
    assert names(live) == {"deploy.md", "review.md", "after.md"}


def test_init_with_an_unreachable_host_exits_3_and_changes_nothing(
    machines: list[Machine],
) -> None:
    alice = machines[0]
    project = alice.checkout_project(ORIGIN)
    result = alice.memsync(
        "init",
        "--team",
        "https://127.0.0.1:9/acme/memory.git",
        "--no-hooks",
        cwd=project,
        check=False,
    )
    assert result.returncode == 3, result.stdout + result.stderr
    assert "cannot reach the store remote https://127.0.0.1:9/acme/memory.git" in result.stderr
    assert "git said:" in result.stderr
    assert not config_file(alice).exists()
    assert not (alice.home / ".memsync" / "remotes" / "private.git").exists()


def test_init_again_with_another_spelling_is_the_same_store(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, team, _ = team_setup
    live = live_dirs(alice, project)["team"]
    write_memory(live, "pending.md", "pending", "Not pushed before the re-init.\n")
    roots = root_commits(team)
    clones = sorted(p.name for p in (alice.home / ".memsync" / "stores").iterdir())
    alice.memsync("init", "--team", f"file://{team}/", "--no-hooks", cwd=project)
    assert root_commits(team) == roots
    assert sorted(p.name for p in (alice.home / ".memsync" / "stores").iterdir()) == clones
    config = config_file(alice).read_text(encoding="utf-8")
    assert config.count("scope: team") == 1
    assert names(live) == {"deploy.md", "review.md", "pending.md"}
    assert "acme-api/pending.md" in remote_files(team)


def test_init_again_with_another_repository_merges_live_memory_into_it(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, _, tmp_path = team_setup
    live = live_dirs(alice, project)["team"]
    write_memory(live, "pending.md", "pending", "Not pushed before the move.\n")
    # The team moved its memory to another repository that already holds a memory.
    other = make_bare_remote(tmp_path / "remotes" / "team-new.git")
    seed = tmp_path / "seed"
    git("clone", "-q", str(other), str(seed), cwd=tmp_path)
    write_memory(seed / "acme-api", "oncall.md", "oncall", "Pager rotation is weekly.\n")
    git("add", "-A", cwd=seed)
    git("commit", "-qm", "seed", cwd=seed)
    git("push", "-q", "origin", "HEAD:main", cwd=seed)
    alice.memsync("init", "--team", str(other), "--no-hooks", cwd=project)
    assert names(live) == {"deploy.md", "review.md", "pending.md", "oncall.md"}
    assert {
        "acme-api/deploy.md",
        "acme-api/review.md",
        "acme-api/pending.md",
        "acme-api/oncall.md",
    } <= remote_files(other)
    assert len(root_commits(other)) == 1


def test_a_memory_only_in_the_old_clone_is_brought_over(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, team, tmp_path = team_setup
    live = live_dirs(alice, project)["team"]
    _point_team_at(alice, str(tmp_path / "remotes" / "down.git"))
    write_memory(live, "stranded.md", "stranded", "Committed only in the old clone.\n")
    away = alice.memsync("push", cwd=project, check=False)
    assert away.returncode == 3
    assert "down.git' does not appear to be a git repository" in away.stderr
    assert "ahead by 1 commit, not pushed: the remote is unreachable" in away.stdout
    # What memsync 0.1.0 did next: the live copy and its record vanished; only the clone has it.
    (live / "stranded.md").unlink()
    manifests = list((alice.home / ".memsync" / "manifests").glob("live-*.json"))
    for path in manifests:
        data = json.loads(path.read_text())
        data["files"].pop("stranded.md", None)
        path.write_text(json.dumps(data))
    _point_team_at(alice, str(team))
    alice.memsync("sync", cwd=project)
    assert "Committed only in the old clone." in (live / "stranded.md").read_text()
    assert "acme-api/stranded.md" in remote_files(team)


def test_a_deletion_made_before_the_switch_is_not_undone_from_the_old_clone(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, team, tmp_path = team_setup
    live = live_dirs(alice, project)["team"]
    _point_team_at(alice, str(tmp_path / "remotes" / "down.git"))
    write_memory(live, "draft.md", "draft", "A draft the person then deletes.\n")
    away = alice.memsync("push", cwd=project, check=False)
    assert away.returncode == 3
    assert "team: remote unreachable" in away.stderr and "local work kept" in away.stderr
    (live / "draft.md").unlink()
    _point_team_at(alice, str(team))
    alice.memsync("sync", cwd=project)
    assert "draft.md" not in names(live)
    assert "acme-api/draft.md" not in remote_files(team)
    assert names(live) == {"deploy.md", "review.md"}


def _web_project(machine: Machine, parent: str, content: str) -> Path:
    root = machine.home / parent / "web"
    root.mkdir(parents=True)
    machine.git("init", "-q", str(root), cwd=machine.home)
    (root / "README").write_text(content)
    machine.git("add", "-A", cwd=root)
    machine.git("commit", "-qm", f"start {parent}", cwd=root)
    return root


def test_two_unrelated_projects_named_web_never_share_memory(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    shop = _web_project(alice, "shop", "the shop\n")
    blog = _web_project(alice, "blog", "the blog\n")
    for project in (shop, blog):
        alice.memsync("init", "--private", str(private), "--no-hooks", cwd=project)
    shop_live = live_dirs(alice, shop)["private"]
    blog_live = live_dirs(alice, blog)["private"]
    write_memory(shop_live, "stack.md", "stack", "The shop runs on Django.\n")
    write_memory(blog_live, "stack.md", "stack", "The blog is a static site.\n")
    for project in (shop, blog, shop):
        alice.memsync("sync", cwd=project)
    assert names(shop_live) == {"stack.md"}
    assert names(blog_live) == {"stack.md"}
    assert "Django" in (shop_live / "stack.md").read_text()
    assert "static site" in (blog_live / "stack.md").read_text()
    shop_root = git("rev-list", "--max-parents=0", "HEAD", cwd=shop).strip()
    assert f"root-{shop_root[:12]}/stack.md" in remote_files(private)
    record = git("show", f"main:root-{shop_root[:12]}/.memsync-project", cwd=private)
    assert f"root-commit: {shop_root}" in record


def test_the_same_history_cloned_elsewhere_shares_memory_without_an_origin(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    first = _web_project(laptop, "src", "site\n")
    second = desktop.home / "code" / "website"
    desktop.git("clone", "-q", str(first), str(second), cwd=desktop.home)
    desktop.git("remote", "remove", "origin", cwd=second)
    laptop.memsync("init", "--private", str(private), "--no-hooks", cwd=first)
    write_memory(live_dirs(laptop, first)["private"], "deploy.md", "deploy", "Use fly.io.\n")
    laptop.memsync("push", cwd=first)
    desktop.memsync("init", "--private", str(private), "--no-hooks", cwd=second)
    assert "Use fly.io." in (live_dirs(desktop, second)["private"] / "deploy.md").read_text()


def test_binding_another_project_to_a_folder_is_refused_naming_both(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    api = alice.checkout_project(ORIGIN, "src/api")
    other = alice.checkout_project("git@github.com:Acme/Other.git", "src/other")
    alice.memsync("init", "--private", str(private), "--subdir", "shared", "--no-hooks", cwd=api)
    before = config_file(alice).read_bytes()
    result = alice.memsync(
        "init",
        "--private",
        str(private),
        "--subdir",
        "shared",
        "--no-hooks",
        cwd=other,
        check=False,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    output = " ".join((result.stdout + result.stderr).split())
    assert "belongs to another project (origin github.com/acme/api)" in output
    assert "this project is origin github.com/acme/other" in output
    assert "--subdir" in output
    assert config_file(alice).read_bytes() == before


def test_a_folder_without_git_is_keyed_by_its_name_with_a_warning(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    plain = alice.home / "notes" / "web"
    plain.mkdir(parents=True)
    result = alice.memsync("init", "--private", str(private), "--no-hooks", cwd=plain)
    assert "is not a git repository and has no origin" in result.stderr
    assert "keyed by the folder name `web`" in result.stderr


def test_the_identity_file_is_never_materialized_nor_checked(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, team, _ = team_setup
    assert "acme-api/.memsync-project" in remote_files(team)
    live = live_dirs(alice, project)["team"]
    alice.memsync("pull", cwd=project)
    assert not (live / ".memsync-project").exists()
    checked = alice.memsync("check", str(live), cwd=project, check=False)
    assert ".memsync-project" not in checked.stdout


def test_a_hand_edited_subdir_pointing_at_another_project_is_refused(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    api = alice.checkout_project(ORIGIN, "src/api")
    other = alice.checkout_project("git@github.com:Acme/Other.git", "src/other")
    for project in (api, other):
        alice.memsync("init", "--private", str(private), "--no-hooks", cwd=project)
    write_memory(live_dirs(alice, api)["private"], "a.md", "a", "API memory.\n")
    alice.memsync("push", cwd=api)
    other_live = live_dirs(alice, other)["private"]
    write_memory(other_live, "b.md", "b", "Other memory.\n")
    path = config_file(alice)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("subdir: acme-other", "subdir: acme-api"), encoding="utf-8")
    result = alice.memsync("push", cwd=other, check=False)
    assert result.returncode == 1
    assert "belongs to another project" in result.stdout + result.stderr
    assert names(other_live) == {"b.md"}
    assert "acme-api/b.md" not in remote_files(private)


def test_a_broken_config_is_exit_2_and_a_system_message_in_hooks(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, _, _ = team_setup
    path = config_file(alice)
    path.write_text(
        path.read_text(encoding="utf-8").replace("pull_timeout: 10.0", "pull_timeout: ten"),
        encoding="utf-8",
    )
    result = alice.memsync("pull", cwd=project, check=False)
    assert result.returncode == 2
    message = " ".join(result.stderr.split())
    assert f"{path}" in message and "`settings.pull_timeout` must be a number" in message
    hook = alice.memsync("pull", "--hook", cwd=project, stdin=json.dumps({"cwd": str(project)}))
    assert hook.returncode == 0
    payload = json.loads(hook.stdout)
    assert "settings.pull_timeout" in payload["systemMessage"]
    assert str(path) in payload["systemMessage"]
    assert "Traceback" not in hook.stderr
    pushed = alice.memsync("push", "--hook", cwd=project, stdin="{}")
    assert "settings.pull_timeout" in json.loads(pushed.stdout)["systemMessage"]


def test_the_store_change_leaves_the_old_clone_alone(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, _, tmp_path = team_setup
    other = make_bare_remote(tmp_path / "remotes" / "elsewhere.git")
    stores = alice.home / ".memsync" / "stores"
    before = {p.name for p in stores.iterdir()}
    _point_team_at(alice, str(other))
    alice.memsync("sync", cwd=project)
    after = {p.name for p in stores.iterdir()}
    assert before < after  # the new store has its own clone; the old one is kept
    assert {"acme-api/deploy.md", "acme-api/review.md"} <= remote_files(other)
    shutil.rmtree(stores / next(iter(after - before)))
    alice.memsync("sync", cwd=project)  # a clone removed by hand is rebuilt
    assert names(live_dirs(alice, project)["team"]) == {"deploy.md", "review.md"}


def test_project_move_renames_the_folder_and_other_machines_follow_losing_nothing(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, desktop, _ = machines
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    p1 = laptop.checkout_project(ORIGIN, "src/api")
    p2 = desktop.checkout_project(ORIGIN, "work/api")
    laptop.memsync("init", "--private", str(private), "--no-hooks", cwd=p1)
    live1 = live_dirs(laptop, p1)["private"]
    write_memory(live1, "a.md", "a", "First.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("init", "--private", str(private), "--no-hooks", cwd=p2)
    live2 = live_dirs(desktop, p2)["private"]
    assert names(live2) == {"a.md"}
    write_memory(live1, "b.md", "b", "Unpushed when the move starts.\n")
    moved = laptop.memsync("project", "move", "api", cwd=p1)
    assert "moved 2 file(s) from acme-api/ to api/" in moved.stdout
    files = remote_files(private)
    assert {"api/a.md", "api/b.md", "api/.memsync-project"} <= files
    assert not any(f.startswith("acme-api/") and f.endswith(".md") for f in files)
    assert "moved-to: api" in git("show", "main:acme-api/.memsync-project", cwd=private)
    assert names(live1) == {"a.md", "b.md"}
    write_memory(live1, "c.md", "c", "After the move.\n")
    laptop.memsync("sync", cwd=p1)
    assert "api/c.md" in remote_files(private)
    # The desktop still points at the old folder: it stops before touching its live copy.
    write_memory(live2, "d.md", "d", "Written on the desktop meanwhile.\n")
    stale = desktop.memsync("sync", cwd=p2, check=False)
    assert stale.returncode == 1
    assert "was moved to api" in " ".join((stale.stdout + stale.stderr).split())
    assert "memsync init --subdir api" in stale.stdout + stale.stderr
    assert names(live2) == {"a.md", "d.md"}
    desktop.memsync("init", "--subdir", "api", "--no-hooks", cwd=p2)
    assert names(live2) == {"a.md", "b.md", "c.md", "d.md"}
    assert "api/d.md" in remote_files(private)


def _moved_while_edited(
    machines: list[Machine], tmp_path: Path
) -> tuple[Machine, Path, Path, Path, Path]:
    """The laptop moves acme-api/ to api/ while the desktop holds an unpushed edit of a.md."""
    laptop, desktop, _ = machines
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    p1 = laptop.checkout_project(ORIGIN, "src/api")
    p2 = desktop.checkout_project(ORIGIN, "work/api")
    laptop.memsync("init", "--private", str(private), "--no-hooks", cwd=p1)
    write_memory(live_dirs(laptop, p1)["private"], "a.md", "a", "Deploys run on Friday.\n")
    laptop.memsync("push", cwd=p1)
    desktop.memsync("init", "--private", str(private), "--no-hooks", cwd=p2)
    live2 = live_dirs(desktop, p2)["private"]
    write_memory(live2, "a.md", "a", "Deploys run on Monday.\n")  # not pushed yet
    laptop.memsync("project", "move", "api", cwd=p1)
    return laptop, p1, desktop, p2, private


def _assert_the_edit_moved(private: Path, output: str) -> None:
    body = git("show", "main:api/a.md", cwd=private)
    # Merged as two additions with no base, both sentences were kept, on every machine.
    assert "Deploys run on Monday." in body and "Friday" not in body, body
    assert "kept both" not in output, output


def test_following_a_move_with_an_unpushed_edit_sends_the_edit_not_a_second_copy(
    machines: list[Machine], tmp_path: Path
) -> None:
    laptop, p1, desktop, p2, private = _moved_while_edited(machines, tmp_path)
    followed = desktop.memsync("init", "--subdir", "api", "--no-hooks", cwd=p2)
    _assert_the_edit_moved(private, followed.stdout + followed.stderr)
    laptop.memsync("sync", cwd=p1)
    assert "Friday" not in (live_dirs(laptop, p1)["private"] / "a.md").read_text("utf-8")


def test_a_folder_changed_in_the_config_merges_the_edit_into_the_moved_memory(
    machines: list[Machine], tmp_path: Path
) -> None:
    _, _, desktop, p2, private = _moved_while_edited(machines, tmp_path)
    path = config_file(desktop)
    text = path.read_text(encoding="utf-8")
    assert text.count("subdir: acme-api") == 1, text
    path.write_text(text.replace("subdir: acme-api", "subdir: api"), encoding="utf-8")
    synced = desktop.memsync("sync", cwd=p2)
    _assert_the_edit_moved(private, synced.stdout + synced.stderr)


def test_project_move_refuses_a_folder_in_use(machines: list[Machine], tmp_path: Path) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    api = alice.checkout_project(ORIGIN, "src/api")
    other = alice.checkout_project("git@github.com:Acme/Other.git", "src/other")
    for project in (api, other):
        alice.memsync("init", "--private", str(private), "--no-hooks", cwd=project)
        write_memory(live_dirs(alice, project)["private"], "x.md", "x", f"{project.name}\n")
        alice.memsync("push", cwd=project)
    before = git("rev-parse", "main", cwd=private)
    result = alice.memsync("project", "move", "acme-other", cwd=api, check=False)
    assert result.returncode == 1
    assert "already has a folder 'acme-other' with files in it" in result.stdout + result.stderr
    assert git("rev-parse", "main", cwd=private) == before
    bad = alice.memsync("project", "move", "../x", cwd=api, check=False)
    assert bad.returncode == 2 and "cannot name a folder of a store" in bad.stderr


def test_moving_to_a_mirror_keeps_an_edit_made_before_the_switch_as_is(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, team, tmp_path = team_setup
    live = live_dirs(alice, project)["team"]
    mirror = tmp_path / "remotes" / "moved.git"
    git("clone", "-q", "--bare", str(team), str(mirror), cwd=tmp_path)
    edited = (live / "deploy.md").read_text().replace("staging", "the canary fleet")
    (live / "deploy.md").write_text(edited)
    _point_team_at(alice, f"file://{mirror}")
    alice.memsync("sync", cwd=project)
    # The old record's version is in the mirror: it is the merge base, the edit wins whole.
    assert (live / "deploy.md").read_text() == edited
    shown = git("show", "main:acme-api/deploy.md", cwd=mirror)
    assert shown == edited
    assert len(root_commits(mirror)) == 1


def test_status_and_pull_on_an_unreachable_store_never_delete(
    team_setup: tuple[Machine, Path, Path, Path],
) -> None:
    alice, project, _, _ = team_setup
    live = live_dirs(alice, project)["team"]
    _point_team_at(alice, "https://127.0.0.1:9/nowhere/memory.git")
    hook = alice.memsync("pull", "--hook", cwd=project, stdin=json.dumps({"cwd": str(project)}))
    assert hook.returncode == 0
    status = alice.memsync("status", cwd=project, check=False)
    assert "Traceback" not in status.stderr
    assert names(live) == {"deploy.md", "review.md"}


@pytest.mark.parametrize("branch", ["master", "trunk"])
def test_an_empty_local_store_keeps_the_branch_its_head_names(
    machines: list[Machine], tmp_path: Path, branch: str
) -> None:
    # A plain `git init --bare` names `master` unless configured; git 2.39 does not say so
    # over the wire for an empty repository, and memsync pushed `main` beside it, so a plain
    # `git clone` of the store found nothing to check out.
    laptop, desktop, _ = machines
    remote = tmp_path / "remotes" / "plain.git"
    remote.parent.mkdir(parents=True)
    git("init", "-q", "--bare", "-b", branch, str(remote), cwd=remote.parent)
    p1 = laptop.checkout_project(ORIGIN, "src/api")
    laptop.memsync("init", "--private", str(remote), "--no-hooks", cwd=p1)
    write_memory(live_dirs(laptop, p1)["private"], "a.md", "a", "A.\n")
    laptop.memsync("push", cwd=p1)
    refs = git("for-each-ref", "--format=%(refname)", cwd=remote).split()
    assert refs == [f"refs/heads/{branch}"], refs
    p2 = desktop.checkout_project(ORIGIN, "work/api")
    desktop.memsync("init", "--private", f"file://{remote}", "--no-hooks", cwd=p2)
    assert names(live_dirs(desktop, p2)["private"]) == {"a.md"}


@pytest.mark.skipif(not daemon_available(), reason="needs git-daemon")
@pytest.mark.parametrize(("protocol", "branch"), [("2", "trunk"), ("0", "main")])
def test_an_empty_store_over_git_daemon_keeps_the_branch_its_head_names(
    machines: list[Machine], tmp_path: Path, protocol: str, branch: str
) -> None:
    # git 2.39's ls-remote says nothing of an empty repository's HEAD, so memsync pushed `main`
    # beside the store's `trunk`. Protocol v0 cannot say it at all: memsync's own `main` then,
    # never the probe's placeholder nor this machine's init.defaultBranch.
    laptop, desktop, _ = machines
    for machine in (laptop, desktop):
        with (machine.home / ".gitconfig").open("a") as config:
            config.write(f"[protocol]\n\tversion = {protocol}\n[init]\n\tdefaultBranch = local\n")
    served = tmp_path / "served"
    served.mkdir()
    git("init", "-q", "--bare", "-b", "trunk", str(served / "plain.git"), cwd=served)
    with GitDaemon(served) as daemon:
        url = daemon.url("plain.git")
        p1 = laptop.checkout_project(ORIGIN, "src/api")
        laptop.memsync("init", "--private", url, "--no-hooks", cwd=p1)
        write_memory(live_dirs(laptop, p1)["private"], "a.md", "a", "A.\n")
        laptop.memsync("push", cwd=p1)
        refs = git("for-each-ref", "--format=%(refname)", cwd=served / "plain.git").split()
        assert refs == [f"refs/heads/{branch}"], refs
        p2 = desktop.checkout_project(ORIGIN, "work/api")
        desktop.memsync("init", "--private", url, "--no-hooks", cwd=p2)
    assert names(live_dirs(desktop, p2)["private"]) == {"a.md"}
