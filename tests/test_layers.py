"""The layer order of ``docs/design/architecture.md``, enforced; the document and this test
share one layer table, and the document names every module.

Every module's imports are read with :mod:`ast`: module-level ones, the ones inside functions
and the ones under ``if TYPE_CHECKING:``. Three rules:

1. **No upward import.** A module imports only modules of its own layer or of a layer above it
   in the list (a lower number). ``TYPE_CHECKING``-only imports count too: they cannot create a
   runtime cycle, but an annotation naming a higher layer is still a dependency on it.
2. **No cycle.** The graph of runtime imports (module level and inside functions) has no cycle.
   ``TYPE_CHECKING``-only imports are left out of this rule only: two modules of one layer may
   name each other's types (``TrialRecord.builder()`` returns a ``RecordBuilder`` whose
   ``build()`` returns a ``TrialRecord``) without any import-order hazard.
3. **No hidden import inside a function.** An import inside a function (or method) of another
   ``agent_asserts`` module is only allowed in the lazy public façade
   (``agent_asserts/__init__.py``) and in the pairs listed in :data:`DEFERRED`, each with its
   reason; elsewhere it would hide a dependency (and a cycle) from the module header. Imports
   of optional third-party packages (PyYAML, jsonschema, an extra's package) and of the
   standard library may be deferred. A listed pair is left out of the cycle rule, and a
   listed pair that no longer occurs fails :func:`test_every_deferred_pair_is_still_needed`,
   so the list only shrinks.

Also: every top-level module and package of ``agent_asserts/`` has a layer, so a new top-level
module fails here until the layout documents it.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "agent_asserts"

# The layer of each top-level module or package of agent_asserts (docs/design/architecture.md,
# "Layers": test_the_layer_table_is_the_architecture_documents keeps the two in step).
# A module may import from its own layer or from a lower number. Private helpers (``_*.py``)
# are layer 1. The edges are split in two: ``loaders`` and the ``report`` renderers (9) are
# imported by the outermost edges (10); nothing below imports them. ``CaseResult._repr_html_``
# and ``BatchResult``'s reports reach the renderers through ``agent_asserts._reporting``, a
# seam the façade fills (it is the composition root above every layer); the rows every
# report renders (``ReportRow``, ``rows_of``, the tallies) live in ``results`` (6). The façade
# ``agent_asserts/__init__.py`` is above everything.
LAYERS: dict[str, int] = {
    "errors": 1,
    "status": 1,
    "outcome": 4,
    "record": 2,
    "matching": 3,
    "selectors": 4,
    "checks": 5,
    "contract": 5,
    "judges": 5,
    "results": 6,
    "serialization": 6,
    "fluent": 7,
    "context": 7,
    "runner": 8,
    "trials": 8,
    "batch": 8,
    "loaders": 9,
    "report": 9,
    "findings": 9,
    "mining": 9,
    "comparison": 9,
    "live": 10,
    "cli": 10,
    "integrations": 10,
    "pytest_plugin": 10,
    "pytest_support": 10,
    "testing": 10,
    "__main__": 10,
}
FACADE_LAYER = 11

# The deferred (in-function) imports still allowed, with why. Keep this list short: a new
# entry needs a reason a reviewer accepts.
DEFERRED: dict[tuple[str, str], str] = {
    ("agent_asserts.matching.base", "agent_asserts.matching.combinators"): (
        "Matcher's operators (&, |, ~) build the combinator matchers, which are Matchers"
    ),
    ("agent_asserts.record.trial", "agent_asserts.record.builder"): (
        "TrialRecord.builder() returns the RecordBuilder whose build() makes a TrialRecord"
    ),
    ("agent_asserts.record.trial", "agent_asserts.record.reading"): (
        "TrialRecord.load(), from_trace() and with_state() read through the format registry, "
        "whose adapters build TrialRecords"
    ),
    ("agent_asserts.live", "agent_asserts.live.otel"): (
        "EvaluatingSpanProcessor needs the otel extra; agent_asserts.live.openai_agents (a "
        "submodule, so the package is imported first) must import without it"
    ),
    ("agent_asserts.__main__", "agent_asserts.cli"): (
        "the console-script entry handles Ctrl-C from its first instruction, so the command's "
        "imports happen inside its handling (exit 130, no traceback)"
    ),
    # The pytest plugin is imported by every pytest session of every project that installs
    # agent_asserts: its hooks import their logic on first use so that stays cheap.
    **{
        ("agent_asserts.pytest_plugin", f"agent_asserts.{target}"): "plugin load stays cheap"
        for target in ("pytest_support", "report")
    },
}

# Beside the checks (layer 5): only these check modules may import ``contract`` or ``judges``
# at run time (``checks/base.py`` names the ``Judge`` type in annotations only).
BRIDGES_TO_CONTRACT_AND_JUDGES = {
    "agent_asserts.checks.contract",
    "agent_asserts.checks.semantic",
}


@attrs.frozen
class Import:
    """One import statement's target, as seen from the module that holds it."""

    source: str
    target: str
    line: int
    in_function: bool
    type_checking: bool


