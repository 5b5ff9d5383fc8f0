"""Suite-file nodes as the check readers' located values: problems at file:line:col.

:class:`NodeReading` lets :func:`~agent_asserts.checks.signatures.read_value` and
:func:`~agent_asserts.checks.data.read_expectation` walk position-carrying nodes. It
is a part of :class:`~agent_asserts.loaders.collector.ProblemCollector` (so a file's collector
is what the readers are given, with nothing made per value): a value is shown as the
collector shows it (``true``, ``a list``), an error listing problems at relative paths is
placed at each one's own node, a value that could not be read (a bad tag) is skipped without a
second problem, and a boolean written as a YAML 1.1 word says why it is not one.

>>> from agent_asserts.checks.signatures import read_value
>>> from agent_asserts.checks.signatures import TypeSpec
>>> from agent_asserts.loaders.collector import ProblemCollector
>>> from agent_asserts.loaders.source import parse_text
>>> problems = ProblemCollector("s.yml")
>>> read_value(parse_text("{on: yes}").items["on"], TypeSpec("bool"), problems)
>>> print(problems.error())
<string>:1:6: on: must be true or false (got 'yes'; only true and false are booleans)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, cast

from agent_asserts.checks.signatures import IS_LIST, IS_MAPPING, UNREADABLE, Reading
from agent_asserts.loaders import nodes
from agent_asserts.loaders.nodes import MappingNode, Node, ScalarNode, SequenceNode
from agent_asserts.loaders.operators import report_exception

if TYPE_CHECKING:
    from agent_asserts.loaders.collector import ProblemCollector


class NodeReading(Reading[Node]):
    """How the check readers see nodes; mixed into the collector, whose ``add`` and
    ``add_key_problem`` take the problems."""

    def add(self, node: Node | None, message: str) -> None:
        raise NotImplementedError  # pragma: no cover - the collector's

    def add_key_problem(self, mapping: MappingNode, key: str, message: str) -> None:
        raise NotImplementedError  # pragma: no cover - the collector's

    def __len__(self) -> int:
        raise NotImplementedError  # pragma: no cover - the collector's

    def peek(self, at: Node) -> Any:
        if isinstance(at, ScalarNode):
            value = at.value
            return UNREADABLE if value is nodes.INVALID else value
        return IS_MAPPING if isinstance(at, MappingNode) else IS_LIST

    def items_of(self, at: Node) -> Sequence[Node]:
        return cast(SequenceNode, at).items

    def keys_of(self, at: Node) -> Collection[str]:
        return cast(MappingNode, at).items.keys()

    def member(self, at: Node, key: str) -> Node:
        return cast(MappingNode, at).items[key]

    def plain(self, at: Node) -> Any:
        return nodes.to_plain(at)

    def got(self, at: Node) -> str:
        return nodes.describe_value(at)

    def problem(self, at: Node, message: str) -> None:
        self.add(at, message)

    def key_problem(self, at: Node, key: str, message: str) -> None:
        self.add_key_problem(cast(MappingNode, at), key, message)

    def raised(self, at: Node, exc: Exception) -> None:
        report_exception(exc, at, cast("ProblemCollector", self))

    def problem_count(self) -> int:
        return len(self)

    def unreadable_below(self, at: Node) -> bool:
        return nodes.has_invalid(at)

    def must_be(self, at: Node, kind: str, what: str) -> str:
        if kind == "bool" and isinstance(at, ScalarNode) and isinstance(at.value, str):
            return f"must be true or false (got {at.value!r}; only true and false are booleans)"
        return super().must_be(at, kind, what)


__all__ = ["NodeReading"]
