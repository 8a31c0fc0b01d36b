"""`memsync init`: configure a project's stores, clone them, import local memories."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memsync import git
from memsync.config import (
    Config,
    ProjectConfig,
    StoreConfig,
    data_dir,
    load_config,
    save_config,
)
from memsync.config import StoreFolder as ConfigBinding
from memsync.configschema import scopes_sharing_a_repository
from memsync.errors import UsageError
from memsync.model.paths import (
    ProjectLocation,
    is_local_url,
    key_from_url,
    locate_project,
    normalize_url,
)
from memsync.model.safety import Scope

if TYPE_CHECKING:
    from memsync.sync.binding import Binding
    from memsync.sync.report import StoreReport

PRIVATE_STORE = "private"


@dataclass(frozen=True)
class InitPlan:
    """The configuration `init` settles on, before anything is cloned or written."""

    location: ProjectLocation
    config: Config
    private: StoreConfig
    team: StoreConfig | None
    # The embedded default private remote, created only once the other remotes answered.
    create_local_remote: Path | None
    warnings: tuple[str, ...] = ()
    # The key is new (no --subdir): a folder another clone made for this project is reused.
    adopt: bool = False


def default_private_remote() -> Path:
    """The embedded default remote: a bare repository in memsync's data dir."""
    return data_dir() / "remotes" / "private.git"


def _absolute_url(url: str) -> str:
    """Local paths become absolute so every later run finds the same remote."""
    normalized = normalize_url(url)
    return normalized if is_local_url(normalized) else url.strip()


def _store_for(config: Config, scope: Scope, url: str, preferred: str) -> StoreConfig:
    """The store entry for URL: the existing one for any spelling of it, else a new name."""
    wanted = normalize_url(url)
    for store in config.stores.values():
        if store.scope == scope and normalize_url(store.url) == wanted:
            # Same repository, maybe spelled otherwise: the same store, one clone.
            return StoreConfig(store.name, scope, url)
    name, number = preferred, 1
    while name in config.stores:
        number += 1
        name = f"{preferred}-{number}"
    return StoreConfig(name, scope, url)


def plan_init(
    project_dir: Path,
    *,
    private_url: str | None,
    team_url: str | None,
    subdir: str | None,
) -> InitPlan:
    """Decide stores and bindings for the project, keeping what an earlier init set."""
    from memsync.sync.binding import check_subdir
    from memsync.sync.identity import following_move, resolve_project

    location = locate_project(project_dir)
    config = load_config()
    existing = config.projects.get(str(location.root))
    if subdir is not None:
        check_subdir(subdir)

    create: Path | None = None
    current_private = config.stores.get(PRIVATE_STORE)
    if private_url:
        private = StoreConfig(PRIVATE_STORE, "private", _absolute_url(private_url))
    elif current_private is not None:
        private = current_private
    else:
        remote = default_private_remote()
        create = None if (remote / "HEAD").is_file() else remote
        private = StoreConfig(PRIVATE_STORE, "private", str(remote))
    config = config.with_store(private)

    team: StoreConfig | None = None
    if team_url:
        url = _absolute_url(team_url)
        team = _store_for(config, "team", url, f"team-{key_from_url(url) or 'store'}")
        config = config.with_store(team)
    elif existing is not None and existing.team is not None:
        team = config.stores.get(existing.team.store)
    if team is not None and scopes_sharing_a_repository([private, team]) is not None:
        raise UsageError(
            f"the team store {team.url} is the private store's repository too",
            hint="Private memories (`type: user` ones, secrets a private store only warns "
            "about) would reach the team: give --private and --team their own repositories.",
        )

    resolved = resolve_project(location)
    warnings: tuple[str, ...] = (resolved.warning,) if resolved.warning else ()
    if subdir is None and existing is not None and _by_name(existing) and not resolved.warning:
        # Keyed by its name before it had a history (the warning then said to run init
        # again): its folder records only that name, so it moves to one keyed by the history.
        warnings += (
            f"{location.root} has a history now: its memory moves from the folder "
            f"`{existing.key}` (keyed by its name) to one keyed by its history; "
            f"`{existing.key}` stays in the stores as it was",
        )
        existing = None
    # A project keeps its folder across re-inits: its memory is already there.
    key = existing.key if existing is not None else resolved.key
    if subdir is None:
        team_subdir = existing.team.subdir if existing and existing.team else key
        private_subdir = existing.private.subdir if existing and existing.private else key
    else:
        team_subdir = subdir
        # The private store holds every project of a person: it never uses its root.
        private_subdir = key if subdir == "." else subdir
        if subdir == "." and team is None:
            raise UsageError(
                "--subdir . names the root of a team repository, but no team store is set",
                hint="Add --team URL, or give a folder name.",
            )
    if subdir is not None and existing is not None:  # following a move of one store only?
        urls: dict[Scope, str] = {"private": private.url, **({"team": team.url} if team else {})}
        wanted: dict[Scope, str] = {"private": private_subdir, "team": team_subdir}
        chosen, notes = following_move(existing, urls, wanted)
        private_subdir, team_subdir, warnings = chosen["private"], chosen["team"], warnings + notes
    project = ProjectConfig(
        root=str(location.root),
        key=key,
        private=ConfigBinding(private.name, private_subdir),
        team=ConfigBinding(team.name, team_subdir) if team is not None else None,
        identity=resolved.identity,
    )
    config = config.with_project(project)
    location = ProjectLocation(location.root, location.memory_dir, location.origin_url, key)
    adopt = subdir is None and existing is None
    return InitPlan(location, config, private, team, create, warnings, adopt)


