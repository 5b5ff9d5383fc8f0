"""From a file, text or Python data to one document node, or a :class:`LoadError`.

YAML and JSON both go through PyYAML when it is installed (JSON is YAML 1.2, and the positions
are the same); without PyYAML, JSON is read with :mod:`json` and YAML asks for the extra.

>>> doc = parse_text('{"checks": [{"max_steps": 3}]}', file="s.json")
>>> doc.get("checks").items[0].where
's.json:1:13'
>>> try:
...     parse_text('a: "unterminated', file="s.yml")
... except LoadError as err:
...     print(err)
s.yml:1:17: invalid YAML: found unexpected end of stream (while scanning a quoted scalar ...)

JSON is read with the standard library when PyYAML is not installed: syntax errors keep their
line and column; everything found later (duplicate keys, and the dialect's own problems) names
the key path only, since :mod:`json` does not report where a value was written.

>>> problems = ProblemCollector("s.json")
>>> read_json('{"a": 1, "a": 2}', problems) is not None
True
>>> print(problems.error())
s.json: duplicate key 'a'
>>> problems = ProblemCollector("s.json")
>>> read_json('{"a": 1,\\n "b" 2}', problems) is None
True
>>> print(problems.error())
s.json:2:6: invalid JSON: Expecting ':' delimiter

YAML (and JSON, which is YAML 1.2) is read into position-carrying nodes with YAML 1.2 scalars:
PyYAML only composes the node tree (always with the safe loader, the C one when available);
scalars are resolved here with the YAML 1.2 core schema: only ``true``/``false`` are booleans,
``null``/``~``/empty are null, ints are decimal, ``0o`` octal or ``0x`` hex, so ``on``, ``yes``,
``no``, ``012:30`` and ``2024-01-01`` stay what they look like. Tags other than the standard
``!!str``, ``!!int``, ``!!float``, ``!!bool``, ``!!null``, ``!!seq`` and ``!!map`` are
problems, and so are merge keys (``<<``) and duplicate keys.

>>> doc = read_yaml("on: yes\\nn: 012\\n", ProblemCollector("s.yml"))
>>> [(key, child.value, child.line, child.col) for key, child in doc.items.items()]
[('on', 'yes', 1, 5), ('n', 12, 2, 4)]
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from agent_asserts._files import env_limit, read_bytes
from agent_asserts._values import MAX_DEPTH, depth_message
from agent_asserts.errors import AgentAssertsError, Unavailable
from agent_asserts.loaders.collector import LoadError, LoadProblem, ProblemCollector
from agent_asserts.loaders.nodes import (
    INVALID,
    MappingNode,
    Node,
    PathPart,
    Scalar,
    ScalarNode,
    SequenceNode,
    describe_value,
    format_path,
    from_plain,
)

if TYPE_CHECKING:
    from agent_asserts.loaders.collector import ProblemCollector


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as its list of pairs, so duplicate keys survive parsing."""


