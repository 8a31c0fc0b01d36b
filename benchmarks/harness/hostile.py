"""A hostile team repository corpus: bad content pushed straight to the remote by a teammate.

Each kind commits good files plus something nasty into the team store (a few into the
private store). The victim machine then pulls (and pushes a memory of its own). Every time:
good files sync, bad ones are named and skipped, nothing is written outside the memory
directories, the command exits 0 without a traceback, and the victim's own push still works.
"""

from __future__ import annotations

import json
import os
import random
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.harness.gitobjects import EXEC, FILE, GITLINK, LINK, TREE, Tree, publish
from benchmarks.harness.machines import PROJECT_KEY, memory_text, remote_files
from benchmarks.harness.world import Seat, World, make_world

YAML_BOMB = (
    "---\n"
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "name: bomb\ntype: project\ndescription: billion laughs\n---\nBody.\n"
)


def mem(name: str, body: str = "Team knowledge.\n", type_: str = "project") -> bytes:
    """A well-formed memory."""
    return memory_text(name, body, type_).encode()


@dataclass
class Expect:
    """What must hold after the victim pulls one kind."""

    good: dict[str, bytes] = field(default_factory=dict)  # synced exactly (relative to folder)
    bad: tuple[str, ...] = ()  # each named among the skipped files
    absent: tuple[str, ...] = ()  # never in the live directory (relative to the scope's dir)
    drop: tuple[str, ...] = ()  # good files of earlier kinds the teammate removes now


@dataclass
class Ctx:
    """What a kind may use: the sandbox's canary directory and a seeded random source."""

    outside: Path
    rng: random.Random
    model: dict[str, bytes]


@dataclass(frozen=True)
class Kind:
    """One kind of hostile content."""

    name: str
    build: Callable[[Ctx, Tree, Tree], Expect]  # (ctx, project folder, repository root)
    scope: str = "team"
    new_root: bool = False
    slow: bool = False


