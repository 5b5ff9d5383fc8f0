"""One native check entry → one :class:`~agent_asserts.loaders.suite.CheckEntry`.

An entry names one check method (``called_tool``, ``tool_order``…, from the registry) with
its arguments: a scalar fills the first positional parameter of the fluent method, a list its
positional parameters in order (or ``*args``), a mapping gives keywords. A check class with
``list_entries = True`` (``memory_was_*``) reads a list as one check per item instead.
``severity``, ``at_least``, ``label`` and ``name`` are sibling keys, except under ``expect:``
whose own mapping holds them. Nothing here knows a particular check: parameters, types and
defaults come from the check classes and the fluent methods
(:mod:`agent_asserts.checks.signatures`).

>>> from agent_asserts.loaders.collector import ProblemCollector
>>> from agent_asserts.loaders.nodes import from_plain
>>> node = from_plain({"tool_order": ["lookup", "issue"], "severity": "soft"})
>>> (entry,) = build_entries(node, ProblemCollector("<data>"))
>>> entry.check, entry.severity
(ToolOrder(names=('lookup', 'issue'), contiguous=False), <Severity.SOFT: 'soft'>)
>>> node = from_plain({"memory_was_set": ["a.x", {"name": "a.y", "value": 1}]})
>>> [e.check for e in build_entries(node, ProblemCollector("<data>"))]
[MemoryWasSet(name='a.x', value=MISSING), MemoryWasSet(name='a.y', value=1)]
"""

from __future__ import annotations

from typing import Any

from agent_asserts.checks.signatures import Signature, read_value
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.errors import suggest, unknown_key_message
from agent_asserts.loaders.native_expect import build_expect
from agent_asserts.loaders.native_parts import (
    SIBLINGS,
    check_signatures,
    construct,
    has_invalid,
    python_only_methods,
    read_siblings,
)
from agent_asserts.loaders.nodes import MappingNode, Node, ScalarNode, SequenceNode
from agent_asserts.loaders.operators import is_operator
from agent_asserts.loaders.suite import CheckEntry


def build_entries(node: Node, problems: ProblemCollector) -> list[CheckEntry]:
    """The entries written at ``node`` (one, or one per item of a ``list_entries`` list);
    empty after adding the problems."""
    if isinstance(node, ScalarNode) and isinstance(node.value, str):
        return _with_method(node, node.value, None, node, problems)
    mapping = problems.expect_mapping(node)
    if mapping is None:
        return []
    methods = [key for key in mapping.items if key not in SIBLINGS]
    if not methods:
        problems.add(mapping, "names no check (for example '- max_tool_calls: 5')")
        return []
    known = [m for m in methods if m in check_signatures() or m == "expect"]
    if len(known) > 1:
        listed = " and ".join(repr(m) for m in known)
        problems.add_key_problem(mapping, known[1], f"one check per entry (found {listed})")
        return []
    for method in methods:
        if method not in known:
            problems.add_key_problem(mapping, method, unknown_method(method))
    if not known:
        return []
    method = known[0]
    return _with_method(mapping, method, mapping.items[method], mapping.key_node(method), problems)


def unknown_method(method: str) -> str:
    """``unknown check 'x' (did you mean 'y'?)`` or, near a sibling key, ``unknown key …``.

    >>> unknown_method("called_tol")
    "unknown check 'called_tol' (did you mean 'called_tool'?)"
    >>> unknown_method("sevrity")
    "unknown key 'sevrity' (did you mean 'severity'?)"
    """
    if method in python_only_methods():
        return f"{method!r} takes a Python callable: it is available only from Python"
    close = suggest(method, [*check_signatures(), "expect", *SIBLINGS])
    if close in SIBLINGS:
        return unknown_key_message(method, SIBLINGS)
    return f"unknown check {method!r}" + (f" (did you mean {close!r}?)" if close else "")


