"""`memsync init`: configure a project's stores, clone them, import local memories."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memsync import git as gitcmd
from memsync.config import Binding as ConfigBinding
from memsync.config import Config, ProjectConfig, StoreConfig, data_dir, load_config, save_config
from memsync.errors import UsageError
from memsync.model.paths import ProjectLocation, key_from_url, locate_project

if TYPE_CHECKING:
    from memsync.sync.binding import Binding
    from memsync.sync.engine import StoreReport

PRIVATE_STORE = "private"


@dataclass(frozen=True)
class InitPlan:
    """The configuration `init` settles on, before anything is cloned."""

    location: ProjectLocation
    config: Config
    private: StoreConfig
    team: StoreConfig | None
    created_local_remote: Path | None


def default_private_remote() -> Path:
    """The embedded default remote: a bare repository in memsync's data dir."""
    return data_dir() / "remotes" / "private.git"


def _team_store_name(url: str) -> str:
    key = key_from_url(url) or hashlib.sha256(url.encode()).hexdigest()[:8]
    return f"team-{key}"


def _normalize_url(url: str) -> str:
    """Local paths become absolute so every later run finds the same remote."""
    if "://" in url or (":" in url.split("/", maxsplit=1)[0] and not Path(url).exists()):
        return url
    return str(Path(url).expanduser().resolve())


def plan_init(
    project_dir: Path,
    *,
    private_url: str | None,
    team_url: str | None,
    subdir: str | None,
) -> InitPlan:
    """Decide stores and bindings for the project, keeping what an earlier init set."""
    location = locate_project(project_dir)
    config = load_config()
    existing = config.projects.get(str(location.root))
    if subdir is not None:
        _check_subdir(subdir)

    created: Path | None = None
    current_private = config.stores.get(PRIVATE_STORE)
    if private_url:
        private = StoreConfig(PRIVATE_STORE, "private", _normalize_url(private_url))
    elif current_private is not None:
        private = current_private
    else:
        remote = default_private_remote()
        if not (remote / "HEAD").is_file():
            gitcmd.create_bare_remote(remote)
            created = remote
        private = StoreConfig(PRIVATE_STORE, "private", str(remote))
    config = config.with_store(private)

    team: StoreConfig | None = None
    if team_url:
        url = _normalize_url(team_url)
        team = StoreConfig(_team_store_name(url), "team", url)
        config = config.with_store(team)
    elif existing is not None and existing.team is not None:
        team = config.stores.get(existing.team.store)

    key = existing.key if existing is not None else location.key
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
    project = ProjectConfig(
        root=str(location.root),
        key=key,
        private=ConfigBinding(private.name, private_subdir),
        team=ConfigBinding(team.name, team_subdir) if team is not None else None,
    )
    config = config.with_project(project)
    location = ProjectLocation(location.root, location.memory_dir, location.origin_url, key)
    return InitPlan(location, config, private, team, created)


def _check_subdir(subdir: str) -> None:
    from memsync.model.safety import unsafe_path_reason

    if subdir == ".":
        return
    reason = unsafe_path_reason(subdir)
    if reason is not None or subdir.startswith(".") or subdir in ("team", "archive"):
        raise UsageError(
            f"--subdir {subdir!r} cannot name a folder of a store ({reason or 'reserved name'})",
            hint="Use a plain folder name such as `acme-api`, or `.` for a dedicated team repo.",
        )


def save_plan(plan: InitPlan) -> Path:
    """Write the planned configuration."""
    return save_config(plan.config)


@dataclass(frozen=True)
class InitResult:
    """What `init` set up and what its first sync did."""

    plan: InitPlan
    config_file: Path
    scaffolded: tuple[str, ...]
    reports: tuple[StoreReport, ...]
    warnings: tuple[str, ...] = ()


def scaffold_empty_team_store(
    binding: Binding, timeout: float | None, memsync_spec: str | None = None
) -> tuple[str, ...]:
    """Commit the templates (and their record) into a team store whose remote is empty."""
    import time

    from memsync.sync import store
    from memsync.sync.binding import hostname
    from memsync.team.memsyncspec import default_spec, validate_spec
    from memsync.team.scaffold import RECORD, record_text, rendered_files

    repo = binding.clone_dir
    gitcmd.fetch(repo, timeout)
    heads = store.heads(binding)
    if heads.local is not None or heads.remote is not None:
        return ()
    spec = validate_spec(memsync_spec or default_spec())
    rendered = rendered_files(spec)
    files: dict[str, bytes | None] = {
        path.as_posix(): text.encode("utf-8") for path, text in rendered.items()
    }
    files[RECORD.as_posix()] = record_text(spec, rendered).encode("utf-8")
    commit = gitcmd.write_commit(
        repo,
        parents=[],
        changes=files,
        message="memsync: scaffold the team memory repository\n",
        author=gitcmd.identity(repo, hostname()),
        when=int(time.time()),
    )
    gitcmd.update_branch(repo, heads.branch, commit, None, "memsync: scaffold")
    return tuple(sorted(files))


def run_init(
    project_dir: Path,
    *,
    private_url: str | None,
    team_url: str | None,
    subdir: str | None,
    memsync_spec: str | None = None,
) -> InitResult:
    """Configure, clone, scaffold an empty team store, then sync (local memories kept)."""
    from memsync.sync import store
    from memsync.sync.binding import resolve_bindings
    from memsync.sync.deadline import Deadline
    from memsync.sync.engine import run_stores
    from memsync.sync.lock import store_lock

    plan = plan_init(project_dir, private_url=private_url, team_url=team_url, subdir=subdir)
    config_file = save_plan(plan)
    _, bindings = resolve_bindings(plan.config, plan.location.root, ("private", "team"))
    scaffolded: tuple[str, ...] = ()
    for binding in bindings:
        binding.live_dir.mkdir(parents=True, exist_ok=True)
        with store_lock(
            binding.lock_path,
            timeout=plan.config.settings.lock_timeout,
            command="init",
            store=binding.label,
        ):
            store.ensure_clone(binding)
            store.check_state(binding)
            store.adopt_remote_branch(binding, gitcmd.DEFAULT_TIMEOUT)
            if binding.scope == "team":
                scaffolded = scaffold_empty_team_store(
                    binding, gitcmd.DEFAULT_TIMEOUT, memsync_spec
                )
    reports = run_stores(bindings, plan.config.settings, Deadline(), "push")
    return InitResult(
        plan,
        config_file,
        scaffolded,
        tuple(reports),
        _spec_warnings(memsync_spec, scaffolded, team=any(b.scope == "team" for b in bindings)),
    )


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
