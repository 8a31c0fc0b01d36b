"""Every project folder a store gets records its project, and no two projects' folders mix.

Real git throughout: bare remotes over plain paths, simulated machines with their own
HOME, Claude directory and memsync directories (a merge review's findings).
"""

from __future__ import annotations

import json
from pathlib import Path

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine
from testing.memories import write_memory

GITHUB = "git@github.com:acme/api.git"
GITLAB = "git@gitlab.com:acme/api.git"


def live_dirs(machine: Machine, project: Path) -> dict[str, Path]:
    """The live directories of PROJECT on MACHINE, by scope."""
    out = machine.memsync("status", "--json", cwd=project, check=False)
    return {s["scope"]: Path(s["live_dir"]) for s in json.loads(out.stdout)}


def names(directory: Path) -> set[str]:
    """The memories below DIRECTORY (relative paths), the index left out."""
    found = {p.relative_to(directory).as_posix() for p in directory.rglob("*.md")}
    return {p for p in found if not p.endswith("MEMORY.md")}


def remote_files(remote: Path) -> set[str]:
    """Every file path on REMOTE's main branch."""
    return set(git("ls-tree", "-r", "--name-only", "main", cwd=remote).split())


def said(result: object) -> str:
    """A finished command's stdout and stderr, whitespace folded (rich wraps lines)."""
    return " ".join((getattr(result, "stdout", "") + getattr(result, "stderr", "")).split())


def test_a_sync_into_a_store_set_by_a_config_edit_records_the_project_there(
    machines: list[Machine], tmp_path: Path
) -> None:
    """A team URL changed by hand: the sync filled the new store's folder but wrote no
    `.memsync-project`, so an unrelated same-named project bound to it, received the first
    one's team memory and locked the first one out of its own folder."""
    alice, _, bob = machines
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    first = make_bare_remote(tmp_path / "remotes" / "team.git")
    second = make_bare_remote(tmp_path / "remotes" / "team2.git")
    github = alice.checkout_project(GITHUB, "src/api")
    args = ("--private", str(private), "--no-hooks")
    alice.memsync("init", *args, "--team", str(first), cwd=github)
    write_memory(live_dirs(alice, github)["team"], "gh.md", "gh", "GitHub team note.\n")
    alice.memsync("push", cwd=github)
    config = Path(alice.env["MEMSYNC_CONFIG"])
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(f"url: {first}\n", f"url: {second}\n"), encoding="utf-8")
    alice.memsync("sync", "--scope", "team", cwd=github)
    assert {"acme-api/gh.md", "acme-api/.memsync-project"} <= remote_files(second)
    record = git("show", "main:acme-api/.memsync-project", cwd=second)
    assert "origin: github.com/acme/api" in record

    gitlab = bob.checkout_project(GITLAB, "src/api")
    refused = bob.memsync("init", *args, "--team", str(second), cwd=gitlab, check=False)
    assert refused.returncode == 1, said(refused)
    assert "belongs to another project (origin github.com/acme/api)" in said(refused)
    assert "this project is origin gitlab.com/acme/api" in said(refused)
    assert "gh.md" not in {p.name for p in (bob.claude_dir / "projects").rglob("*.md")}
    alice.memsync("sync", "--scope", "team", cwd=github)


def test_a_subdir_inside_another_projects_folder_is_refused(
    machines: list[Machine], tmp_path: Path
) -> None:
    """`--subdir acme-web/api` put api's folder inside web's: web syncs its folder
    recursively, so api's private and team memories appeared in web's memory."""
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    args = ("--private", str(private), "--team", str(team), "--no-hooks")
    web = alice.checkout_project("git@github.com:acme/web.git", "src/web")
    api = alice.checkout_project(GITHUB, "src/api")
    alice.memsync("init", *args, cwd=web)
    config = Path(alice.env["MEMSYNC_CONFIG"])
    before = config.read_bytes()
    refused = alice.memsync("init", *args, "--subdir", "acme-web/api", cwd=api, check=False)
    assert refused.returncode == 2, said(refused)
    assert "--subdir 'acme-web/api' cannot name a folder of a store (not one folder name)" in (
        said(refused)
    )
    assert config.read_bytes() == before
    assert not any(p.startswith("acme-web/api") for p in remote_files(private))
    # Nor by editing the config: the folder is refused before anything is synced.
    alice.memsync("init", *args, cwd=api)
    write_memory(live_dirs(alice, api)["private"], "n.md", "n", "API private note.\n")
    text = config.read_text(encoding="utf-8").replace("subdir: acme-api", "subdir: acme-web/api")
    config.write_text(text, encoding="utf-8")
    pushed = alice.memsync("push", cwd=api, check=False)
    assert pushed.returncode == 2, said(pushed)
    assert "('acme-web/api') is not usable" in said(pushed)
    alice.memsync("sync", cwd=web)
    assert names(live_dirs(alice, web)["private"]) == set()
    assert not any(p.startswith("acme-web/api") for p in remote_files(private))


