"""The native dialect: a YAML/JSON document that mirrors the fluent API one to one.

A single-case file puts ``checks:`` (and optionally ``name:``, ``record:``, ``metadata:``) at
the top level; a suite of several cases lists them under ``cases:`` (a top-level ``record:``
is then the default of every case). Each check entry, and the ``expect:`` entry, are described
below. ``Suite.to_dict()`` (:mod:`agent_asserts.loaders.suite`) writes any suite back in this
form, so a suite loaded from any dialect can be saved as native YAML.

>>> from agent_asserts.loaders import loads
>>> suite = loads('''
... name: refunds
... checks:
...   - not_called_tool: refunds_cancel
...   - expect: {value: reply, includes: A1049, label: reply}
... ''')
>>> for entry in suite.to_dict()["checks"]:
...     print(entry)
{'not_called_tool': 'refunds_cancel'}
{'expect': {'value': 'reply', 'includes': 'A1049', 'label': 'reply'}}

The native ``expect:`` entry: a value expectation over a record field or a state path.

``value`` names the value (``reply``, ``status``, ``steps``, ``usage.total_tokens``… or a JSON
Pointer into ``final_state``; ``initial: true`` reads ``initial_state``), or ``literal`` gives
it; one expectation key (``includes``, ``equals``, ``matches``, ``similarity``…, from
``agent_asserts.checks.expectations.VALUE_CHECKS``) holds the expected value; ``at_least``,
``severity``, ``label`` and ``name`` sit in the same mapping. The mapping is read by
:func:`agent_asserts.checks.data.read_expectation`, as the cattrs converter reads a
check's data form ``{"expect": {…}}``.

>>> from agent_asserts.loaders.nodes import from_plain
>>> node = from_plain({"value": "reply", "similarity": "Refund issued", "at_least": 0.9})
>>> entry = build_expect(node, node, ProblemCollector("<data>"))
>>> entry.check, entry.threshold
(Similarity(source=RecordField(name='reply'), expected='Refund issued'), 0.9)

A check entry gives one :class:`~agent_asserts.loaders.suite.CheckEntry`: it names one check
method (``called_tool``, ``tool_order``…, from the registry) with its arguments: a scalar fills
the first positional parameter of the fluent method, a list its positional parameters in order
(or ``*args``), a mapping gives keywords. A check class with ``list_entries = True``
(``memory_was_*``) reads a list as one check per item instead. ``severity``, ``at_least``,
``label`` and ``name`` are sibling keys, except under ``expect:`` whose own mapping holds them.
Nothing here knows a particular check: parameters, types and defaults come from the check
classes and the fluent methods (:mod:`agent_asserts.checks.data`).

>>> node = from_plain({"tool_order": ["lookup", "issue"], "severity": "soft"})
>>> (entry,) = build_entries(node, ProblemCollector("<data>"))
>>> entry.check, entry.severity
(ToolOrder(names=('lookup', 'issue'), contiguous=False), <Severity.SOFT: 'soft'>)
>>> node = from_plain({"memory_was_set": ["a.x", {"name": "a.y", "value": 1}]})
>>> [e.check for e in build_entries(node, ProblemCollector("<data>"))]
[MemoryWasSet(name='a.x', value=MISSING), MemoryWasSet(name='a.y', value=1)]
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent_asserts.checks.data import Signature, read_expectation, read_value
from agent_asserts.loaders.collector import (
    ProblemCollector,
    is_operator,
    suggest,
    unknown_key_message,
)
from agent_asserts.loaders.dialects import BuildContext, builtin_dialect, read_record_format
from agent_asserts.loaders.mantle import MantleCase
from agent_asserts.loaders.nodes import MappingNode, Node, ScalarNode, SequenceNode, to_plain
from agent_asserts.loaders.suite import (
    SIBLINGS,
    Case,
    CheckEntry,
    Suite,
    check_signatures,
    construct,
    has_invalid,
    python_only_methods,
    read_siblings,
)


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


CASE_KEYS = ("name", "record", "record_format", "checks", "metadata", "initial_memory")

SHAPE = (
    "a mapping with 'checks:' (one case) or 'cases:' (several), each check written as its "
    "fluent method: '- called_tool: {name: refunds_lookup, count: 1}'"
)


def detect(data: Any) -> bool:
    """A mapping with ``checks:`` or ``cases:`` whose entries are not typed (``type:``) rules.

    >>> detect({"checks": [{"max_steps": 3}]}), detect({"checks": [{"type": "x", "toolSlug": "t"}]})
    (True, False)
    """
    if not isinstance(data, Mapping) or not ({"checks", "cases"} & set(data)):
        return False
    groups = [data.get("checks")]
    cases = data.get("cases")
    if isinstance(cases, list):
        groups += [c.get("checks") for c in cases if isinstance(c, Mapping)]
    for group in groups:
        if isinstance(group, list) and any(isinstance(e, Mapping) and "type" in e for e in group):
            return False
    return True


def build(doc: Node, ctx: BuildContext) -> Suite:
    """The suite of a native document (problems go to ``ctx.problems``).

    >>> from agent_asserts.loaders.source import parse_text
    >>> doc = parse_text("{name: refund, checks: [succeeded, {max_steps: 5}]}")
    >>> build(doc, BuildContext.for_source(None, dialect="native")).cases[0].checks
    (Succeeded(), MaxSteps(n=5))
    """
    problems = ctx.problems
    mapping = problems.expect_mapping(doc)
    if mapping is None:
        return ctx.suite(())
    name, record = ctx.top_level(mapping)
    if "cases" in mapping.items:
        if "checks" in mapping.items:
            message = "use 'checks:' (one case) or 'cases:' (several), not both"
            problems.add_key_problem(mapping, "checks", message)
        problems.check_keys(mapping, required=["cases"], optional=["name", "record", "checks"])
        cases = _cases(mapping.items["cases"], ctx, name, record)
    else:
        problems.check_keys(mapping, required=["checks"], optional=CASE_KEYS)
        cases = [_case(mapping, ctx, name, record)]
    return ctx.suite(cases, name=name)


def _cases(node: Node, ctx: BuildContext, suite_name: str, record: Path | None) -> list[Case]:
    problems = ctx.problems
    items = problems.expect_list(node, non_empty=True) or []
    cases: list[Case] = []
    seen: dict[str, Node] = {}
    for i, item in enumerate(items):
        mapping = problems.expect_mapping(item)
        if mapping is None:
            continue
        problems.check_keys(mapping, required=["checks"], optional=CASE_KEYS)
        name = problems.expect_str(mapping.get("name"), non_empty=True)
        name = name or f"{suite_name}[{i}]"
        if name in seen:
            first = seen[name]
            message = f"duplicate case name {name!r}"
            if first.line is not None:
                message += f" (first defined at line {first.line}, column {first.col})"
            problems.add(mapping.get("name") or mapping, message)
        duplicate = name in seen
        seen.setdefault(name, mapping.get("name") or mapping)
        own = ctx.record_path(mapping.get("record")) if "record" in mapping.items else record
        case = _case(mapping, ctx, name, own)  # its problems are found even when a duplicate
        if not duplicate:  # the problem above refuses the file; a Suite holds unique names
            cases.append(case)
    return cases


def _case(mapping: MappingNode, ctx: BuildContext, name: str, record: Path | None) -> Case:
    problems = ctx.problems
    entries: list[CheckEntry] = []
    for item in problems.expect_list(mapping.get("checks")) or []:
        entries += build_entries(item, problems)
    metadata: dict[str, Any] = {}
    meta_node = problems.expect_mapping(mapping.get("metadata"))
    if meta_node is not None:
        metadata = to_plain(meta_node)
    fmt = "auto"
    if "record_format" in mapping.items:
        fmt = read_record_format(mapping.items["record_format"], problems) or "auto"
    if "initial_memory" in mapping.items:  # a Mantle scenario's setup.initial_slots, written back
        memory_node = problems.expect_mapping(mapping.items["initial_memory"])
        memory = {} if memory_node is None else to_plain(memory_node)
        return MantleCase(
            name,
            tuple(entries),
            record,
            metadata,
            judge=ctx.judge,
            record_format=fmt,
            initial_memory=memory,
        )
    return Case(name, tuple(entries), record, metadata, judge=ctx.judge, record_format=fmt)


builtin_dialect("native", detect=detect, build=build, shape=SHAPE, order=50)


__all__ = [
    "SHAPE",
    "build",
    "build_entries",
    "build_expect",
    "detect",
    "read_arguments",
    "unknown_method",
]
