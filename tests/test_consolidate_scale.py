"""What keeps consolidation near-linear on big stores has no effect outside planning."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from memsync.consolidate import engine
from memsync.consolidate.engine import make_plan
from testing.memories import write_memory


def test_planning_runs_without_the_cycle_collector_and_turns_it_back_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_memory(tmp_path, "a.md", "a", "Shipped yesterday.\n")
    seen: list[bool] = []
    real = engine.plan_folder

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "plan_folder", spy)
    assert gc.isenabled()
    assert make_plan(tmp_path).folders[0].dates
    assert seen == [False] and gc.isenabled()


def test_the_cycle_collector_comes_back_after_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_memory(tmp_path, "a.md", "a", "A\n")

    def broken(*args: object, **kwargs: object) -> object:
        raise OSError("disk gone")

    monkeypatch.setattr(engine, "plan_folder", broken)
    with pytest.raises(OSError, match="disk gone"):
        make_plan(tmp_path)
    assert gc.isenabled()


def test_a_caller_that_turned_it_off_keeps_it_off(tmp_path: Path) -> None:
    write_memory(tmp_path, "a.md", "a", "A\n")
    gc.disable()
    try:
        make_plan(tmp_path)
        assert not gc.isenabled()
    finally:
        gc.enable()