class _NotJson(AgentAssertsError, ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not a JSON value")


def read_json(text: str, problems: ProblemCollector) -> Node | None:
    """Parse JSON text into nodes without positions; syntax errors keep theirs.

    >>> from agent_asserts.loaders.collector import ProblemCollector
    >>> node = read_json('{"checks": ["succeeded"]}', ProblemCollector("s.json"))
    >>> node.items["checks"].path_str, node.items["checks"].line
    ('checks', None)
    """
    try:
        data = json.loads(text, object_pairs_hook=_Pairs, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        problems.add_at(exc.lineno, exc.colno, "", f"invalid JSON: {exc.msg}")
        return None
    except _NotJson as exc:
        problems.add(None, f"invalid JSON: {exc}")
        return None
    except RecursionError:
        problems.add(None, "invalid JSON: the document is nested too deeply")
        return None
    except ValueError:  # an integer past Python's digit limit (json names no place)
        _too_long_number(text, problems)
        return None
    try:
        return _build(data, (), problems)
    except RecursionError:  # parsed, but too deep to build
        problems.add(None, "invalid JSON: the document is nested too deeply")
        return None


def _too_long_number(text: str, problems: ProblemCollector) -> None:
    """The problem of a JSON integer past Python's digit limit, at the first one in ``text``.

    >>> from agent_asserts.loaders.collector import ProblemCollector
    >>> p = ProblemCollector("s.json")
    >>> read_json('{"a":\\n  ' + "1" * 5000 + "}", p) is None, str(p.problems[0])
    (True, 's.json:2:3: a number of 5000 digits is too long (the limit is 4300 digits)')
    """
    limit = sys.get_int_max_str_digits()
    found = re.search(rf"\d{{{limit + 1},}}", text)
    if found is None:  # not a digit run after all: json's own words
        problems.add(None, "invalid JSON: a number too long to convert")
        return
    line = text.count("\n", 0, found.start()) + 1
    col = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
    message = f"a number of {len(found.group())} digits is too long (the limit is {limit} digits)"
    problems.add_at(line, col, "", message)


def _build(value: Any, path: tuple[PathPart, ...], problems: ProblemCollector) -> Node:
    file = problems.file
    if isinstance(value, _Pairs):
        items: dict[str, Node] = {}
        keys: dict[str, ScalarNode] = {}
        for key, child in value:
            if key in items:
                mapping = MappingNode(file, None, None, path, {}, {})
                problems.add(mapping, f"duplicate key {key!r}")
                continue
            keys[key] = ScalarNode(file, None, None, (*path, key), key)
            items[key] = _build(child, (*path, key), problems)
        return MappingNode(file, None, None, path, items, keys)
    if isinstance(value, list):
        children = tuple(_build(child, (*path, i), problems) for i, child in enumerate(value))
        return SequenceNode(file, None, None, path, children)
    return ScalarNode(file, None, None, path, value)


class _Duplicate(AgentAssertsError):
    """A key written twice: not for the quick reading (its problem needs a position)."""


_NO_PATH: tuple[PathPart, ...] = ()
_NO_KEYS: Mapping[str, ScalarNode] = MappingProxyType({})


class _QuickReader:
    """Builds nodes while :mod:`json` parses: each object as its hook returns, each list in the
    object (or document) that holds it, so the document never exists twice as a whole. Nodes
    without a position or path are equal wherever they stand, so one node serves every
    occurrence of a string, a small integer, a boolean or null (suites repeat them: tool
    names, ``severity: soft``), and every mapping shares one empty ``keys``."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.shared: dict[object, ScalarNode] = {}

    def mapping(self, pairs: list[tuple[str, Any]]) -> MappingNode:
        node = self.node
        items = {key: node(value) for key, value in pairs}
        if len(items) != len(pairs):
            raise _Duplicate
        return MappingNode(self.file, None, None, _NO_PATH, items, _NO_KEYS)

    def node(self, value: Any) -> Node:
        if isinstance(value, MappingNode):
            return value
        if isinstance(value, list):
            node = self.node
            return SequenceNode(self.file, None, None, _NO_PATH, tuple([node(v) for v in value]))
        if isinstance(value, float) or (type(value) is int and not -256 <= value <= 256):
            return ScalarNode(self.file, None, None, _NO_PATH, value)  # kept apart: 0.0 == -0.0
        key = (type(value), value)  # 1 == True: the type tells them apart
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = ScalarNode(self.file, None, None, _NO_PATH, value)
        return found


def read_json_quick(text: str, file: str) -> Node | None:
    """Nodes for ``text`` when it is plain JSON, read by :mod:`json` alone; else None.

    The quick reading of a suite: no PyYAML, and nodes without position or key path (each
    ``line``/``col`` None, ``path`` empty), so it is only for a document that loads without a
    problem — :func:`agent_asserts.loaders.load` reads the text again with positions as soon
    as one is found. None for text that is not strict JSON, has a duplicate key, a lone
    surrogate, an integer past Python's digit limit or nesting past :data:`MAX_DEPTH` (their
    problems need the full reading).

    >>> from agent_asserts.loaders.nodes import to_plain
    >>> doc = read_json_quick('{"checks": [{"max_steps": 3}]}', "s.json")
    >>> to_plain(doc), doc.get("checks").items[0].where, doc.get("checks").path
    ({'checks': [{'max_steps': 3}]}, 's.json', ())
    >>> read_json_quick('{"a": 1, "a": 2}', "s.json") is None, read_json_quick("a: 1", "s.yml")
    (True, None)
    """
    if _SURROGATE.search(text) is not None:
        return None
    reader = _QuickReader(file)
    try:
        data = json.loads(text, object_pairs_hook=reader.mapping, parse_constant=_reject_constant)
        node = reader.node(data)
    except (ValueError, RecursionError, _Duplicate):
        return None
    return None if node_too_deep(node) is not None else node


class _NotQuick(AgentAssertsError):
    """Something the quick reading leaves to the full one (an anchor, a tag, a problem)."""


def read_yaml_quick(text: str, file: str) -> Node | None:
    """Nodes for YAML ``text`` built from PyYAML's events as they come, without positions or
    key paths (as :func:`read_json_quick`); else None.

    PyYAML's composed tree is never built: each event becomes a node (or part of one) at once.
    None for anything the full reading (:func:`read_yaml`) has a problem or a budget for: a
    syntax error, anchors and aliases, tags, a merge key, a key that is not a string or written
    twice, an integer past Python's digit limit, nesting past :data:`MAX_DEPTH`, an empty
    document or a second one, a lone surrogate.

    >>> from agent_asserts.loaders.nodes import to_plain
    >>> to_plain(read_yaml_quick("checks:\\n  - max_steps: 012\\n  - on: yes\\n", "s.yml"))
    {'checks': [{'max_steps': 12}, {'on': 'yes'}]}
    >>> [read_yaml_quick(t, "s.yml") for t in ("a: &x 1\\nb: *x", "a: !!str 1", "a: 1\\na: 2")]
    [None, None, None]
    """
    yaml = yaml_module()
    if yaml is None or _SURROGATE.search(text) is not None:
        return None
    loader = _loader_class(yaml)(text)
    try:
        return _QuickEvents(yaml, file).document(loader.get_event)
    except (yaml.YAMLError, _NotQuick, _Duplicate, ValueError, RecursionError):
        return None
    finally:
        loader.dispose()


class _QuickEvents(_QuickReader):
    """The quick reading's builder over PyYAML's event stream (an explicit stack, no
    recursion)."""

    def __init__(self, yaml: Any, file: str) -> None:
        super().__init__(file)
        self.scalar_event, self.alias_event = yaml.ScalarEvent, yaml.AliasEvent
        self.sequence_start, self.sequence_end = yaml.SequenceStartEvent, yaml.SequenceEndEvent
        self.mapping_start, self.mapping_end = yaml.MappingStartEvent, yaml.MappingEndEvent
        self.document_start, self.document_end = yaml.DocumentStartEvent, yaml.DocumentEndEvent
        self.stream_end = yaml.StreamEndEvent

    def document(self, get_event: Any) -> Node:
        get_event()  # the stream's start
        if not isinstance(get_event(), self.document_start):
            raise _NotQuick  # no document at all
        root = self.node_events(get_event)
        if isinstance(root, ScalarNode) and root.value is None:
            raise _NotQuick  # an empty document
        if not isinstance(get_event(), self.document_end):
            raise _NotQuick  # pragma: no cover - the parser ends a document before another
        if not isinstance(get_event(), self.stream_end):
            raise _NotQuick  # a second document
        return root

    def node_events(self, get_event: Any) -> Node:
        file = self.file
        # each open container: its items (a list or a dict) and, for a mapping, its pending key
        stack: list[list[Any]] = []
        no_key = _NO_KEY
        while True:
            event = get_event()
            kind = type(event)
            node: Node
            if kind is self.scalar_event:
                if event.anchor is not None or event.tag is not None:
                    raise _NotQuick
                text = event.value
                value = resolve_plain(text) if event.implicit[0] else text
                if stack and type(stack[-1][0]) is dict and stack[-1][1] is no_key:
                    if not isinstance(value, str) or (event.implicit[0] and text == "<<"):
                        raise _NotQuick  # a key that is not a string, or a merge key
                    if value in stack[-1][0]:
                        raise _Duplicate
                    stack[-1][1] = value
                    continue
                node = self.node(value)
            elif kind is self.mapping_start or kind is self.sequence_start:
                if event.anchor is not None or event.tag is not None or len(stack) >= MAX_DEPTH:
                    raise _NotQuick
                if stack and type(stack[-1][0]) is dict and stack[-1][1] is no_key:
                    raise _NotQuick  # a key that is a mapping or a list
                stack.append([{} if kind is self.mapping_start else [], no_key])
                continue
            elif kind is self.sequence_end:
                items = stack.pop()[0]
                node = SequenceNode(file, None, None, _NO_PATH, tuple(items))
            elif kind is self.mapping_end:
                node = MappingNode(file, None, None, _NO_PATH, stack.pop()[0], _NO_KEYS)
            else:  # an alias
                raise _NotQuick
            if not stack:
                return node
            top = stack[-1]
            if type(top[0]) is dict:
                top[0][top[1]] = node
                top[1] = no_key
            else:
                top[0].append(node)


_NO_KEY = object()


def is_json(text: str) -> bool:
    """True when ``text`` is valid JSON (used to work around PyYAML limits on JSON input).

    >>> is_json('{"a": [1]}'), is_json("a: 1")
    (True, False)
    """
    try:
        json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return False
    return True


_PLAIN = "tag:agent-asserts:plain"  # our marker for an untagged plain scalar
_Y = "tag:yaml.org,2002:"
_SEQ = _Y + "seq"
MAX_ALIAS_NODES_ENV = "AGENT_ASSERTS_MAX_ALIAS_NODES"
"""The environment variable that sets the alias-expansion budget (a number of nodes)."""

DEFAULT_MAX_ALIAS_NODES = 1_000_000
"""The alias-expansion budget ("billion laughs"): how many nodes a document may gain through
aliases (nodes reached again, not nodes written in the file: a long document has no limit)."""

MAX_ALIAS_CHARS_ENV = "AGENT_ASSERTS_MAX_ALIAS_CHARS"
"""The environment variable that sets the alias-expansion budget of text (a number of
characters)."""

DEFAULT_MAX_ALIAS_CHARS = 10_000_000
"""The alias-expansion budget of text: how many characters of scalars (keys and values) a
document may gain through aliases. A few aliases of one long string multiply its size without
adding many nodes (a 10 KB string aliased through two list levels: 99,000 nodes, 991 MB)."""

_NULL = re.compile(r"(?:null|Null|NULL|~|)\Z")
_TRUE = re.compile(r"(?:true|True|TRUE)\Z")
_FALSE = re.compile(r"(?:false|False|FALSE)\Z")
_INT = re.compile(r"[-+]?[0-9]+\Z")
_OCT = re.compile(r"0o[0-7]+\Z")
_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF = re.compile(r"([-+]?)\.(?:inf|Inf|INF)\Z")
_NAN = re.compile(r"\.(?:nan|NaN|NAN)\Z")
_NOT_FOUND = object()


_CORE = re.compile(
    r"(?P<null>(?:null|Null|NULL|~|)\Z)"
    r"|(?P<true>(?:true|True|TRUE)\Z)"
    r"|(?P<false>(?:false|False|FALSE)\Z)"
    r"|(?P<int>[-+]?[0-9]+\Z)"
    r"|(?P<oct>0o[0-7]+\Z)"
    r"|(?P<hex>0x[0-9a-fA-F]+\Z)"
    r"|(?P<float>[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z)"
    r"|(?P<inf>[-+]?\.(?:inf|Inf|INF)\Z)"
    r"|(?P<nan>\.(?:nan|NaN|NAN)\Z)"
)
"""The YAML 1.2 core schema's plain scalars in one pattern, alternatives in the order of
:func:`_typed`'s kinds (null, bool, int, float)."""

_CORE_START = frozenset("-+.0123456789~nNtTfF")  # how a non-string plain scalar starts


def resolve_plain(text: str) -> Scalar:
    """The YAML 1.2 core-schema value of an untagged plain scalar.

    >>> [resolve_plain(t) for t in ["yes", "on", "true", "~", "", "012", "0o17", "0x1F", "1e3"]]
    ['yes', 'on', True, None, None, 12, 15, 31, 1000.0]
    >>> resolve_plain("1:20"), resolve_plain("-.inf")
    ('1:20', -inf)
    """
    if text and text[0] not in _CORE_START:
        return text
    found = _CORE.match(text)
    if found is None:
        return text
    kind = found.lastgroup
    if kind == "null":
        return None
    if kind in ("true", "false"):
        return kind == "true"
    if kind == "int":
        return int(text, 10)
    if kind in ("oct", "hex"):
        return int(text[2:], 8 if kind == "oct" else 16)
    if kind == "float":
        return float(text)
    if kind == "inf":
        return -math.inf if text[0] == "-" else math.inf
    return math.nan


def _typed(kind: str, text: str) -> object:
    """``text`` read as the YAML 1.2 core type ``kind``, or ``_NOT_FOUND``."""
    if kind == "null" and _NULL.match(text):
        return None
    if kind == "bool":
        if _TRUE.match(text):
            return True
        if _FALSE.match(text):
            return False
    if kind == "int":
        if _INT.match(text):
            return int(text, 10)
        if _OCT.match(text):
            return int(text[2:], 8)
        if _HEX.match(text):
            return int(text[2:], 16)
    if kind == "float":
        if _FLOAT.match(text):
            return float(text)
        inf = _INF.match(text)
        if inf:
            return -math.inf if inf.group(1) == "-" else math.inf
        if _NAN.match(text):
            return math.nan
    return _NOT_FOUND


def yaml_module() -> Any:
    """PyYAML, or None when it is not installed (imported only here, only when needed).

    >>> yaml_module() is None or hasattr(yaml_module(), "safe_load")
    True
    """
    try:
        import yaml
    except ImportError:
        return None
    return yaml


_LOADERS: dict[type, type] = {}


def _loader_class(yaml: Any) -> type:
    """A safe loader (C when available) that marks untagged plain scalars for us to resolve."""
    base: type = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
    cached = _LOADERS.get(base)
    if cached is not None:
        return cached

    def resolve(self: Any, kind: Any, value: Any, implicit: Any) -> Any:
        # By name: a re-imported ``yaml`` (pytester's in-process runs) has new node classes
        # while libyaml's extension keeps building nodes of the first import's classes.
        if getattr(kind, "__name__", "") == "ScalarNode" and implicit[0]:
            return _PLAIN
        return base.resolve(self, kind, value, implicit)  # type: ignore[attr-defined]

    loader = type("_AgentAssertsLoader", (base,), {"resolve": resolve})
    _LOADERS[base] = loader
    return loader


def read_yaml(text: str, problems: ProblemCollector) -> Node | None:
    """Parse one YAML document into nodes; syntax errors become problems (returns None).

    >>> from agent_asserts.loaders.collector import ProblemCollector
    >>> problems = ProblemCollector("s.yml")
    >>> read_yaml("a: [1", problems) is None, problems.problems[0].line
    (True, 2)
    """
    yaml = yaml_module()
    if yaml is None:
        raise Unavailable("reading YAML needs PyYAML", extra="yaml")
    try:
        composed = yaml.compose(text, Loader=_loader_class(yaml))
    except yaml.MarkedYAMLError as exc:
        _syntax_problem(exc, problems)
        return None
    except yaml.YAMLError as exc:
        problems.add(None, f"invalid YAML: {exc}")
        return None
    except RecursionError:
        problems.add(None, "invalid YAML: the document is nested too deeply")
        return None
    if composed is None:
        problems.add_at(1, 1, "", "the document is empty")
        return None
    budget, text_budget = max_alias_nodes(), max_alias_chars()
    anchors = "&" in text  # an alias needs an anchor, and an anchor is written with '&'
    gained, gained_text = alias_gains(composed, yaml, budget, text_budget) if anchors else (0, 0)
    if gained > budget:
        problems.add(
            None,
            f"alias expansion: the aliases of this document would add more than {budget:,} "
            f"nodes (a 'billion laughs' document; set {MAX_ALIAS_NODES_ENV} to change the limit)",
        )
        return None
    if gained_text > text_budget:
        problems.add(
            None,
            f"alias expansion: the aliases of this document would add more than "
            f"{text_budget:,} characters of text (a 'billion laughs' document; set "
            f"{MAX_ALIAS_CHARS_ENV} to change the limit)",
        )
        return None
    builder = _Builder(yaml, problems, budget, anchors)
    try:
        node = builder.build(composed, ())
    except RecursionError:
        problems.add(None, "the document is nested too deeply")
        return None
    if isinstance(node, ScalarNode) and node.value is None:
        problems.add_at(1, 1, "", "the document is empty")
        return None
    return node


def max_alias_nodes() -> int:
    """The alias-expansion budget: :data:`MAX_ALIAS_NODES_ENV`, else
    :data:`DEFAULT_MAX_ALIAS_NODES`.

    >>> max_alias_nodes() >= 0
    True
    """
    return env_limit(MAX_ALIAS_NODES_ENV, DEFAULT_MAX_ALIAS_NODES)


def max_alias_chars() -> int:
    """The alias-expansion budget of text: :data:`MAX_ALIAS_CHARS_ENV`, else
    :data:`DEFAULT_MAX_ALIAS_CHARS`.

    >>> max_alias_chars() >= 0
    True
    """
    return env_limit(MAX_ALIAS_CHARS_ENV, DEFAULT_MAX_ALIAS_CHARS)


def _children(raw: Any, yaml: Any) -> list[Any]:
    if isinstance(raw, yaml.MappingNode):
        return [node for pair in raw.value for node in pair]
    if isinstance(raw, yaml.SequenceNode):
        return list(raw.value)
    return []


def alias_gain(root: Any, yaml: Any, budget: int) -> int:
    """How many nodes expanding every alias of a composed document adds (capped just past
    ``budget``), counted before anything is built: each distinct node once, iteratively.

    >>> yaml = yaml_module()
    >>> alias_gain(yaml.compose("a: &x [1, 2]\\nb: *x\\nc: *x"), yaml, 100)
    6
    """
    return alias_gains(root, yaml, budget, budget)[0]


def alias_gains(root: Any, yaml: Any, budget: int, text_budget: int) -> tuple[int, int]:
    """How many nodes, and how many characters of scalar text, expanding every alias of a
    composed document adds (each capped just past its budget), counted before anything is
    built: each distinct node once, iteratively.

    >>> yaml = yaml_module()
    >>> alias_gains(yaml.compose("a: &x [abc, de]\\nb: *x\\nc: *x"), yaml, 100, 100)
    (6, 10)
    """
    sizes: dict[int, tuple[int, int]] = {}
    visiting: set[int] = set()
    written = [0, 0]  # the nodes and characters of the document as written
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        raw, done = stack.pop()
        key = id(raw)
        if done:
            children = _children(raw, yaml)
            own = 0 if children or not isinstance(raw, yaml.ScalarNode) else len(raw.value)
            nodes = 1 + sum(sizes.get(id(child), (0, 0))[0] for child in children)
            chars = own + sum(sizes.get(id(child), (0, 0))[1] for child in children)
            written[0] += 1
            written[1] += own
            sizes[key] = (
                min(nodes, budget + written[0] + 1),
                min(chars, text_budget + written[1] + 1),
            )
            continue
        if key in sizes or key in visiting:  # built already, or an alias to its own anchor
            continue
        visiting.add(key)
        stack.append((raw, True))
        stack.extend((child, False) for child in _children(raw, yaml) if id(child) not in sizes)
    total = sizes.get(id(root), (0, 0))
    return total[0] - written[0], total[1] - written[1]


def _syntax_problem(exc: Any, problems: ProblemCollector) -> None:
    mark = exc.problem_mark or exc.context_mark
    if exc.problem == "but found another document" and mark is not None:
        message = "a suite file holds one YAML document (a second one starts here)"
        problems.add_at(mark.line + 1, mark.column + 1, "", message)
        return
    message = f"invalid YAML: {exc.problem or exc.context}"
    context_mark = exc.context_mark
    if exc.problem and exc.context:
        if context_mark is not None and (
            mark is None or context_mark.line != mark.line or context_mark.column != mark.column
        ):
            at = f"line {context_mark.line + 1}, column {context_mark.column + 1}"
            message += f" ({exc.context} at {at})"
        else:
            message += f" ({exc.context})"
    if mark is None:
        problems.add(None, message)
    else:
        problems.add_at(mark.line + 1, mark.column + 1, "", message)


class _Builder:
    """Turns PyYAML's composed nodes into ours, resolving scalars and reporting problems."""

    def __init__(
        self, yaml: Any, problems: ProblemCollector, budget: int, anchors: bool = True
    ) -> None:
        self.yaml = yaml
        self.mapping_node, self.sequence_node = yaml.MappingNode, yaml.SequenceNode
        self.budget = budget
        self.anchors = anchors
        self.problems = problems
        self.file = problems.file
        self.active: set[int] = set()
        self.built: set[int] = set()
        self.count = 0

    def build(self, raw: Any, path: tuple[PathPart, ...]) -> Node:
        line, col = raw.start_mark.line + 1, raw.start_mark.column + 1
        if not self.anchors:  # no anchor, so no alias: every node is reached once
            return self._node(raw, line, col, path)
        if id(raw) in self.built:  # reached again through an alias: counts against the budget
            self.count += 1
            if self.count > self.budget:
                raise RecursionError
        else:  # a node written in the file: a long document is not an alias bomb
            self.built.add(id(raw))
        if id(raw) in self.active:
            self._problem(line, col, path, "an alias refers to its own anchor (recursive data)")
            return ScalarNode(self.file, line, col, path, INVALID)
        self.active.add(id(raw))
        try:
            return self._node(raw, line, col, path)
        finally:
            self.active.discard(id(raw))

    def _node(self, raw: Any, line: int, col: int, path: tuple[PathPart, ...]) -> Node:
        if isinstance(raw, self.mapping_node):
            return self._mapping(raw, line, col, path)
        if isinstance(raw, self.sequence_node):
            if raw.tag != _SEQ:
                self._bad_tag(raw.tag, line, col, path)
            build = self.build
            items = tuple([build(child, (*path, i)) for i, child in enumerate(raw.value)])
            return SequenceNode(self.file, line, col, path, items)
        try:
            value = (
                resolve_plain(raw.value)
                if raw.tag == _PLAIN
                else self._scalar(raw, line, col, path)
            )
        except ValueError:  # an integer past Python's digit limit
            limit = sys.get_int_max_str_digits()
            self._problem(line, col, path,
                          f"a number of {len(raw.value)} digits is too long (the limit is "
                          f"{limit} digits)")  # fmt: skip
            value = INVALID
        return ScalarNode(self.file, line, col, path, value)

    def _problem(self, line: int, col: int, path: tuple[PathPart, ...], message: str) -> None:
        self.problems.add_at(line, col, format_path(path), message)

    def _bad_tag(self, tag: str, line: int, col: int, path: tuple[PathPart, ...]) -> None:
        shown = "!!" + tag[len(_Y) :] if tag.startswith(_Y) else tag
        self._problem(line, col, path, f"unsupported tag {shown!r}")

    def _scalar(self, raw: Any, line: int, col: int, path: tuple[PathPart, ...]) -> Scalar:
        tag, text = raw.tag, raw.value
        if tag == _PLAIN:
            return resolve_plain(text)
        if tag == _Y + "str":
            return str(text)
        kind = tag[len(_Y) :] if tag.startswith(_Y) else ""
        if kind in ("null", "bool", "int", "float"):
            value = _typed(kind, text)
            if kind == "float" and value is _NOT_FOUND:
                value = _typed("int", text)
                value = value if value is _NOT_FOUND else float(value)  # type: ignore[arg-type]
            if value is _NOT_FOUND:
                self._problem(line, col, path, f"{text!r} is not a valid !!{kind}")
                return INVALID
            return value  # type: ignore[return-value]
        self._bad_tag(tag, line, col, path)
        return INVALID

    def _mapping(self, raw: Any, line: int, col: int, path: tuple[PathPart, ...]) -> MappingNode:
        if raw.tag != _Y + "map":
            self._bad_tag(raw.tag, line, col, path)
        items: dict[str, Node] = {}
        keys: dict[str, ScalarNode] = {}
        for raw_key, raw_value in raw.value:
            kline, kcol = raw_key.start_mark.line + 1, raw_key.start_mark.column + 1
            if (
                isinstance(raw_key, self.yaml.ScalarNode)
                and raw_key.tag == _PLAIN
                and (raw_key.value == "<<")
            ):
                self._problem(kline, kcol, path, "merge keys ('<<') are not supported")
                continue
            key_node = self.build(raw_key, path)
            key = key_node.value if isinstance(key_node, ScalarNode) else None
            if not isinstance(key, str):
                message = f"mapping keys must be strings (got {describe_value(key_node)})"
                self._problem(kline, kcol, path, message)
                continue
            if key in keys:
                first = keys[key]
                self._problem(
                    kline,
                    kcol,
                    path,
                    f"duplicate key {key!r} (first defined at line {first.line}, "
                    f"column {first.col})",
                )
                continue
            keys[key] = ScalarNode(self.file, kline, kcol, (*path, key), key)
            items[key] = self.build(raw_value, (*path, key))
        return MappingNode(self.file, line, col, path, items, keys)


YAML_MISSING = str(
    Unavailable("reading YAML needs PyYAML", extra="yaml", note="(JSON needs nothing)")
)


def parse_text(text: str, *, file: str = "<string>", json_expected: bool | None = None) -> Node:
    """Parse YAML or JSON ``text``; every problem found raises one :class:`LoadError`.

    ``file`` is the name problems show. ``json_expected`` (default: ``file`` ends with
    ``.json``) reports syntax errors as JSON ones, and lets the text be read with :mod:`json`
    when PyYAML is missing.

    >>> parse_text("checks: [succeeded]", file="s.yml").items["checks"].where
    's.yml:1:9'
    """
    if json_expected is None:
        json_expected = file.lower().endswith(".json")
    problems = ProblemCollector(file)
    node = parse_into(text, problems, json_expected=json_expected)
    problems.raise_if_any()
    if node is None:  # pragma: no cover - a None document always comes with a problem
        raise LoadError([LoadProblem(file, None, None, "", "the document is empty")])
    return node


def parse_into(
    text: str, problems: ProblemCollector, *, json_expected: bool = False
) -> Node | None:
    """Like :func:`parse_text`, but adds problems to ``problems`` (the node may still be used).

    >>> p = ProblemCollector("s.yml")
    >>> parse_into("a: 1\\na: 2\\n", p).get("a").value, len(p)
    (1, 1)
    """
    if not _valid_text(text, problems):
        return None
    node = _parse(text, problems, json_expected)
    deep = None if node is None else node_too_deep(node)
    if deep is not None:
        problems.add(deep, depth_message())
        return None
    return node


def _valid_text(text: str, problems: ProblemCollector) -> bool:
    """Text holding a lone surrogate (only a Python string can) is no Unicode text."""
    found = _SURROGATE.search(text)
    if found is None:
        return True
    line = text.count("\n", 0, found.start()) + 1
    col = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
    problems.add_at(line, col, "", f"invalid text: a lone surrogate {found.group()!r} "
                    "(not a Unicode character)")  # fmt: skip
    return False


_SURROGATE = re.compile("[\ud800-\udfff]")


def node_too_deep(node: Node, limit: int = MAX_DEPTH) -> Node | None:
    """The first node nested deeper than ``limit`` (the outermost container is level 1), found
    without recursion, or None.

    >>> node_too_deep(parse_text("a: [[1]]"), limit=2).path_str
    'a[0]'
    >>> node_too_deep(parse_text("a: [1]"), limit=2) is None
    True
    """
    if not isinstance(node, MappingNode | SequenceNode):
        return None
    stack: list[tuple[MappingNode | SequenceNode, int]] = [(node, 1)]
    while stack:  # only containers are stacked: a scalar is never deeper than its list
        current, level = stack.pop()
        if level > limit:
            return current
        children: Any = current.items
        stack.extend(
            (child, level + 1)
            for child in (children.values() if isinstance(current, MappingNode) else children)
            if isinstance(child, MappingNode | SequenceNode)
        )
    return None


def _parse(text: str, problems: ProblemCollector, json_expected: bool) -> Node | None:
    if yaml_module() is None:
        if json_expected or text.lstrip()[:1] in ("{", "["):
            return read_json(text, problems)
        raise Unavailable("reading YAML needs PyYAML", extra="yaml", note="(JSON needs nothing)")
    if json_expected and text.strip() and not is_json(text):
        # YAML accepts more than JSON (trailing commas, comments, bare keys): a .json file must
        # be JSON, with or without the yaml extra, so JSON's own message is reported.
        return read_json(text, problems)
    attempt = ProblemCollector(problems.file)
    node = read_yaml(text, attempt)
    if node is None and text.strip():
        if is_json(text):
            # Valid JSON that PyYAML rejects (tabs between tokens, keys over 1024 characters):
            # tabs outside strings are only whitespace in JSON, so replacing them keeps
            # positions.
            attempt = ProblemCollector(problems.file)
            node = read_yaml(text.replace("\t", " "), attempt)
            if node is None:
                return read_json(text, problems)
        elif json_expected:  # a broken .json file: say what JSON says about it
            return read_json(text, problems)
    problems.problems.extend(attempt.problems)
    return node


def read_source(path: str | os.PathLike[str]) -> tuple[str, str]:
    """The text of a suite file and the name its problems show (the path as given).

    Undecodable bytes, a path that is not a regular file (a device, a FIFO, a dangling
    symbolic link) and a file over the size limit (:mod:`agent_asserts._files`) raise a
    :class:`LoadError`; a missing file raises ``FileNotFoundError``.

    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = Path(tmp, "s.yml").write_text("checks: [succeeded]", encoding="utf-8-sig")
    ...     read_source(Path(tmp, "s.yml"))[0]
    'checks: [succeeded]'
    """
    display = os.fspath(path)

    def refuse(reason: str) -> LoadError:
        return LoadError([LoadProblem(display, None, None, "", reason)])

    try:
        text = read_bytes(display, refuse).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problem = LoadProblem(display, None, None, "", f"cannot be read as UTF-8 ({exc.reason})")
        raise LoadError([problem]) from None
    return text, display


def parse_file(path: str | os.PathLike[str]) -> Node:
    """Read and parse a suite file (``.json`` files need no PyYAML).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = pathlib.Path(d, "s.yml"); _ = p.write_text("name: x\\n")
    ...     parse_file(p).get("name").value
    'x'
    """
    text, display = read_source(path)
    return parse_text(text, file=display)


def parse_data(data: Any) -> Node:
    """Nodes for already parsed data; problems then show ``<data>`` and the key path.

    An integer too long to be written as text (past Python's digit limit) is a problem at its
    path, as it is in a JSON file.

    >>> parse_data({"a": 1}).get("a").where
    '<data>'
    >>> try:
    ...     parse_data({"name": 10**5000})
    ... except LoadError as exc:
    ...     print(exc)
    <data>: name: a number of 5001 digits is too long (the limit is 4300 digits)
    """
    node = from_plain(data, file="<data>")
    problems = ProblemCollector("<data>")
    limit = sys.get_int_max_str_digits()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, MappingNode | SequenceNode):
            children = current.items.values() if isinstance(current, MappingNode) else current.items
            stack.extend(children)
        elif (
            isinstance(current, ScalarNode)
            and isinstance(current.value, int)
            and limit
            and current.value.bit_length() > limit * 3.32  # more digits than the limit, at least
        ):
            digits = _digits(current.value)
            if digits > limit:
                message = f"a number of {digits} digits is too long (the limit is {limit} digits)"
                problems.add(current, message)
    if problems:
        raise problems.error()
    return node


def _digits(value: int) -> int:
    """The number of decimal digits of ``value``, without writing it as text."""
    n = abs(value)
    digits = max(1, int(n.bit_length() * 0.30102999566398120))
    while 10**digits <= n:
        digits += 1
    while digits > 1 and 10 ** (digits - 1) > n:
        digits -= 1
    return digits


__all__ = [
    "DEFAULT_MAX_ALIAS_CHARS",
    "DEFAULT_MAX_ALIAS_NODES",
    "MAX_ALIAS_CHARS_ENV",
    "MAX_ALIAS_NODES_ENV",
    "YAML_MISSING",
    "alias_gain",
    "alias_gains",
    "is_json",
    "max_alias_chars",
    "max_alias_nodes",
    "parse_data",
    "parse_file",
    "parse_into",
    "parse_text",
    "read_json",
    "read_json_quick",
    "read_source",
    "read_yaml",
    "read_yaml_quick",
    "resolve_plain",
    "yaml_module",
]