def _with_method(
    entry: Node, method: str, args: Node | None, where: Node, problems: ProblemCollector
) -> list[CheckEntry]:
    before = len(problems)
    if method == "expect":
        if isinstance(entry, MappingNode):
            for key in SIBLINGS:
                if key in entry.items:
                    message = f"{key!r} goes inside the 'expect:' mapping"
                    problems.add_key_problem(entry, key, message)
        expected = build_expect(args, where, problems)
        return [] if expected is None else [expected]
    sig = check_signatures().get(method)
    if sig is None:  # a bare string entry naming no known check
        problems.add(entry, unknown_method(method))
        return []
    siblings = read_siblings(entry, problems) if isinstance(entry, MappingNode) else {}
    if sig.list_entries and isinstance(args, SequenceNode):
        return _list_entries(sig, entry, args, siblings, problems)
    kwargs = read_arguments(sig, args, where, problems)
    if kwargs is None or len(problems) > before or has_invalid(args):
        return []
    check = construct(sig, kwargs, args or where, problems)
    return [] if check is None else [CheckEntry(check, **siblings)]


def _list_entries(
    sig: Signature,
    entry: Node,
    args: SequenceNode,
    siblings: dict[str, Any],
    problems: ProblemCollector,
) -> list[CheckEntry]:
    """One entry per item of a list given to a ``list_entries`` check (``memory_was_set:
    [a.b, {name: a.c, value: 1}]``); each item is read as that check's arguments."""
    if isinstance(entry, MappingNode) and "name" in entry.items:
        message = f"'name' cannot name the results of a {sig.method} list (one per item)"
        problems.add_key_problem(entry, "name", message)
    items = problems.expect_list(args, non_empty=True) or []
    out: list[CheckEntry] = []
    for item in items:
        if isinstance(item, SequenceNode):
            message = (
                f"an item of a {sig.method} list is one check: a value or a mapping of "
                "its arguments (got a list)"
            )
            problems.add(item, message)
            continue
        before = len(problems)
        kwargs = read_arguments(sig, item, item, problems)
        if kwargs is None or len(problems) > before or has_invalid(item):
            continue
        check = construct(sig, kwargs, item, problems)
        if check is not None:
            out.append(CheckEntry(check, **siblings))
    return out


def read_arguments(
    sig: Signature, args: Node | None, where: Node, problems: ProblemCollector
) -> dict[str, Any] | None:
    """Keyword arguments for ``sig.cls`` from a null, a scalar, a list or a mapping."""
    required = [p.name for p in sig.params if p.required]
    if args is None or (isinstance(args, ScalarNode) and args.value is None):
        given: dict[str, Node] = {}
    elif isinstance(args, MappingNode) and not is_operator(args) and not sig.takes_data:
        problems.check_keys(
            args,
            required=[n for n in required if n in sig.keywords],
            optional=[n for n in sig.keywords if n not in required],
        )
        given = {k: v for k, v in args.items.items() if k in sig.keywords}
        return _convert_all(sig, given, problems)
    elif isinstance(args, SequenceNode) and (sig.varargs or len(sig.call_positional) > 1):
        given = _positional(sig, args, problems)
    elif sig.call_positional:
        given = {sig.call_positional[0]: args}
    elif sig.varargs is not None:  # one value for *args
        given = {sig.varargs: SequenceNode(args.file, args.line, args.col, args.path, (args,))}
    else:
        problems.add(args, f"{sig.method!r} takes no arguments (write null or {{}})")
        return None
    for name in required:
        if name not in given:
            problems.add(args or where, f"missing argument {name!r} ({_call_shape(sig)})")
    return _convert_all(sig, given, problems)


def _positional(sig: Signature, args: SequenceNode, problems: ProblemCollector) -> dict[str, Node]:
    items = list(args.items)
    given: dict[str, Node] = dict(zip(sig.call_positional, items, strict=False))
    rest = items[len(sig.call_positional) :]
    if sig.varargs is not None:
        given[sig.varargs] = SequenceNode(args.file, args.line, args.col, args.path, tuple(rest))
    elif rest:
        shape = _call_shape(sig)
        problems.add(rest[0], f"too many arguments ({shape}, got {len(items)})")
    return given


def _call_shape(sig: Signature) -> str:
    names = [*sig.call_positional, *([f"*{sig.varargs}"] if sig.varargs else [])]
    return f"{sig.method} takes {', '.join(names) or 'no arguments'}"


def _convert_all(
    sig: Signature, given: dict[str, Node], problems: ProblemCollector
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, node in given.items():
        param = sig.param(name)
        if param is not None:
            out[name] = read_value(node, param.spec, problems)
    return out


__all__ = ["build_entries", "read_arguments", "unknown_method"]
