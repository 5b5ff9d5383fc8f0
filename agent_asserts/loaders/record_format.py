"""``record_format:`` beside ``record:`` in every dialect: the trace format of the record file
(a name of :func:`agent_asserts.record.adapters.formats`; default ``auto``, detected).

The loader takes it off the top level before a dialect sees the document, and gives it to every
case that does not name its own (a native ``cases:`` entry may).

>>> from agent_asserts.loaders.collector import ProblemCollector
>>> from agent_asserts.loaders.source import parse_text
>>> problems = ProblemCollector("s.yml")
>>> doc, name = take_record_format(parse_text("{record: run.json, record_format: ces}"), problems)
>>> sorted(doc.items), name
(['record'], 'ces')
"""

from __future__ import annotations

from typing import Final

import attrs

from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.nodes import MappingNode, Node
from agent_asserts.record import RecordError
from agent_asserts.record.adapters import get_format

KEY: Final = "record_format"


def read_record_format(node: Node | None, problems: ProblemCollector) -> str | None:
    """The format named by ``node`` (a registered name or ``auto``); a problem otherwise.

    >>> from agent_asserts.loaders.source import parse_text
    >>> problems = ProblemCollector("s.yml")
    >>> read_record_format(parse_text("mantel"), problems)
    >>> print(problems.error())  # doctest: +ELLIPSIS
    <string>:1:1: unknown trace format 'mantel' (did you mean 'mantle'?); known formats: ...
    """
    name = problems.expect_str(node, non_empty=True)
    if name is None or name == "auto":
        return name
    try:
        get_format(name)
    except RecordError as exc:
        problems.add(node, exc.problems[0].message)
        return None
    return name


def take_record_format(doc: Node, problems: ProblemCollector) -> tuple[Node, str | None]:
    """The document without its top-level ``record_format:``, and the format it named."""
    if not isinstance(doc, MappingNode) or KEY not in doc.items:
        return doc, None
    name = read_record_format(doc.items[KEY], problems)
    items = {k: v for k, v in doc.items.items() if k != KEY}
    keys = {k: v for k, v in doc.keys.items() if k != KEY}
    return attrs.evolve(doc, items=items, keys=keys), name


__all__ = ["KEY", "read_record_format", "take_record_format"]
