"""The git boundary: the only code that runs git.

Every call goes through `run.run_git`, which scrubs inherited `GIT_*` variables, sets
`GIT_TERMINAL_PROMPT=0`, applies timeouts and quotes git's own error. One parser per git
output. May import `memsync.model` and `memsync.errors`; never merge or anything above.
"""

from __future__ import annotations

from memsync.git.history import (
    BlameLine,
    LogEntry,
    TreeChanges,
    blame_lines,
    change_times,
    commit_time,
    decision_entries,
    log_entries,
    path_times,
    tree_changes,
)
from memsync.git.objects import (
    ZERO_SHA,
    Identity,
    ModeOid,
    TreeEntry,
    blob_sha,
    identity,
    list_tree,
    read_blobs,
    write_commit,
)
from memsync.git.refs import (
    ahead_behind,
    count_commits,
    merge_base,
    resolve_refs,
    symbolic_head,
    update_branch,
    update_ref,
)
from memsync.git.remote import (
    create_bare_remote,
    fetch,
    init_bare,
    maintain,
    push,
    push_ref,
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
    work_tree_changes,
)

__all__ = [
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
    "blame_lines",
    "blob_sha",
    "change_times",
    "commit_time",
    "config_value",
    "count_commits",
    "create_bare_remote",
    "decision_entries",
    "error_for",
    "fetch",
    "git_env",
    "identity",
    "init_bare",
    "is_repository",
    "list_tree",
    "log_entries",
    "maintain",
    "merge_base",
    "path_times",
    "push",
    "push_ref",
    "read_blobs",
    "remote_default_branch",
    "remote_ref_names",
    "resolve_refs",
    "run_git",
    "set_remote_url",
    "symbolic_head",
    "tree_changes",
    "update_branch",
    "update_ref",
    "work_tree_changes",
    "write_commit",
]