def test_a_team_repository_of_its_own_is_one_no_other_project_uses(
    machines: list[Machine], tmp_path: Path
) -> None:
    """`--subdir .` on a team repository already holding web's folder was accepted, and
    web's team memories appeared in api's team memory; the reverse (a folder in a repository
    dedicated to another project) handed the folder's memories to that project."""
    alice, _, bob = machines
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    args = ("--private", str(private), "--team", str(team), "--no-hooks")
    web = alice.checkout_project("git@github.com:acme/web.git", "src/web")
    alice.memsync("init", *args, cwd=web)
    write_memory(live_dirs(alice, web)["team"], "tw.md", "tw", "Web team plan.\n")
    alice.memsync("push", cwd=web)
    api = bob.checkout_project(GITHUB, "src/api")
    config = Path(bob.env["MEMSYNC_CONFIG"])
    refused = bob.memsync("init", *args, "--subdir", ".", cwd=api, check=False)
    assert refused.returncode == 1, said(refused)
    assert (
        "the team (team-team) store holds acme-web/, the folder of another project "
        "(origin github.com/acme/web); this project is origin github.com/acme/api"
    ) in said(refused)
    assert "`.` is for a team repository no other project uses" in said(refused)
    assert not config.exists()
    assert "tw.md" not in {p.name for p in (bob.claude_dir / "projects").rglob("*.md")}
    # Nor by editing the config: every sync refuses before it writes the live directory.
    bob.memsync("init", *args, cwd=api)
    text = config.read_text(encoding="utf-8")
    team_entry = text.rindex("subdir: acme-api")  # the team binding follows the private one
    text = text[:team_entry] + "subdir: ." + text[team_entry + len("subdir: acme-api") :]
    config.write_text(text, encoding="utf-8")
    pulled = bob.memsync("sync", cwd=api, check=False)
    assert pulled.returncode == 1, said(pulled)
    assert "holds acme-web/, the folder of another project" in said(pulled)
    assert "tw.md" not in {p.name for p in (bob.claude_dir / "projects").rglob("*.md")}

    dedicated = make_bare_remote(tmp_path / "remotes" / "dedicated.git")
    own = ("--private", str(private), "--team", str(dedicated), "--no-hooks")
    bob.memsync("init", *own, "--subdir", ".", cwd=api)
    assert ".memsync-project" in remote_files(dedicated)
    inside = alice.memsync("init", *own, cwd=web, check=False)
    assert inside.returncode == 1, said(inside)
    assert (
        "the team (team-dedicated) store is dedicated to another project "
        "(origin github.com/acme/api, `--subdir .`)"
    ) in said(inside)
    assert not any(p.startswith("acme-web/") for p in remote_files(dedicated))


