"""Install, remove and inspect memsync's Claude Code hooks in a settings.json file.

The functions that compute a change are pure (text in, text out); only `read_settings`
and `apply` touch the disk. A settings file memsync cannot parse is never rewritten, and
one it can is edited as text (team/jsonedit): only memsync's own entries change.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from memsync.errors import UserMessageError
from memsync.fsutil.atomic import atomic_write
from memsync.fsutil.reads import read_regular
from memsync.model.paths import claude_config_dir
from memsync.team.hookcommand import (
    HookSpec,
    cap_warnings,
    configured_hook_specs,
    hook_command,
    hook_specs,
    memsync_command_prefix,
    own_command,
    timeout_fits,
)

# The hooks for the default time limits (15 s and 30 s); the config's limits may ask more.
HOOK_SPECS: tuple[HookSpec, ...] = hook_specs()


class HookState(str, Enum):
    """Whether memsync's hook for one event is present and current."""

    INSTALLED = "installed"
    MISSING = "missing"
    OUTDATED = "outdated"


@dataclass(frozen=True)
class HookChange:
    """The planned new content of a settings file; `apply` writes it."""

    settings_path: Path
    before: str
    after: str
    existed: bool

    @property
    def changed(self) -> bool:
        """True when applying would modify the file."""
        return self.before != self.after

    def diff(self) -> str:
        """Unified diff from the current file to the planned one ("" when unchanged)."""
        if not self.changed:
            return ""
        lines = difflib.unified_diff(
            self.before.splitlines(keepends=True),
            self.after.splitlines(keepends=True),
            fromfile=str(self.settings_path) if self.existed else "/dev/null",
            tofile=str(self.settings_path),
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


# --- locations ---------------------------------------------------------------------------


def user_settings_path() -> Path:
    """Claude Code's user-scope settings file."""
    return claude_config_dir() / "settings.json"


def project_settings_path(project_root: Path) -> Path:
    """Claude Code's per-project, not-committed settings file."""
    return project_root / ".claude" / "settings.local.json"


# --- pure transformations ----------------------------------------------------------------


def parse_settings(text: str, path: Path) -> dict[str, Any]:
    """Parse settings text; an empty file is an empty object, anything else must be one."""
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserMessageError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "memsync left it untouched.",
            hint="Fix the file by hand, then run the command again.",
        ) from exc
    except RecursionError as exc:  # `[[[[…` thousands deep: no settings Claude Code reads
        raise UserMessageError(
            f"{path}: not valid JSON (nested too deeply); memsync left it untouched.",
            hint="Fix the file by hand, then run the command again.",
        ) from exc
    if not isinstance(data, dict):
        raise UserMessageError(
            f"{path}: the top level is not a JSON object; memsync left it untouched."
        )
    return data


def _owned_by(entry: object, spec: HookSpec | None) -> bool:
    """True when one inner hook entry is memsync's (for `spec`'s command, or any)."""
    if not isinstance(entry, dict):
        return False
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    # By its program, wherever memsync lives: a re-install after the executable moved
    # updates the old entry instead of adding a second one.
    own = own_command(command)
    return own is not None and (spec is None or own.subcommand == spec.subcommand)


def _current_command(entry: dict[str, Any], command_prefix: str) -> str:
    """An owned entry's command with memsync's program as it is now, the person's flags kept."""
    own = own_command(entry["command"])
    assert own is not None  # only called for entries _owned_by accepted
    return own.with_prefix(command_prefix)


def _event_groups(hooks: dict[str, Any], event: str, path: Path) -> list[Any]:
    groups = hooks.get(event, [])
    if not isinstance(groups, list):
        raise UserMessageError(
            f"{path}: hooks.{event} is not a list; memsync left the file untouched."
        )
    return groups


def _hooks_table(data: dict[str, Any], path: Path) -> dict[str, Any]:
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise UserMessageError(
            f'{path}: the "hooks" setting is not an object; memsync left the file untouched.'
        )
    return hooks


def _drop_owned(groups: list[Any], spec: HookSpec | None) -> list[Any]:
    """Groups with memsync's entries removed; a group emptied by that removal goes too."""
    kept: list[Any] = []
    for group in groups:
        inner = group.get("hooks") if isinstance(group, dict) else None
        if not isinstance(inner, list) or not any(_owned_by(e, spec) for e in inner):
            kept.append(group)
            continue
        rest = [e for e in inner if not _owned_by(e, spec)]
        if rest:
            kept.append({**group, "hooks": rest})
    return kept


