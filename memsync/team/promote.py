"""`memsync promote FILE`: move a private memory into the team store."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from memsync.config import Settings, load_config
from memsync.errors import UsageError, UserMessageError
from memsync.fsutil.atomic import atomic_write
from memsync.model.index import IndexLine, format_entry, parse_index, parse_index_text, render_index
from memsync.model.limits import INDEX_NAME
from memsync.model.memory import parse_memory
from memsync.sync.binding import Binding, resolve_bindings
from memsync.sync.deadline import Deadline
from memsync.sync.engine import run_stores
from memsync.sync.report import StoreReport

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.check.findings import Finding

Saved = dict[Path, bytes | None]


@dataclass(frozen=True)
class PromoteResult:
    """Where the memory went and what the follow-up push did."""

    source: Path
    target: Path
    reports: tuple[StoreReport, ...]


def _relative_memory_path(file: str, private: Binding) -> str:
    candidate = Path(file)
    if candidate.is_absolute() or candidate.exists():
        resolved = candidate.resolve()
        try:
            return resolved.relative_to(private.live_dir.resolve()).as_posix()
        except ValueError:
            raise UsageError(
                f"{file} is not in this project's private memory directory {private.live_dir}"
            ) from None
    return candidate.as_posix()


def _refuse_unsafe(relpath: str, data: bytes, settings: Settings, line: str | None) -> None:
    """Refuse, before anything moves, what the team store's push would hold back: the memory,
    and what goes with it, its name and its private index LINE (the team index's push would
    hold a secret there back, and every later edit of that index with it)."""
    from memsync.check.secrets import scan_text
    from memsync.check.validate import validate_edit

    for what, text in (("file name", relpath), ("line in the private MEMORY.md", line or "")):
        hits = scan_text(text)
        if hits:
            raise UserMessageError(
                f"{relpath} cannot go to the team store, nothing was moved: its {what} holds "
                f"a possible secret ({hits[0].rule_id})",
                hint=f"Remove the secret from its {what}, then run `memsync promote` again.",
            )
    errors, _ = validate_edit(relpath, data, "team", settings)
    if not errors:
        return
    found = "; ".join(f"line {f.line}: {f.message} [{f.rule}]" for f in errors)
    fixes = dict.fromkeys(_promote_fix(f, relpath) for f in errors)
    raise UserMessageError(
        f"{relpath} cannot go to the team store, nothing was moved: {found}",
        hint="\n".join(fixes),
    )


def _promote_fix(finding: Finding, relpath: str) -> str:
    """The fix of a finding that keeps RELPATH out of the team store, for `promote`."""
    from memsync.sync.outcome import fix_for

    if finding.rule == "user-in-team":
        # The rule's own fix, "move the file to your private memory", is for a file already
        # in the team folder: a promoted one is still private, where it belongs.
        return (
            "`type: user` memories describe one person and stay in your private memory; if "
            f"this one is about the project, change its type, then run `memsync promote {relpath}`."
        )
    return fix_for(finding, "memsync promote " + relpath)


def _refuse_team_name(relpath: str, team: Binding) -> None:
    """Refuse, before anything moves, a name the team store's push would skip: a case (or
    Unicode normalization) twin of a team memory, or a repository file at the root of a
    `--subdir .` store (SPEC section 2)."""
    from memsync.fsutil.scan import scan_directory
    from memsync.model.safety import fold_key, is_memory_file

    if not is_memory_file(relpath, "team", repository_root=not team.prefix):
        raise UserMessageError(
            f"{relpath} cannot go to the team store, nothing was moved: the team store is a "
            f"repository's root (`--subdir .`), where {relpath} is the repository's own file",
            hint=f"Rename your file first (e.g. notes-{relpath}), then run `memsync promote`.",
        )
    scan = scan_directory(team.live_dir, "team", repository_root=not team.prefix)
    names = set(scan.files) | {skipped.path for skipped in scan.skipped}
    key = fold_key(relpath)
    twin = next((n for n in sorted(names) if n != relpath and fold_key(n) == key), None)
    if twin is not None:
        raise UserMessageError(
            f"{relpath} cannot go to the team store, nothing was moved: its name differs only "
            f"by case (or Unicode normalization) from the team memory {twin}, and the team "
            "store keeps only one of such names",
            hint=f"Rename your file first, or merge it into the team's {twin} by hand.",
        )


def _private_line(private: Binding, relpath: str) -> str | None:
    """The private index's line for RELPATH, if it has one."""
    source_index = private.live_dir / INDEX_NAME
    if not source_index.is_file():
        return None
    index = parse_index(source_index.read_bytes())
    return next((ln.text for ln in index.lines if ln.entry and ln.entry.target == relpath), None)


def _move_index_entry(private: Binding, team: Binding, relpath: str) -> None:
    """Drop the memory's line from the private index and add it to the team index."""
    source_index = private.live_dir / INDEX_NAME
    entry_line: str | None = None
    if source_index.is_file():
        index = parse_index(source_index.read_bytes())
        kept = [line for line in index.lines if not (line.entry and line.entry.target == relpath)]
        moved = [line for line in index.lines if line.entry and line.entry.target == relpath]
        if moved:
            entry_line = moved[0].text
            atomic_write(source_index, render_index(index.with_lines(kept)))
    memory = parse_memory((team.live_dir / relpath).read_bytes(), relpath)
    line = entry_line or format_entry(
        memory.name or Path(relpath).stem, relpath, memory.description
    )
    target_index = team.live_dir / INDEX_NAME
    team_index = (
        parse_index(target_index.read_bytes()) if target_index.is_file() else parse_index_text("")
    )
    if relpath in team_index.targets:
        return
    lines = [entry for entry in team_index.lines if entry.text.strip() or entry.entry]
    lines.append(IndexLine(line, parse_index_text(line + "\n").lines[0].entry))
    atomic_write(target_index, render_index(team_index.with_lines(lines)))


