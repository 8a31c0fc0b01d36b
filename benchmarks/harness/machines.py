"""Simulated machines and remotes: isolated HOME, Claude and memsync dirs, the real CLI."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
ORIGIN = "git@github.com:Acme/API.git"
PROJECT_KEY = "acme-api"
# Markers git itself writes; a line starting with one of these in a memory is a failure.
MARKERS = ("<<<<<<<", ">>>>>>>", "|||||||")


def base_env() -> dict[str, str]:
    """The caller's environment without anything that points git or memsync elsewhere."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GIT_", "MEMSYNC_", "CLAUDE_", "COVERAGE_"))
        and k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")
    }
    env["PYTHONPATH"] = str(REPO_ROOT)
    # An installed memsync runs from byte-compiled files; compiling every module on every
    # start would dominate the hook-path figures.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def write_git_config(path: Path, name: str, email: str) -> None:
    """A minimal global git config: identity, `main`, file protocol allowed."""
    path.write_text(
        f"[user]\n\tname = {name}\n\temail = {email}\n"
        "[init]\n\tdefaultBranch = main\n"
        '[protocol "file"]\n\tallow = always\n'
        "[commit]\n\tgpgsign = false\n"
        "[gc]\n\tauto = 0\n",
        encoding="utf-8",
    )


def git(
    *args: str, cwd: Path, env: Mapping[str, str] | None = None, data: bytes | None = None
) -> str:
    """Run git and return stdout; raise with stderr on failure."""
    proc = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env=dict(env) if env is not None else harness_git_env(cwd),
        input=data,
        capture_output=True,
        check=False,
        timeout=300,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed in {cwd}: {proc.stderr.decode()}")
    return proc.stdout.decode("utf-8", "surrogateescape")


def harness_git_env(anywhere: Path) -> dict[str, str]:
    """Environment for the harness's own git calls (the 'other team member')."""
    env = base_env()
    home = _harness_home(anywhere)
    env.update(
        {
            "HOME": str(home),
            "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0",
        }
    )
    return env


_HARNESS_HOME: dict[str, Path] = {}


def _harness_home(anywhere: Path) -> Path:
    home = _HARNESS_HOME.get("home")
    if home is None or not home.exists():
        home = Path(os.environ.get("TMPDIR", "/tmp")) / f"memsync-harness-git-{os.getpid()}"
        home.mkdir(parents=True, exist_ok=True)
        write_git_config(home / ".gitconfig", "Harness Teammate", "teammate@example.invalid")
        _HARNESS_HOME["home"] = home
    return home


def make_remote(path: Path, *, log_updates: bool = False) -> Path:
    """An empty bare repository; LOG_UPDATES installs an `update` hook recording every ref move."""
    path.parent.mkdir(parents=True, exist_ok=True)
    git("init", "-q", "--bare", "-b", "main", str(path), cwd=path.parent)
    git("config", "gc.auto", "0", cwd=path)
    if log_updates:
        hook = path / "hooks" / "update"
        # Records (ref, old, new, fast-forward?) so the harness can prove no push was forced.
        hook.write_text(
            "#!/bin/sh\n"
            'ff=ff\nif [ "$2" != 0000000000000000000000000000000000000000 ]; then\n'
            '  git merge-base --is-ancestor "$2" "$3" || ff=FORCED\nfi\n'
            'echo "$1 $2 $3 $ff" >> "$GIT_DIR/update-log"\n',
            encoding="utf-8",
        )
        hook.chmod(0o755)
    return path