def _with_hook(groups: list[Any], spec: HookSpec, command_prefix: str) -> list[Any]:
    """Groups holding exactly one memsync entry for `spec`, updated in place when present."""
    for gi, group in enumerate(groups):
        inner = group.get("hooks") if isinstance(group, dict) else None
        if not isinstance(inner, list):
            continue
        for hi, entry in enumerate(inner):
            if _owned_by(entry, spec):
                # Keep the user's own tweaks (`--review`, a longer timeout); fix the type,
                # the program and a timeout too short for the configured limit.
                command = _current_command(entry, command_prefix)
                updated = {**entry, "type": "command", "command": command}
                if not timeout_fits(entry, spec):
                    updated["timeout"] = spec.timeout
                new_inner = [*inner[:hi], updated, *inner[hi + 1 :]]
                new_group = {**group, "hooks": new_inner}
                # Later duplicates (an old path, say) go; this one stays where it was.
                tail = _drop_owned(groups[gi + 1 :], spec)
                return [*groups[:gi], new_group, *tail]
    fresh: dict[str, Any] = {}
    if spec.matcher is not None:
        fresh["matcher"] = spec.matcher
    command = hook_command(spec, command_prefix)
    fresh["hooks"] = [{"type": "command", "command": command, "timeout": spec.timeout}]
    return [*groups, fresh]


def install_text(
    text: str, path: Path, command_prefix: str, specs: tuple[HookSpec, ...] = HOOK_SPECS
) -> str:
    """Settings text with memsync's hooks added or updated; unchanged text when current."""
    data = parse_settings(text, path)
    hooks = dict(_hooks_table(data, path))
    for spec in specs:
        groups = _event_groups(hooks, spec.event, path)
        hooks[spec.event] = _with_hook(groups, spec, command_prefix)
    return _rendered_if_changed(text, data, {**data, "hooks": hooks})


def uninstall_text(text: str, path: Path) -> str:
    """Settings text without any memsync hook; unchanged text when there was none."""
    data = parse_settings(text, path)
    if "hooks" not in data:
        return text
    hooks = dict(_hooks_table(data, path))
    for event in list(hooks):
        groups = _event_groups(hooks, event, path)
        kept = _drop_owned(groups, None)
        if kept != groups:
            if kept:
                hooks[event] = kept
            else:
                del hooks[event]
    new = dict(data)
    if hooks:
        new["hooks"] = hooks
    elif data["hooks"]:
        # The table only held memsync's hooks: leave no empty husk behind.
        del new["hooks"]
    return _rendered_if_changed(text, data, new)


