"""The native ``expect:`` entry: a value expectation over a record field or a state path.

``value`` names the value (``reply``, ``status``, ``steps``, ``usage.total_tokens``… or a JSON
Pointer into ``final_state``; ``initial: true`` reads ``initial_state``), or ``literal`` gives
it; one expectation key (``includes``, ``equals``, ``matches``, ``similarity``…, from
``agent_asserts.checks.expectations.VALUE_CHECKS``) holds the expected value; ``at_least``,
``severity``, ``label`` and ``name`` sit in the same mapping.

>>> from agent_asserts.loaders.collector import ProblemCollector
>>> from agent_asserts.loaders.nodes import from_plain
>>> node = from_plain({"value": "reply", "similarity": "Refund issued", "at_least": 0.9})
>>> entry = build_expect(node, node, ProblemCollector("<data>"))
>>> entry.check, entry.threshold
(Similarity(source=RecordField(name='reply'), expected='Refund issued'), 0.9)
"""

from __future__ import annotations

from typing import Any

from agent_asserts.checks.sources import LiteralValue, source_for
from agent_asserts.loaders.arguments import convert
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.native_parts import (
    EXPECT_SOURCES,
    SIBLINGS,
    construct,
    expect_signatures,
    has_invalid,
    read_siblings,
)
from agent_asserts.loaders.nodes import Node
from agent_asserts.loaders.suite import CheckEntry


def build_expect(node: Node | None, where: Node, problems: ProblemCollector) -> CheckEntry | None:
    """The :class:`CheckEntry` of one ``expect:`` mapping, or None after adding problems.

    >>> from agent_asserts.loaders.collector import ProblemCollector
    >>> from agent_asserts.loaders.source import parse_text
    >>> node = parse_text("{value: reply, includes: A1049}")
    >>> build_expect(node, node, ProblemCollector("s.yml")).check
    Includes(source=RecordField(name='reply'), expected='A1049')
    """
    if node is None:
        problems.add(where, "'expect' needs a mapping (for example {value: reply, includes: x})")
        return None
    mapping = problems.expect_mapping(node)
    if mapping is None:
        return None
    before = len(problems)
    sigs = expect_signatures()
    methods = [key for key in mapping.items if key in sigs]
    extras = sorted({p.name for s in sigs.values() for p in s.params} - {"source", "expected"})
    keys_ok = problems.check_keys(mapping, optional=[*EXPECT_SOURCES, *sigs, *extras, *SIBLINGS])
    if not methods and not keys_ok:
        return None  # a misspelt expectation was reported as an unknown key
    if not methods:
        names = ", ".join(repr(m) for m in sigs)
        problems.add(mapping, f"names no expectation (one of {names})")
        return None
    if len(methods) > 1:
        listed = " and ".join(repr(m) for m in methods)
        message = f"one expectation per 'expect:' (found {listed})"
        problems.add_key_problem(mapping, methods[1], message)
        return None
    sig = sigs[methods[0]]
    source = _source(mapping.items, mapping, problems)
    kwargs: dict[str, Any] = {"source": source}
    expected = sig.param("expected")
    if expected is not None:
        kwargs["expected"] = convert(mapping.items[methods[0]], expected.spec, problems)
    for param in sig.params:
        if param.name not in ("source", "expected") and param.name in mapping.items:
            kwargs[param.name] = convert(mapping.items[param.name], param.spec, problems)
    for key in extras:
        if key in mapping.items and sig.param(key) is None:
            problems.add_key_problem(mapping, key, f"{methods[0]!r} takes no {key!r}")
    siblings = read_siblings(mapping, problems)
    if len(problems) > before or has_invalid(mapping):
        return None
    check = construct(sig, kwargs, mapping, problems)
    return None if check is None else CheckEntry(check, **siblings)


def _source(items: Any, mapping: Node, problems: ProblemCollector) -> Any:
    if "literal" in items:
        if "value" in items or "initial" in items:
            problems.add(mapping, "use either 'value' (a record field) or 'literal', not both")
            return None
        return LiteralValue(problems.matcher_value(items["literal"]))
    if "value" not in items:
        problems.add(mapping, "required key 'value' missing")
        return None
    name = problems.expect_str(items["value"])
    initial = problems.expect_bool(items["initial"]) if "initial" in items else False
    if name is None or initial is None:
        return None
    try:
        return source_for(name, initial=initial)
    except (TypeError, ValueError) as exc:
        wrong_initial = initial and not name.startswith("/") and name != ""
        where = items["initial"] if wrong_initial else items["value"]
        problems.add(where, str(exc))
        return None


__all__ = ["build_expect"]