def _by_name(project: ProjectConfig) -> bool:
    """Whether PROJECT was bound by its directory name alone (no origin, no commit yet)."""
    identity = project.identity
    return identity is not None and not (identity.origin or identity.root_commit)


def probe_remote(url: str, cwd: Path, timeout: float | None) -> str | None:
    """Check that URL is a reachable git repository; its default branch (None when empty).

    Nothing is written: `init` calls this before it changes any configuration.
    """
    from memsync.errors import RemoteUnavailableError

    result = git.ls_remote_head(cwd, url, timeout, check=False)
    if not result.ok:
        said = " / ".join(line for line in result.stderr.strip().splitlines() if line)
        said = said or f"exit {result.returncode}"
        unreachable = git.error_for(result, cwd, network=True)
        missing = "does not appear to be a git repository" in said or "not found" in said.lower()
        if isinstance(unreachable, RemoteUnavailableError) and not missing:
            raise RemoteUnavailableError(
                f"cannot reach the store remote {url}: git said: {said}",
                hint="Nothing was changed. Check the URL and your network or credentials, "
                "then run `memsync init` again.",
            )
        raise UsageError(
            f"{url} is not a git repository memsync can use: git said: {said}",
            hint="Nothing was changed. Check the URL (a typo?) and run `memsync init` again.",
        )
    return git.default_branch_of(result)


@dataclass(frozen=True)
class InitResult:
    """What `init` set up and what its first sync did."""

    plan: InitPlan
    config_file: Path
    scaffolded: tuple[str, ...]
    reports: tuple[StoreReport, ...]
    warnings: tuple[str, ...] = ()


def scaffold_empty_team_store(binding: Binding, memsync_spec: str | None = None) -> tuple[str, ...]:
    """Commit the templates (and their record) into a fetched team store whose remote is empty."""
    import time

    from memsync.sync import store
    from memsync.sync.binding import hostname
    from memsync.sync.scaffoldrace import SCAFFOLD_SUBJECT
    from memsync.team.memsyncspec import default_spec, validate_spec
    from memsync.team.scaffold import RECORD, record_text, rendered_files

    repo = binding.clone_dir
    heads = store.heads(binding)
    if heads.local is not None or heads.remote is not None:
        return ()
    spec = validate_spec(memsync_spec or default_spec())
    rendered = rendered_files(spec)
    files: dict[str, bytes | None] = {
        path.as_posix(): text.encode("utf-8") for path, text in rendered.items()
    }
    files[RECORD.as_posix()] = record_text(spec, rendered).encode("utf-8")
    commit = git.write_commit(
        repo,
        parents=[],
        changes=files,
        message=SCAFFOLD_SUBJECT + "\n",  # sync/scaffoldrace finds it by this
        author=git.identity(repo, hostname()),
        when=int(time.time()),
    )
    git.update_branch(repo, heads.branch, commit, None, "memsync: scaffold")
    return tuple(sorted(files))


def run_init(
    project_dir: Path,
    *,
    private_url: str | None,
    team_url: str | None,
    subdir: str | None,
    memsync_spec: str | None = None,
) -> InitResult:
    """Check the remotes, clone, check the folders, then configure and sync.

    The configuration is written only once every remote answered and every project
    folder is free or already this project's: a failure changes nothing.
    """
    from memsync.sync.binding import make_binding
    from memsync.sync.deadline import Deadline
    from memsync.sync.engine import run_stores
    from memsync.sync.scaffoldrace import LOST

    plan = plan_init(project_dir, private_url=private_url, team_url=team_url, subdir=subdir)
    project = plan.config.projects[str(plan.location.root)]
    stores = [plan.private] + ([plan.team] if plan.team else [])
    for entry in stores:
        if entry.url != str(plan.create_local_remote):
            probe_remote(entry.url, plan.location.root, git.DEFAULT_TIMEOUT)
    if plan.create_local_remote is not None:
        git.create_bare_remote(plan.create_local_remote)
    bindings = []
    for entry in stores:
        scope = entry.scope
        folder = project.binding(scope)
        assert folder is not None
        bindings.append(make_binding(plan.location, scope, entry, folder.subdir, project.identity))
    scaffolded: tuple[str, ...] = ()
    for n, binding in enumerate(bindings):
        with _locked(binding, plan):
            bindings[n], done = _prepare(binding, memsync_spec, adopt=plan.adopt)
            scaffolded = done or scaffolded
    plan = _with_folders(plan, bindings)
    config_file = save_config(plan.config)
    for binding in bindings:
        binding.live_dir.mkdir(parents=True, exist_ok=True)
        with _locked(binding, plan):
            record_identity(binding)
    reports = run_stores(bindings, plan.config.settings, Deadline(), "push")
    if any(LOST in note for report in reports for note in report.notes):
        scaffolded = ()  # another init's scaffold got there first, and is the one kept
    spec_warnings = _spec_warnings(memsync_spec, scaffolded, team=plan.team is not None)
    return InitResult(plan, config_file, scaffolded, tuple(reports), plan.warnings + spec_warnings)


