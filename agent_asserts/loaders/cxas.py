"""The cxas dialect: ``tool_expectations`` of cxas-scrapi ``SimulationEvals`` files.

Shapes: ``evals: [{name, tags, steps, expectations, tool_expectations}]`` (one case per eval),
one eval's keys at the top level (``tool_expectations:`` with ``name``, ``steps``…), or a bare
list of ``{type, tool, …}`` entries. Each operator builds the check class the fluent API
builds (see docs/cxas.md); values compare by the cxas rules (``M.lenient``). Every case also
gets ``trace_parsed``; ``expectations`` and each step (``goal``, ``success_criteria``) are
judge checks with gate severity (``invalid`` "no judge configured" without a judge).

>>> from agent_asserts.loaders import load
>>> from agent_asserts.record import TrialRecord
>>> suite = load([{"type": "tool_input", "tool": "create_order", "args": {"quantity": 2}}])
>>> rec = TrialRecord.builder().tool("create_order", {"quantity": "2"}).build()
>>> [(r.name, r.status.value) for r in suite.evaluate(rec)[0].results]
[('trace_parsed', 'pass'), ('tool_input:create_order', 'pass')]

``OPERATORS`` maps each ``type`` of a ``tool_expectations`` entry (``{type, tool, …}``) to the
check it builds.

>>> sorted(OPERATORS)[:3]
['end_session', 'every_call', 'followed_by']
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from agent_asserts._files import open_text_input
from agent_asserts.checks.base import Check
from agent_asserts.checks.semantic import JudgeCheck
from agent_asserts.checks.tools import CalledTool, NotCalledTool
from agent_asserts.checks.trajectory import (
    EndedSession,
    EveryCall,
    FollowedBy,
    LastTool,
    TerminalTool,
    TraceParsed,
)
from agent_asserts.context import EvalContext
from agent_asserts.loaders.collector import unknown_key_message
from agent_asserts.loaders.dialects import BuildContext, builtin_dialect
from agent_asserts.loaders.nodes import MappingNode, Node, SequenceNode, from_plain, to_plain
from agent_asserts.loaders.sop import KEYS as SOP_KEYS
from agent_asserts.loaders.suite import Case, CheckEntry, Suite
from agent_asserts.matching import Count, M
from agent_asserts.record import TrialRecord
from agent_asserts.record.adapters import ces
from agent_asserts.record.parsing import require_regular
from agent_asserts.record.reading import refusal
from agent_asserts.selectors import on

OPERATORS: Final[Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "tool_called": (("tool",), ("min",)),
    "tool_not_called": (("tool",), ("args", "before")),
    "tool_input": (("tool", "args"), ("min",)),
    "tool_output": (("tool", "result"), ("min",)),
    "last_tool": (("tool",), ("args",)),
    "every_call": (("tool",), ("args", "result")),
    "followed_by": (("tool", "next"), ("args",)),
    "terminal_tool": (("tool",), ()),
    "end_session": ((), ("args", "tool")),
    "handoff": ((), ("args", "tool")),
}
"""Operator → (required keys, optional keys), besides ``type``."""


def _lenient(value: Any) -> Any:
    """``M.lenient(value)``, or None for an absent value."""
    return None if value is None else M.lenient(value)


def _tool_selector(node: Node | None, ctx: BuildContext, keys: tuple[str, ...]) -> Any:
    """``before:`` / ``next:`` — a tool name, or ``{tool, args?, result?}``."""
    p = ctx.problems
    if node is None:
        return None
    if not isinstance(node, MappingNode):
        return p.expect_str(node, non_empty=True)
    if not p.check_keys(node, required=["tool"], optional=keys):
        return None
    name = p.expect_str(node.get("tool"), non_empty=True)
    arguments = _value(node.get("args"), ctx, mapping=True)
    result = _value(node.get("result"), ctx) if "result" in keys else None
    if name is None:
        return None
    return on.tool(name, arguments=_lenient(arguments), result=_lenient(result))


def _value(node: Node | None, ctx: BuildContext, *, mapping: bool = False) -> Any:
    if node is None:
        return None
    if mapping and ctx.problems.expect_mapping(node) is None:
        return None
    if ctx.problems.expect_value(node) is None:
        return None
    return ctx.problems.matcher_value(node)


def _build_check(op: str, node: MappingNode, ctx: BuildContext, start: int) -> Check | None:
    p = ctx.problems
    required, optional = OPERATORS[op]
    allowed = {*required, *optional}

    def get(key: str) -> Node | None:
        return node.get(key) if key in allowed else None

    tool = p.expect_str(get("tool"), non_empty=True)
    args = _lenient(_value(get("args"), ctx, mapping=True))
    result = _lenient(_value(get("result"), ctx))
    least = p.expect_int(get("min"), minimum=1)
    count = Count.at_least(1 if least is None else least)
    before = _tool_selector(get("before"), ctx, ("args", "result"))
    after = _tool_selector(get("next"), ctx, ("args",))
    if op == "every_call" and args is None and result is None and len(p) == start:
        p.add(node, "every_call needs 'args' or 'result' (it would check nothing)")
    if len(p) > start:
        return None
    if op in ("end_session", "handoff"):
        return EndedSession(args, tool=tool or "end_session")
    if tool is None:
        return None
    builders: dict[str, Callable[[], Check]] = {
        "tool_called": lambda: CalledTool(tool, count=count),
        "tool_not_called": lambda: NotCalledTool(tool, args, before=before),
        "tool_input": lambda: CalledTool(tool, arguments=args, count=count),
        "tool_output": lambda: CalledTool(tool, result=result, count=count),
        "last_tool": lambda: LastTool(tool, args),
        "every_call": lambda: EveryCall(tool, args, result),
        "followed_by": lambda: FollowedBy(tool, after, arguments=args),
        "terminal_tool": lambda: TerminalTool(tool),
    }
    return builders[op]()


def operator_entry(node: Node, ctx: BuildContext) -> CheckEntry | None:
    """One ``tool_expectations`` item as a check entry named ``{type}:{tool}`` (or None, with
    its problems added to ``ctx.problems``).

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> ctx = BuildContext.for_source(None, dialect="cxas")
    >>> entry = operator_entry(from_plain({"type": "terminal_tool", "tool": "end_session"}), ctx)
    >>> entry.name, entry.check
    ('terminal_tool:end_session', TerminalTool(name='end_session'))
    """
    p = ctx.problems
    mapping = p.expect_mapping(node)
    if mapping is None:
        return None
    op = p.expect_str(mapping.get("type"), non_empty=True)
    if "type" not in mapping.items:
        p.add(mapping, "required key 'type' missing")
        return None
    if op is None:
        return None
    if op not in OPERATORS:
        p.add(mapping.get("type"), unknown_key_message(op, list(OPERATORS), what="operator"))
        return None
    required, optional = OPERATORS[op]
    before = len(p)
    p.check_keys(mapping, required=["type", *required], optional=optional)
    try:
        check = _build_check(op, mapping, ctx, before)
    except (TypeError, ValueError) as exc:
        p.add(mapping, str(exc))
        return None
    if check is None or len(p) > before:
        return None
    tool = to_plain(mapping.items["tool"]) if "tool" in mapping.items else None
    return CheckEntry(check, name=op if tool is None else f"{op}:{tool}")


EVAL_KEYS: Final = ("tags", "steps", "expectations", "tool_expectations", "session_parameters")
_STEP_INPUTS: Final = ("response_guide", "static_utterance", "inject_variables")
STEP_KEYS: Final = ("goal", "success_criteria", "max_turns", *_STEP_INPUTS)


def _kind(item: Mapping[str, Any]) -> str:
    kind = item.get("type")
    return kind if isinstance(kind, str) else ""


def detect(data: Any) -> bool:
    """``evals:``, a ``tool_expectations:`` list, or a list of cxas ``{type, …}`` entries.

    >>> detect({"evals": []}), detect([{"type": "end_session"}]), detect([{"type": "x"}])
    (True, True, False)
    """
    if isinstance(data, Mapping):
        return "evals" in data or isinstance(data.get("tool_expectations"), list)
    if not isinstance(data, list):
        return False
    entries = [item for item in data if isinstance(item, Mapping)]
    if any(SOP_KEYS & set(item) for item in entries):
        return False
    return any(_kind(item) in OPERATORS or "tool" in item for item in entries)


def _strings(node: Node | None, ctx: BuildContext, *, non_blank: bool = False) -> list[str]:
    items = ctx.problems.expect_list(node) or []
    texts = (ctx.problems.expect_str(item, non_empty=True, non_blank=non_blank) for item in items)
    return [t for t in texts if t is not None]


def _judge(criterion: str, name: str, rubric: str | None = None) -> CheckEntry:
    return CheckEntry(JudgeCheck(criterion, rubric=rubric), name=name, severity="gate")


def _steps(node: Node | None, ctx: BuildContext, meta: dict[str, Any]) -> list[CheckEntry]:
    p = ctx.problems
    entries: list[CheckEntry] = []
    inputs: list[dict[str, Any]] = []
    turns: list[int | None] = []
    for item in p.expect_list(node) or []:
        step = p.expect_mapping(item)
        if step is None:
            continue
        p.check_keys(step, optional=STEP_KEYS)
        goal = p.expect_str(step.get("goal"), non_blank=True)
        criteria = p.expect_str(step.get("success_criteria"), non_blank=True)
        turns.append(p.expect_int(step.get("max_turns"), minimum=0))
        for key in _STEP_INPUTS[:2]:
            p.expect_str(step.get(key))
        p.expect_mapping(step.get("inject_variables"))
        inputs.append({k: to_plain(v) for k, v in step.items.items() if k in _STEP_INPUTS})
        if goal is not None:
            entries.append(_judge(goal, f"step:{goal}", criteria))
        elif criteria is not None:
            entries.append(_judge(criteria, f"step:{criteria}"))
    if any(t is not None for t in turns):
        meta["max_turns"] = turns
    if any(inputs):
        meta["step_inputs"] = inputs
    return entries


def _build_case(node: MappingNode, ctx: BuildContext, name: str, record: Path | None) -> Case:
    """One eval (already key-checked) as a :class:`Case`."""
    p = ctx.problems
    meta: dict[str, Any] = {}
    if "tags" in node.items:
        meta["tags"] = _strings(node.get("tags"), ctx)
    if "session_parameters" in node.items and p.expect_mapping(node.get("session_parameters")):
        meta["session_parameters"] = to_plain(node.items["session_parameters"])
    entries = [CheckEntry(TraceParsed())]
    for item in p.expect_list(node.get("tool_expectations")) or []:
        entry = operator_entry(item, ctx)
        if entry is not None:
            entries.append(entry)
    entries += _steps(node.get("steps"), ctx, meta)
    entries += [
        _judge(t, f"expectation:{t}")
        for t in _strings(node.get("expectations"), ctx, non_blank=True)
    ]
    return Case(name, tuple(entries), record, meta, ctx.judge, read_record)


def build(doc: Node, ctx: BuildContext) -> Suite:
    """Build the suite of a cxas document (see the module documentation).

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> ctx = BuildContext.for_source(None, dialect="cxas", default_name="orders")
    >>> suite = build(from_plain({"evals": [{"name": "a"}, {"name": "b"}]}), ctx)
    >>> suite.name, [case.name for case in suite.cases]
    ('orders', ['a', 'b'])
    """
    p = ctx.problems
    if isinstance(doc, SequenceNode):
        bare = MappingNode(doc.file, doc.line, doc.col, (), {"tool_expectations": doc}, {})
        return ctx.suite([_build_case(bare, ctx, ctx.default_name, None)])
    mapping = p.expect_mapping(doc)
    if mapping is None:
        return ctx.suite([])
    suite_name, record = ctx.top_level(mapping)
    if "evals" not in mapping.items:
        p.check_keys(
            mapping, required=["tool_expectations"], optional=["name", "record", *EVAL_KEYS]
        )
        return ctx.suite([_build_case(mapping, ctx, suite_name, record)], name=suite_name)
    p.check_keys(mapping, required=["evals"], optional=["name", "record"])
    cases: list[Case] = []
    seen: dict[str, Node] = {}
    for item in p.expect_list(mapping.get("evals"), non_empty=True) or []:
        entry = p.expect_mapping(item)
        if entry is None:
            continue
        p.check_keys(entry, required=["name"], optional=["record", *EVAL_KEYS])
        name = p.expect_str(entry.get("name"), non_empty=True) or ""
        own = ctx.record_path(entry.get("record")) if "record" in entry.items else record
        case = _build_case(entry, ctx, name, own)  # its problems are found even when a duplicate
        here = entry.get("name") or entry
        if name not in seen:  # by name, not by node: equal nodes may be one object
            seen[name] = here
            cases.append(case)
        elif name:  # results and reports name cases; a missing name has its own problem
            first = seen[name]
            message = f"duplicate eval name {name!r}"
            if first.line is not None:
                message += f" (first defined at line {first.line}, column {first.col})"
            p.add(here, message)
    return ctx.suite(cases, name=suite_name)


def read_record(path: Path) -> TrialRecord:
    """Read a record file: a CES simulation result (``detailed_trace``) or a canonical record.

    >>> import json, pathlib, tempfile
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "sim.json"
    >>> _ = file.write_text(json.dumps({"detailed_trace": ["Tool Call: end_session"]}))
    >>> read_record(file).tool_calls[0].payload.name
    'end_session'
    """
    require_regular(path)
    with open_text_input(path, refusal(os.fspath(path))) as handle:
        text = handle.read()
    data = json.loads(text)
    if isinstance(data, Mapping) and ces.TRACE_KEY in data:
        return ces.to_record(data, source=str(path))
    return TrialRecord.from_dict(data, source=str(path))


def _details(case_entry: CheckEntry, node: Mapping[str, Any]) -> str:
    shown = {k: v for k, v in node.items() if k not in ("type", "tool")}
    name = case_entry.name or case_entry.check.default_name()
    return f"[tool] {name}" + (
        f" {json.dumps(shown, sort_keys=True, default=str)}" if shown else ""
    )


def apply_to_result(test_case: Mapping[str, Any], result: dict[str, Any]) -> list[dict[str, Any]]:
    """Fold a test case's tool expectations into a cxas simulation result dict, in place.

    Evaluates ``trace_parsed`` and every ``tool_expectations`` entry on the result's
    ``detailed_trace`` (the CES adapter), replaces the ``[tool]`` rows of
    ``result["expectation_details"]`` with one row per check (``operator``, ``expectation``,
    ``status`` ``Met``/``Not Met``, ``justification``), keeps the judge's verdict in
    ``judge_passed`` (the original ``passed`` when absent), sets ``passed = judge_passed and
    every tool check met`` and ``expectations`` to ``met/total`` over all rows. Applying it
    twice changes nothing more. A test case without ``tool_expectations`` changes nothing.

    Args:
        test_case: One cxas eval (only ``name`` and ``tool_expectations`` are read).
        result: The dict ``SimulationEvals`` returned for a run of that eval.

    Returns:
        The ``[tool]`` rows now in ``result["expectation_details"]``.

    Raises:
        LoadError: The tool expectations are malformed (every problem listed).

    >>> result = {"passed": True, "detailed_trace": ["Tool Call: end_session with args {}"]}
    >>> case = {"name": "t", "tool_expectations": [{"type": "tool_called", "tool": "lookup"}]}
    >>> [(r["operator"], r["status"]) for r in apply_to_result(case, result)]
    [('trace_parsed', 'Met'), ('tool_called', 'Not Met')]
    >>> result["passed"], result["judge_passed"], result["expectations"]
    (False, True, '1/2')
    """
    if "tool_expectations" not in test_case:
        return []
    raw = {"tool_expectations": test_case["tool_expectations"]}
    doc = from_plain(raw, file="<test_case>")
    if not isinstance(doc, MappingNode):  # pragma: no cover - a dict always gives a mapping
        raise TypeError("a test case must be a mapping")
    ctx = BuildContext.for_source(None, dialect="cxas", file="<test_case>")
    case = _build_case(doc, ctx, str(test_case.get("name", "test_case")), None)
    ctx.problems.raise_if_any()
    items: Sequence[Any] = test_case["tool_expectations"]
    entries = [e for e in case.entries if not isinstance(e.check, JudgeCheck)]
    evaluation = EvalContext(ces.to_record(result))
    rows: list[dict[str, Any]] = []
    for i, entry in enumerate(entries):
        entry.record(evaluation)
        found = evaluation.results[-1]
        item = items[i - 1] if i else {"type": "trace_parsed"}
        notes = "; ".join(str(m) for m in found.mismatches[:3])
        rows.append(
            {
                "operator": str(item.get("type", "trace_parsed")),
                "expectation": _details(entry, item),
                "status": "Not Met" if found.failed else "Met",
                "justification": found.message + (f" ({notes})" if notes else ""),
            }
        )
    kept = [r for r in result.get("expectation_details") or [] if not _is_tool_row(r)]
    result["expectation_details"] = kept + rows
    result.setdefault("judge_passed", bool(result.get("passed", False)))
    tools_met = all(r["status"] == "Met" for r in rows)
    result["passed"] = bool(result["judge_passed"]) and tools_met
    met = sum(1 for r in result["expectation_details"] if r.get("status") == "Met")
    result["expectations"] = f"{met}/{len(result['expectation_details'])}"
    return rows


def _is_tool_row(row: Any) -> bool:
    return isinstance(row, Mapping) and str(row.get("expectation", "")).startswith("[tool] ")


builtin_dialect(
    "cxas",
    detect=detect,
    build=build,
    shape="`evals:` with `tool_expectations`, a `tool_expectations:` list, "
    "or a list of `{type, tool, …}` entries",
    order=20,
)


__all__ = ["OPERATORS", "apply_to_result", "build", "detect", "operator_entry", "read_record"]
