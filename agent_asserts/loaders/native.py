"""The native dialect: a YAML/JSON document that mirrors the fluent API one to one.

A single-case file puts ``checks:`` (and optionally ``name:``, ``record:``, ``metadata:``) at
the top level; a suite of several cases lists them under ``cases:`` (a top-level ``record:``
is then the default of every case). Each check entry is described in
:mod:`agent_asserts.loaders.native_entries`. :func:`suite_to_data` writes any suite back in
this form, so a suite loaded from any dialect can be saved as native YAML.

>>> from agent_asserts.loaders import loads
>>> suite = loads('''
... name: refunds
... checks:
...   - not_called_tool: refunds_cancel
...   - expect: {value: reply, includes: A1049, label: reply}
... ''')
>>> for entry in suite_to_data(suite)["checks"]:
...     print(entry)
{'not_called_tool': 'refunds_cancel'}
{'expect': {'value': 'reply', 'includes': 'A1049', 'label': 'reply'}}
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent_asserts.loaders.building import BuildContext
from agent_asserts.loaders.dialects import register_dialect
from agent_asserts.loaders.native_entries import build_entries, check_signatures
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


# -- writing ---------------------------------------------------------------------------------


def entry_to_data(entry: CheckEntry) -> Any:
    """The native form of one entry; compact when the check has a single positional value.

    >>> from agent_asserts.checks.cost import MaxSteps
    >>> from agent_asserts.checks.outcome import Succeeded
    >>> entry_to_data(CheckEntry(MaxSteps(5))), entry_to_data(CheckEntry(MaxSteps(5), label="x"))
    ({'max_steps': 5}, {'max_steps': 5, 'label': 'x'})
    >>> entry_to_data(CheckEntry(Succeeded())), entry_to_data(CheckEntry(Succeeded(), name="ok"))
    ('succeeded', {'succeeded': None, 'name': 'ok'})
    """
    data = entry.check.to_data()
    ((method, args),) = data.items()
    siblings: dict[str, Any] = {}
    if entry.severity is not None:
        siblings["severity"] = entry.severity.value
    if entry.threshold is not None:
        siblings["at_least"] = entry.threshold
    if entry.label is not None:
        siblings["label"] = entry.label
    if entry.name is not None:
        siblings["name"] = entry.name
    if method == "expect":
        return {"expect": {**args, **siblings}}
    compact = _compact(method, args)
    if compact is None and not siblings:
        return method
    return {method: compact, **siblings}


def _compact(method: str, args: Any) -> Any:
    """``{n: 5}`` → ``5`` and ``{names: [a, b]}`` → ``[a, b]`` when that reads back the same."""
    sig = check_signatures().get(method)
    if sig is None or not isinstance(args, Mapping):
        return args
    if not args:
        return None
    if len(args) == 1:
        ((key, value),) = args.items()
        if sig.varargs == key and not sig.call_positional:
            return value
        single = sig.call_positional[:1] == (key,) and not sig.varargs
        if single and not isinstance(value, Mapping | list):
            return value
    return args


def case_to_data(case: Case, *, base_dir: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The native form of one case: ``name``, ``record``, ``metadata`` and ``checks``.

    >>> from agent_asserts.loaders import loads
    >>> suite = loads("{name: refund, metadata: {tags: [smoke]}, checks: [succeeded]}")
    >>> case_to_data(suite.cases[0])
    {'name': 'refund', 'metadata': {'tags': ['smoke']}, 'checks': ['succeeded']}
    """
    out: dict[str, Any] = {"name": case.name}
    if case.record_path is not None:
        out["record"] = _relative(case.record_path, base_dir)
    if case.record_format != "auto":
        out["record_format"] = case.record_format
    if case.metadata:
        out["metadata"] = dict(case.metadata)
    out["checks"] = [entry_to_data(entry) for entry in case.entries]
    return out


def suite_to_data(
    suite: Suite, *, base_dir: str | os.PathLike[str] | None = None
) -> dict[str, Any]:
    """The native form of a suite: the single-case form when it has one case of its name.

    >>> from agent_asserts.loaders import loads
    >>> suite_to_data(loads("{name: refund, checks: [succeeded]}"))
    {'name': 'refund', 'checks': ['succeeded']}
    """
    if len(suite.cases) == 1 and suite.cases[0].name == suite.name:
        return case_to_data(suite.cases[0], base_dir=base_dir)
    cases = [case_to_data(case, base_dir=base_dir) for case in suite.cases]
    return {"name": suite.name, "cases": cases}


def _relative(path: Path, base_dir: str | os.PathLike[str] | None) -> str:
    if base_dir is None:
        return path.as_posix()
    try:
        return Path(os.path.relpath(path, base_dir)).as_posix()
    except ValueError:  # another drive on Windows
        return path.as_posix()


register_dialect("native", detect=detect, build=build, shape=SHAPE, order=50)

__all__ = ["SHAPE", "build", "case_to_data", "detect", "entry_to_data", "suite_to_data"]
