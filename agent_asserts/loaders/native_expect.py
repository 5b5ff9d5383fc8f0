"""The native ``expect:`` entry: a value expectation over a record field or a state path.

``value`` names the value (``reply``, ``status``, ``steps``, ``usage.total_tokens``… or a JSON
Pointer into ``final_state``; ``initial: true`` reads ``initial_state``), or ``literal`` gives
it; one expectation key (``includes``, ``equals``, ``matches``, ``similarity``…, from
``agent_asserts.checks.expectations.VALUE_CHECKS``) holds the expected value; ``at_least``,
``severity``, ``label`` and ``name`` sit in the same mapping. The mapping is read by
:func:`agent_asserts.checks.data.read_expectation`, as the cattrs converter reads a
check's data form ``{"expect": {…}}``.

>>> from agent_asserts.loaders.collector import ProblemCollector
>>> from agent_asserts.loaders.nodes import from_plain
>>> node = from_plain({"value": "reply", "similarity": "Refund issued", "at_least": 0.9})
>>> entry = build_expect(node, node, ProblemCollector("<data>"))
>>> entry.check, entry.threshold
(Similarity(source=RecordField(name='reply'), expected='Refund issued'), 0.9)
"""

from __future__ import annotations

from typing import Any

from agent_asserts.checks.data import read_expectation
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.native_parts import SIBLINGS, read_siblings
from agent_asserts.loaders.nodes import MappingNode, Node
from agent_asserts.loaders.suite import CheckEntry


def build_expect(node: Node | None, where: Node, problems: ProblemCollector) -> CheckEntry | None:
    """The :class:`CheckEntry` of one ``expect:`` mapping, or None after adding problems:
    :func:`~agent_asserts.checks.data.read_expectation` over the node, with the
    sibling keys (``severity``, ``at_least``, ``label``, ``name``) inside the mapping.

    >>> from agent_asserts.loaders.collector import ProblemCollector
    >>> from agent_asserts.loaders.source import parse_text
    >>> node = parse_text("{value: reply, includes: A1049}")
    >>> build_expect(node, node, ProblemCollector("s.yml")).check
    Includes(source=RecordField(name='reply'), expected='A1049')
    """
    if node is None:
        problems.add(where, "'expect' needs a mapping (for example {value: reply, includes: x})")
        return None

    def siblings(mapping: Node) -> dict[str, Any]:
        return read_siblings(mapping, problems) if isinstance(mapping, MappingNode) else {}

    check, beside = read_expectation(node, problems, siblings=SIBLINGS, read_siblings=siblings)
    return None if check is None else CheckEntry(check, **beside)


__all__ = ["build_expect"]
