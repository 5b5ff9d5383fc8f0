"""The recipes of docs/design/architecture.md, followed with throwaway modules: a dialect is one
module of ``agent_asserts/loaders/``, a record format one module of
``agent_asserts/record/adapters/``; nothing else is edited (the package's search path is
extended with a temporary folder holding the new module, as if it had been added)."""

from __future__ import annotations

import importlib
import json
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from agent_asserts import TrialRecord
from agent_asserts._registry import Registry
from agent_asserts.loaders import dialects as dialect_registry
from agent_asserts.loaders import loads
from agent_asserts.loaders.dialects import Dialect
from agent_asserts.record.adapters import _registry as format_registry
from agent_asserts.record.adapters import detect, formats

BUILT_IN_FORMATS = (
    "native",
    "mantle",
    "ces",
    "openai-chat",
    "anthropic",
    "openai-responses",
    "gemini",
    "langchain",
    "mcp",
    "otel",
    "openai-agents",
    "pydantic-ai",
    "langfuse",
    "langsmith",
    "inspect-ai",
    "claude-code",
    "openai-agents-run",
    "mlflow",
    "openinference",
    "deepeval",
)
"""The order docs/traces.md and error messages list the built-in formats in."""


def _add_module(package: ModuleType, folder: Path, name: str, source: str) -> str:
    """Write ``name.py`` into ``folder`` and put ``folder`` on ``package``'s search path."""
    (folder / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    package.__path__.append(str(folder))
    return f"{package.__name__}.{name}"


@pytest.fixture
def fresh_formats(monkeypatch: pytest.MonkeyPatch) -> None:
    """The format registry as before its first use (a fresh table loading the built-ins);
    the real one is put back afterwards."""
    fresh = Registry("trace format", load=format_registry.load_builtins)
    monkeypatch.setattr(format_registry, "FORMATS", fresh)
    monkeypatch.setattr(format_registry, "_builtins_loaded", False)


def test_the_built_in_formats_keep_their_documented_order(fresh_formats: None) -> None:
    assert formats() == BUILT_IN_FORMATS


def test_recipe_add_a_record_format_is_one_module(fresh_formats: None, tmp_path: Path) -> None:
    package = importlib.import_module("agent_asserts.record.adapters")
    folder = tmp_path / "adapters"
    folder.mkdir()
    module_name = _add_module(
        package,
        folder,
        "toy_trace",
        '''
        """A throwaway trace format: {"toy_turns": ["hi", "bye"]}."""
        from agent_asserts.record import TrialRecord

        FORMAT = "toy-trace"
        ORDER = 999


        def detect(data):
            return isinstance(data, dict) and "toy_turns" in data


        def to_records(data, *, source=None, **options):
            builder = TrialRecord.builder()
            for text in data["toy_turns"]:
                builder.agent(text)
            yield builder.build()
        ''',
    )
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"toy_turns": ["hi", "bye"]}), encoding="utf-8")
    try:
        listed = formats()
        found = detect({"toy_turns": []})
        record = TrialRecord.load(run)
    finally:
        package.__path__.remove(str(folder))
        sys.modules.pop(module_name, None)
    assert listed == (*BUILT_IN_FORMATS, "toy-trace")
    assert found == "toy-trace"
    assert record.reply == "bye"


def test_recipe_add_a_dialect_is_one_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = importlib.import_module("agent_asserts.loaders")
    dialect_registry.dialects()  # the built-ins are registered
    folder = tmp_path / "loaders"
    folder.mkdir()
    module_name = _add_module(
        package,
        folder,
        "toy_dialect",
        '''
        """A throwaway dialect: {"be_polite": ["sorry", "thanks"]}."""
        import json

        from agent_asserts.loaders import loads, register_dialect
        from agent_asserts.loaders.nodes import to_plain

        SHAPE = "`be_polite: [words]`"


        def detect(data):
            return isinstance(data, dict) and "be_polite" in data


        def build(doc, ctx):
            words = to_plain(doc)["be_polite"]
            checks = [{"message_includes": word} for word in words]
            return loads(json.dumps({"name": "polite", "checks": checks}))


        register_dialect("toy", detect=detect, build=build, shape=SHAPE, order=60)
        ''',
    )
    # the table as before its first read: its load imports the package's modules (those
    # already imported keep their entries)
    fresh: Registry[Dialect] = Registry("dialect", load=dialect_registry._import_dialect_modules)
    for name, dialect in dialect_registry.DIALECTS.items():
        fresh.add_builtin(name, dialect)
    monkeypatch.setattr(dialect_registry, "DIALECTS", fresh)
    try:
        names = [d.name for d in dialect_registry.dialects()]
        suite = loads("be_polite: [sorry]")
    finally:
        package.__path__.remove(str(folder))
        sys.modules.pop(module_name, None)
    assert names == ["mantle", "cxas", "sop", "contract", "native", "toy"]
    assert [e.check.describe() for e in suite.cases[0].entries] == ["message_includes('sorry')"]
