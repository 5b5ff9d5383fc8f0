"""Convert argument nodes by their :class:`~agent_asserts.checks.signatures.TypeSpec`.

Type problems are reported with the shared wording (``must be a string (got 3)``); values of
type ``Any`` go through the ``$``-operators; counts and selectors use their own data forms.

>>> from agent_asserts.loaders.collector import ProblemCollector
>>> from agent_asserts.loaders.nodes import from_plain
>>> from agent_asserts.checks.signatures import TypeSpec
>>> problems = ProblemCollector("<data>")
>>> convert(from_plain({"between": [1, 3]}), TypeSpec("count"), problems)
Count.between(1, 3)
>>> _ = convert(from_plain(["a", 2]), TypeSpec("list", item=TypeSpec("str")), problems)
>>> print(problems.error())
<data>: [1]: must be a string (got 2)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from agent_asserts.checks.signatures import TypeSpec
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.nodes import (
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    describe_value,
    to_plain,
)
from agent_asserts.loaders.operators import report_exception
from agent_asserts.matching import Count
from agent_asserts.selectors.data import selector_from_data


def convert(node: Node, spec: TypeSpec, problems: ProblemCollector) -> Any:
    """The value of ``node`` as ``spec`` says; on a problem, ``None`` (and the problem added).

    >>> from agent_asserts.loaders.collector import ProblemCollector
    >>> from agent_asserts.checks.signatures import type_spec
    >>> from agent_asserts.loaders.source import parse_text
    >>> problems = ProblemCollector("s.yml")
    >>> spec = type_spec(int)
    >>> convert(parse_text("3"), spec, problems), convert(parse_text("x"), spec, problems)
    (3, None)
    >>> print(problems.error())
    <string>:1:1: must be an integer (got 'x')
    """
    if spec.nullable and isinstance(node, ScalarNode) and node.value is None:
        return None
    kind = spec.kind
    if kind == "str":
        return problems.expect_str(node)
    if kind == "int":
        return problems.expect_int(node)
    if kind == "float":
        number = problems.expect_number(node)
        return None if number is None else float(number)
    if kind == "bool":
        return problems.expect_bool(node)
    if kind == "choice":
        return problems.expect_choice(node, spec.choices)
    if kind == "count":
        return _count(node, problems)
    if kind == "selector":
        return _selector(node, problems)
    if kind == "list":
        return _list(node, spec, problems)
    if kind == "union":
        return _union(node, spec, problems)
    if kind == "data":
        return problems.expect_value(node)
    if kind == "callable":
        problems.add(node, "takes a Python callable and cannot be written in a suite file")
        return None
    if isinstance(node, ScalarNode) and node.value is None and not spec.nullable:
        return problems.expect_value(node)
    return problems.matcher_value(node)


def _list(node: Node, spec: TypeSpec, problems: ProblemCollector) -> tuple[Any, ...] | None:
    items = problems.expect_list(node)
    if items is None:
        return None
    item_spec = spec.item or TypeSpec("any")
    return tuple(convert(item, item_spec, problems) for item in items)


def _count(node: Node, problems: ProblemCollector) -> Any:
    if isinstance(node, ScalarNode) and isinstance(node.value, int | None):
        if isinstance(node.value, bool):
            problems.add(node, f"{_COUNT} (got {str(node.value).lower()})")
            return None
        if node.value is not None and node.value < 0:
            problems.add(node, f"must be >= 0 (got {node.value})")
            return None
        return node.value
    if isinstance(node, MappingNode):
        if not problems.check_keys(node, optional=("at_least", "at_most", "between", "exactly")):
            return None
        if len(node.items) != 1:
            problems.add(node, f"{_COUNT} (got {len(node.items)} keys)")
            return None
        try:
            return Count.from_data(to_plain(node))
        except (TypeError, ValueError) as exc:
            problems.add(node, str(exc))
            return None
    problems.add(node, f"{_COUNT} (got {describe_value(node)})")
    return None


_COUNT = "must be a count: an int, {at_least: n}, {at_most: n} or {between: [low, high]}"


def _selector(node: Node, problems: ProblemCollector) -> Any:
    """A selector: a plain string as the check reads it, or a selector mapping."""
    if isinstance(node, ScalarNode) and isinstance(node.value, str):
        return node.value
    if not isinstance(node, MappingNode):
        problems.add(node, f"must be a name or a selector mapping (got {describe_value(node)})")
        return None
    value = problems.matcher_value(node)
    try:
        return selector_from_data(value)
    except (TypeError, ValueError) as exc:
        report_exception(exc, node, problems)
        return None


def _union(node: Node, spec: TypeSpec, problems: ProblemCollector) -> Any:
    """The first option whose shape fits the node (lists for list options, etc.)."""
    for option in spec.options:
        if _fits(node, option):
            return convert(node, option, problems)
    return convert(node, spec.options[0], problems) if spec.options else None


def _fits(node: Node, spec: TypeSpec) -> bool:
    if isinstance(node, SequenceNode):
        return spec.fits([])
    if isinstance(node, MappingNode):
        return spec.fits({})
    return spec.fits(node.value if isinstance(node, ScalarNode) else None)


def report_at_named_key(
    exc: Exception,
    mapping: MappingNode,
    problems: ProblemCollector,
    *,
    aliases: Mapping[str, str] | None = None,
) -> None:
    """Record a constructor's error at the key it is about: the argument its message starts
    with (``'mcp_server' is not allowed …``, the attrs wording), written under ``aliases`` (the
    dialect's name for a constructor argument) in ``mapping``; otherwise as
    :func:`report_exception` does, at ``mapping``.

    >>> from agent_asserts.loaders.source import parse_text
    >>> body = parse_text("{tool_name: a, source: local, mcp_server: b}")
    >>> problems = ProblemCollector("s.yml")
    >>> report_at_named_key(ValueError("'mcp_server' is not allowed"), body, problems)
    >>> print(problems.error())
    s.yml:1:31: 'mcp_server' is not allowed
    """
    text = str(exc)
    named = _NAMED.match(text)
    key = None if named is None else (aliases or {}).get(named.group(1), named.group(1))
    if key is not None and key in mapping.items:
        problems.add_key_problem(mapping, key, text)
    else:
        report_exception(exc, mapping, problems)


_NAMED = re.compile(r"'([A-Za-z_][A-Za-z0-9_]*)'")


__all__ = ["convert", "report_at_named_key"]