def _locked(binding: Binding, plan: InitPlan) -> contextlib.AbstractContextManager[object]:
    from memsync.sync.lock import store_lock

    timeout = plan.config.settings.lock_timeout
    return store_lock(binding.lock_path, timeout=timeout, command="init", store=binding.label)


def _prepare(
    binding: Binding, memsync_spec: str | None, *, adopt: bool
) -> tuple[Binding, tuple[str, ...]]:
    """Clone and fetch the store, scaffold an empty team store, find the project's folder
    (with ADOPT) and refuse a foreign one; the binding to use and what was scaffolded."""
    from dataclasses import replace

    from memsync.sync import store
    from memsync.sync.identity import check_folder, check_root, own_folder
    from memsync.sync.manifest import binding_manifest
    from memsync.sync.migrate import catch_up

    store.ensure_clone(binding)
    store.check_state(binding)
    store.adopt_remote_branch(binding, git.DEFAULT_TIMEOUT)
    git.fetch(binding.clone_dir, git.DEFAULT_TIMEOUT)
    heads = store.heads(binding)
    if heads.local is None and heads.remote is not None:
        # Start from the store's history: live memories become commits on top of it.
        git.update_branch(binding.clone_dir, heads.branch, heads.remote, None, "memsync: clone")
    elif binding_manifest(binding)[0].previous is not None:
        # A new folder for this live directory: its newest version, before the identity
        # record is committed there, is the base of the live edits (sync.migrate).
        catch_up(binding)
    team = binding.scope == "team"
    if not team and heads.remote is not None:
        _refuse_a_team_repository(binding, heads.remote)
    scaffolded = scaffold_empty_team_store(binding, memsync_spec) if team else ()
    commits = [c for c in dict.fromkeys((store.heads(binding).local, heads.remote)) if c]
    if adopt and commits:
        # The same history keyed otherwise elsewhere (before it had an origin): one project.
        found = own_folder(binding, commits[-1])
        binding = replace(binding, subdir=found, project_key=found) if found else binding
    for commit in commits:
        check_root(binding, commit)
        check_folder(binding, store.store_files(binding, commit))
    return binding, scaffolded


def _refuse_a_team_repository(binding: Binding, commit: str) -> None:
    """Refuse a private store whose repository carries a team's scaffold: a team's."""
    from memsync.team.scaffold import RECORD

    if git.list_tree(binding.clone_dir, commit, paths=[RECORD.as_posix()]):
        raise UsageError(
            f"{binding.store.url} is a team's memory repository (it holds {RECORD.as_posix()})",
            hint="Private memories (`type: user` ones, secrets a private store only warns "
            "about) would reach the team: give --private a repository of your own, and "
            "this one as --team.",
        )


def _with_folders(plan: InitPlan, bindings: list[Binding]) -> InitPlan:
    """PLAN with the folders `_prepare` settled on; the key follows the private folder."""
    from dataclasses import replace

    project = plan.config.projects[str(plan.location.root)]
    for binding in bindings:
        folder = ConfigBinding(binding.store.name, binding.subdir)
        if binding.scope == "private":
            project = replace(project, private=folder, key=binding.prefix or project.key)
        else:
            project = replace(project, team=folder)
    location = replace(plan.location, key=project.key)
    return replace(plan, config=plan.config.with_project(project), location=location)


def record_identity(binding: Binding) -> None:
    """Commit the project's identity file into its folder when the folder lacks one."""
    from memsync.sync import store
    from memsync.sync.binding import hostname
    from memsync.sync.identity import IDENTITY_FILE, FolderRecord, format_record

    if binding.identity is None:
        return
    heads = store.heads(binding)
    if IDENTITY_FILE in store.store_files(binding, heads.local):
        return
    commit = store.commit_files(
        binding,
        parent=heads.local,
        changes={IDENTITY_FILE: format_record(FolderRecord(binding.identity))},
        message=f"memsync({binding.project_key}): record the project's identity\n",
        author=git.identity(binding.clone_dir, hostname()),
    )
    git.update_branch(binding.clone_dir, heads.branch, commit, heads.local, "memsync: identity")


def _spec_warnings(spec: str | None, scaffolded: tuple[str, ...], *, team: bool) -> tuple[str, ...]:
    """Whether the spec a new team repository's workflows install resolves (or was unused)."""
    from memsync.team.memsyncspec import check_spec, default_spec

    if scaffolded:
        warning = check_spec(spec or default_spec())
        return (warning,) if warning else ()
    if spec and team:
        return (
            "--memsync-spec applies when init scaffolds an empty team repository; this one "
            "has commits: run `memsync scaffold --update --memsync-spec SPEC` in a clone of it",
        )
    return ()