def promote(project_dir: Path, file: str) -> PromoteResult:
    """Move FILE from private to team memory, then push both stores."""
    config = load_config()
    _, bindings = resolve_bindings(config, project_dir, ("private", "team"))
    by_scope = {b.scope: b for b in bindings}
    if "team" not in by_scope:
        raise UsageError(
            "this project has no team store", hint="Run `memsync init --team URL` first."
        )
    private, team = by_scope["private"], by_scope["team"]
    relpath = _relative_memory_path(file, private)
    source = private.live_dir / relpath
    if not source.is_file() or relpath.split("/")[0] == "team" or source.name == INDEX_NAME:
        raise UsageError(f"{source} is not a private memory file")
    from memsync.fsutil.reads import (
        NEVER_THROUGH_LINKS,
        linked_part,
        read_regular,
        read_regular_or_none,
    )

    # Both indexes are read and rewritten, the memory written into team/: never through a link.
    home = team.live_dir.parent
    for root, rel in (
        (private.live_dir, INDEX_NAME),
        (home, f"{team.live_dir.name}/{INDEX_NAME}"),
        (home, f"{team.live_dir.name}/{relpath}"),
    ):
        if (part := linked_part(root, rel)) is not None:
            raise UserMessageError(
                f"{root / part} is a symlink; {NEVER_THROUGH_LINKS}, nothing was moved",
                hint=f"Replace {root / part} by a regular file or folder, then rerun.",
            )
    _refuse_unusable_indexes(private, team)
    try:
        data = read_regular(source)  # never through a symlink (SPEC section 2), never a FIFO
    except OSError as exc:
        raise UsageError(f"{source} is not a regular private memory file: {exc}") from exc
    _refuse_unsafe(relpath, data, config.settings, _private_line(private, relpath))
    _refuse_team_name(relpath, team)
    target = team.live_dir / relpath
    if target.exists() and read_regular_or_none(target) != data:
        raise UserMessageError(
            f"the team memory already has a different {relpath}",
            hint="Rename your file first, or merge the two by hand.",
        )
    saved = {path: _read_or_none(path) for path in (target, *_indexes(private, team))}
    # Promote only moves the memory: the file keeps the time it was written, which is the
    # team commit's author date and what consolidation counts its relative dates from.
    written = source.lstat().st_mtime_ns
    atomic_write(target, data, mtime_ns=written)
    source.unlink()
    _move_index_entry(private, team, relpath)
    # The team store first: the private copy goes only once the team push has taken the file.
    [team_report] = run_stores([team], config.settings, Deadline(), "push")
    if relpath not in team_report.sent and saved[target] != data:
        refused = [s.reason for s in team_report.skipped if s.path == relpath]
        refused += [f.message for f in team_report.blocked if f.path == relpath]
        refused += [r for r in (team_report.offline, team_report.error) if r]
        _move_back(private, team, relpath, (data, written), saved)
        why = refused[0] if refused else "it is not on the team remote"
        raise UserMessageError(
            f"{relpath} cannot go to the team store, it was moved back to {source}: "
            f"the team push did not take it ({why})",
            hint="Fix or rename the file as the reason says, then run `memsync promote` again.",
        )
    [private_report] = run_stores([private], config.settings, Deadline(), "push")
    return PromoteResult(source, target, (private_report, team_report))


def _refuse_unusable_indexes(private: Binding, team: Binding) -> None:
    """Both indexes are read and rewritten: a folder or FIFO there would crash or hang the
    read, and one not UTF-8 would lose every byte it cannot decode."""
    import stat

    from memsync.fsutil.reads import read_regular_or_none
    from memsync.model.safety import encoding_reason

    for index in _indexes(private, team):
        with contextlib.suppress(FileNotFoundError):
            mode = index.lstat().st_mode
            if not stat.S_ISREG(mode):
                kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
                raise UserMessageError(
                    f"{index} is {kind} where promote keeps an index, nothing was moved",
                    hint=f"Rename or move {index}, then run `memsync promote` again.",
                )
        why = encoding_reason(read_regular_or_none(index) or b"")
        if why is not None:
            raise UserMessageError(
                f"{index} is {why}, nothing was moved: memsync never syncs it",
                hint="Save it as UTF-8, then run `memsync promote` again.",
            )


def _move_back(
    private: Binding, team: Binding, relpath: str, memory: tuple[bytes, int], saved: Saved
) -> None:
    """Undo the move: the private MEMORY (content, time) and its index as they were, the team
    file and its index line gone again (the team index keeps what the team push pulled in)."""
    atomic_write(private.live_dir / relpath, memory[0], mtime_ns=memory[1])
    private_index, team_index = _indexes(private, team)
    private_before = saved[private_index]
    if private_before is not None:
        atomic_write(private_index, private_before)
    if saved[team.live_dir / relpath] is None:
        (team.live_dir / relpath).unlink(missing_ok=True)
    before = saved[team_index]
    if team_index.is_file() and (before is None or relpath not in parse_index(before).targets):
        index = parse_index(team_index.read_bytes())
        kept = [line for line in index.lines if not (line.entry and line.entry.target == relpath)]
        atomic_write(team_index, render_index(index.with_lines(kept)))


def _indexes(private: Binding, team: Binding) -> tuple[Path, Path]:
    return private.live_dir / INDEX_NAME, team.live_dir / INDEX_NAME


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