def _rendered_if_changed(text: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    # An unchanged document keeps its exact bytes, whatever its formatting.
    if new == old and text.strip():
        return text
    from memsync.team.jsonedit import detect_indent, edit_json, render_json

    if not text.strip():
        return render_json(new, 2)
    # A textual edit: the person's formatting, key order and spacing stay as they were.
    return edit_json(text, old, new, detect_indent(text))


def status_of(
    text: str, path: Path, command_prefix: str, specs: tuple[HookSpec, ...] = HOOK_SPECS
) -> dict[str, HookState]:
    """Per event: memsync's hook installed as expected, missing, or outdated."""
    data = parse_settings(text, path)
    hooks = _hooks_table(data, path)
    result: dict[str, HookState] = {}
    for spec in specs:
        owned = [
            entry
            for group in _event_groups(hooks, spec.event, path)
            if isinstance(group, dict) and isinstance(group.get("hooks"), list)
            for entry in group["hooks"]
            if _owned_by(entry, spec)
        ]
        if not owned:
            result[spec.event] = HookState.MISSING
        elif (
            len(owned) == 1
            and owned[0]["command"] == _current_command(owned[0], command_prefix)
            and timeout_fits(owned[0], spec)
        ):
            result[spec.event] = HookState.INSTALLED
        else:
            result[spec.event] = HookState.OUTDATED
    return result


# --- file I/O ----------------------------------------------------------------------------


def read_settings(settings_path: Path) -> tuple[str, bool]:
    """The file's text and whether it exists (a missing file reads as "")."""
    try:
        # Not read_text: a FIFO in its place would hang `hooks install` for good.
        return read_regular(settings_path, follow=True, limit=1 << 24).decode("utf-8"), True
    except FileNotFoundError:
        return "", False
    except UnicodeDecodeError as exc:
        raise UserMessageError(
            f"{settings_path}: not UTF-8 text; memsync left it untouched."
        ) from exc
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UserMessageError(
            f"cannot read {settings_path}: {reason}; memsync left it untouched."
        ) from exc


def plan_install(
    settings_path: Path,
    command_prefix: str | None = None,
    specs: tuple[HookSpec, ...] | None = None,
) -> HookChange:
    """What installing memsync's hooks (SPECS, else the config's) would do to `settings_path`."""
    before, existed = read_settings(settings_path)
    prefix = command_prefix if command_prefix is not None else memsync_command_prefix()
    after = install_text(before, settings_path, prefix, specs or configured_hook_specs())
    return HookChange(settings_path, before, after, existed)


def plan_uninstall(settings_path: Path) -> HookChange:
    """What removing memsync's hooks would do to `settings_path`."""
    before, existed = read_settings(settings_path)
    return HookChange(settings_path, before, uninstall_text(before, settings_path), existed)


def hook_status(
    settings_path: Path,
    command_prefix: str | None = None,
    specs: tuple[HookSpec, ...] | None = None,
) -> dict[str, HookState]:
    """Per event, the state of memsync's hook in `settings_path` (SPECS, else the config's)."""
    text, _ = read_settings(settings_path)
    prefix = command_prefix if command_prefix is not None else memsync_command_prefix()
    return status_of(text, settings_path, prefix, specs or configured_hook_specs())


def apply(change: HookChange) -> None:
    """Write a planned change atomically; refuse when the file changed since planning."""
    if not change.changed:
        return
    # Write through a symlink (dotfile managers link settings.json) instead of replacing it.
    target = change.settings_path.resolve() if change.settings_path.is_symlink() else None
    path = target or change.settings_path
    current, existed = read_settings(path)
    if current != change.before or existed != change.existed:
        raise UserMessageError(
            f"{change.settings_path}: changed while memsync was editing it; nothing written.",
            hint="Run the command again.",
        )
    atomic_write(path, change.after.encode("utf-8"), keep_mode=True)


@dataclass(frozen=True)
class InstallResult:
    """What `install_hooks` planned (and wrote unless a dry run), and what to warn about."""

    change: HookChange
    warnings: tuple[str, ...]


def project_settings_paths(project_root: Path) -> list[Path]:
    """Both project-scope settings files Claude Code reads (shared and local)."""
    claude = project_root / ".claude"
    return [claude / "settings.json", claude / "settings.local.json"]


def settings_file(scope: str, project: Path, settings: Path | None = None) -> Path:
    """The settings file a hooks command edits: SETTINGS, else the one SCOPE names."""
    from memsync.model.paths import project_root

    if settings is not None:
        return settings
    if scope == "project":
        return project_settings_path(project_root(project))
    return user_settings_path()


def other_scope_files(project: Path) -> list[Path]:
    """Every settings file Claude Code reads in PROJECT, where a second copy of the hooks
    would run too (scope_warnings skips the one being edited, whichever it is: a `--settings`
    file is one of them)."""
    from memsync.model.paths import project_root

    return [user_settings_path(), *project_settings_paths(project_root(project))]


def scope_warnings(settings_path: Path, others: list[Path]) -> tuple[str, ...]:
    """A warning per other settings file that already runs memsync's hooks."""
    warnings = []
    for other in others:
        if other.resolve() == settings_path.resolve():
            continue
        try:
            # Only "present at all" counts here: the default specs, no config needed.
            states = hook_status(other, command_prefix="", specs=HOOK_SPECS)
        except UserMessageError:
            continue  # unreadable there: `hooks status --settings` reports it
        if any(state is not HookState.MISSING for state in states.values()):
            warnings.append(
                f"{other} also runs memsync's hooks, so Claude Code would run each twice; "
                f"remove one copy with `memsync hooks uninstall --settings {other}`"
            )
    return tuple(warnings)


def install_hooks(
    settings_path: Path, *, others: list[Path], dry_run: bool = False
) -> InstallResult:
    """Install memsync's hooks in SETTINGS_PATH; warn about copies in OTHERS (other scopes)."""
    specs = configured_hook_specs()
    change = plan_install(settings_path, specs=specs)
    if not dry_run:
        apply(change)
    return InstallResult(change, cap_warnings(specs) + scope_warnings(settings_path, others))
