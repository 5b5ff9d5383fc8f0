"""Deliberately broken suite files: the complete LoadError text is compared exactly.

Each ``data/broken/NAME.yml`` (or ``.json``) has ``NAME.expected`` beside it holding the whole
error text. Files are loaded from inside ``data/broken`` so that the paths in the messages are
just the file names.

The dialect registry is pinned to the native dialect (plus a ``demo`` dialect for the
ambiguous case), so that dialects added later do not change these texts; each dialect tests
its own broken files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import agent_asserts.loaders.dialects as dialects
from agent_asserts._registry import Registry
from agent_asserts.loaders import LoadError, load

BROKEN = Path(__file__).parent / "data" / "broken"
FILES = sorted(p for p in BROKEN.iterdir() if p.suffix in (".yml", ".json"))


@pytest.fixture
def pinned_dialects(monkeypatch: pytest.MonkeyPatch) -> None:
    dialects.dialects()  # import the built-ins first
    native = dialects.get_dialect("native")
    demo = dialects.Dialect(
        "demo",
        detect=lambda data: isinstance(data, dict) and "demo" in data,
        build=native.build,
        shape="a mapping with 'demo: true' (a dialect of the tests)",
    )
    pinned: Registry[dialects.Dialect] = Registry("dialect")
    pinned.add("native", native)
    pinned.add("demo", demo)
    monkeypatch.setattr(dialects, "DIALECTS", pinned)


def test_there_are_enough_broken_files() -> None:
    assert len(FILES) >= 10


@pytest.mark.usefixtures("pinned_dialects")
@pytest.mark.parametrize("loader", ["default", "pure-python"])
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_complete_error_text(path: Path, loader: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if loader == "pure-python":  # the same text without libyaml
        monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    monkeypatch.chdir(BROKEN)
    with pytest.raises(LoadError) as info:
        load(path.name)
    expected = path.with_suffix(".expected").read_text(encoding="utf-8")
    assert str(info.value) + "\n" == expected


@pytest.mark.usefixtures("pinned_dialects")
def test_problems_carry_their_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BROKEN)
    with pytest.raises(LoadError) as info:
        load("typos.yml")
    first = info.value.problems[0]
    assert (first.file, first.line, first.col, first.path) == ("typos.yml", 3, 5, "checks[0]")


@pytest.mark.usefixtures("pinned_dialects")
def test_same_problems_from_data_name_paths_only() -> None:
    data: Any = {"checks": [{"called_tol": "x"}, {"max_steps": "5"}]}
    with pytest.raises(LoadError) as info:
        load(data)
    assert str(info.value) == (
        "<data>: checks[0]: unknown check 'called_tol' (did you mean 'called_tool'?)\n"
        "<data>: checks[1].max_steps: must be an integer (got '5')"
    )
