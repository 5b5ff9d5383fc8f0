"""Read an ``expect:`` entry: a value expectation over a record field, a state path or a literal.

``value`` names the value (``reply``, ``status``, ``steps``, ``usage.total_tokens``… or a JSON
Pointer into ``final_state``; ``initial: true`` reads ``initial_state``), or ``literal`` gives
it; one expectation key (``includes``, ``equals``, ``matches``, ``similarity``…, from
:data:`~agent_asserts.checks.expectations.VALUE_CHECKS`) holds the expected value, and the
expectation's other fields sit beside it. :func:`read_expectation` is the one reader of this
mapping, for the suite-file loader (which also allows its sibling keys, ``severity``…) and for
the cattrs converter (a check's data form ``{"expect": {…}}``).

>>> from agent_asserts.checks.located import DataReading
>>> problems: list[tuple[str, str]] = []
>>> body = {"value": "reply", "similarity": "Refund issued"}
>>> read_expectation((body, "$.expect"), DataReading(problems))
(Similarity(source=RecordField(name='reply'), expected='Refund issued'), {})
>>> read_expectation(({"value": "reply"}, "$.expect"), DataReading(problems))
(None, {})
>>> problems
[('$.expect', "names no expectation (one of 'includes', 'equals', 'matches', 'similarity')")]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from agent_asserts._text import unknown_key_message
from agent_asserts.checks.expectations import VALUE_CHECKS
from agent_asserts.checks.field_reader import read_value
from agent_asserts.checks.located import IS_MAPPING, Reading
from agent_asserts.checks.signatures import Signature, TypeSpec, build_check, signature
from agent_asserts.checks.sources import LiteralValue, source_for

L = TypeVar("L")
EXPECT_SOURCES = ("value", "initial", "literal")
"""The keys of an ``expect:`` mapping that name its value (a record field, or a literal)."""
_LITERAL = TypeSpec("any", nullable=True)
_NAME = TypeSpec("str")
_INITIAL = TypeSpec("bool")


@functools.cache
def expect_signatures() -> dict[str, Signature]:
    """The value expectations that can be written as data (``includes``, ``similarity``…).

    >>> list(expect_signatures())
    ['includes', 'equals', 'matches', 'similarity']
    """
    sigs = {name: signature(cls) for name, cls in VALUE_CHECKS.items()}
    return {name: sig for name, sig in sigs.items() if sig.yaml_ok}


@functools.cache
def _extras() -> tuple[str, ...]:
    """The fields of every expectation besides ``source`` and ``expected``."""
    params = {p.name for sig in expect_signatures().values() for p in sig.params}
    return tuple(sorted(params - {"source", "expected"}))


def read_expectation(
    at: L,
    via: Reading[L],
    *,
    siblings: Sequence[str] = (),
    read_siblings: Callable[[L], dict[str, Any]] | None = None,
) -> tuple[Any, dict[str, Any]]:
    """The check of the ``expect:`` mapping at ``at`` (None after reporting its problems) and
    what ``read_siblings`` read of the ``siblings`` keys the caller allows beside it.

    >>> from agent_asserts.checks.located import DataReading
    >>> problems: list[tuple[str, str]] = []
    >>> body = {"value": "/orders/A1/status", "initial": True, "equals": "paid"}
    >>> read_expectation((body, "$.expect"), DataReading(problems))[0]
    Equals(source=StatePath(pointer='/orders/A1/status', initial=True), expected='paid')
    """
    if via.peek(at) is not IS_MAPPING:
        via.wrong_type(at, "mapping", "a mapping")
        return None, {}
    before = via.problem_count()
    sigs = expect_signatures()
    keys = via.keys_of(at)
    allowed = list(dict.fromkeys([*EXPECT_SOURCES, *sigs, *_extras(), *siblings]))
    unknown = [str(key) for key in keys if key not in allowed]
    for key in unknown:
        via.key_problem(at, key, unknown_key_message(key, allowed))
    methods = [key for key in keys if key in sigs]
    if len(methods) != 1:
        if methods:
            listed = " and ".join(repr(m) for m in methods)
            via.key_problem(at, methods[1], f"one expectation per 'expect:' (found {listed})")
        elif not unknown:  # a misspelt expectation was reported as an unknown key
            names = ", ".join(repr(m) for m in sigs)
            via.problem(at, f"names no expectation (one of {names})")
        return None, {}
    method = methods[0]
    sig = sigs[method]
    kwargs: dict[str, Any] = {"source": _source(at, keys, via)}
    for param in sig.params:
        key = method if param.name == "expected" else param.name
        if param.name != "source" and key in keys:
            kwargs[param.name] = read_value(via.member(at, key), param.spec, via)
    for key in _extras():
        if key in keys and sig.param(key) is None:
            via.key_problem(at, key, f"{method!r} takes no {key!r}")
    beside = {} if read_siblings is None else read_siblings(at)
    if via.problem_count() > before or via.unreadable_below(at):
        return None, beside
    try:
        return build_check(sig, kwargs), beside
    except (TypeError, ValueError) as exc:
        via.raised(at, exc)
        return None, beside


def _source(at: L, keys: Any, via: Reading[L]) -> Any:
    """The value's source: ``literal``, or the record field or state path ``value`` names."""
    if "literal" in keys:
        if "value" in keys or "initial" in keys:
            via.problem(at, "use either 'value' (a record field) or 'literal', not both")
            return None
        return LiteralValue(read_value(via.member(at, "literal"), _LITERAL, via))
    if "value" not in keys:
        via.problem(at, "required key 'value' missing")
        return None
    name_at = via.member(at, "value")
    name = read_value(name_at, _NAME, via)
    initial = read_value(via.member(at, "initial"), _INITIAL, via) if "initial" in keys else False
    if name is None or initial is None:
        return None
    try:
        return source_for(name, initial=initial)
    except (TypeError, ValueError) as exc:
        wrong_initial = initial and not name.startswith("/") and name != ""
        via.problem(via.member(at, "initial") if wrong_initial else name_at, str(exc))
        return None


__all__ = ["EXPECT_SOURCES", "expect_signatures", "read_expectation"]
