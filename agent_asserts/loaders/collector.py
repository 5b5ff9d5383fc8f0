"""The problems of a suite file: the collector with typed accessors that report and go on,
the error carrying them all, ``$``-operators and check arguments read at their positions.

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

:class:`LoadProblem` and :class:`LoadError` are defined in :mod:`agent_asserts.errors`. A suite
file is checked completely before anything runs: every problem found in it becomes a
:class:`LoadProblem` (file, line, column, key path, message), and :class:`LoadError` carries the
whole list, sorted by position, one problem a line.

>>> err = LoadError([
...     LoadProblem("s.yml", 4, 7, "checks[1]", "unknown key 'nme' (did you mean 'name'?)"),
...     LoadProblem("s.yml", 2, 3, "name", "must be a string (got 3)"),
... ])
>>> print(err)
s.yml:2:3: name: must be a string (got 3)
s.yml:4:7: checks[1]: unknown key 'nme' (did you mean 'name'?)

``$``-operators in suite values: ``{$regex: "^A"}`` becomes ``M.regex("^A")``, with positions. A
mapping whose keys start with ``$`` is an operator (``$regex``, ``$gt``, ``$between``,
``$one_of``, ``$not``, ``$all_of``, ``$lenient``…, one per ``M.*`` matcher); a literal key that
starts with ``$`` is written ``$$name``. The conversion itself is
:func:`agent_asserts.matching.from_data`; :func:`matcher_value` walks the nodes so that each
problem (an unknown operator, a bad regex, a wrong argument) is reported where it was written,
and every operator of a file is checked.

>>> from agent_asserts.loaders.source import parse_text
>>> doc = parse_text('arguments: {orderId: {$regex: "^A[0-9]+"}, $$ref: 1}', file="s.yml")
>>> matcher_value(doc.get("arguments"), ProblemCollector("s.yml"))
{'orderId': M.regex('^A[0-9]+'), '$ref': 1}
>>> problems = ProblemCollector("s.yml")
>>> _ = matcher_value(parse_text("x:\\n  $regex: '(unclosed'", file="s.yml"), problems)
>>> print(problems.error())  # doctest: +ELLIPSIS
s.yml:2:11: x.$regex: invalid regular expression '(unclosed': missing ), ...

Suite-file nodes are the check readers' located values, with problems at file:line:col:
:class:`NodeReading` lets :func:`~agent_asserts.checks.data.read_value` and
:func:`~agent_asserts.checks.data.read_expectation` walk position-carrying nodes. It
is a part of :class:`ProblemCollector` (so a file's collector
is what the readers are given, with nothing made per value): a value is shown as the
collector shows it (``true``, ``a list``), an error listing problems at relative paths is
placed at each one's own node, a value that could not be read (a bad tag) is skipped without a
second problem, and a boolean written as a YAML 1.1 word says why it is not one.

>>> problems = ProblemCollector("s.yml")
>>> read_value(parse_text("{on: yes}").items["on"], TypeSpec("bool"), problems)
>>> print(problems.error())
<string>:1:6: on: must be true or false (got 'yes'; only true and false are booleans)

Check arguments are converted by their :class:`~agent_asserts.checks.data.TypeSpec`
(:func:`convert`): the walk is :func:`agent_asserts.checks.data.read_value`, which the
cattrs converter uses too; here it reads nodes through the file's collector (a
:class:`NodeReading`), so type problems (``must be a string (got 3)``) are reported at their
file:line:col.

>>> from agent_asserts.loaders.nodes import from_plain
>>> problems = ProblemCollector("<data>")
>>> convert(from_plain({"between": [1, 3]}), TypeSpec("count"), problems)
Count.between(1, 3)
>>> _ = convert(from_plain(["a", 2]), TypeSpec("list", item=TypeSpec("str")), problems)
>>> print(problems.error())
<data>: [1]: must be a string (got 2)
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, cast

from agent_asserts._text import choice_list, closest_word, unknown_key_message
from agent_asserts.checks.data import (
    IS_LIST,
    IS_MAPPING,
    UNREADABLE,
    Reading,
    TypeSpec,
    read_value,
)
from agent_asserts.errors import Collector, LoadError, LoadProblem
from agent_asserts.loaders.nodes import (
    INVALID,
    MappingNode,
    Node,
    PathPart,
    ScalarNode,
    SequenceNode,
    descend,
    describe_value,
    format_path,
    has_invalid,
    to_plain,
)
from agent_asserts.matching import OperatorError, from_data


def suggest(word: str, choices: Iterable[str]) -> str | None:
    """The closest of ``choices`` to a misspelt ``word``, or None.

    >>> suggest("tool_nme", ["tool_name", "arguments"])
    'tool_name'
    >>> suggest("zzz", ["tool_name"]) is None
    True
    """
    return closest_word(word, choices)


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
            return UNREADABLE if value is INVALID else value
        return IS_MAPPING if isinstance(at, MappingNode) else IS_LIST

    def items_of(self, at: Node) -> Sequence[Node]:
        return cast(SequenceNode, at).items

    def keys_of(self, at: Node) -> Collection[str]:
        return cast(MappingNode, at).items.keys()

    def member(self, at: Node, key: str) -> Node:
        return cast(MappingNode, at).items[key]

    def plain(self, at: Node) -> Any:
        return to_plain(at)

    def got(self, at: Node) -> str:
        return describe_value(at)

    def problem(self, at: Node, message: str) -> None:
        self.add(at, message)

    def key_problem(self, at: Node, key: str, message: str) -> None:
        self.add_key_problem(cast(MappingNode, at), key, message)

    def raised(self, at: Node, exc: Exception) -> None:
        report_exception(exc, at, cast("ProblemCollector", self))

    def problem_count(self) -> int:
        return len(self)

    def unreadable_below(self, at: Node) -> bool:
        return has_invalid(at)

    def must_be(self, at: Node, kind: str, what: str) -> str:
        if kind == "bool" and isinstance(at, ScalarNode) and isinstance(at.value, str):
            return f"must be true or false (got {at.value!r}; only true and false are booleans)"
        return super().must_be(at, kind, what)


class ProblemCollector(Collector, NodeReading):
    """The problems found so far in one file, and typed accessors that add to them; also how
    the check readers (:mod:`agent_asserts.checks.data`) see the file's nodes
    (:class:`~agent_asserts.loaders.collector.NodeReading`).

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

    def expect_str(
        self, node: Node | None, *, non_empty: bool = False, non_blank: bool = False
    ) -> str | None:
        """A string value (``3`` or ``true`` are not strings); ``non_blank``: one with a
        character other than whitespace (a judge's criterion).

        >>> from agent_asserts.loaders.nodes import from_plain
        >>> p = ProblemCollector("a.yml")
        >>> p.expect_str(from_plain("")), p.expect_str(from_plain("", file="a.yml"), non_empty=True)
        ('', None)
        >>> str(p.problems[0])
        'a.yml: must not be empty'
        >>> p.expect_str(from_plain(" \\t", file="a.yml"), non_blank=True), str(p.problems[1])
        (None, 'a.yml: must not be blank (it is only whitespace)')
        """
        value: str | None = self._scalar(node, "a string", (str,))
        if value is not None and (non_empty or non_blank) and not value:
            self.add(node, "must not be empty")
            return None
        if value is not None and non_blank and not value.strip():
            self.add(node, "must not be blank (it is only whitespace)")
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

        See :func:`agent_asserts.loaders.collector.matcher_value`.

        >>> from agent_asserts.loaders.source import parse_text
        >>> ProblemCollector("s.yml").matcher_value(parse_text('{id: {$regex: "^A"}}'))
        {'id': M.regex('^A')}
        """
        return None if node is None else matcher_value(node, self)


def key_path(node: Node, key: str) -> str:
    """The key path of ``key`` under ``node``.

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> key_path(from_plain({"a": {}}).get("a"), "b")
    'a.b'
    """
    return format_path((*node.path, key))


def convert(node: Node, spec: TypeSpec, problems: ProblemCollector) -> Any:
    """The value of ``node`` as ``spec`` says; on a problem, ``None`` (and the problem added):
    :func:`~agent_asserts.checks.data.read_value` over the node.

    >>> from agent_asserts.loaders.collector import ProblemCollector
    >>> from agent_asserts.checks.data import type_spec
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

__all__ = [
    "LoadError",
    "LoadProblem",
    "NodeReading",
    "ProblemCollector",
    "choice_list",
    "convert",
    "is_operator",
    "key_path",
    "matcher_value",
    "relative_parts",
    "report_at_named_key",
    "report_exception",
    "suggest",
    "unknown_key_message",
]
