"""Two `init --team` at once on one empty team repository: the one that pushes second drops
its scaffold.

Each init saw the repository empty and committed the scaffold (workflows, pre-commit
config, README, `.memsync/scaffold.json`) as a root commit of its own. Merged as memories
are, two unrelated histories interleave both versions of every scaffold file: workflows with
two `run:` keys, a record that is no JSON, all reported as "kept both" and exit 0. SPEC §4's
keep-both is for memories; a scaffold is one team's, and the first one pushed is it.

So when the remote, empty when this clone last looked, now holds a history unrelated to a
local branch whose root is memsync's own scaffold commit (never pushed: nothing of it is on
the remote), the local branch is rebuilt on the remote's: of the scaffold only the files the
remote lacks, then each later local commit as it was (its message and author date), merged
three ways where the remote has the same file.
"""

from __future__ import annotations

import itertools
import time

from memsync import git
from memsync.merge.memory import MergeDecision
from memsync.sync import store
from memsync.sync.binding import Binding, hostname
from memsync.sync.storemerge import describe, trailers

# The subject of the root commit `init` writes into an empty team repository.
SCAFFOLD_SUBJECT = "memsync: scaffold the team memory repository"
LOST = "was scaffolded by another `memsync init` meanwhile"  # in the note saying so


def drop_lost_scaffold(binding: Binding) -> tuple[str, ...]:
    """Rebuild the local branch on the remote's when another init's scaffold got there first;
    the line the sync report shows (none when there was no such race)."""
    repo = binding.clone_dir
    heads = store.heads(binding)
    if heads.local is None or heads.remote is None:
        return ()
    if git.merge_base(repo, heads.local, heads.remote) is not None:
        return ()
    chain = git.first_parent_commits(repo, heads.local)
    (_, message), *_ = git.commit_messages(repo, chain[:1])
    if message.split("\n", 3)[2:3] != [SCAFFOLD_SUBJECT]:
        return ()  # an unrelated history memsync did not start: the merge engine's
    head = _missing_scaffold(binding, chain[0], heads.remote)
    decisions: list[MergeDecision] = []
    for parent, commit in itertools.pairwise(chain):
        head = _replay(binding, parent, commit, head, decisions)
    git.update_branch(repo, heads.branch, head, heads.local, "memsync: drop a lost scaffold")
    # What the replay merged (a memory both inits imported differently, kept twice) is told
    # as any merge's decisions are.
    return (
        f"the {binding.label} store {LOST}: its scaffold is kept and this one's dropped "
        "(`memsync scaffold --update` in a clone of the repository changes the memsync spec)",
        *(f"merge: {describe(d, binding.prefix)}" for d in decisions),
    )


def _missing_scaffold(binding: Binding, root: str, remote: str) -> str:
    """A commit on REMOTE adding the files of the scaffold ROOT that REMOTE lacks (or REMOTE)."""
    repo = binding.clone_dir
    there = git.list_tree(repo, remote)
    missing = {p: (e.mode, e.sha) for p, e in git.list_tree(repo, root).items() if p not in there}
    if not missing:
        return remote
    return git.write_commit(
        repo,
        parents=[remote],
        changes={},
        entries=missing,
        message=f"{SCAFFOLD_SUBJECT}: the files it lacked\n",
        author=git.identity(repo, hostname()),
        when=int(time.time()),
    )


def _replay(
    binding: Binding, parent: str, commit: str, head: str, decisions: list[MergeDecision]
) -> str:
    """COMMIT's change from PARENT applied on HEAD, three-way merged where HEAD differs; the
    merge's decisions are added to DECISIONS and to the commit's trailers."""
    from memsync.merge.tree import merge_trees

    repo = binding.clone_dir
    changes = git.tree_changes(repo, parent, commit).changes
    if not changes:
        return head
    paths = sorted(changes)
    current = {p: (e.mode, e.sha) for p, e in git.list_tree(repo, head, paths=paths).items()}
    entries: dict[str, git.ModeOid] = {}
    contents: dict[str, bytes | None] = {}
    contested = []
    for path, (before, after) in changes.items():
        now = current.get(path)
        if now == after:
            continue
        if now != before:
            contested.append(path)
        elif after is None:
            contents[path] = None
        else:
            entries[path] = after
    decided: tuple[MergeDecision, ...] = ()
    if contested:
        olds, news = ({p: changes[p][n] for p in contested} for n in (0, 1))
        nows = {p: current.get(p) for p in contested}
        sides = [{p: v[1] for p, v in side.items() if v} for side in (olds, news, nows)]
        blobs = git.read_blobs(repo, [sha for side in sides for sha in side.values()])
        base, ours, theirs = ({p: blobs[s] for p, s in side.items()} for side in sides)
        result = merge_trees(base, ours, theirs)
        decided = result.decisions
        decisions.extend(decided)
        for path in set(contested) | set(result.files):
            data, now = result.files.get(path), current.get(path)
            if (None if data is None else git.blob_sha(data)) != (now and now[1]):
                contents[path] = data
    if not (entries or contents):
        return head  # the remote has this commit's change already
    (_, message), *_ = git.commit_messages(repo, [commit])
    return git.write_commit(
        repo,
        parents=[head],
        changes=contents,
        entries=entries,
        message=message.split("\n", 2)[2].rstrip("\n") + "\n" + trailers(decided),
        author=git.identity(repo, hostname()),
        when=int(time.time()),
        authored=git.authored_time(repo, commit),
    )
