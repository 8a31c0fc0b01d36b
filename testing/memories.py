"""Memory files for tests, in the format the tests ask for."""

from __future__ import annotations

from pathlib import Path


def write_memory(
    directory: Path,
    filename: str,
    name: str,
    body: str,
    *,
    type_: str = "project",
    description: str | None = None,
) -> Path:
    """Write a well-formed memory file and return its path."""
    path = directory / filename
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"---\nname: {name}\ndescription: {description or name}\ntype: {type_}\n---\n{body}",
        encoding="utf-8",
    )
    return path
