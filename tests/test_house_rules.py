"""The house rules of docs/design/architecture.md ("Plain Python"), enforced on the source.

The library runs no generated source (no ``exec``, ``eval`` or ``compile`` of text), never
assigns ``__class__``, never writes into a frozen instance (``object.__setattr__``, a write
into ``__dict__``) and keeps no global cache keyed by object identity (``id(...)`` as a key,
a ``WeakKeyDictionary``). ``re.compile`` and friends are attribute calls and stay allowed.
The test suite loads no third-party pytest plugin that a test dependency brings along.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "agent_asserts"


def rule_breaches(source: str, filename: str) -> list[str]:
    """Every breach of the rules in one module's source, as ``file:line: what``.

    >>> rule_breaches("import re\\nre.compile('x')\\n", "m.py")
    []
    """
    tree = ast.parse(source, filename=filename)
    found: list[str] = []
    module_names = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }

    def add(node: ast.AST, what: str) -> None:
        found.append(f"{filename}:{getattr(node, 'lineno', 0)}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in {"exec", "eval", "compile"}:
                add(node, f"{func.id}() runs generated source")
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "__setattr__"
                and isinstance(func.value, ast.Name)
                and func.value.id == "object"
            ):
                add(node, "object.__setattr__ writes into an instance behind its back")
            if isinstance(func, ast.Name) and func.id == "setattr" and len(node.args) >= 2:
                name = node.args[1]
                if isinstance(name, ast.Constant) and name.value == "__class__":
                    add(node, "__class__ assignment")
            if isinstance(func, ast.Name) and func.id == "WeakKeyDictionary":
                add(node, "a cache keyed by object identity (WeakKeyDictionary)")
            if isinstance(func, ast.Attribute) and func.attr == "WeakKeyDictionary":
                add(node, "a cache keyed by object identity (WeakKeyDictionary)")
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and part.attr == "__class__":
                    add(node, "__class__ assignment")
                if (
                    isinstance(part, ast.Subscript)
                    and isinstance(part.value, ast.Attribute)
                    and part.value.attr == "__dict__"
                ):
                    add(node, "a write into __dict__")
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id in module_names
            and isinstance(node.slice, ast.Call)
            and isinstance(node.slice.func, ast.Name)
            and node.slice.func.id == "id"
        ):
            add(node, "a global table keyed by id(...)")
    return found


def test_the_library_follows_the_house_rules() -> None:
    breaches: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = str(path.relative_to(PACKAGE.parent))
        breaches += rule_breaches(path.read_text(encoding="utf-8"), rel)
    assert breaches == []


@pytest.mark.parametrize(
    ("source", "what"),
    [
        ("exec('x = 1')\n", "exec() runs generated source"),
        ("code = compile('1', '<s>', 'eval')\n", "compile() runs generated source"),
        ("obj.__class__ = Other\n", "__class__ assignment"),
        ("setattr(obj, '__class__', Other)\n", "__class__ assignment"),
        ("object.__setattr__(self, 'a', 1)\n", "object.__setattr__ writes into an instance"),
        ("self.__dict__['kept'] = 1\n", "a write into __dict__"),
        ("CACHE = {}\nCACHE[id(obj)] = 1\n", "a global table keyed by id(...)"),
        ("cache = weakref.WeakKeyDictionary()\n", "a cache keyed by object identity"),
    ],
)
def test_each_rule_is_caught(source: str, what: str) -> None:
    (breach,) = rule_breaches(source, "m.py")
    assert breach.startswith("m.py:")
    assert breach.split(": ", 1)[1].startswith(what)


def test_plain_code_passes() -> None:
    source = (
        "import re\nPATTERN = re.compile('a+')\nvalues = {}\nvalues['k'] = 1\n"
        "def by_id(items):\n    seen = {}\n    seen[id(items)] = items\n    return seen\n"
    )
    assert rule_breaches(source, "m.py") == []


def test_no_third_party_plugin_of_a_test_dependency_is_loaded(
    pytestconfig: pytest.Config,
) -> None:
    from importlib.metadata import entry_points

    needed = {"agent_asserts", "xdist", "xdist.looponfail", "hypothesispytest"}
    loaded = {
        ep.name
        for ep in entry_points(group="pytest11")
        if pytestconfig.pluginmanager.has_plugin(ep.name)
    }
    assert loaded <= needed
    assert not pytestconfig.pluginmanager.has_plugin("langsmith_plugin")


def test_pytesters_inner_sessions_load_no_third_party_plugin(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from importlib.metadata import entry_points

        def test_plugins(pytestconfig):
            loaded = {
                ep.name
                for ep in entry_points(group="pytest11")
                if pytestconfig.pluginmanager.has_plugin(ep.name)
            }
            assert loaded <= {"agent_asserts", "xdist", "xdist.looponfail"}, loaded
        """
    )
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