def remote_files(remote: Path, prefix: str = PROJECT_KEY) -> dict[str, bytes]:
    """Every blob below PREFIX on the remote's main branch (path relative to PREFIX).

    Read with plain git, not memsync.git: the harness is the oracle that checks memsync,
    so it must not share memsync's readers (or their bugs).
    """
    try:
        listing = git("ls-tree", "-r", "-z", "main", "--", prefix + "/", cwd=remote)
    except RuntimeError:
        return {}
    shas: dict[str, str] = {}
    for record in listing.split("\0"):
        if not record:
            continue
        meta, _, path = record.partition("\t")
        _, kind, sha = meta.split()
        # SPEC 2: each project folder records its identity in `.memsync-project`, a file
        # that is never a memory and never reaches a live directory.
        if kind == "blob" and not path.endswith("/.memsync-project"):
            shas[path[len(prefix) + 1 :]] = sha
    if not shas:
        return {}
    proc = subprocess.run(
        ["git", "cat-file", "--batch"],
        cwd=remote,
        env=harness_git_env(remote),
        input="".join(f"{s}\n" for s in shas.values()).encode(),
        capture_output=True,
        check=True,
    )
    out: dict[str, bytes] = {}
    data, pos = proc.stdout, 0
    blobs: dict[str, bytes] = {}
    for sha in shas.values():
        end = data.index(b"\n", pos)
        size = int(data[pos:end].split()[2])
        blobs[sha] = data[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
    for path, sha in shas.items():
        out[path] = blobs[sha]
    return out


@dataclass
class Machine:
    """A simulated computer running the real memsync CLI in subprocesses."""

    name: str
    home: Path
    env: dict[str, str] = field(default_factory=dict)

    @property
    def claude_dir(self) -> Path:
        """`CLAUDE_CONFIG_DIR` of this machine."""
        return Path(self.env["CLAUDE_CONFIG_DIR"])

    @property
    def data_dir(self) -> Path:
        """`MEMSYNC_HOME` of this machine."""
        return Path(self.env["MEMSYNC_HOME"])

    @property
    def config_file(self) -> Path:
        """`MEMSYNC_CONFIG` of this machine."""
        return Path(self.env["MEMSYNC_CONFIG"])

    def command(self, *args: str) -> list[str]:
        """The argv of the real CLI."""
        return [sys.executable, "-m", "memsync", *args]

    def run(
        self,
        *args: str,
        cwd: Path | None = None,
        stdin: str | None = None,
        timeout: float = 300,
        extra_env: Mapping[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """Run `memsync ARGS` to completion (never raises on a non-zero exit)."""
        return subprocess.run(
            self.command(*args),
            cwd=cwd or self.home,
            env={**self.env, **(extra_env or {})},
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
            check=False,
        )

    def start(
        self,
        *args: str,
        cwd: Path | None = None,
        extra_env: Mapping[str, str] | None = None,
        stdin_data: str | None = None,
    ) -> subprocess.Popen[str]:
        """Start `memsync ARGS` in its own process group (so a crash can take git along)."""
        proc = subprocess.Popen(
            self.command(*args),
            cwd=cwd or self.home,
            env={**self.env, **(extra_env or {})},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            start_new_session=True,
        )
        if proc.stdin is not None:
            try:
                proc.stdin.write(stdin_data or "")
                proc.stdin.close()
            except BrokenPipeError:
                pass
            proc.stdin = None
        return proc

    def checkout_project(self, origin: str = ORIGIN, relpath: str = "src/api") -> Path:
        """A code repository with ORIGIN as its `origin` remote."""
        root = self.home / relpath
        root.mkdir(parents=True, exist_ok=True)
        git("init", "-q", str(root), cwd=self.home, env=self.env)
        git("remote", "add", "origin", origin, cwd=root, env=self.env)
        return root

    def live_dir(self, project: Path) -> Path:
        """Claude Code's memory directory of PROJECT on this machine."""
        from memsync.model.paths import sanitize_path

        return self.claude_dir / "projects" / sanitize_path(str(project.resolve())) / "memory"

    def team_dir(self, project: Path) -> Path:
        """The team memory directory of PROJECT on this machine."""
        return self.live_dir(project) / "team"

    def init(
        self, project: Path, private: str, team: str | None = None, *extra: str
    ) -> subprocess.CompletedProcess[str]:
        """`memsync init` against the given remotes; raise when it fails."""
        args = ["init", "--private", private, "--no-hooks", *extra]
        if team:
            args += ["--team", team]
        result = self.run(*args, cwd=project)
        if result.returncode != 0:
            raise RuntimeError(f"[{self.name}] init failed: {result.stdout}\n{result.stderr}")
        return result

    def set_settings(self, **settings: object) -> None:
        """Change memsync settings in this machine's config file."""
        import yaml

        data = yaml.safe_load(self.config_file.read_text(encoding="utf-8")) or {}
        data.setdefault("settings", {}).update(settings)
        self.config_file.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def make_machine(base: Path, name: str) -> Machine:
    """A machine rooted at BASE/NAME with its own identity, HOME and memsync dirs."""
    home = base / name
    if home.exists():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    write_git_config(home / ".gitconfig", f"{name} user", f"{name}@example.invalid")
    env = base_env()
    env.update(
        {
            "HOME": str(home),
            "USERPROFILE": str(home),
            "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "CLAUDE_CONFIG_DIR": str(home / ".claude"),
            "MEMSYNC_HOME": str(home / ".memsync"),
            "MEMSYNC_CONFIG": str(home / ".config" / "memsync" / "config.yaml"),
            "MEMSYNC_HOSTNAME": name,
        }
    )
    return Machine(name=name, home=home, env=env)


def memory_text(name: str, body: str, type_: str = "project") -> str:
    """A well-formed memory file."""
    return f"---\nname: {name}\ndescription: {name}\ntype: {type_}\n---\n{body}"


def write_memory(
    directory: Path, filename: str, name: str, body: str, type_: str = "project"
) -> Path:
    """Write a memory into a live directory."""
    path = directory / filename
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(memory_text(name, body, type_), encoding="utf-8")
    return path


def read_tree(directory: Path) -> dict[str, bytes]:
    """Every regular `.md` file below DIRECTORY (relative posix path -> bytes)."""
    out: dict[str, bytes] = {}
    if not directory.is_dir():
        return out
    for path in directory.rglob("*.md"):
        if path.is_file() and not path.is_symlink():
            out[path.relative_to(directory).as_posix()] = path.read_bytes()
    return out


def marker_lines(files: Mapping[str, bytes]) -> list[str]:
    """`path:line` of every conflict-marker line in FILES."""
    hits: list[str] = []
    for path, data in files.items():
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if line.startswith(MARKERS) or line.rstrip() == "=======":
                hits.append(f"{path}:{number}")
    return hits


def kill_group(proc: subprocess.Popen[str], sig: int = signal.SIGKILL) -> None:
    """Send SIG to the whole process group of PROC (memsync and its git children)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)


def wait_quietly(proc: subprocess.Popen[str], timeout: float) -> tuple[int | None, str, str]:
    """Wait for PROC; (exit code or None when it had to be killed, stdout, stderr)."""
    try:
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out, err
    except subprocess.TimeoutExpired:
        kill_group(proc)
        out, err = proc.communicate()
        return None, out, err


def timed(fn: object) -> float:
    """Wall time of calling FN()."""
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - start
