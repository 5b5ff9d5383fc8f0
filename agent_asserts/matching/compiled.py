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
reads it once per selection and otherwise uses the matcher.

>>> from agent_asserts.matching import M
>>> test = compile_test({"orderId": M.regex("^A"), "amount": 42})
>>> test({"orderId": "A1049", "amount": 42, "note": "x"}), test({"orderId": "A1", "amount": 42.5})
(True, False)
>>> test("not a mapping"), compile_test(M.gt(3))(4)
(False, True)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final

from agent_asserts._missing import MISSING
from agent_asserts.matching.base import Matcher
from agent_asserts.matching.scalar import RegexMatcher
from agent_asserts.matching.structural import PartialMatcher, match_value
from agent_asserts.matching.values import strict_equal

_PLAIN: Final = frozenset({str, int, float, bool, type(None)})
_MAX_KEYS: Final = 64  # a larger mapping is tested by the general rules (one generated line each)
_MAX_NESTING: Final = 8  # mappings nested deeper are tested by the general rules

Test = Callable[[Any], Any]


def compile_test(expected: Any, nesting: int = 0) -> Test:
    """A function of the actual value, truthy exactly when ``match_value(expected, actual)``.

    >>> compile_test({"a": {"b": 1}})({"a": {"b": 1, "c": 2}})
    True
    """
    kind = type(expected)
    if kind is PartialMatcher and type(expected.value) is dict:
        return compile_test(expected.value, nesting)
    if kind is dict and len(expected) <= _MAX_KEYS and nesting < _MAX_NESTING:
        return _compile_mapping(expected, nesting)
    if kind is not dict and isinstance(expected, Matcher):
        return expected.matches
    return functools.partial(match_value, expected)


def _compile_mapping(expected: dict[Any, Any], nesting: int) -> Test:
    env: dict[str, Any] = {
        "MISSING": MISSING,
        "strict_equal": strict_equal,
        "general": functools.partial(match_value, expected),
    }
    lines = [
        "def test(actual):",
        "    if type(actual) is not dict:",
        "        return general(actual)",
        "    get = actual.get",
    ]
    for i, (key, value) in enumerate(expected.items()):
        env[f"k{i}"] = key
        lines.append(f"    got = get(k{i}, MISSING)")
        kind = type(value)
        if kind in _PLAIN:  # the general rules' own fast path: same type, else strict_equal
            env[f"t{i}"], env[f"v{i}"] = kind, value
            lines += [
                f"    if type(got) is t{i}:",
                f"        if got != v{i}:",
                "            return False",
                f"    elif not strict_equal(v{i}, got):",
                "        return False",
            ]
        elif kind is RegexMatcher:  # a string is searched directly; anything else by M.regex
            env[f"s{i}"], env[f"m{i}"] = value.compiled.search, value.matches
            lines += [
                "    if type(got) is str:",
                f"        if s{i}(got) is None:",
                "            return False",
                f"    elif not m{i}(got):",
                "        return False",
            ]
        else:
            env[f"m{i}"] = compile_test(value, nesting + 1)
            lines += [f"    if not m{i}(got):", "        return False"]
    lines.append("    return True")
    exec(compile("\n".join(lines), "<compiled partial mapping>", "exec"), env)
    return env["test"]  # type: ignore[no-any-return]


__all__ = ["Test", "compile_test"]
