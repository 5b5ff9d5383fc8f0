"""Convert argument nodes by their :class:`~agent_asserts.checks.signatures.TypeSpec`.

The walk is :func:`agent_asserts.checks.signatures.read_value`, which the cattrs converter
uses too; here it reads nodes through the file's collector (a
:class:`~agent_asserts.loaders.node_reading.NodeReading`), so type problems (``must be a
string (got 3)``) are reported at their file:line:col.

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

from agent_asserts.checks.signatures import TypeSpec, read_value
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.nodes import MappingNode, Node
from agent_asserts.loaders.operators import report_exception


def convert(node: Node, spec: TypeSpec, problems: ProblemCollector) -> Any:
    """The value of ``node`` as ``spec`` says; on a problem, ``None`` (and the problem added):
    :func:`~agent_asserts.checks.signatures.read_value` over the node.

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
    return read_value(node, spec, problems)


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
