"""`memsync push --review`: send the team store to a review branch and open its pull request."""

from __future__ import annotations

import datetime as dt
import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memsync import git
from memsync.errors import UsageError, UserMessageError
from memsync.model.digest import sha256_hex
from memsync.sync import store
from memsync.sync.binding import Binding, hostname
from memsync.sync.deadline import Deadline
from memsync.sync.report import StoreReport
from memsync.sync.reviewpush import BRANCH_PREFIX
from memsync.team.github import PullRequestResult

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.sync.inreview import ReviewPull

MAX_SLUG_CHARS = 40


@dataclass(frozen=True)
class PullRequestOutcome:
    """What happened to the pull request of one team store's review branch."""

    store: str
    branch: str
    base: str
    title: str
    changes: int
    result: PullRequestResult | None
    note: str | None = None
    # Reviews closed without merging whose commits this pull request proposes again.
    reproposed: tuple[ReviewPull, ...] = ()

    @property
    def reproposals(self) -> tuple[str, ...]:
        """One clause for each closed review the pull request proposes again: the words of
        `push --review` and of the hook alike."""
        return tuple(
            f"it proposes again the commits of {closed.url} ({closed.branch}), closed without"
            f" merging{f' on {closed.closed_on}' if closed.closed_on else ''}"
            for closed in self.reproposed
        )

    @property
    def hook_line(self) -> str | None:
        """What a hook tells the person: the pull request (and the closed reviews it proposes
        again), or where to open it and why not."""
        result = self.result
        if result is None or not result.url:
            return None
        if result.method != "url":
            return "; ".join((f"memsync: review pull request {result.url}", *self.reproposals))
        # Not opened (no gh, no token, GitHub failed or hung).
        why = f" ({result.warnings[-1]})" if result.warnings else ""
        return f"memsync: open the review pull request at {result.url}{why}"


@dataclass(frozen=True)
class ReviewPush:
    """The push reports of a `push --review` and the pull requests it opened or updated."""

    branch: str
    reports: tuple[StoreReport, ...]
    pulls: tuple[PullRequestOutcome, ...]