def _symlink_out(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("evil-link.md", b"../../../../../../outside/target.md", LINK)
    return Expect(bad=("evil-link.md",), absent=("evil-link.md",))


def _symlink_abs(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("abs-link.md", str(ctx.outside / "target.md").encode(), LINK)
    return Expect(bad=("abs-link.md",), absent=("abs-link.md",))


def _symlink_in(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("alias.md", b"good-0.md", LINK)
    return Expect(bad=("alias.md",), absent=("alias.md",))


def _symlink_dir(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    # A folder symlink to outside, and a real folder of the same name with a memory in it.
    f.add("linked", str(ctx.outside).encode(), LINK)
    f.add("linked/planted.md", mem("planted"))
    return Expect()


def _dotdot(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    up = Tree()
    up.add("escaped.md", mem("escaped"))
    f.raw(TREE, b"..", up)
    return Expect(bad=("escaped.md",))


def _dot(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    here = Tree()
    here.add("dotted.md", mem("dotted"))
    f.raw(TREE, b".", here)
    return Expect(bad=("dotted.md",))


def _slash_name(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.raw(FILE, b"sub/../../../slash-escape.md", mem("slash"))
    return Expect(bad=("slash-escape.md",))


def _absolute(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.raw(FILE, str(ctx.outside / "absolute.md").encode(), mem("absolute"))
    return Expect(bad=("absolute.md",))


def _backslash(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("..\\..\\back.md", mem("back"))
    f.add("dir\\file.md", mem("dirfile"))
    return Expect(bad=("back.md", "file.md"))


def _control(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("ctl\x01char.md", mem("ctl"))
    f.add("new\nline.md", mem("newline"))
    return Expect(bad=("char.md", "line.md"))


def _nul_content(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("nul-content.md", b"---\nname: nul\ntype: project\n---\nA\x00B\n")
    return Expect()


def _oversize(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("huge.md", mem("huge", "x" * 300_000))
    edge = mem("edge", "")
    exact = edge + b"y" * (250_000 - len(edge))
    f.add("exactly-limit.md", exact)
    return Expect(good={"exactly-limit.md": exact}, bad=("huge.md",), absent=("huge.md",))


def _binary(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("binary.md", bytes(ctx.rng.randrange(256) for _ in range(4096)) + b"\xff\xfe")
    return Expect(bad=("binary.md",), absent=("binary.md",))


def _latin1(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("latin1.md", "---\nname: café\ntype: project\n---\nnaïve\n".encode("latin-1"))
    return Expect(bad=("latin1.md",), absent=("latin1.md",))


def _bad_name_bytes(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add(b"caf\xe9-name.md", mem("latin name"))
    return Expect(bad=("-name.md",))


def _case(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("Notes.md", mem("Notes"))
    f.add("notes.md", mem("notes"))
    return Expect(good={"Notes.md": mem("Notes")}, bad=("notes.md",))


def _nfd(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    nfc = unicodedata.normalize("NFC", "café-twin.md")
    nfd = unicodedata.normalize("NFD", "café-twin.md")
    f.add(nfc, mem("nfc"))
    f.add(nfd, mem("nfd"))
    # Sorted bytes: the NFD name (e + combining accent) comes first and is kept.
    return Expect(good={nfd: mem("nfd")}, bad=(nfc,))


def _dot_git(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add(".git/config", b"[core]\n\tfsmonitor = touch /tmp/pwned\n")
    f.add(".git/hooks/post-checkout", b"#!/bin/sh\ntouch /tmp/pwned\n", EXEC)
    f.add(".git/evil.md", mem("in dot git"))
    f.add(".GIT/upper.md", mem("in dot GIT"))
    return Expect(bad=(".git/evil.md", ".GIT/upper.md"), absent=(".git", ".GIT"))


def _gitmodules(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    r.add(".gitmodules", b'[submodule "s"]\n\tpath = acme-api/sub.md\n\turl = ../evil.git\n')
    f.raw(GITLINK, b"sub.md", "1" * 40)
    f.add(".gitmodules", b'[submodule "t"]\n\tpath = t\n\turl = /tmp/x\n')
    return Expect(absent=("sub.md", ".gitmodules"))


def _executable(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    data = mem("runnable", "#!/bin/sh\necho hi\n")
    f.add("runnable.md", data, EXEC)
    return Expect(good={"runnable.md": data})


def _dir_named_md(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("folder.md/inside.md", mem("inside a folder named .md"))
    return Expect()


def _file_then_dir_1(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    return Expect(good={"turns-into-dir.md": mem("a file for now")})


def _file_then_dir_2(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("turns-into-dir.md/now-inside.md", mem("now a folder"))
    return Expect(drop=("turns-into-dir.md",))


def _dir_then_file_1(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    return Expect(good={"becomes-file.md/inner.md": mem("inside a folder for now")})


def _dir_then_file_2(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    data = mem("now a file")
    return Expect(good={"becomes-file.md": data}, drop=("becomes-file.md/inner.md",))


def _markers(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("markers.md", mem("markers", "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> other\n"))
    return Expect()


def _bad_yaml(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    data = b"---\nname: [unclosed\ntype: : project\n\t- tab\n---\nStill loads in Claude Code.\n"
    return Expect(good={"bad-yaml.md": data})


def _yaml_bomb(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    return Expect(good={"yaml-bomb.md": YAML_BOMB.encode()})


def _user_in_team(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("about-me.md", mem("about me", "I like tabs.\n", "user"))
    return Expect()


def _nested_index(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("sub/MEMORY.md", b"- [x](x.md) - nested index\n")
    return Expect()


def _consolidate_lock(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add(".consolidate-lock", b"12345")
    return Expect(absent=(".consolidate-lock",))


def _other_project(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    r.add("other-project/foreign.md", mem("foreign"))
    r.add("top-level.md", mem("top level"))
    return Expect(absent=("foreign.md", "top-level.md", "other-project"))


def _long_name(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("n" * 300 + ".md", mem("long name"))
    deep = "/".join(["d" * 200] * 25) + "/deep.md"
    f.add(deep, mem("deep"))
    return Expect(bad=("nnnn", "deep.md"))


def _dash_names(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    files = {
        "--upload-pack=touch pwned.md": mem("dash"),
        "-rf.md": mem("rf"),
        '"quoted" name.md': mem("quoted"),
        "emoji 🚀 name.md": mem("emoji"),
        "CON.md": mem("con"),
    }
    return Expect(good=files)


def _duplicate_entries(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.raw(FILE, b"twice.md", mem("first"))
    f.raw(FILE, b"twice.md", mem("second"))
    return Expect()


def _empty_names(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    # (An entry with an empty name cannot be pushed at all: git's own pack-objects refuses.)
    f.add(".md", mem("empty stem"))
    f.add(" .md", mem("blank stem"))
    return Expect()


def _rewritten_history(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    return Expect(good={"after-rewrite.md": mem("after a force push")})


def _private_team_dir(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    f.add("team/leak.md", mem("leak"))
    f.add("Team/leak-upper.md", mem("leak upper"))
    return Expect(absent=("team/leak.md", "team/leak-upper.md", "Team"))


def _many_files(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    return Expect(good={f"bulk/m{i:05d}.md": mem(f"bulk {i}") for i in range(10_000)})


def _big_history(ctx: Ctx, f: Tree, r: Tree) -> Expect:
    # Five 10 MB binary blobs outside the project folder: 50 MB the victim has to fetch.
    for i in range(5):
        r.add(f"assets/blob-{i}.bin", os.urandom(10_000_000))
    return Expect(good={"after-big-history.md": mem("after 50 MB")})


KINDS: tuple[Kind, ...] = (
    Kind("symlink pointing outside", _symlink_out),
    Kind("absolute symlink", _symlink_abs),
    Kind("symlink inside the folder", _symlink_in),
    Kind("folder symlink plus same-named folder", _symlink_dir),
    Kind("'..' tree entry", _dotdot),
    Kind("'.' tree entry", _dot),
    Kind("slashes and '..' inside one entry name", _slash_name),
    Kind("absolute path as entry name", _absolute),
    Kind("backslashes", _backslash),
    Kind("control characters in names", _control),
    Kind("NUL bytes in content", _nul_content),
    Kind("file over 250,000 bytes (and one exactly at it)", _oversize),
    Kind("binary file", _binary),
    Kind("non-UTF-8 content", _latin1),
    Kind("non-UTF-8 file name", _bad_name_bytes),
    Kind("case-colliding names", _case),
    Kind("NFC/NFD twins", _nfd),
    Kind(".git and .GIT folders", _dot_git),
    Kind(".gitmodules and a gitlink", _gitmodules),
    Kind("executable file", _executable),
    Kind("directory named x.md", _dir_named_md),
    Kind("file x.md (step 1)", _file_then_dir_1),
    Kind("file x.md becomes a directory", _file_then_dir_2),
    Kind("directory x.md (step 1)", _dir_then_file_1),
    Kind("directory x.md becomes a file", _dir_then_file_2),
    Kind("conflict markers already committed", _markers),
    Kind("malformed YAML", _bad_yaml),
    Kind("YAML alias bomb", _yaml_bomb),
    Kind("type: user in team", _user_in_team),
    Kind("MEMORY.md in a subfolder", _nested_index),
    Kind(".consolidate-lock in the store", _consolidate_lock),
    Kind("files outside the project folder", _other_project),
    Kind("name over 255 bytes, path over 4096", _long_name),
    Kind("names that look like options, quotes, emoji, CON", _dash_names),
    Kind("one name twice in a tree", _duplicate_entries),
    Kind("empty names", _empty_names),
    Kind("history rewritten (force-pushed new root)", _rewritten_history, new_root=True),
    Kind("team/ inside the private store", _private_team_dir, scope="private"),
    Kind("10,000 files", _many_files, slow=True),
    Kind("50 MB history", _big_history, slow=True),
)


@dataclass
class KindResult:
    """What happened for one kind."""

    name: str
    ok: bool
    problems: list[str]
    pull_exit: int | None
    push_exit: int | None
    skipped: list[str]
    seconds: float


def snapshot(root: Path, exclude: list[Path]) -> dict[str, tuple[bool, int, int]]:
    """(is symlink, size, mtime) of everything below ROOT except EXCLUDE trees."""
    out: dict[str, tuple[bool, int, int]] = {}
    skip = {str(p) for p in exclude}
    for current, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if os.path.join(current, d) not in skip]
        for name in dirs + files:
            path = os.path.join(current, name)
            if path in skip:
                continue
            if os.path.isdir(path) and not os.path.islink(path):
                continue  # new folders above the memory directory are Claude Code's layout
            info = os.lstat(path)
            out[path] = (os.path.islink(path), info.st_size, info.st_mtime_ns)
    return out


class Campaign:
    """The victim, the teammate's model of the store, and the checks."""

    def __init__(self, base: Path, seed: int = 7) -> None:
        self.base = base
        self.world: World = make_world(base, ("victim",))
        self.victim: Seat = self.world.seats[0]
        self.outside = base / "outside"
        self.outside.mkdir()
        (self.outside / "target.md").write_text("canary\n", encoding="utf-8")
        self.rng = random.Random(seed)
        self.team_model: dict[str, bytes] = {f"good-{i}.md": mem(f"good {i}") for i in range(3)}
        self.private_model: dict[str, bytes] = {}
        self.pushed = 0

    def remote_for(self, scope: str) -> Path:
        return self.world.team_remote if scope == "team" else self.world.private_remote

    def live_for(self, scope: str) -> Path:
        live = self.victim.live
        return live / "team" if scope == "team" else live

    def publish(self, kind: Kind) -> Expect:
        """The teammate's commit: the model's good files, a marker file and the hostile part."""
        model = self.team_model if kind.scope == "team" else self.private_model
        ctx = Ctx(self.outside, self.rng, model)
        root, folder = Tree(), Tree()
        expect = kind.build(ctx, folder, root)
        for path in expect.drop:
            model.pop(path, None)
        stamp = (
            f"kind-{len(self.team_model) + len(self.private_model)}-{self.rng.randrange(10**6)}.md"
        )
        model[stamp] = mem(kind.name)
        model.update(expect.good)
        for path, data in model.items():
            folder.add(path, data)
        root.raw(TREE, PROJECT_KEY.encode(), folder)
        root.add("README.md", b"# team memory\n")
        publish(
            self.remote_for(kind.scope), root, f"teammate: {kind.name}", parent=not kind.new_root
        )
        return expect

    def run_kind(self, kind: Kind, *, push: bool = True) -> KindResult:
        """Publish KIND, pull on the victim, check everything, then push a memory of its own."""
        started = time.monotonic()
        problems: list[str] = []
        expect = self.publish(kind)
        machine, project = self.victim.machine, self.victim.project
        live_root = self.victim.live
        guarded = snapshot(
            self.base, [machine.data_dir, live_root, self.base / "remotes", machine.home / ".cache"]
        )
        pull = machine.run("pull", "--json", cwd=project, timeout=600)
        skipped: list[str] = []
        try:
            reports = json.loads(pull.stdout)
            for report in reports:
                skipped += [s["path"] for s in report.get("skipped", [])]
                if report.get("error"):
                    problems.append(f"pull error: {report['error'][:300]}")
        except json.JSONDecodeError:
            problems.append(f"pull printed no JSON: {pull.stdout[:300]!r}")
        if pull.returncode != 0:
            problems.append(f"pull exited {pull.returncode}: {pull.stderr.strip()[-400:]}")
        if "Traceback" in pull.stderr:
            problems.append("pull crashed with a traceback")
        scope_dir = self.live_for(kind.scope)
        model = self.team_model if kind.scope == "team" else self.private_model
        for path, data in model.items():
            target = scope_dir / path
            try:
                if target.read_bytes() != data:
                    problems.append(f"{path}: live content differs")
            except OSError as exc:
                problems.append(f"{path}: not synced ({exc.strerror})")
        for fragment in expect.bad:
            if not any(fragment in s for s in skipped) and fragment not in pull.stderr:
                problems.append(f"bad file {fragment!r} not named as skipped")
        for rel in expect.absent:
            if os.path.lexists(scope_dir / rel):
                problems.append(f"{rel} was written into the live directory")
        for found in scope_dir.rglob("*"):
            if found.is_symlink():
                problems.append(f"symlink materialized: {found.relative_to(scope_dir)}")
        after = snapshot(
            self.base, [machine.data_dir, live_root, self.base / "remotes", machine.home / ".cache"]
        )
        changed = sorted(set(after.items()) ^ set(guarded.items()))
        if changed:
            problems.append(
                f"written outside the memory directories: {sorted({c[0] for c in changed})[:5]}"
            )
        push_exit = None
        if push:
            push_exit = self.victim_push(kind, problems)
        return KindResult(
            kind.name,
            not problems,
            problems,
            pull.returncode,
            push_exit,
            skipped,
            round(time.monotonic() - started, 2),
        )

    def victim_push(self, kind: Kind, problems: list[str]) -> int:
        """The victim's own work still goes through."""
        self.pushed += 1
        name = f"victim-{self.pushed}.md"
        data = mem(f"victim {self.pushed}")
        scope_dir = self.live_for(kind.scope)
        scope_dir.mkdir(parents=True, exist_ok=True)
        (scope_dir / name).write_bytes(data)
        push = self.victim.machine.run("push", cwd=self.victim.project, timeout=600)
        if push.returncode != 0:
            problems.append(f"victim push exited {push.returncode}: {push.stderr.strip()[-400:]}")
        if "Traceback" in push.stderr:
            problems.append("push crashed with a traceback")
        remote = remote_files(self.remote_for(kind.scope))
        if remote.get(name) != data:
            problems.append(f"victim's {name} did not reach the remote")
        (self.team_model if kind.scope == "team" else self.private_model)[name] = data
        return push.returncode


def hostile_campaign(
    base: Path, *, kinds: tuple[Kind, ...] = KINDS, slow: bool = True, log: object = None
) -> list[KindResult]:
    """Run every kind in order against one victim; returns one result per kind."""
    campaign = Campaign(base)
    results = []
    for kind in kinds:
        if kind.slow and not slow:
            continue
        result = campaign.run_kind(kind)
        results.append(result)
        if callable(log):
            state = "ok  " if result.ok else "FAIL"
            problems = "; ".join(result.problems)[:600]
            log(f"hostile {state} {kind.name} ({result.seconds:.1f} s) {problems}")
    return results