def test_a_clone_made_after_the_repository_gained_an_origin_finds_its_folder(
    machines: list[Machine], tmp_path: Path
) -> None:
    """Set up before it had an origin, the project was keyed `root-<hash>`; a clone made
    after it was published was keyed `acme-api`: same root commit, two folders, and the
    clone never saw the first machine's memory."""
    laptop, desktop, _ = machines
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    first = laptop.home / "src" / "api"
    first.mkdir(parents=True)
    laptop.git("init", "-q", str(first), cwd=laptop.home)
    laptop.git("commit", "-q", "--allow-empty", "-m", "root", cwd=first)
    root = laptop.git("rev-parse", "HEAD", cwd=first).strip()
    laptop.memsync("init", "--private", str(private), "--no-hooks", cwd=first)
    live = live_dirs(laptop, first)["private"]
    write_memory(live, "n.md", "n", "Saved before the repository had an origin.\n")
    laptop.memsync("push", cwd=first)
    laptop.git("remote", "add", "origin", GITHUB, cwd=first)
    second = desktop.home / "code" / "api"
    desktop.git("clone", "-q", str(first), str(second), cwd=desktop.home)
    desktop.git("remote", "set-url", "origin", GITHUB, cwd=second)

    result = desktop.memsync("init", "--private", str(private), "--no-hooks", cwd=second)
    assert f"(key root-{root[:12]})" in said(result)
    clone_live = live_dirs(desktop, second)["private"]
    assert names(clone_live) == {"n.md"}
    write_memory(clone_live, "c.md", "c", "Saved on the clone.\n")
    desktop.memsync("sync", cwd=second)
    laptop.memsync("sync", cwd=first)
    assert names(live) == {"n.md", "c.md"}
    folders = {p.split("/")[0] for p in remote_files(private)}
    assert folders == {f"root-{root[:12]}"}
    # A fork (another origin, the same history) keeps a folder of its own.
    bob = machines[2]
    theirs = make_bare_remote(tmp_path / "remotes" / "bob.git")
    upstream, fork = bob.home / "upstream", bob.home / "fork"
    for clone, origin in ((upstream, GITHUB), (fork, "git@github.com:someone/api.git")):
        bob.git("clone", "-q", str(first), str(clone), cwd=bob.home)
        bob.git("remote", "set-url", "origin", origin, cwd=clone)
    bob.memsync("init", "--private", str(theirs), "--no-hooks", cwd=upstream)
    forked = bob.memsync("init", "--private", str(theirs), "--no-hooks", cwd=fork)
    assert "(key someone-api)" in said(forked)
    assert {p.split("/")[0] for p in remote_files(theirs)} == {"acme-api", "someone-api"}


def test_init_again_after_the_first_commit_keys_the_project_by_its_history(
    machines: list[Machine], tmp_path: Path
) -> None:
    """init warned "commit (or add an origin) and run `memsync init` again"; doing exactly
    that exited 1 calling the project's own folder another project's."""
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    args = ("--private", str(private), "--team", str(team), "--no-hooks")
    web = alice.home / "src" / "web"
    web.mkdir(parents=True)
    alice.git("init", "-q", str(web), cwd=alice.home)
    first = alice.memsync("init", *args, cwd=web)
    live = live_dirs(alice, web)
    write_memory(live["private"], "a.md", "a", "The web project uses Django.\n")
    write_memory(live["team"], "t.md", "t", "Team plan for web.\n")
    alice.memsync("push", cwd=web)
    alice.git("commit", "-q", "--allow-empty", "-m", "first", cwd=web)
    root = alice.git("rev-parse", "HEAD", cwd=web).strip()

    again = alice.memsync("init", *args, cwd=web, check=False)
    assert again.returncode == 0, said(again)
    assert f"(key root-{root[:12]})" in said(again)
    assert "its memory moves from the folder `web` (keyed by its name)" in said(again)
    assert names(live["private"]) == {"a.md", "team/t.md"}
    for remote, memory in ((private, "a.md"), (team, "t.md")):
        assert f"root-{root[:12]}/{memory}" in remote_files(remote)
        record = git("show", f"main:root-{root[:12]}/.memsync-project", cwd=remote)
        assert f"root-commit: {root}" in record and "directory" not in record
    config = Path(alice.env["MEMSYNC_CONFIG"]).read_text(encoding="utf-8")
    assert f"key: root-{root[:12]}" in config and "subdir: web" not in config
    write_memory(live["private"], "b.md", "b", "Written after the move.\n")
    alice.memsync("sync", cwd=web)
    assert f"root-{root[:12]}/b.md" in remote_files(private)
    # The advice names exactly what was run.
    assert "make a first commit (or add an origin), then run `memsync init` again" in said(first)
