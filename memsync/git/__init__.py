"""The git boundary: the only code that runs git.

Every call goes through `run.run_git`, which scrubs inherited `GIT_*` variables, sets
`GIT_TERMINAL_PROMPT=0`, applies timeouts and quotes git's own error. One parser per git
output. May import `memsync.model` and `memsync.errors`; never merge or anything above.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any

    from memsync.git.history import (
        BlameLine,
        LogEntry,
        TreeChanges,
        authored_time,
        blame_lines,
        change_times,
        commit_messages,
        commits_touching,
        decision_entries,
        deleted_paths,
        first_parent_commits,
        log_entries,
        path_times,
        root_commit,
        touched_paths,
        tree_changes,
        unpushed_blobs,
        unpushed_commits,
    )
    from memsync.git.ids import (
        ZERO_SHA,
        blob_sha,
    )
    from memsync.git.objects import (
        Identity,
        ModeOid,
        TreeEntry,
        blob_ids,
        identity,
        list_tree,
        object_kinds,
        read_blobs,
        write_blob,
        write_commit,
    )
    from memsync.git.refs import (
        ahead_behind,
        count_beyond,
        count_commits,
        delete_ref,
        is_ancestor,
        is_shallow,
        merge_base,
        refs_under,
        resolve_refs,
        review_refs,
        set_head,
        symbolic_head,
        update_branch,
        update_ref,
    )
    from memsync.git.remote import (
        ANSWERED,
        create_bare_remote,
        default_branch_of,
        fetch,
        init_bare,
        ls_remote_head,
        maintain,
        push,
        push_commit,
        remote_default_branch,
        remote_ref_names,
        set_remote_url,
    )
    from memsync.git.run import (
        DEFAULT_TIMEOUT,
        GitResult,
        config_value,
        error_for,
        git_env,
        is_repository,
        run_git,
    )
    from memsync.git.worktree import (
        merge_text,
        work_tree_changes,
    )

# Each name is imported from its module on first use (PEP 562): a session start that only
# fetches and reads refs does not pay for the history, object and work-tree parsers.
_WHERE: dict[str, str] = {
    "ANSWERED": "remote",
    "BlameLine": "history",
    "DEFAULT_TIMEOUT": "run",
    "GitResult": "run",
    "Identity": "objects",
    "LogEntry": "history",
    "ModeOid": "objects",
    "TreeChanges": "history",
    "TreeEntry": "objects",
    "ZERO_SHA": "ids",
    "ahead_behind": "refs",
    "blame_lines": "history",
    "blob_ids": "objects",
    "blob_sha": "ids",
    "change_times": "history",
    "commit_messages": "history",
    "commits_touching": "history",
    "authored_time": "history",
    "deleted_paths": "history",
    "config_value": "run",
    "count_beyond": "refs",
    "count_commits": "refs",
    "review_refs": "refs",
    "create_bare_remote": "remote",
    "decision_entries": "history",
    "default_branch_of": "remote",
    "delete_ref": "refs",
    "error_for": "run",
    "fetch": "remote",
    "first_parent_commits": "history",
    "git_env": "run",
    "identity": "objects",
    "init_bare": "remote",
    "is_repository": "run",
    "is_ancestor": "refs",
    "is_shallow": "refs",
    "list_tree": "objects",
    "log_entries": "history",
    "ls_remote_head": "remote",
    "maintain": "remote",
    "merge_base": "refs",
    "merge_text": "worktree",
    "object_kinds": "objects",
    "path_times": "history",
    "push": "remote",
    "push_commit": "remote",
    "read_blobs": "objects",
    "remote_default_branch": "remote",
    "remote_ref_names": "remote",
    "refs_under": "refs",
    "resolve_refs": "refs",
    "root_commit": "history",
    "run_git": "run",
    "set_head": "refs",
    "set_remote_url": "remote",
    "symbolic_head": "refs",
    "touched_paths": "history",
    "tree_changes": "history",
    "unpushed_blobs": "history",
    "unpushed_commits": "history",
    "update_branch": "refs",
    "update_ref": "refs",
    "work_tree_changes": "worktree",
    "write_blob": "objects",
    "write_commit": "objects",
}


def __getattr__(name: str) -> Any:
    """The public name NAME, imported from its module on first use."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'memsync.git' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"memsync.git.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "ANSWERED",
    "DEFAULT_TIMEOUT",
    "ZERO_SHA",
    "BlameLine",
    "GitResult",
    "Identity",
    "LogEntry",
    "ModeOid",
    "TreeChanges",
    "TreeEntry",
    "ahead_behind",
    "authored_time",
    "blame_lines",
    "blob_ids",
    "blob_sha",
    "change_times",
    "commit_messages",
    "commits_touching",
    "config_value",
    "count_beyond",
    "count_commits",
    "create_bare_remote",
    "decision_entries",
    "default_branch_of",
    "delete_ref",
    "deleted_paths",
    "error_for",
    "fetch",
    "first_parent_commits",
    "git_env",
    "identity",
    "init_bare",
    "is_ancestor",
    "is_repository",
    "is_shallow",
    "list_tree",
    "log_entries",
    "ls_remote_head",
    "maintain",
    "merge_base",
    "merge_text",
    "object_kinds",
    "path_times",
    "push",
    "push_commit",
    "read_blobs",
    "refs_under",
    "remote_default_branch",
    "remote_ref_names",
    "resolve_refs",
    "review_refs",
    "root_commit",
    "run_git",
    "set_head",
    "set_remote_url",
    "symbolic_head",
    "touched_paths",
    "tree_changes",
    "unpushed_blobs",
    "unpushed_commits",
    "update_branch",
    "update_ref",
    "work_tree_changes",
    "write_blob",
    "write_commit",
]
