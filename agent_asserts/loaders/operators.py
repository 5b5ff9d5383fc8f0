"""``$``-operators in suite values: ``{$regex: "^A"}`` becomes ``M.regex("^A")``, with positions.

A mapping whose keys start with ``$`` is an operator (``$regex``, ``$gt``, ``$between``,
``$one_of``, ``$not``, ``$all_of``, ``$lenient``…, one per ``M.*`` matcher); a literal key that
starts with ``$`` is written ``$$name``. The conversion itself is
:func:`agent_asserts.matching.from_data`; this module walks the nodes so that each problem (an
unknown operator, a bad regex, a wrong argument) is reported where it was written, and every
operator of a file is checked.

>>> from agent_asserts.loaders.collector import ProblemCollector
>>> from agent_asserts.loaders.source import parse_text
>>> doc = parse_text('arguments: {orderId: {$regex: "^A[0-9]+"}, $$ref: 1}', file="s.yml")
>>> matcher_value(doc.get("arguments"), ProblemCollector("s.yml"))
{'orderId': M.regex('^A[0-9]+'), '$ref': 1}
>>> problems = ProblemCollector("s.yml")
>>> _ = matcher_value(parse_text("x:\\n  $regex: '(unclosed'", file="s.yml"), problems)
>>> print(problems.error())  # doctest: +ELLIPSIS
s.yml:2:11: x.$regex: invalid regular expression '(unclosed': missing ), ...
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from agent_asserts.loaders.nodes import MappingNode, Node, PathPart, descend, to_plain
from agent_asserts.matching import OperatorError, from_data

if TYPE_CHECKING:
    from agent_asserts.loaders.collector import ProblemCollector

_PART = re.compile(r"\.?([^.\[\]]+)|\[(\d+)\]|\[('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\]")


def is_operator(node: Node) -> bool:
    """True for a mapping whose keys start with a single ``$``.

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> is_operator(from_plain({"$gt": 3})), is_operator(from_plain({"$$ref": 1}))
    (True, False)
    """
    return (
        isinstance(node, MappingNode)
        and bool(node.items)
        and any(k.startswith("$") and not k.startswith("$$") for k in node.items)
    )


def matcher_value(node: Node, problems: ProblemCollector) -> Any:
    """The plain value of ``node`` with every operator mapping turned into its matcher.

    Each problem :func:`agent_asserts.matching.from_data` finds (unknown operators, bad
    arguments, invalid regexes, operators mixed with plain keys) is added to ``problems`` at
    the position it names; the returned value is then ``None``.

    >>> from agent_asserts.loaders.collector import ProblemCollector
    >>> from agent_asserts.loaders.source import parse_text
    >>> problems = ProblemCollector("s.yml")
    >>> matcher_value(parse_text("{amount: {$between: [1, 100]}}"), problems)
    {'amount': M.between(1, 100)}
    >>> matcher_value(parse_text("{$regx: x}"), problems)
    >>> print(problems.error())
    <string>:1:9: $regx: unknown operator '$regx' (did you mean '$regex'?)
    """
    try:
        return from_data(to_plain(node))
    except (OperatorError, TypeError, ValueError) as exc:
        report_exception(exc, node, problems)
    return None


def report_exception(exc: Exception, node: Node, problems: ProblemCollector) -> None:
    """Record ``exc`` at ``node``; an error listing ``problems`` with relative key paths
    (``OperatorError``, ``ContractError``…) gives one problem each, at its own position.

    >>> from agent_asserts.loaders.collector import ProblemCollector
    >>> from agent_asserts.loaders.source import parse_text
    >>> problems = ProblemCollector("s.yml")
    >>> report_exception(ValueError("bad value"), parse_text("{a: 1}").items["a"], problems)
    >>> print(problems.error())
    <string>:1:5: a: bad value
    """
    found = getattr(exc, "problems", None)
    if isinstance(found, tuple | list) and found:
        for item in found:
            where = descend(node, relative_parts(getattr(item, "path", ())))
            problems.add(where, str(getattr(item, "message", item)))
        return
    problems.add(node, str(exc))


def relative_parts(path: Any) -> tuple[PathPart, ...]:
    """A relative key path as parts, from a tuple or from text (``$not[0].$regex``).

    >>> relative_parts("$all_of[1].$regex"), relative_parts(("a", 0)), relative_parts("")
    (('$all_of', 1, '$regex'), ('a', 0), ())
    >>> relative_parts("$.a['odd key']")
    ('a', 'odd key')
    """
    if isinstance(path, tuple | list):
        return tuple(p if isinstance(p, int) else str(p) for p in path)
    text = str(path or "")
    if text == "$" or text.startswith(("$.", "$[")):
        text = text[1:]
    parts: list[PathPart] = []
    for match in _PART.finditer(text):
        name, index, quoted = match.groups()
        if index is not None:
            parts.append(int(index))
        elif quoted is not None:
            parts.append(quoted[1:-1])
        else:
            parts.append(name)
    return tuple(parts)


__all__ = ["is_operator", "matcher_value", "relative_parts", "report_exception"]
