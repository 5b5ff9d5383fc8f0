"""One native check entry → one :class:`~agent_asserts.loaders.suite.CheckEntry`.

An entry names one check method (``called_tool``, ``tool_order``…, from the registry) with
its arguments: a scalar fills the first positional parameter of the fluent method, a list its
positional parameters in order (or ``*args``), a mapping gives keywords. A check class with
``list_entries = True`` (``memory_was_*``) reads a list as one check per item instead.
``severity``, ``at_least``, ``label`` and ``name`` are sibling keys, except under ``expect:``
whose own mapping holds them. Nothing here knows a particular check: parameters, types and
defaults come from the check classes and the fluent methods
(:mod:`agent_asserts.loaders.signatures`).

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

import functools
from typing import Any

from agent_asserts.checks.expectations import VALUE_CHECKS
from agent_asserts.checks.registry import all_checks
from agent_asserts.loaders.arguments import convert, report_exception
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.errors import suggest, unknown_key_message
from agent_asserts.loaders.nodes import INVALID, MappingNode, Node, ScalarNode, SequenceNode
from agent_asserts.loaders.operators import is_operator
from agent_asserts.loaders.signatures import Signature, signature
from agent_asserts.loaders.suite import CheckEntry

SIBLINGS = ("severity", "at_least", "label", "name")
"""Keys beside a check method (inside ``expect:`` for value expectations)."""
EXPECT_SOURCES = ("value", "initial", "literal")


@functools.cache
def check_signatures() -> dict[str, Signature]:
    """Every registered check method that can be written in a suite file, by name."""
    sigs = {name: signature(cls) for name, cls in all_checks().items()}
    return {name: sig for name, sig in sigs.items() if sig.yaml_ok}


@functools.cache
def python_only_methods() -> frozenset[str]:
    """Registered methods that need a Python callable (``events_satisfy``…)."""
    every = {**all_checks(), **VALUE_CHECKS}
    return frozenset(name for name, cls in every.items() if not signature(cls).yaml_ok)


@functools.cache
def expect_signatures() -> dict[str, Signature]:
    """The value expectations usable under ``expect:`` (``includes``, ``similarity``…)."""
    sigs = {name: signature(cls) for name, cls in VALUE_CHECKS.items()}
    return {name: sig for name, sig in sigs.items() if sig.yaml_ok}


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
        from agent_asserts.loaders.native_expect import build_expect

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


def has_invalid(node: Node | None) -> bool:
    """True when a value below ``node`` could not be read (its problem is already reported).

    >>> from agent_asserts.loaders.nodes import INVALID, from_plain
    >>> has_invalid(from_plain({"a": [1, INVALID]})), has_invalid(from_plain({"a": 1}))
    (True, False)
    """
    if isinstance(node, ScalarNode):
        return node.value is INVALID
    if isinstance(node, MappingNode):
        return any(has_invalid(child) for child in node.items.values())
    if isinstance(node, SequenceNode):
        return any(has_invalid(child) for child in node.items)
    return False


def read_siblings(entry: MappingNode, problems: ProblemCollector) -> dict[str, Any]:
    """``severity``, ``at_least`` (→ threshold), ``label`` and ``name`` of an entry."""
    out: dict[str, Any] = {}
    if "severity" in entry.items:
        out["severity"] = problems.expect_choice(entry.items["severity"], ("gate", "soft"))
    if "at_least" in entry.items:
        node = entry.items["at_least"]
        value = problems.expect_number(node)
        if value is not None and not 0.0 <= value <= 1.0:
            problems.add(node, f"must be between 0 and 1 (got {value})")
        out["threshold"] = None if value is None else float(value)
    if "label" in entry.items:
        out["label"] = problems.expect_str(entry.items["label"])
    if "name" in entry.items:
        out["name"] = problems.expect_str(entry.items["name"], non_empty=True)
    return out


def read_arguments(
    sig: Signature, args: Node | None, where: Node, problems: ProblemCollector
) -> dict[str, Any] | None:
    """Keyword arguments for ``sig.cls`` from a null, a scalar, a list or a mapping."""
    required = [p.name for p in sig.params if p.required]
    if args is None or (isinstance(args, ScalarNode) and args.value is None):
        given: dict[str, Node] = {}
    elif isinstance(args, MappingNode) and not is_operator(args) and not _data_value(sig):
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


def _data_value(sig: Signature) -> bool:
    """True when a mapping is the (only) positional value, not keywords (``contract:``)."""
    if len(sig.call_positional) != 1 or sig.varargs is not None:
        return False
    param = sig.param(sig.call_positional[0])
    return param is not None and param.spec.kind == "data"


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
            out[name] = convert(node, param.spec, problems)
    return out


def construct(
    sig: Signature, kwargs: dict[str, Any], where: Node, problems: ProblemCollector
) -> Any:
    """Build the check; a ``TypeError``/``ValueError`` it raises becomes a problem.

    A class with ``varargs`` takes its positional fields and the varargs positionally (its
    ``__init__`` mirrors the fluent method: ``ToolOrder(*names, contiguous=False)``).
    """
    kwargs = dict(kwargs)
    args: list[Any] = []
    if sig.varargs is not None:
        args = [kwargs.pop(name) for name in sig.positional if name in kwargs]
        args += list(kwargs.pop(sig.varargs, ()))
    try:
        return sig.cls(*args, **kwargs)
    except (TypeError, ValueError) as exc:
        report_exception(exc, where, problems)
        return None


__all__ = [
    "SIBLINGS",
    "build_entries",
    "check_signatures",
    "construct",
    "expect_signatures",
    "has_invalid",
    "read_arguments",
    "read_siblings",
    "unknown_method",
]
