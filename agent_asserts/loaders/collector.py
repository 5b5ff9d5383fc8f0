"""Collect problems while mapping a document, with typed accessors that report and go on.

Every dialect builds its checks through a :class:`ProblemCollector`: each ``expect_*`` method
returns the value when it has the right type, and otherwise records a problem at the node's
position and returns ``None``, so one pass reports every problem of a file. The wording is fixed
here, once, for all dialects (see docs/suite-files.md):

* ``must be a string (got 3)``, ``must be a list (got 'a')``, ``must be a mapping (got a list)``
* ``is required (got null)`` — a ``null`` where a value is needed
* ``required key 'name' missing`` — reported at the mapping
* ``unknown key 'nme' (did you mean 'name'?)`` — reported at the key
* ``must be 'local' or 'mcp' (got 'remote')``

>>> from agent_asserts.loaders.nodes import from_plain
>>> doc = from_plain({"name": 3, "tool_nme": "x"}, file="s.yml")
>>> problems = ProblemCollector("s.yml")
>>> problems.check_keys(doc, required=["tool_name"], optional=["name"])
False
>>> problems.expect_str(doc.get("name")) is None
True
>>> print(problems.error())
s.yml: required key 'tool_name' missing
s.yml: unknown key 'tool_nme' (did you mean 'tool_name'?)
s.yml: name: must be a string (got 3)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from agent_asserts.errors import Collector
from agent_asserts.loaders import operators
from agent_asserts.loaders.errors import LoadError, LoadProblem, choice_list, unknown_key_message
from agent_asserts.loaders.node_reading import NodeReading
from agent_asserts.loaders.nodes import (
    INVALID,
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    describe_value,
    format_path,
    to_plain,
)


class ProblemCollector(Collector, NodeReading):
    """The problems found so far in one file, and typed accessors that add to them; also how
    the check readers (:mod:`agent_asserts.checks.signatures`) see the file's nodes
    (:class:`~agent_asserts.loaders.node_reading.NodeReading`).

    >>> p = ProblemCollector("a.yml")
    >>> p.add_at(3, 5, "checks", "must not be empty")
    >>> len(p), str(p.problems[0])
    (1, 'a.yml:3:5: checks: must not be empty')
    """

    error_type = LoadError

    def __init__(self, file: str) -> None:
        super().__init__()
        self.file = file

    def add(self, node: Node | None, message: str) -> None:
        """Record ``message`` at ``node`` (its position and key path; the document if None).

        >>> from agent_asserts.loaders.source import parse_text
        >>> problems = ProblemCollector("s.yml")
        >>> problems.add(parse_text("{name: 3}").items["name"], "must be a string")
        >>> print(problems.error())
        <string>:1:8: name: must be a string
        """
        if node is None:
            self.problems.append(LoadProblem(self.file, None, None, "", message))
        else:
            problem = LoadProblem(node.file, node.line, node.col, node.path_str, message)
            self.problems.append(problem)

    def add_at(self, line: int | None, col: int | None, path: str, message: str) -> None:
        """Record ``message`` at an explicit position.

        >>> problems = ProblemCollector("s.yml")
        >>> problems.add_at(3, 1, "cases", "oops")
        >>> print(problems.error())
        s.yml:3:1: cases: oops
        """
        self.problems.append(LoadProblem(self.file, line, col, path, message))

    def error(self) -> LoadError:
        """A :class:`LoadError` with every problem recorded so far.

        >>> problems = ProblemCollector("s.yml"); problems.add(None, "empty document")
        >>> problems.error().problems[0].message
        'empty document'
        """
        return LoadError(self.problems)

    def _type_problem(self, node: Node, what: str) -> None:
        if isinstance(node, ScalarNode) and node.value is INVALID:
            return  # already reported where it was read
        if isinstance(node, ScalarNode) and node.value is None:
            self.add(node, "is required (got null)")
        else:
            self.add(node, f"must be {what} (got {describe_value(node)})")

    # -- shapes ------------------------------------------------------------------------------

    def expect_mapping(self, node: Node | None) -> MappingNode | None:
        """``node`` when it is a mapping, else a problem; ``None`` passes through silently.

        >>> from agent_asserts.loaders.source import parse_text
        >>> problems = ProblemCollector("s.yml")
        >>> problems.expect_mapping(parse_text("[1]")), problems.expect_mapping(None)
        (None, None)
        >>> print(problems.error())
        <string>:1:1: must be a mapping (got a list)
        """
        if node is None or isinstance(node, MappingNode):
            return node
        self._type_problem(node, "a mapping")
        return None

    def expect_list(
        self, node: Node | None, *, allow_scalar: bool = False, non_empty: bool = False
    ) -> list[Node] | None:
        """The items of a list node; with ``allow_scalar`` a single value counts as one item.

        >>> from agent_asserts.loaders.nodes import from_plain
        >>> p = ProblemCollector("a.yml")
        >>> [n.path_str for n in p.expect_list(from_plain("x"), allow_scalar=True)]
        ['']
        >>> p.expect_list(from_plain([], file="a.yml"), non_empty=True), str(p.problems[0])
        (None, 'a.yml: must not be empty')
        """
        if node is None:
            return None
        if isinstance(node, SequenceNode):
            if non_empty and not node.items:
                self.add(node, "must not be empty")
                return None
            return list(node.items)
        if allow_scalar and not (isinstance(node, ScalarNode) and node.value in (None, INVALID)):
            return [node]
        self._type_problem(node, "a list")
        return None

    def check_keys(
        self,
        node: MappingNode,
        *,
        required: Sequence[str] = (),
        optional: Sequence[str] = (),
        allow_other: bool = False,
    ) -> bool:
        """Report missing required keys and unknown keys; True when there was neither.

        Unknown keys get a "did you mean" suggestion drawn from ``required`` + ``optional``.

        >>> from agent_asserts.loaders.source import parse_text
        >>> problems = ProblemCollector("s.yml")
        >>> problems.check_keys(parse_text("{nmae: x}"), optional=["name"])
        False
        >>> print(problems.error())
        s.yml:1:2: unknown key 'nmae' (did you mean 'name'?)
        """
        ok = True
        allowed = list(dict.fromkeys([*required, *optional]))
        for key in required:
            if key not in node.items:
                self.add(node, f"required key {key!r} missing")
                ok = False
        if not allow_other:
            for key in node.items:
                if key not in allowed:
                    self.add_key_problem(node, key, unknown_key_message(key, allowed))
                    ok = False
        return ok

    def add_key_problem(self, mapping: MappingNode, key: str, message: str) -> None:
        """Record a problem about ``key`` itself: the key's position, the mapping's path.

        >>> from agent_asserts.loaders.source import parse_text
        >>> problems = ProblemCollector("s.yml")
        >>> problems.add_key_problem(parse_text("{a: 1, b: 2}"), "b", "not allowed with 'a'")
        >>> print(problems.error())
        s.yml:1:8: not allowed with 'a'
        """
        key_node = mapping.key_node(key)
        self.add_at(key_node.line, key_node.col, mapping.path_str, message)

    # -- scalars -----------------------------------------------------------------------------

    def _scalar(self, node: Node | None, what: str, types: tuple[type, ...]) -> Any:
        if node is None:
            return None
        if isinstance(node, ScalarNode) and node.value is not None:
            value = node.value
            if isinstance(value, types) and not (isinstance(value, bool) and bool not in types):
                return value
        self._type_problem(node, what)
        return None

    def expect_str(self, node: Node | None, *, non_empty: bool = False) -> str | None:
        """A string value (``3`` or ``true`` are not strings).

        >>> from agent_asserts.loaders.nodes import from_plain
        >>> p = ProblemCollector("a.yml")
        >>> p.expect_str(from_plain("")), p.expect_str(from_plain("", file="a.yml"), non_empty=True)
        ('', None)
        >>> str(p.problems[0])
        'a.yml: must not be empty'
        """
        value: str | None = self._scalar(node, "a string", (str,))
        if value is not None and non_empty and not value:
            self.add(node, "must not be empty")
            return None
        return value

    def expect_int(self, node: Node | None, *, minimum: int | None = None) -> int | None:
        """A whole number (a boolean is not one), optionally ``>= minimum``.

        >>> from agent_asserts.loaders.nodes import from_plain
        >>> p = ProblemCollector("a.yml")
        >>> p.expect_int(from_plain(-1, file="a.yml"), minimum=0), str(p.problems[0])
        (None, 'a.yml: must be >= 0 (got -1)')
        """
        value: int | None = self._scalar(node, "an integer", (int,))
        if value is not None and minimum is not None and value < minimum:
            self.add(node, f"must be >= {minimum} (got {value})")
            return None
        return value

    def expect_number(self, node: Node | None) -> float | int | None:
        """An int or a float (not a boolean).

        >>> from agent_asserts.loaders.source import parse_text
        >>> problems = ProblemCollector("s.yml")
        >>> problems.expect_number(parse_text("4.5")), problems.expect_number(parse_text("true"))
        (4.5, None)
        >>> print(problems.error())
        <string>:1:1: must be a number (got true)
        """
        value: float | int | None = self._scalar(node, "a number", (int, float))
        return value

    def expect_bool(self, node: Node | None) -> bool | None:
        """``true`` or ``false``; YAML 1.1 words (``yes``, ``on``…) are strings and say so.

        >>> from agent_asserts.loaders.nodes import from_plain
        >>> p = ProblemCollector("a.yml")
        >>> p.expect_bool(from_plain("yes", file="a.yml")), str(p.problems[0])
        (None, "a.yml: must be true or false (got 'yes'; only true and false are booleans)")
        """
        if isinstance(node, ScalarNode) and isinstance(node.value, str):
            self.add(
                node,
                f"must be true or false (got {node.value!r}; only true and false are booleans)",
            )
            return None
        value: bool | None = self._scalar(node, "true or false", (bool,))
        return value

    def expect_choice(self, node: Node | None, choices: Collection[str]) -> str | None:
        """One of ``choices``: ``must be 'local' or 'mcp' (got 'remote')``.

        >>> from agent_asserts.loaders.source import parse_text
        >>> problems = ProblemCollector("s.yml")
        >>> problems.expect_choice(parse_text("remote"), ["local", "mcp"])
        >>> print(problems.error())
        <string>:1:1: must be 'local' or 'mcp' (got 'remote')
        """
        if isinstance(node, ScalarNode) and node.value in choices:
            return str(node.value)
        if node is not None:
            self._type_problem(node, choice_list(list(choices)))
        return None

    def expect_value(self, node: Node | None) -> Any:
        """Any value except ``null``: ``is required (got null)``.

        >>> from agent_asserts.loaders.source import parse_text
        >>> problems = ProblemCollector("s.yml")
        >>> problems.expect_value(parse_text("[1, 2]")), problems.expect_value(parse_text("null"))
        ([1, 2], None)
        >>> [p.message for p in problems.problems]
        ['is required (got null)']
        """
        if isinstance(node, ScalarNode) and node.value is INVALID:
            return None
        if isinstance(node, ScalarNode) and node.value is None:
            self.add(node, "is required (got null)")
            return None
        return None if node is None else to_plain(node)

    def matcher_value(self, node: Node | None) -> Any:
        """The value with ``$``-operators turned into matchers (problems at their positions).

        See :func:`agent_asserts.loaders.operators.matcher_value`.

        >>> from agent_asserts.loaders.source import parse_text
        >>> ProblemCollector("s.yml").matcher_value(parse_text('{id: {$regex: "^A"}}'))
        {'id': M.regex('^A')}
        """
        return None if node is None else operators.matcher_value(node, self)


def key_path(node: Node, key: str) -> str:
    """The key path of ``key`` under ``node``.

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> key_path(from_plain({"a": {}}).get("a"), "b")
    'a.b'
    """
    return format_path((*node.path, key))


__all__ = ["ProblemCollector", "key_path"]
