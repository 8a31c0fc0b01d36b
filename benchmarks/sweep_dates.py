"""Relative-date rewrites over whole memory folders, scored against blind reviews.

The labelled corpora hold lines someone chose; consolidation meets every line of a folder.
This runs consolidation (applied to a throwaway clone) over each `memory/` or `memories/`
folder of the given git repositories, blamed in their own history, and writes every rewrite:

    python benchmarks/sweep_dates.py sweep OUT.json REPO.git [REPO.git ...]

Blind reviewers judged a sample of such rewrites (benchmarks/results/date_sweep_reviews.json:
each with its repository, file, line, phrase, the value given then, and a verdict of
`correct`, `negative`, `wrong_value` (with the right day), `bad_wording` or `unsure`).
Scoring a new sweep against them says how many reviewed rewrites are right now:

    python benchmarks/sweep_dates.py score SWEEP.json [SAMPLE]

Precision is that of the reviewed rewrites a sweep still makes: right / (right + wrong),
`unsure` aside. A reviewed `negative` or `bad_wording` no longer rewritten is `left alone`
(right, and no rewrite); a reviewed `correct` no longer rewritten is `missed`.
Figures and the samples' provenance are in docs/BENCHMARKS.md (ninth pass).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memsync.consolidate.engine import apply_plan, make_plan  # noqa: E402
from memsync.consolidate.plan import DateChange, Options  # noqa: E402

REVIEWS = ROOT / "benchmarks" / "results" / "date_sweep_reviews.json"
_FOLDERS = ("memory", "memories")


def _memory_files(names: list[str]) -> list[str]:
    """The Markdown files under a `memory/` or `memories/` folder, among a tree's file names."""
    return [
        name
        for name in names
        if name.endswith(".md") and any(p.lower() in _FOLDERS for p in name.split("/")[:-1])
    ]


def _memory_folders(tree: Path, files: list[str]) -> list[Path]:
    found: set[Path] = set()
    for name in files:
        parts = name.split("/")
        depth = next(i for i, part in enumerate(parts[:-1]) if part.lower() in _FOLDERS)
        found.add(tree.joinpath(*parts[: depth + 1]))
    return sorted(found)


def _checkout(gitdir: Path, tree: Path) -> list[str] | None:
    """Clone GITDIR into TREE with only its memory files checked out (a mirror may lack the
    large files elsewhere in the tree, which would fail a full checkout); None if it cannot."""
    clone = ["git", "clone", "-q", "--no-checkout", "--shared", str(gitdir), str(tree)]
    if subprocess.run(clone, capture_output=True, check=False).returncode:
        return None
    listing = subprocess.run(
        ["git", "ls-tree", "-r", "-z", "--name-only", "HEAD"],
        cwd=tree,
        capture_output=True,
        check=False,
    )
    files = _memory_files(listing.stdout.decode("utf-8", "replace").split("\0"))
    if listing.returncode or not files:
        return None if listing.returncode else []
    checkout = ["git", "checkout", "-q", "HEAD", "--pathspec-from-file=-", "--pathspec-file-nul"]
    done = subprocess.run(
        checkout, cwd=tree, input="\0".join(files).encode(), capture_output=True, check=False
    )
    return None if done.returncode else files


def sweep(gitdir: Path) -> list[dict[str, Any]]:
    """Every relative date consolidation rewrites in GITDIR's memory folders, at HEAD."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="memsync-sweep-") as scratch:
        tree = Path(scratch) / "tree"
        files = _checkout(gitdir, tree)
        if files is None:
            print(f"skipped {gitdir}: it cannot be cloned and checked out", file=sys.stderr)
            return rows
        for folder in _memory_folders(tree, files):
            plan = make_plan(folder, options=Options(allow_archive="none"))
            texts = {
                c.path: (folder / c.path).read_text("utf-8", "replace").splitlines()
                for unit in plan.folders
                for c in unit.dates
            }
            apply_plan(plan)
            for unit in plan.folders:
                for change in unit.dates:
                    lines = texts[change.path]
                    rows.append(
                        {
                            "repo": gitdir.parent.name.replace("+", "/"),
                            "folder": folder.relative_to(tree).as_posix(),
                            "path": change.path,
                            "line": change.line,
                            "old": change.old,
                            "value": change.value,
                            "written": change.written,
                            "source": change.source,
                            "text": lines[change.line - 1] if change.line <= len(lines) else "",
                            "new": change.new,
                            "rewritten": _rewritten(lines, change, unit.dates),
                        }
                    )
    return rows


def _rewritten(lines: list[str], at: DateChange, changes: tuple[DateChange, ...]) -> str:
    """The line of AT, from its file's LINES, with its rewrites made in order (the file may
    have been merged into another by the time the plan was applied)."""
    text = lines[at.line - 1] if at.line <= len(lines) else ""
    for change in changes:
        if (change.path, change.line) == (at.path, at.line):
            text = text.replace(change.old, change.new, 1)
    return text


def _key(row: dict[str, Any]) -> tuple[str, str, str, int, str]:
    return row["repo"], row["folder"], row["path"], row["line"], row["old"].lower()


def score(rows: list[dict[str, Any]], reviews: list[dict[str, Any]]) -> Counter[str]:
    """How the reviewed rewrites fare in a sweep's ROWS."""
    now: dict[tuple[str, str, str, int, str], list[str]] = {}
    for row in rows:
        now.setdefault(_key(row), []).append(row["value"])
    tally: Counter[str] = Counter()
    for review in reviews:
        values, verdict = now.get(_key(review), []), review["verdict"]
        if verdict == "unsure":
            tally["unsure"] += 1
        elif verdict in ("negative", "bad_wording"):
            tally["wrong" if values else "left alone"] += 1
        elif not values:
            tally["missed"] += 1
        else:
            want = review["right_value"] if verdict == "wrong_value" else review["value"]
            right = want is not None and any(v.startswith(want[:10]) for v in values)
            tally["right" if right else "wrong"] += 1
    return tally


def main(argv: list[str]) -> int:
    """Run a sweep or score one (see the module docstring)."""
    if len(argv) >= 3 and argv[0] == "sweep":
        rows = [row for gitdir in argv[2:] for row in sweep(Path(gitdir))]
        Path(argv[1]).write_text(json.dumps(rows, indent=0, ensure_ascii=False), "utf-8")
        print(f"{len(rows)} rewrites")
        return 0
    if len(argv) in (2, 3) and argv[0] == "score":
        rows = json.loads(Path(argv[1]).read_text("utf-8"))
        reviews = json.loads(REVIEWS.read_text("utf-8"))
        if len(argv) == 3:
            reviews = [r for r in reviews if r["sample"] == argv[2]]
        tally = score(rows, reviews)
        judged = tally["right"] + tally["wrong"]
        print(dict(tally), f"precision {tally['right'] / max(judged, 1):.3f}")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
