"""The package layout holds: arrows point down the layers, no cycles, small modules.

docs/ARCHITECTURE.md draws the layers; this test is what keeps the drawing true.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "memsync"

# Lower numbers sit lower: a module may import its own package and any lower layer.
LAYERS: dict[str, float] = {
    "__init__": 0,
    "errors": 0,
    "model": 1,
    "fsutil": 2,
    "git": 2,
    "dirs": 0.5,  # where memsync's own files live: nothing of memsync below it
    "configschema": 2.4,  # the config file's schema and its check: pure, below config
    "config": 2.5,  # memsync's own settings file: written with fsutil, read by the layers above
    "merge": 3,
    "consolidate": 4,
    "check": 5,
    "sync": 6,
    "team": 7,
    "cli": 8,
    "__main__": 9,
}
MAX_LINES = 400


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).with_suffix("")
        yield ".".join(("memsync", *relative.parts)).removesuffix(".__init__"), path


def _imports(path: Path, *, typing_only: bool = True) -> Iterator[tuple[int, str]]:
    """(line, dotted memsync module) for every import in PATH, lazy ones included.

    Without TYPING_ONLY, imports under `if TYPE_CHECKING:` are left out: they never run, so
    they cannot form an import cycle (they still must point down the layers)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[ast.AST] = set()
    if not typing_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                skipped.update(n for stmt in node.body for n in ast.walk(stmt))
    for node in ast.walk(tree):
        if node in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "memsync":
                for alias in node.names:
                    yield node.lineno, f"memsync.{alias.name}"
            elif node.module.startswith("memsync."):
                yield node.lineno, node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("memsync."):
                    yield node.lineno, alias.name


def _layer(module: str) -> tuple[str, float]:
    top = module.split(".")[1] if "." in module else "__init__"
    if top.startswith("__") and top not in LAYERS:  # `from memsync import __version__`
        top = "__init__"
    return top, LAYERS[top]


def test_every_top_level_module_and_package_has_a_layer() -> None:
    tops = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()}
    tops = {t for t in tops if not t.startswith((".", "_")) or t in ("__init__", "__main__")}
    tops -= {"py", "data"}  # py.typed, package data
    assert tops <= set(LAYERS), f"no layer for {sorted(tops - set(LAYERS))}"


def test_imports_point_down_the_layers() -> None:
    upward = []
    for module, path in _modules():
        top, level = _layer(module)
        for line, target in _imports(path):
            target_top, target_level = _layer(target)
            if target_level > level or (target_level == level and target_top != top):
                upward.append(f"{path.relative_to(ROOT)}:{line} {module} -> {target}")
    assert not upward, "imports against the layer order:\n" + "\n".join(upward)


def test_no_import_cycles_between_modules() -> None:
    graph: dict[str, set[str]] = {}
    known = {module for module, _ in _modules()}
    for module, path in _modules():
        targets = {t for _, t in _imports(path, typing_only=False) if t in known and t != module}
        # A package's __init__ re-exporting its own modules is not a cycle of concepts.
        graph[module] = {t for t in targets if not module.startswith(t + ".")}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*trail[trail.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_only_the_cli_imports_typer_or_rich() -> None:
    offenders = []
    for module, path in _modules():
        if module.startswith("memsync.cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            offenders += [f"{module}: {n}" for n in names if n.split(".")[0] in ("typer", "rich")]
    assert not offenders, offenders


def test_modules_stay_small() -> None:
    sizes = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for _, path in _modules()
    }
    too_big = {name: size for name, size in sizes.items() if size > MAX_LINES}
    assert not too_big, f"modules over {MAX_LINES} lines (split them): {too_big}"


@pytest.mark.parametrize(
    "package", sorted(t for t in LAYERS if (PACKAGE / t / "__init__.py").exists())
)
def test_each_package_says_what_it_owns_and_may_import(package: str) -> None:
    init = PACKAGE / package / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    assert "import" in doc, f"memsync/{package}/__init__.py must say what it may import"


# Modules outside the git boundary that start another program, and which.
OTHER_PROGRAMS = {
    "memsync.team.github": "gh, GitHub's command line",
    "memsync.team.memsyncspec": "pip or uv, to check that the install spec resolves",
}


def _names_used(path: Path) -> set[str]:
    """Every name and imported module PATH refers to (attributes by their own name)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
            names.update(alias.name for alias in node.names)
    return names


def test_git_runs_only_behind_the_git_boundary() -> None:
    offenders = []
    for module, path in _modules():
        if module.startswith("memsync.git"):
            continue
        text = path.read_text(encoding="utf-8")
        used = _names_used(path)
        if '"git",' in text or "['git'" in text or "run_git" in used:
            offenders.append(f"{module} runs git itself: add a function to memsync.git")
        if {"subprocess", "posix_spawn", "posix_spawnp"} & used and module not in OTHER_PROGRAMS:
            offenders.append(f"{module} starts a program: git goes through memsync.git")
    assert not offenders, "\n".join(offenders)


def test_imports_are_absolute() -> None:
    relative = [
        f"{module}:{node.lineno}"
        for module, path in _modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level > 0
    ]
    assert not relative, f"relative imports hide the layer they reach: {relative}"


def test_dependencies_are_the_ones_used() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {
        d.split(">")[0].split("<")[0].split("=")[0].strip() for d in project["dependencies"]
    }
    imported = {"python-frontmatter": "frontmatter", "pyyaml": "yaml"}
    sources = "\n".join(p.read_text(encoding="utf-8") for _, p in _modules())

    def used(name: str) -> bool:
        module = re.escape(imported.get(name, name).replace("-", "_"))
        return re.search(rf"^\s*(?:import|from) {module}\b", sources, re.M) is not None

    unused = [name for name in declared if not used(name)]
    assert not unused, f"declared but never imported: {unused}"
    import sys

    # `_sha2` is CPython 3.12's own SHA-2 module (model/digest.py), standard library there.
    newer_stdlib = {"_sha2"}
    allowed = {imported.get(n, n).replace("-", "_") for n in declared} | {"memsync"} | newer_stdlib
    undeclared = sorted(
        f"{module}: {name}"
        for module, path in _modules()
        for name in _third_party(path)
        if name not in allowed and name not in sys.stdlib_module_names
    )
    assert not undeclared, f"imported but not declared in pyproject.toml: {undeclared}"


def _third_party(path: Path) -> set[str]:
    tops: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            tops.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            tops.add(node.module.split(".")[0])
    return tops


def test_tests_share_helpers_through_testing_not_each_other() -> None:
    offenders = []
    for path in sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "testing").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tests"):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.module}")
    assert not offenders, "import shared test code from testing/:\n" + "\n".join(offenders)


def test_every_dataclass_has_a_docstring() -> None:
    # dataclasses describes a class without one with inspect.signature, which loads inspect,
    # ast, dis and tokenize: memsync's entry point defers inspect for that reason.
    missing = []
    for module, path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef) or ast.get_docstring(node):
                continue
            if any("dataclass" in ast.unparse(d) for d in node.decorator_list):
                missing.append(f"{module}.{node.name}")
    assert not missing, missing
