"""Blame: when each line of a memory was written, moved lines included."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memsync.git.run import run_git


@dataclass(frozen=True)
class BlameLine:
    """When one line of a file was written, as `git blame` sees it."""

    author_time: int  # unix seconds
    author_tz: str  # `+0100`
    committed: bool  # False for lines not committed yet (their time is not meaningful)
    # Blamed on a commit whose parents a shallow clone cut: the line may be older than it, so
    # its author time is only the latest the line can have been written.
    cut: bool = False


# The fewest letters and digits a moved or copied run of lines needs to keep its blame.
_MOVED = 10
# A live file's new lines looked up in the rest of the store's HEAD, at most (one `git grep`).
_MOST_LOOKED_UP = 200


def blame_lines(
    repo: Path,
    relpath: str,
    contents: Path | None = None,
    shallow: frozenset[str] = frozenset(),
    *,
    moved_from: str | None = None,
) -> list[BlameLine] | None:
    """Author time of every line of the work-tree file RELPATH (one blame); None if untracked.

    With CONTENTS (a file outside the repository, e.g. a live memory folder synced from a bare
    store clone), RELPATH is blamed at HEAD and CONTENTS' lines take the blame of the same
    lines there; a line HEAD's RELPATH does not have takes the blame of the same line
    elsewhere in HEAD under the folder MOVED_FROM ("" the whole tree; a note moved from
    another memory and not pushed yet), else it is not committed. (`git blame --contents`
    needs a work tree before git 2.41.) SHALLOW: the repository's `shallow_commits`; a line
    blame marks `boundary` on one of them is `cut` (a root commit is a boundary too, but its
    lines were written then)."""
    result = _blame(repo, relpath, [], at_head=contents is not None)
    if result is None and contents is None:
        return None
    # A live file HEAD does not have yet is all new lines, some perhaps moved from elsewhere.
    lines, texts = _porcelain(result or b"", shallow)
    if contents is None:
        return lines
    try:
        live = contents.read_bytes().split(b"\n")
    except OSError:
        return None
    from difflib import SequenceMatcher

    aligned = [BlameLine(0, "+0000", committed=False)] * len(live)
    for block in SequenceMatcher(None, live, texts, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            aligned[block.a + k] = lines[block.b + k]
    if moved_from is not None:
        new = [k for k, line in enumerate(aligned) if not line.committed and _long(live[k])]
        inner = relpath[len(moved_from) + 1 :] if moved_from else relpath
        here = _Here(relpath, moved_from, contents.parents[inner.count("/")])
        found = _moved_lines(repo, here, {live[k] for k in new[:_MOST_LOOKED_UP]}, shallow)
        for k in new[:_MOST_LOOKED_UP]:
            aligned[k] = found.get(live[k], aligned[k])
    return aligned


def _blame(repo: Path, relpath: str, ranges: list[int], *, at_head: bool) -> bytes | None:
    """`git blame --line-porcelain` of RELPATH (at HEAD when AT_HEAD), only the 1-based lines
    RANGES when given; None when git cannot (an untracked file)."""
    # A line moved within the file (`-M`) or from another memory changed in the same commit
    # (`-C`: Claude Code moving a note between memories) keeps the day it was written, not
    # the move's. Ten letters or digits, not git's 20 and 40: a memory's line with a relative
    # date is often shorter (`Deployed the fix yesterday.`), and only identical lines match.
    args = ["blame", "--line-porcelain", f"-M{_MOVED}", f"-C{_MOVED}"]
    args += [arg for n in ranges for arg in ("-L", f"{n},{n}")]
    args += ["HEAD"] if at_head else []
    result = run_git([*args, "--", relpath], cwd=repo, check=False)
    return result.stdout if result.ok else None


def _porcelain(out: bytes, shallow: frozenset[str]) -> tuple[list[BlameLine], list[bytes]]:
    """(each line's blame, its text) from `git blame --line-porcelain` output OUT."""
    lines: list[BlameLine] = []
    texts: list[bytes] = []
    sha, when, tz, boundary = "", 0, "+0000", False
    for raw in out.split(b"\n"):
        if raw.startswith(b"\t"):
            cut = boundary and sha in shallow
            lines.append(BlameLine(when, tz, committed=set(sha) != {"0"}, cut=cut))
            texts.append(raw[1:])
        elif raw.startswith(b"author-time "):
            when = int(raw[12:])
        elif raw.startswith(b"author-tz "):
            tz = raw[10:].decode("ascii", "replace")
        elif raw == b"boundary":
            boundary = True
        elif len(raw) >= 40 and raw[:40].isalnum() and b" " in raw:
            # A line's header opens with its commit (40 hex, 64 in a SHA-256 repository).
            sha, boundary = raw.split(b" ", 1)[0].decode("ascii", "replace"), False
    return lines, texts


def _long(text: bytes) -> bool:
    """Whether TEXT is long enough to be taken for a moved line (`_MOVED`, as `-M`/`-C`)."""
    return sum(ch.isalnum() for ch in text.decode("utf-8", "replace")) >= _MOVED


@dataclass(frozen=True)
class _Here:
    """The live file being blamed (RELPATH in the repository), the project FOLDER in the
    repository, and the live folder that holds the project's files."""

    relpath: str
    folder: str
    live: Path

    def still_has(self, path: str, text: bytes) -> bool:
        """Whether the live copy of PATH (in the repository) still has the line TEXT: then
        the live file's TEXT is a copy or the same words written again, not a moved line."""
        if path == self.relpath:
            return False  # moved within the file blamed
        try:
            data = (self.live / path[len(self.folder) + 1 if self.folder else 0 :]).read_bytes()
        except OSError:
            return False  # deleted or renamed since: its lines went somewhere
        return text in data.split(b"\n")


def _moved_lines(
    repo: Path, here: _Here, texts: set[bytes], shallow: frozenset[str]
) -> dict[bytes, BlameLine]:
    """The blame of each of TEXTS where HEAD has that very line under HERE's folder (its
    oldest), in a file whose live copy no longer has it: one `git grep`, then one blame of
    just those lines per file holding any."""
    if not texts:
        return {}
    folder = here.folder
    patterns = [arg for text in sorted(texts) for arg in ("-e", text.decode("utf-8", "replace"))]
    # git grep has no whole-line match (`-x`): a hit is kept when its line is one of TEXTS.
    args = ["grep", "-z", "-n", "-F", "--no-color", *patterns, "HEAD", "--"]
    result = run_git([*args, f"{folder}/" if folder else "."], cwd=repo, check=False)
    where: dict[str, list[int]] = {}
    for hit in result.stdout.split(b"\n") if result.ok else []:
        name, _, rest = hit.partition(b"\0")
        number, _, text = rest.partition(b"\0")
        path = name[5:].decode("utf-8", "surrogateescape")
        wanted = name.startswith(b"HEAD:") and number.isdigit() and text in texts
        if wanted and not here.still_has(path, text):
            where.setdefault(path, []).append(int(number))
    found: dict[bytes, BlameLine] = {}
    for path, numbers in sorted(where.items()):
        out = _blame(repo, path, numbers, at_head=True)
        for line, text in zip(*_porcelain(out or b"", shallow), strict=False):
            if line.committed and (text not in found or line.author_time < found[text].author_time):
                found[text] = line
    return found
