"""Expected values compiled into one test function: the fast path of argument matching.

:func:`compile_test` turns an expected value (a partial mapping, ``M.partial({...})``, any
other matcher or plain value) into a function of the actual value that answers exactly as
:func:`~agent_asserts.matching.structural.match_value` does. A mapping becomes one generated
function that reads each key once and compares plain values and ``M.regex`` patterns inline,
in the mapping's order, stopping at the first key that does not match (as the general rules
do); an actual value that is not a ``dict`` goes through the general rules.

A pattern inside a compiled mapping is searched with ``re`` directly, without reading the
armed time limit: use a compiled test only where :func:`~agent_asserts._deadline.re_interruptible`
holds (no limit armed, or one armed by a signal, which interrupts ``re`` itself). A selector
reads it once per selection and otherwise uses the matcher. :func:`compile_filter` generates the
whole selection loop over a sequence of items (no call per item).

>>> from agent_asserts.matching import M
>>> test = compile_test({"orderId": M.regex("^A"), "amount": 42})
>>> test({"orderId": "A1049", "amount": 42, "note": "x"}), test({"orderId": "A1", "amount": 42.5})
(True, False)
>>> test("not a mapping"), compile_test(M.gt(3))(4)
(False, True)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Final

from agent_asserts._values import MISSING
from agent_asserts.matching.base import Matcher
from agent_asserts.matching.scalar import RegexMatcher
from agent_asserts.matching.structural import PartialMatcher, match_value
from agent_asserts.matching.values import strict_equal

_PLAIN: Final = frozenset({str, int, float, bool, type(None)})
_MAX_KEYS: Final = 64  # a larger mapping is tested by the general rules (one generated line each)
_MAX_NESTING: Final = 8  # mappings nested deeper are tested by the general rules

Test = Callable[[Any], Any]
Filter = Callable[[Sequence[int], Sequence[Any]], list[int]]


def compile_test(expected: Any, nesting: int = 0) -> Test:
    """A function of the actual value, truthy exactly when ``match_value(expected, actual)``.

    >>> compile_test({"a": {"b": 1}})({"a": {"b": 1, "c": 2}})
    True
    """
    kind = type(expected)
    if kind is PartialMatcher and type(expected.value) is dict:
        return compile_test(expected.value, nesting)
    if kind is dict and len(expected) <= _MAX_KEYS and nesting < _MAX_NESTING:
        return _generated(expected, nesting, None)  # type: ignore[no-any-return]
    if kind is not dict and isinstance(expected, Matcher):
        return expected.matches
    return functools.partial(match_value, expected)


def compile_filter(expected: Any, subject: str) -> Filter | None:
    """For a mapping (or ``M.partial`` of one): a function ``(positions, items)`` returning the
    positions whose actual value — the expression ``subject`` of ``items[i]`` — matches, in
    one generated loop; None for any other expected value (use :func:`compile_test`).

    >>> from agent_asserts.matching import M
    >>> keep = compile_filter({"id": M.regex("^A")}, "items[i]")
    >>> keep([0, 1, 2, 3], [{"id": "A1"}, {"id": "B2"}, "A3", {"id": "A4", "n": 1}])
    [0, 3]
    """
    if type(expected) is PartialMatcher:
        expected = expected.value
    if type(expected) is not dict or len(expected) > _MAX_KEYS:
        return None
    return _generated(expected, 0, subject)  # type: ignore[no-any-return]


def _generated(expected: dict[Any, Any], nesting: int, subject: str | None) -> Any:
    """The keys' tests as one condition (joined by ``and``: in the mapping's order, stopping at
    the first key that does not match), generated as the test of one actual mapping
    (``subject`` None) or as the selection over ``subject`` values (one comprehension)."""
    env: dict[str, Any] = {
        "MISSING": MISSING,
        "strict_equal": strict_equal,
        "general": functools.partial(match_value, expected),
    }
    tests = []  # one expression per key (``a``: the actual mapping)
    for i, (key, value) in enumerate(expected.items()):
        env[f"k{i}"] = key
        got = f"(g := a.get(k{i}, MISSING))"
        kind = type(value)
        if kind in _PLAIN:  # the general rules' own fast path: same type, else strict_equal
            env[f"t{i}"], env[f"v{i}"] = kind, value
            tests.append(f"(g == v{i} if type{got} is t{i} else strict_equal(v{i}, g))")
        elif kind is RegexMatcher:  # a string is searched directly; anything else by M.regex
            env[f"s{i}"], env[f"m{i}"] = value.compiled.search, value.matches
            tests.append(f"(s{i}(g) is not None if type{got} is str else m{i}(g))")
        else:
            env[f"m{i}"] = compile_test(value, nesting + 1)
            tests.append(f"m{i}(a.get(k{i}, MISSING))")
    condition = " and ".join(tests) or "True"
    if subject is None:
        lines = [
            "def test(actual):",
            f"    return ({condition}) if type(a := actual) is dict else general(a)",
        ]
    else:
        lines = [
            "def keep(positions, items):",
            "    return [",
            "        i for i in positions",
            f"        if (({condition}) if type(a := {subject}) is dict else general(a))",
            "    ]",
        ]
    exec(compile("\n".join(lines), "<compiled partial mapping>", "exec"), env)
    return env["test" if subject is None else "keep"]


__all__ = ["Filter", "Test", "compile_filter", "compile_test"]
