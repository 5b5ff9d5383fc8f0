"""The native dialect: a YAML/JSON document that mirrors the fluent API one to one.

A single-case file puts ``checks:`` (and optionally ``name:``, ``record:``, ``metadata:``) at
the top level; a suite of several cases lists them under ``cases:`` (a top-level ``record:``
is then the default of every case). Each check entry is described in
:mod:`agent_asserts.loaders.native_entries`. ``Suite.to_dict()``
(:mod:`agent_asserts.loaders.native_data`) writes any suite back in this form, so a suite
loaded from any dialect can be saved as native YAML.

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
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent_asserts.loaders.building import BuildContext
from agent_asserts.loaders.dialects import register_dialect
from agent_asserts.loaders.native_entries import build_entries
from agent_asserts.loaders.nodes import MappingNode, Node, to_plain
from agent_asserts.loaders.record_format import read_record_format
from agent_asserts.loaders.suite import Case, CheckEntry, Suite

CASE_KEYS = ("name", "record", "record_format", "checks", "metadata")
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
        seen.setdefault(name, mapping.get("name") or mapping)
        own = ctx.record_path(mapping.get("record")) if "record" in mapping.items else record
        cases.append(_case(mapping, ctx, name, own))
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
    return Case(name, tuple(entries), record, metadata, judge=ctx.judge, record_format=fmt)


register_dialect("native", detect=detect, build=build, shape=SHAPE, order=50)

__all__ = ["SHAPE", "build", "detect"]
