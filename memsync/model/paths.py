"""Where Claude Code keeps memory, and which project a directory belongs to (SPEC 1, 2)."""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from memsync.model.limits import TEAM_DIR

MAX_SANITIZED_LENGTH = 200
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")
_KEY_UNSAFE = re.compile(r"[^a-z0-9._-]+")


@dataclass(frozen=True)
class ProjectLocation:
    """A code project as Claude Code and memsync see it."""

    root: Path
    memory_dir: Path
    origin_url: str | None
    key: str

    @property
    def team_dir(self) -> Path:
        """Claude Code's team memory directory for this project."""
        return self.memory_dir / TEAM_DIR


def claude_config_dir() -> Path:
    """`$CLAUDE_CONFIG_DIR`, else `~/.claude`."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def _djb2(text: str) -> int:
    """Claude Code's 32-bit string hash ((h << 5) - h + code unit), as a signed int."""
    value = 0
    for unit in _utf16_units(text):
        value = ((value << 5) - value + unit) & 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _utf16_units(text: str) -> list[int]:
    data = text.encode("utf-16-le", errors="surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out


def sanitize_path(path: str) -> str:
    """Claude Code's project folder name: non-alphanumerics become `-`, long names hashed."""
    # JavaScript counts UTF-16 code units; characters outside the BMP become two dashes.
    units = len(_utf16_units(path))
    sanitized = _NOT_ALNUM.sub(lambda m: "-" * (2 if ord(m.group()) > 0xFFFF else 1), path)
    if units <= MAX_SANITIZED_LENGTH and len(sanitized) <= MAX_SANITIZED_LENGTH:
        return sanitized
    return f"{sanitized[:MAX_SANITIZED_LENGTH]}-{_base36(abs(_djb2(path)))}"


def _git_dir_of(directory: Path) -> Path | None:
    """The `.git` directory (resolving a worktree's `gitdir:` file) of DIRECTORY itself."""
    dot_git = directory / ".git"
    if dot_git.is_dir():
        return dot_git
    if dot_git.is_file():
        try:
            content = dot_git.read_text(encoding="utf-8").strip()
        except OSError:
            return None
        if content.startswith("gitdir:"):
            target = Path(content[len("gitdir:") :].strip())
            return (directory / target).resolve() if not target.is_absolute() else target
    return None


def find_git_root(start: Path) -> tuple[Path, Path] | None:
    """(work tree root, git dir) of the repository containing START, without running git."""
    current = start.resolve()
    for candidate in (current, *current.parents):
        git_dir = _git_dir_of(candidate)
        if git_dir is not None:
            return candidate, git_dir
    return None


def canonical_git_root(start: Path) -> Path | None:
    """The main work tree of START's repository, shared by all its worktrees."""
    found = find_git_root(start)
    if found is None:
        return None
    root, git_dir = found
    commondir_file = git_dir / "commondir"
    if not commondir_file.is_file():
        return root
    try:
        common = Path(commondir_file.read_text(encoding="utf-8").strip())
    except OSError:
        return root
    common_dir = (git_dir / common).resolve() if not common.is_absolute() else common.resolve()
    # A bare common dir (no work tree) keeps the worktree's own root.
    return common_dir.parent if common_dir.name == ".git" else root


def project_root(start: Path) -> Path:
    """The directory whose path names a project's memory: canonical git root, else START."""
    return canonical_git_root(start) or start.resolve()


def memory_dir_for(root: Path, session_dir: Path | None = None) -> Path:
    """Claude Code's auto-memory directory for a project root, as the client picks it.

    First `$CLAUDE_COWORK_MEMORY_PATH_OVERRIDE` (absolute only, no `~`), then the
    `autoMemoryDirectory` setting of a session in SESSION_DIR (default ROOT), then
    `<base>/projects/<sanitized root>/memory`, base `$CLAUDE_CODE_REMOTE_MEMORY_DIR` as written
    or the Claude folder, NFC-normalised as the client does (2.1.330, docs/COMPATIBILITY.md).
    """
    from memsync.model.claudesettings import client_memory_path, configured_memory_dir

    override = client_memory_path(
        os.environ.get("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"), expand_home=False
    )
    if override is not None:
        return override
    claude_dir = claude_config_dir()
    configured = configured_memory_dir(session_dir or root, claude_dir)
    if configured is not None:
        return configured
    remote = os.environ.get("CLAUDE_CODE_REMOTE_MEMORY_DIR")
    # Taken as written: no `~`, and a relative folder is the session directory's.
    base = (session_dir or root) / remote if remote else claude_dir
    default = base / "projects" / sanitize_path(str(root)) / "memory"
    return Path(unicodedata.normalize("NFC", str(default)))


def origin_url(root: Path) -> str | None:
    """The `origin` remote URL from the repository's config file (no git process)."""
    found = find_git_root(root)
    if found is None:
        # A bare repository (a store's remote, a CI mirror) keeps its config at its top.
        bare = (root / "HEAD").is_file() and (root / "objects").is_dir()
        return origin_from_config_file(root / "config") if bare else None
    _, git_dir = found
    config_dirs = [git_dir]
    commondir_file = git_dir / "commondir"
    if commondir_file.is_file():
        common = Path(commondir_file.read_text(encoding="utf-8").strip())
        config_dirs.insert(0, common if common.is_absolute() else (git_dir / common).resolve())
    for config_dir in config_dirs:
        url = origin_from_config_file(config_dir / "config")
        if url:
            return url
    return None


def origin_from_config_file(config: Path) -> str | None:
    """The `remote.origin.url` set in git config file CONFIG, read without git."""
    try:
        lines = config.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    in_origin = False
    for raw in lines:
        line = raw.strip()
        if line.startswith("["):
            in_origin = re.fullmatch(r'\[remote\s+"origin"\]', line) is not None
        elif in_origin and re.match(r"url\s*=", line):
            return line.split("=", 1)[1].strip().strip('"')
    return None


_SCHEME_URL = re.compile(
    r"^(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*)://(?:[^@/]*@)?(?P<host>[^/]*)(?P<path>/.*)?$"
)
_SCP_URL = re.compile(r"^(?:[^@/:]+@)?(?P<host>[^/:]+):(?!//)(?P<path>.*)$")
_WINDOWS_PATH = re.compile(r"^[A-Za-z]:[\\/]")
_DEFAULT_PORTS = {"ssh": "22", "git+ssh": "22", "https": "443", "http": "80", "git": "9418"}


def normalize_url(url: str, cwd: Path | None = None) -> str:
    """One spelling per repository: `git@Host:o/r.git`, `https://host/o/r/`, `ssh://…` agree.

    The one rule for store identity (which clone a store uses) and project keys. A forge
    URL becomes `host[:port]/path` in lower case, without user, scheme, default port,
    trailing slash or `.git`; a local path (or `file://` URL) becomes an absolute path.
    """
    url = url.strip()
    match = _SCHEME_URL.match(url)
    if match and match.group("scheme").lower() == "file":
        return _local_path(match.group("path") or "/", cwd)
    if match:
        host = match.group("host").lower()
        name, _, port = host.partition(":")
        if port and port == _DEFAULT_PORTS.get(match.group("scheme").lower()):
            host = name
        return _forge_path(host, match.group("path") or "")
    scp = _SCP_URL.match(url)
    if scp and not _WINDOWS_PATH.match(url):
        return _forge_path(scp.group("host").lower(), scp.group("path"))
    return _local_path(url, cwd)


def _forge_path(host: str, path: str) -> str:
    parts = [p for p in path.replace("\\", "/").split("/") if p and p != "."]
    joined = "/".join(parts).casefold()
    joined = joined.removesuffix(".git")
    return f"{host}/{joined}" if joined else host


def _local_path(path: str, cwd: Path | None) -> str:
    if _WINDOWS_PATH.match(path):
        return path.replace("\\", "/").rstrip("/")
    # A filesystem remote is one directory however it is reached (relative path, symlink).
    full = Path(path).expanduser()
    if not full.is_absolute():
        full = (cwd or Path.cwd()) / full
    return os.path.realpath(full).rstrip("/") or "/"


def is_local_url(normalized: str) -> bool:
    """Whether a normalised URL names a directory on this machine rather than a forge."""
    return normalized.startswith("/") or _WINDOWS_PATH.match(normalized) is not None


def key_from_url(url: str) -> str | None:
    """Project key from a remote URL: `git@github.com:Acme/API.git` -> `acme-api`."""
    return key_from_normalized(normalize_url(url)) if url.strip() else None


def key_from_normalized(normalized: str) -> str | None:
    """Project key from a URL `normalize_url` already returned."""
    if is_local_url(normalized):
        # A filesystem remote is named by its repository, not by where the disk mounts it.
        name = normalized.rsplit("/", 1)[-1].removesuffix(".git")
        return _clean_key(name)
    _, _, path = normalized.partition("/")
    parts = [p for p in path.split("/") if p not in ("", "..", "~")]
    # owner/name identifies a project on every forge; nested groups keep every part.
    return _clean_key("-".join(parts)) if parts else None


def _clean_key(text: str) -> str | None:
    key = _KEY_UNSAFE.sub("-", text.casefold()).strip("-.")
    return key or None


def project_key(root: Path, url: str | None) -> str:
    """The folder a project's memory lives in inside each store."""
    from_url = key_from_url(url) if url else None
    return from_url or _clean_key(root.name) or "project"


def locate_project(start: Path) -> ProjectLocation:
    """Everything memsync needs to know about the project containing START."""
    root = project_root(start)
    url = origin_url(root)
    return ProjectLocation(
        root=root,
        memory_dir=memory_dir_for(root, start.resolve()),
        origin_url=url,
        key=project_key(root, url),
    )