def module_names(root: Path) -> dict[str, Path]:
    """Map every module of the package at ``root`` to its file (packages by ``__init__``)."""
    names: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return "TYPE_CHECKING" in ast.unparse(test)


def _import_nodes(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
    """Yield each import node with (inside a function, under TYPE_CHECKING).

    Imports are statements, so only statement bodies are walked (never expressions).
    """

    def walk(
        body: list[ast.stmt], in_function: bool, type_checking: bool
    ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
        for node in body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                yield node, in_function, type_checking
            elif isinstance(node, ast.If) and _is_type_checking(node.test):
                yield from walk(node.body, in_function, True)
                yield from walk(node.orelse, in_function, type_checking)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from walk(node.body, True, type_checking)
            else:
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    children = getattr(node, field, None)
                    if isinstance(children, list):
                        stmts = [c for c in children if isinstance(c, ast.stmt)]
                        for child in children:
                            if isinstance(child, ast.ExceptHandler | ast.match_case):
                                stmts += child.body
                        yield from walk(stmts, in_function, type_checking)

    yield from walk(tree.body, False, False)


def _targets(
    module: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: set[str]
) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = module.split(".")
        if not is_package:
            base.pop()
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module or ""
    # ``from pkg import sub`` imports the submodule ``pkg.sub`` when it is one.
    return [
        f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in known else prefix
        for alias in node.names
    ]


@functools.cache
def read_imports(root: Path) -> list[Import]:
    """Every import of a module of the package at ``root`` into that same package (read once
    per session and root)."""
    modules = module_names(root)
    known = set(modules)
    package = root.name
    found: list[Import] = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node, in_function, type_checking in _import_nodes(tree):
            for target in _targets(module, is_package, node, known):
                if target != package and not target.startswith(package + "."):
                    continue
                while target not in modules and "." in target:
                    target = target.rsplit(".", 1)[0]
                found.append(Import(module, target, node.lineno, in_function, type_checking))
    return found


def layer_of(module: str) -> int:
    """The layer of a module of agent_asserts (KeyError when the layout does not place it)."""
    parts = module.split(".")
    if len(parts) == 1:
        return FACADE_LAYER
    top = parts[1]
    if top.startswith("_") and top != "__main__":
        return 1
    return LAYERS[top]


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for node in sorted(edges):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return found


def layer_problems(root: Path) -> list[str]:
    """Every breach of the three rules in the package at ``root``, one line each."""
    imports = read_imports(root)
    modules = module_names(root)
    rel = root.parent
    problems: list[str] = []
    for module in modules:
        try:
            layer_of(module)
        except KeyError:
            problems.append(
                f"{module}: not placed in a layer "
                "(add it to docs/design/architecture.md and LAYERS)"
            )
    runtime: dict[str, set[str]] = {}
    for imp in imports:
        where = f"{modules[imp.source].relative_to(rel)}:{imp.line}"
        try:
            upward = layer_of(imp.target) > layer_of(imp.source)
        except KeyError:
            continue
        if upward:
            problems.append(
                f"{where}: {imp.source} (layer {layer_of(imp.source)}) imports "
                f"{imp.target} (layer {layer_of(imp.target)}), a higher layer"
            )
        if (
            not imp.type_checking
            and imp.source.startswith("agent_asserts.checks")
            and imp.target.split(".")[1:2] in (["contract"], ["judges"])
            and imp.source not in BRIDGES_TO_CONTRACT_AND_JUDGES
        ):
            problems.append(
                f"{where}: {imp.source} imports {imp.target}; only "
                "checks/contract.py and checks/semantic.py bridge to them"
            )
        deferred = imp.in_function and (imp.source, imp.target) in DEFERRED
        if imp.in_function and layer_of(imp.source) != FACADE_LAYER and not deferred:
            problems.append(f"{where}: {imp.source} imports {imp.target} inside a function")
        if not imp.type_checking and imp.source != imp.target and not deferred:
            runtime.setdefault(imp.source, set()).add(imp.target)
    for cycle in _cycles(runtime):
        problems.append("import cycle: " + " <-> ".join(cycle))
    return problems


def test_agent_asserts_respects_its_layers() -> None:
    assert layer_problems(PACKAGE) == []


def test_every_deferred_pair_is_still_needed() -> None:
    found = {(i.source, i.target) for i in read_imports(PACKAGE) if i.in_function}
    assert sorted(set(DEFERRED) - found) == []


# -- the checker itself, on throwaway packages -------------------------------------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "agent_asserts"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_an_upward_import_fails(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "record/__init__.py": "",
            "record/trial.py": "from agent_asserts.context import EvalContext\n",
            "context.py": "from agent_asserts.record import trial\n",
        },
    )
    assert layer_problems(root) == [
        "agent_asserts/record/trial.py:1: agent_asserts.record.trial (layer 2) imports "
        "agent_asserts.context (layer 7), a higher layer",
        "import cycle: agent_asserts.context <-> agent_asserts.record.trial",
    ]