# Latin letters Unicode does not decompose into an ASCII letter and a mark.
_SPELLED = str.maketrans(
    {"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "ß": "ss", "Æ": "AE"}
    | {"æ": "ae", "Œ": "OE", "œ": "oe", "Þ": "Th", "þ": "th", "ı": "i", "Ħ": "H", "ħ": "h"}
)


def slug(text: str) -> str:
    """A lowercase ASCII name fit for a branch: `Zoë O'Neil` -> `zoe-o-neil`.

    Letters ASCII cannot spell (`山田太郎`, `Ольга`) are not dropped, which would give two
    people one branch: a short hash of the whole name follows what ASCII could spell.
    """
    decomposed = unicodedata.normalize("NFKD", text.translate(_SPELLED))
    ascii_text = decomposed.encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if not any(c.isalnum() and not c.isascii() for c in decomposed):
        return cleaned[:MAX_SLUG_CHARS].rstrip("-")
    name = unicodedata.normalize("NFC", " ".join(text.split()))
    digest = sha256_hex(name.encode())[:8]
    kept = cleaned[: MAX_SLUG_CHARS - len(digest) - 1].rstrip("-")
    return f"{kept}-{digest}" if kept else digest


def user_slug(project_dir: Path, env: Mapping[str, str] | None = None) -> str:
    """Who is pushing, for the branch name: git `user.name`, else `$USER`, else `memsync`."""
    env = os.environ if env is None else env
    where = project_dir if project_dir.is_dir() else Path.cwd()
    for candidate in (
        git.config_value(where, "user.name"),
        env.get("USER"),
        env.get("USERNAME"),
    ):
        if candidate and slug(candidate):
            return slug(candidate)
    return BRANCH_PREFIX


def review_branch(user: str, day: dt.date) -> str:
    """`memsync/<user>/<YYYY-MM-DD>`: one branch, hence one pull request, per person per day."""
    return f"{BRANCH_PREFIX}/{user}/{day.isoformat()}"


def push_for_review(
    project_dir: Path,
    scopes: tuple[str, ...],
    *,
    message: str | None = None,
    hook: bool = False,
    today: dt.date | None = None,
    env: Mapping[str, str] | None = None,
) -> ReviewPush:
    """Push (the team store to its review branch) and open or update the pull request."""
    from memsync.config import load_config
    from memsync.sync.binding import resolve_bindings
    from memsync.sync.engine import RunOptions, sync_project

    if "team" not in scopes:
        raise UsageError(
            "--review sends the team store to a pull request; it has no effect on --scope private",
            hint="Use `memsync push --review` or `memsync push --review --scope team`.",
        )
    config = load_config()
    # One clock for the push and the pull request: in a hook, the limit covers both.
    deadline = Deadline.after(config.settings.push_timeout if hook else None)
    _, team = resolve_bindings(config, project_dir, ("team",))
    if not team:
        raise UsageError(
            "this project has no team store, so there is nothing to review",
            hint="Add one with `memsync init --team URL`, or push without --review.",
        )
    user = user_slug(project_dir, env)
    branch = review_branch(user, today or dt.date.today())
    options = RunOptions(message=message, review_branch=branch)
    # Whose clone held BRANCH already (as last fetched): a new pull request for it means that
    # the one before was closed (or never opened).
    where = f"refs/remotes/origin/{branch}"
    sent_before = {b.store.name for b in team if git.resolve_refs(b.clone_dir, where)[0]}
    reports = sync_project(
        project_dir, scopes, "push", hook=hook, options=options, config=config, deadline=deadline
    )
    pulls = []
    for report in reports:
        binding = next((b for b in team if b.store.name == report.store), None)
        if report.scope != "team" or binding is None:
            continue
        if report.pushed and report.review_branch:
            pulled = open_pull_request(
                binding,
                report.review_branch,
                message,
                user,
                env,
                deadline=deadline,
                ask_closed=binding.store.name in sent_before,
            )
            pulls.append(pulled)
        elif not (report.error or report.offline or report.blocked):
            base = store.branch_name(binding)
            note = f"nothing to review: the team store has no commits beyond origin/{base}"
            pulls.append(PullRequestOutcome(report.store, branch, base, "", 0, None, note))
    return ReviewPush(branch, tuple(reports), tuple(pulls))


def open_pull_request(
    binding: Binding,
    branch: str,
    message: str | None,
    user: str,
    env: Mapping[str, str] | None = None,
    *,
    deadline: Deadline | None = None,
    ask_closed: bool = False,
) -> PullRequestOutcome:
    """Summarize what BRANCH brings over origin's default branch and open its pull request;
    when it opens a new one, it asks GitHub (within DEADLINE: a hook's limit) which closed
    reviews it proposes again (BRANCH's own earlier one too when ASK_CLOSED)."""
    from memsync.team.github import MAX_BODY_CHARS, open_or_update_pull_request
    from memsync.team.review import review_commits
    from memsync.team.reviewrender import render_markdown

    repo = binding.clone_dir
    heads = store.heads(binding)
    # The push moved origin/<branch> to exactly what was sent; the local branch may have
    # moved on since the lock was released.
    (pushed,) = git.resolve_refs(repo, f"refs/remotes/origin/{branch}")
    head = pushed or heads.local
    if head is None:
        raise UserMessageError(f"the review branch {branch} was not found in {repo}")
    base = git.merge_base(repo, heads.remote, head) if heads.remote else None
    review = review_commits(
        repo,
        base,
        head,
        scope="team",
        base_label=f"origin/{heads.branch}",
        head_label=branch,
    )
    if (
        not review.changes
        and not review.other_files
        and not any(i.line_diff for i in review.indexes)
    ):
        # E.g. only the merge of a squash-merged review: nothing for anyone to approve.
        note = f"nothing to review: {branch} brings no memory changes over origin/{heads.branch}"
        return PullRequestOutcome(binding.store.name, branch, heads.branch, "", 0, None, note)
    intro = (
        f"Memory changes sent with `memsync push --review` by {user} from {hostname()}. "
        f"Merging this pull request shares them with everyone using the team store.\n\n"
    )
    body = intro + render_markdown(review, limit=MAX_BODY_CHARS - len(intro) - 100)
    total = len(review.changes)
    noun = "memory" if total == 1 else "memories"
    title = (message or "").strip().splitlines()[0] if (message or "").strip() else ""
    what = f"{total} {noun}" if total else "MEMORY.md lines"  # an index-only review
    title = title or f"memsync({binding.project_key}): {what} from {user}"
    _refuse_secrets(title, body)
    result = open_or_update_pull_request(
        binding.store.url,
        head=branch,
        base=heads.branch,
        title=title,
        body=body,
        env=env,
        deadline=deadline,
    )
    again: tuple[ReviewPull, ...] = ()
    if result.created and base is not None:
        number = result.number
        whose = Reviewed(branch, head, base, number, with_own=ask_closed)
        again = closed_reviews(binding, whose, env, deadline)
    return PullRequestOutcome(
        binding.store.name, branch, heads.branch, title, total, result, reproposed=again
    )


@dataclass(frozen=True)
class Reviewed:
    """A review just opened: BRANCH at HEAD over FORK, as pull request NUMBER."""

    branch: str
    head: str
    fork: str
    number: int | None
    # Whether BRANCH itself held commits before: its earlier pull request is asked about too.
    with_own: bool


def closed_reviews(
    binding: Binding,
    review: Reviewed,
    env: Mapping[str, str] | None,
    deadline: Deadline | None,
) -> tuple[ReviewPull, ...]:
    """The reviews closed without merging whose every commit REVIEW sends again."""
    from memsync.errors import GitError
    from memsync.sync.inreview import in_review
    from memsync.team.pullstate import ASK_SECONDS, pull_states

    repo, head = binding.clone_dir, review.head
    ahead = git.count_beyond(repo, head, [review.fork])
    _, held = in_review(binding, head, review.fork, ahead) if ahead else (0, ())
    branches = tuple(b for b in held if review.with_own or b != review.branch)
    if not branches:
        return ()  # nothing sent before: no question for GitHub
    seconds = ASK_SECONDS if deadline is None else deadline.left(ASK_SECONDS)
    pulls = pull_states(
        binding.store.url,
        branches,
        env=env,
        deadline=Deadline.after(seconds),
        not_number=review.number,
    )
    found = []
    for pull in pulls:
        try:
            sent = pull.head is not None and git.is_ancestor(repo, pull.head, head)
        except GitError:  # a commit this clone never had: not one of ours to speak for
            sent = False
        if pull.state == "closed" and sent:
            found.append(pull)
    return tuple(found)


def _refuse_secrets(title: str, body: str) -> None:
    """The pull request's title and body leave the machine too: never with a secret."""
    from memsync.check.secrets import scan_text

    leaks = scan_text(title, "pull request title") + scan_text(body, "pull request body")
    if leaks:
        raise UserMessageError(
            "the pull request would carry a possible secret: "
            + "; ".join(str(found) for found in leaks),
            hint="Remove it from the memory or from `-m`, then push again.",
        )