def test_an_upward_import_for_annotations_only_fails_but_is_no_cycle(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "results.py": "from agent_asserts import loaders\n",
            "loaders.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from agent_asserts.results import CaseResult\n"
            ),
            "checks/__init__.py": "",
            "checks/base.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from agent_asserts.results import CaseResult\n"
            ),
        },
    )
    assert layer_problems(root) == [
        "agent_asserts/checks/base.py:3: agent_asserts.checks.base (layer 5) imports "
        "agent_asserts.results (layer 6), a higher layer",
        "agent_asserts/results.py:1: agent_asserts.results (layer 6) imports "
        "agent_asserts.loaders (layer 9), a higher layer",
    ]


def test_an_import_inside_a_function_fails_unless_optional_or_the_facade(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "def __getattr__(name):\n    from agent_asserts import context\n",
            "context.py": "",
            "runner.py": (
                "def run():\n    import yaml\n    import json\n    from . import context\n"
            ),
        },
    )
    assert layer_problems(root) == [
        "agent_asserts/runner.py:4: agent_asserts.runner imports agent_asserts.context "
        "inside a function",
    ]


def test_a_cycle_inside_one_layer_fails(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "matching/__init__.py": "",
            "matching/left.py": "def f():\n    from .right import AllOf\n",
            "matching/right.py": "from agent_asserts.matching.left import Matcher\n",
        },
    )
    assert layer_problems(root) == [
        "agent_asserts/matching/left.py:2: agent_asserts.matching.left imports "
        "agent_asserts.matching.right inside a function",
        "import cycle: agent_asserts.matching.left <-> agent_asserts.matching.right",
    ]


def test_a_module_the_layout_does_not_place_fails(tmp_path: Path) -> None:
    root = _package(tmp_path, {"helpers.py": ""})
    assert layer_problems(root) == [
        "agent_asserts.helpers: not placed in a layer "
        "(add it to docs/design/architecture.md and LAYERS)",
    ]


@pytest.mark.parametrize("module", ["agent_asserts._values", "agent_asserts.record.trial"])
def test_layer_of_known_modules(module: str) -> None:
    assert layer_of(module) in (1, 2)


# -- the architecture document shares the layer table and names every module ------------------

ROOT = PACKAGE.parent
ARCHITECTURE = ROOT / "docs" / "design" / "architecture.md"


def _section(text: str, heading: str) -> str:
    """The body of the ``## heading`` section of a markdown page."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def documented_layers(text: str) -> dict[str, int]:
    """The layer table of the architecture document: ``| N | `name`, `name` | … |`` rows."""
    layers: dict[str, int] = {}
    for line in _section(text, "Layers").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].isdigit():
            continue
        for name in re.findall(r"`([\w.*]+)`", cells[1]):
            layers[name] = int(cells[0])
    return layers


def documented_modules(text: str) -> set[str]:
    """Every module file the "Rooms" section names (``agent_asserts/…/name.py``)."""
    return set(re.findall(r"`(agent_asserts/[\w/]+\.py)`", _section(text, "Rooms")))


def test_the_layer_table_is_the_architecture_documents() -> None:
    layers = documented_layers(ARCHITECTURE.read_text(encoding="utf-8"))
    assert layers.pop("__init__") == FACADE_LAYER
    assert layers.pop("_*") == 1
    assert layers == LAYERS


def test_the_architecture_document_names_every_module_and_no_other() -> None:
    named = documented_modules(ARCHITECTURE.read_text(encoding="utf-8"))
    on_disk = {str(path.relative_to(ROOT)) for path in PACKAGE.rglob("*.py")}
    assert sorted(on_disk - named) == [], "modules the architecture document leaves out"
    assert sorted(named - on_disk) == [], "modules the architecture document names in vain"


# The design guidance outside the repository (the lead's notes) is never cited: a clone of this
# repository does not contain it.
OUTSIDE_DOCUMENTS = re.compile(r"\b(ARCHITECTURE|API|STYLE)\.md\b|\.\./shared/")


def test_no_file_cites_a_document_outside_the_repository() -> None:
    cited = []
    for folder in ("agent_asserts", "tests", "docs", "benchmarks", ".ci"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in {".py", ".md", ".yml", ".yaml", ".toml", ""} or path.is_dir():
                continue
            if path == Path(__file__):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            cited += [
                f"{path.relative_to(ROOT)}: {m.group(0)}" for m in OUTSIDE_DOCUMENTS.finditer(text)
            ]
    for name in ("README.md", "CHANGELOG.md", "pyproject.toml"):
        text = (ROOT / name).read_text(encoding="utf-8")
        cited += [f"{name}: {m.group(0)}" for m in OUTSIDE_DOCUMENTS.finditer(text)]
    assert cited == []
