"""The Mantle dialect: evaluation scenarios (``scenario: {…, goals: {criteria, assertions}}``).

Shapes: a scenario file (``scenario:`` with ``name``, ``simulation_context``, ``setup:
{initial_slots}`` and ``goals: {criteria, assertions}``), a bare ``assertions:`` list of
Mantle keys, or a bare ``goals:`` (a mapping with ``criteria``/``assertions``, or the
assertions list itself). Every dialect also takes ``name:`` and ``record:`` at the top.

Each assertion key builds the check class the fluent method of the same name builds (see
docs/mantle.md); this module holds no check logic, only Mantle's field rules:
``tool_executed`` → ``CalledTool`` with each listed argument compared by strict deep equality
(``M.exact``) and result name ``tool_executed:{tool_name}``; ``memory_was_*`` → one result per
list entry; ``tools_within_one_turn`` ignores Mantle's lifecycle tools; ``goals.criteria`` →
judge checks with gate severity. A ``record:`` file may be Mantle tracker events (JSON or
JSON Lines, :mod:`agent_asserts.record.adapters.mantle`) or a canonical record.

>>> from agent_asserts.loaders import loads
>>> from agent_asserts.record import TrialRecord
>>> suite = loads('''
... assertions:
...   - skill_activated: {skill_id: card_replace}
...   - memory_was_set:
...       - {name: card_replace.reason, value: damaged}
... ''')
>>> rec = (TrialRecord.builder().skill("activated", "card_replace")
...        .memory_set("card_replace.reason", "damaged").build())
>>> [(r.name, r.status.value) for r in suite.evaluate(rec)[0].results]
[('skill_activated:card_replace', 'pass'), ('memory_was_set:card_replace.reason', 'pass')]

The field rules of the Mantle assertions reference: each single key's body gives its check
(:func:`tool_fields`, :func:`lifecycle_check`, :func:`message_check`, :func:`memory_entries`);
the composite keys (``tools_within_one_turn``, ``sequencing``) and the assertion lists are read
by :func:`assertion_entries`. Every reader adds its problems to the collector and returns None
(or leaves the entry out) when it found one.

>>> from agent_asserts.loaders.nodes import from_plain
>>> tool_fields(from_plain({"tool_name": "submit", "source": "local"}), ProblemCollector("<d>"))
{'name': 'submit', 'arguments': None, 'is_error': None, 'source': 'local', 'mcp_server': None, \
'skill_id': None}

Each key builds the same check object as the fluent method of that name; the rules here are
only which fields are required, optional or rejected, and how values are read. Problems are
reported at their positions and the reading goes on, so one load lists every problem.

>>> doc = from_plain([{"tool_executed": {"tool_name": "submit", "source": "mcp",
...                                      "mcp_server": "banking", "arguments": {"x": None}}}])
>>> [e.name for e in assertion_entries(doc, ProblemCollector("<data>"))]
['tool_executed:submit']
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from agent_asserts._files import open_text_input
from agent_asserts.checks import conversation, sequencing, tools
from agent_asserts.checks.base import Check
from agent_asserts.checks.semantic import JudgeCheck
from agent_asserts.loaders.collector import (
    ProblemCollector,
    report_at_named_key,
    unknown_key_message,
)
from agent_asserts.loaders.dialects import BuildContext, builtin_dialect
from agent_asserts.loaders.nodes import (
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    describe_value,
    to_plain,
)
from agent_asserts.loaders.suite import Case, CheckEntry, Suite
from agent_asserts.matching import M, Matcher
from agent_asserts.record import TrialRecord
from agent_asserts.record.adapters import mantle
from agent_asserts.record.parsing import require_regular
from agent_asserts.record.reading import refusal
from agent_asserts.selectors import (
    MemoryClearedSelector,
    MemorySetSelector,
    Selector,
    ToolSelector,
)

LIFECYCLE: Final = conversation.LIFECYCLE_CHECKS
"""Skill and ordered-block keys → their check classes (the key is the fluent method)."""

MEMORY: Final[dict[str, type[Check]]] = {
    "memory_was_set": conversation.MemoryWasSet,
    "memory_was_not_set": conversation.MemoryWasNotSet,
    "memory_was_cleared": conversation.MemoryWasCleared,
}

MESSAGES: Final = {
    "bot_uttered": conversation.BotUttered,
    "bot_did_not_utter": conversation.BotDidNotUtter,
}
MESSAGE_FIELDS: Final = ("utter_name", "text_matches", "buttons")
TOOL_REQUIRED: Final = ("tool_name", "source")
TOOL_OPTIONAL: Final = ("mcp_server", "skill_id", "arguments", "is_error")


def only_key(
    node: Node, p: ProblemCollector, allowed: tuple[str, ...], what: str
) -> tuple[str, Node] | None:
    """The one key of an entry and its value node (None after adding a problem).

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> p = ProblemCollector("<data>")
    >>> only_key(from_plain({"a": 1, "b": 2}), p, ("a", "b"), "an assertion"), str(p.problems[0])
    (None, "<data>: an assertion has exactly one key (got 'a', 'b')")
    """
    mapping = p.expect_mapping(node)
    if mapping is None:
        return None
    keys = list(mapping.items)
    if len(keys) != 1:
        shown = ", ".join(repr(k) for k in keys) or "none"
        p.add(mapping, f"{what} has exactly one key (got {shown})")
        return None
    if keys[0] not in allowed:
        label = "assertion" if what == "an assertion" else "key"
        p.add_key_problem(mapping, keys[0], unknown_key_message(keys[0], allowed, what=label))
        return None
    return keys[0], mapping.items[keys[0]]


def _keys(
    body: MappingNode,
    p: ProblemCollector,
    required: list[str],
    optional: list[str],
    rejected: dict[str, str],
) -> None:
    """Report missing and unknown keys, with a reason for a known key this form rejects."""
    p.check_keys(body, required=required, optional=[*optional, *rejected])
    for key, message in rejected.items():
        if key in body.items:
            p.add_key_problem(body, key, message)


def lifecycle_check(
    key: str, node: Node, p: ProblemCollector
) -> conversation.LifecycleCheck | None:
    """The skill or ordered-block check of a lifecycle key (None after adding problems).

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> body = from_plain({"skill_id": "refund"})
    >>> lifecycle_check("skill_activated", body, ProblemCollector("<data>"))
    SkillActivated(skill_id='refund')
    """
    body = p.expect_mapping(node)
    if body is None:
        return None
    cls = LIFECYCLE[key]
    fields = [f.name for f in attrs.fields(cls) if f.init]
    required = [name for name in fields if name != "step_id"]
    optional = [name for name in fields if name == "step_id"]
    rejected = {} if optional else {"step_id": f"'step_id' is not allowed in {key}"}
    before = len(p)
    _keys(body, p, required, optional, rejected)
    values = {k: p.expect_str(body.get(k), non_empty=True) for k in fields}
    if len(p) > before or any(values[k] is None for k in required):
        return None  # a required value the source already refused (a YAML tag) is missing too
    return cls(**{k: v for k, v in values.items() if v is not None})


def tool_fields(node: Node, p: ProblemCollector) -> dict[str, Any] | None:
    """The ``on.tool`` fields of a ``tool_executed`` body (None after adding problems)."""
    body = p.expect_mapping(node)
    if body is None:
        return None
    before = len(p)
    p.check_keys(body, required=TOOL_REQUIRED, optional=TOOL_OPTIONAL)
    name = p.expect_str(body.get("tool_name"), non_empty=True)
    source = p.expect_choice(body.get("source"), ("local", "mcp"))
    if source == "mcp" and "mcp_server" not in body.items:
        p.add(body, "required key 'mcp_server' missing (source is 'mcp')")
    server = p.expect_str(body.get("mcp_server"), non_empty=True)
    skill_id = p.expect_str(body.get("skill_id"), non_empty=True)
    is_error = p.expect_bool(body.get("is_error"))
    arguments = _arguments(p.expect_mapping(body.get("arguments")), p)
    fields = {
        "name": name,
        "arguments": arguments,
        "is_error": is_error,
        "source": source,
        "mcp_server": server,
        "skill_id": skill_id,
    }
    if name is not None and source is not None:
        # the selector's own rules ('mcp_server' not allowed with source local, tool name
        # alternatives), reported at the key they are about, with the other problems
        try:
            ToolSelector(**fields)
        except (TypeError, ValueError) as exc:
            report_at_named_key(exc, body, p, aliases={"name": "tool_name"})
    if len(p) > before:
        return None
    return fields


def _arguments(node: MappingNode | None, p: ProblemCollector) -> Any:
    """``tool_executed.arguments``: each value compared strictly (``M.exact``: an absent key
    never equals null), except that ``$``-operators are matchers, as in every dialect
    (``{$regex: "^A"}``; ``$$name`` is a literal ``$name`` key).

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> node = from_plain({"id": {"$regex": "^A"}, "$$ref": 1, "n": None})
    >>> _arguments(node, ProblemCollector("<d>"))
    {'id': M.regex('^A'), '$ref': M.exact(1), 'n': M.exact(None)}
    """
    if node is None:
        return None
    value = p.matcher_value(node)
    if not isinstance(value, dict):  # a whole-arguments matcher ({$partial: ...}) or a problem
        return value
    return {k: v if isinstance(v, Matcher) else M.exact(v) for k, v in value.items()}


def memory_entries(key: str, node: Node, p: ProblemCollector) -> list[CheckEntry]:
    """One entry per item of a ``memory_was_*`` list (items with problems are left out).

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> items = from_plain([{"name": "a.b", "value": 1}])
    >>> [e.check for e in memory_entries("memory_was_set", items, ProblemCollector("<data>"))]
    [MemoryWasSet(name='a.b', value=1)]
    """
    entries: list[CheckEntry] = []
    cleared = key == "memory_was_cleared"
    rejected = {"value": "'value' is not allowed in memory_was_cleared: a clear has no value"}
    for item in p.expect_list(node, non_empty=True) or []:
        body = p.expect_mapping(item)
        if body is None:
            continue
        before = len(p)
        if cleared:
            _keys(body, p, ["name"], [], rejected)
        else:
            _keys(body, p, ["name"], ["value"], {})
        name = p.expect_str(body.get("name"), non_empty=True)
        value_node = None if cleared else body.get("value")
        if isinstance(value_node, ScalarNode) and value_node.value is None:
            p.add(value_node, "must not be null: null is not accepted as a memory value")
        if name is None or len(p) > before:
            continue
        args = [name] if value_node is None else [name, to_plain(value_node)]
        entries.append(CheckEntry(MEMORY[key](*args)))
    return entries


def _buttons(node: Node | None, p: ProblemCollector) -> list[dict[str, Any]] | None:
    if node is None:
        return None
    buttons: list[dict[str, Any]] = []
    for item in p.expect_list(node, non_empty=True) or []:
        button = p.expect_mapping(item)
        if button is not None and p.check_keys(button, required=["title"], optional=["payload"]):
            title = p.expect_str(button.get("title"))
            payload = p.expect_str(button.get("payload"))
            buttons.append({"title": title, "payload": payload})
    return buttons


def message_check(key: str, node: Node, p: ProblemCollector) -> conversation.MessageCheck | None:
    """The ``bot_uttered``/``bot_did_not_utter`` check of a body (None after adding problems).

    >>> from agent_asserts.loaders.nodes import from_plain
    >>> body = from_plain({"utter_name": "utter_bye"})
    >>> message_check("bot_uttered", body, ProblemCollector("<data>")).describe()
    "bot_uttered(utter_name='utter_bye')"
    """
    body = p.expect_mapping(node)
    if body is None:
        return None
    before = len(p)
    p.check_keys(body, optional=MESSAGE_FIELDS)
    if not set(body.items) & set(MESSAGE_FIELDS):
        p.add(body, "set at least one of " + ", ".join(repr(f) for f in MESSAGE_FIELDS))
    utter = p.expect_str(body.get("utter_name"), non_empty=True)
    pattern = p.expect_str(body.get("text_matches"), non_empty=True)
    if pattern is not None:
        try:
            M.regex(pattern)
        except ValueError as exc:
            p.add(body.get("text_matches"), str(exc))
    buttons = _buttons(body.get("buttons"), p)
    if len(p) > before:
        return None
    try:
        return MESSAGES[key](utter_name=utter, text_matches=pattern, buttons=buttons)
    except ValueError as exc:  # every field present was dropped (e.g. an unsupported tag)
        p.add(body, str(exc))
        return None


ASSERTION_KEYS: Final = (
    *LIFECYCLE,
    *MEMORY,
    "tool_executed",
    "tools_within_one_turn",
    *MESSAGES,
    "sequencing",
)
"""Every assertion key of a Mantle scenario."""

SEQUENCE_STEPS: Final = (
    *LIFECYCLE,
    "tool_executed",
    "memory_was_set",
    "memory_was_cleared",
    "bot_uttered",
)
"""Keys allowed as a ``sequencing`` step."""

LIFECYCLE_TOOLS: Final = (
    "complete_skill",
    "complete",
    "activate",
    "cancel",
    "set_fields",
    "correct",
    "resolve_tool_confirmation",
    "listen",
    "hangup",
)

LIFECYCLE_IGNORED: Final = tuple(ToolSelector(name, source="local") for name in LIFECYCLE_TOOLS)
"""Mantle's own tools, which ``tools_within_one_turn`` neither matches nor counts as extra.

They are local runs: an MCP tool that happens to share a name is the customer's and counts."""


def _within(node: Node, p: ProblemCollector) -> Check | None:
    body = p.expect_mapping(node)
    if body is None:
        return None
    before = len(p)
    p.check_keys(body, required=["calls", "allow_extra_calls"], optional=["ordered"])
    allow = p.expect_bool(body.get("allow_extra_calls"))
    ordered = p.expect_bool(body.get("ordered"))
    calls: list[ToolSelector] = []
    items = p.expect_list(body.get("calls")) or []
    if isinstance(body.get("calls"), SequenceNode) and len(items) < 2:
        p.add(body.items["calls"], f"needs at least two calls (got {len(items)})")
    for item in items:
        found = only_key(item, p, ASSERTION_KEYS, "a call")
        if found is not None and found[0] != "tool_executed":
            p.add(item, f"a call is a 'tool_executed' entry (got {found[0]!r})")
            continue
        fields = None if found is None else tool_fields(found[1], p)
        if fields is not None and fields["name"] in LIFECYCLE_TOOLS and fields["source"] == "local":
            message = (
                f"{fields['name']!r} is one of Mantle's lifecycle tools, which "
                "tools_within_one_turn does not count: this call could never match"
            )
            call = found[1] if found is not None else item
            p.add(call.get("tool_name") if isinstance(call, MappingNode) else call, message)
        elif fields is not None:
            calls.append(ToolSelector(**fields))
    if len(p) > before or allow is None:
        return None
    return conversation.ToolsWithinOneTurn(
        *calls, allow_extra_calls=allow, ordered=bool(ordered), ignore=LIFECYCLE_IGNORED
    )


def _step(node: Node, p: ProblemCollector) -> Selector | None:
    found = only_key(node, p, ASSERTION_KEYS, "a sequencing step")
    if found is None:
        return None
    key, body = found
    if key not in SEQUENCE_STEPS:
        allowed = "skill, ordered-block, tool_executed, memory_was_set, memory_was_cleared"
        p.add(node, f"{key} is not allowed inside sequencing (steps are {allowed} or bot_uttered)")
        return None
    if key in LIFECYCLE:
        check = lifecycle_check(key, body, p)
        return None if check is None else check.selector()
    if key == "tool_executed":
        fields = tool_fields(body, p)
        return None if fields is None else ToolSelector(**fields)
    if key == "bot_uttered":
        said = message_check(key, body, p)
        return None if said is None else said.selector()
    if not isinstance(body, ScalarNode) or not isinstance(body.value, str) or not body.value:
        got = describe_value(body)
        p.add(body, f"inside sequencing, {key} takes the key name as a string (got {got})")
        return None
    if key == "memory_was_set":
        return MemorySetSelector(body.value)
    return MemoryClearedSelector(body.value)


def _sequencing(node: Node, p: ProblemCollector) -> Check | None:
    before = len(p)
    steps = [_step(item, p) for item in p.expect_list(node, non_empty=True) or []]
    if len(p) > before or not steps:
        return None
    return sequencing.Sequencing(*[s for s in steps if s is not None])


def assertion_entries(node: Node | None, p: ProblemCollector) -> list[CheckEntry]:
    """The check entries of a list of Mantle assertions (problems go to ``p``)."""
    entries: list[CheckEntry] = []
    for item in p.expect_list(node) or []:
        found = only_key(item, p, ASSERTION_KEYS, "an assertion")
        if found is None:
            continue
        key, body = found
        check: Check | None = None
        if key in MEMORY:
            entries += memory_entries(key, body, p)
            continue
        if key in LIFECYCLE:
            check = lifecycle_check(key, body, p)
        elif key == "tool_executed":
            fields = tool_fields(body, p)
            if fields is not None:
                name = fields.pop("name")
                check = tools.CalledTool(name, **fields)
                entries.append(CheckEntry(check, name=f"tool_executed:{name}"))
            continue
        elif key in MESSAGES:
            check = message_check(key, body, p)
        elif key == "tools_within_one_turn":
            check = _within(body, p)
        else:
            check = _sequencing(body, p)
        if check is not None:
            entries.append(CheckEntry(check))
    return entries


SHAPE: Final = (
    "'scenario:' with 'goals: {criteria, assertions}', or a bare 'assertions:' (or 'goals:') "
    "list of Mantle keys such as '- skill_activated: {skill_id: card_replace}'"
)

SCENARIO_KEYS: Final = ("name", "simulation_context", "setup", "goals")


def _mantle_entries(value: Any) -> bool:
    return isinstance(value, list) and any(
        isinstance(item, Mapping) and set(item) & set(ASSERTION_KEYS) for item in value
    )


def detect(data: Any) -> bool:
    """``scenario:``, or a bare ``assertions:``/``goals:`` whose entries are Mantle keys.

    >>> detect({"scenario": {"goals": {}}}), detect({"assertions": [{"skill_activated": {}}]})
    (True, True)
    >>> detect({"assertions": [{"bind": {}, "require": []}]})
    False
    """
    if not isinstance(data, Mapping):
        return False
    if isinstance(data.get("scenario"), Mapping):
        return True
    goals = data.get("goals")
    if isinstance(goals, Mapping):
        return "assertions" in goals or "criteria" in goals
    return _mantle_entries(goals) or _mantle_entries(data.get("assertions"))


def with_initial_memory(record: TrialRecord, slots: Mapping[str, Any] | None) -> TrialRecord:
    """``record`` with ``initial_state["memory"] = slots`` when it has no initial memory.

    >>> rec = with_initial_memory(TrialRecord(), {"project.authenticated": True})
    >>> rec.initial_state
    {'memory': {'project.authenticated': True}}
    >>> with_initial_memory(rec, {"x.y": 1}).initial_state
    {'memory': {'project.authenticated': True}}
    """
    state = record.initial_state
    if not slots or (isinstance(state, Mapping) and "memory" in state):
        return record
    if state is None:
        return attrs.evolve(record, initial_state={"memory": dict(slots)})
    if isinstance(state, Mapping):
        return attrs.evolve(record, initial_state={**state, "memory": dict(slots)})
    return record


@attrs.frozen
class MantleCase(Case):
    """A :class:`Case` that puts the scenario's ``setup.initial_slots`` into the record.

    Before evaluating, ``initial_memory`` becomes ``record.initial_state["memory"]`` when the
    record has no initial memory (see :func:`with_initial_memory`); memory checks read the
    memory events, not that state, so it only informs state checks and judges.
    """

    initial_memory: Mapping[str, Any] | None = attrs.field(default=None, kw_only=True)

    def prepare(self, record: TrialRecord) -> TrialRecord:
        """``record`` with the scenario's initial memory applied (:func:`with_initial_memory`)."""
        return with_initial_memory(record, self.initial_memory)

    def native_fields(self) -> dict[str, Any]:
        """``initial_memory:`` in the native form, which loads back as this case.

        >>> MantleCase("c", initial_memory={"x.y": 1}).native_fields()
        {'initial_memory': {'x.y': 1}}
        """
        memory = self.initial_memory
        return {} if memory is None else {"initial_memory": dict(memory)}


def _case(
    name: str,
    entries: list[CheckEntry],
    record: Path | None,
    ctx: BuildContext,
    metadata: dict[str, Any] | None = None,
    slots: dict[str, Any] | None = None,
) -> Case:
    """A :class:`MantleCase` when the scenario declares ``setup.initial_slots``, else a plain
    case (the native form of either loads back equal: docs/mantle.md)."""
    fields: dict[str, Any] = {"entries": tuple(entries), "metadata": metadata or {}}
    if slots is None:
        return Case(name, record_path=record, judge=ctx.judge, record_reader=read_record, **fields)
    return MantleCase(
        name,
        record_path=record,
        judge=ctx.judge,
        record_reader=read_record,
        initial_memory=slots,
        **fields,
    )


def _goals(node: Node | None, ctx: BuildContext) -> list[CheckEntry]:
    p = ctx.problems
    if node is None:
        return []
    if isinstance(node, SequenceNode):
        return assertion_entries(node, p)
    goals = p.expect_mapping(node)
    if goals is None:
        return []
    p.check_keys(goals, optional=["criteria", "assertions"])
    entries = assertion_entries(goals.get("assertions"), p)
    for item in p.expect_list(goals.get("criteria")) or []:
        criterion = p.expect_str(item, non_blank=True)
        if criterion is not None:
            entries.append(CheckEntry(JudgeCheck(criterion), severity="gate"))
    return entries


def _initial_slots(node: Node | None, ctx: BuildContext) -> dict[str, Any] | None:
    setup = ctx.problems.expect_mapping(node)
    if setup is None:
        return None
    ctx.problems.check_keys(setup, optional=["initial_slots"])
    slots = ctx.problems.expect_mapping(setup.get("initial_slots"))
    return None if slots is None else to_plain(slots)


def _scenario(node: Node, ctx: BuildContext, name: str, record: Path | None) -> Case:
    p = ctx.problems
    scenario = p.expect_mapping(node)
    if scenario is None:
        return _case(name, [], record, ctx)
    p.check_keys(scenario, required=["goals"], optional=SCENARIO_KEYS)
    own = p.expect_str(scenario.get("name"), non_empty=True)
    context = p.expect_str(scenario.get("simulation_context"))
    slots = _initial_slots(scenario.get("setup"), ctx)
    metadata: dict[str, Any] = {}
    if context is not None:
        metadata["simulation_context"] = context
    if slots is not None:
        metadata["initial_slots"] = slots
    entries = _goals(scenario.get("goals"), ctx)
    return _case(own or name, entries, record, ctx, metadata, slots)


def build(doc: Node, ctx: BuildContext) -> Suite:
    """The suite (one case) of a Mantle document; problems go to ``ctx.problems``."""
    p = ctx.problems
    mapping = p.expect_mapping(doc)
    if mapping is None:
        return ctx.suite(())
    name, record = ctx.top_level(mapping)
    if "scenario" in mapping.items:
        p.check_keys(mapping, required=["scenario"], optional=["name", "record"])
        case = _scenario(mapping.items["scenario"], ctx, name, record)
        return ctx.suite([case], name=name)
    if "goals" in mapping.items:
        p.check_keys(mapping, required=["goals"], optional=["name", "record"])
        entries = _goals(mapping.items["goals"], ctx)
    else:
        p.check_keys(mapping, required=["assertions"], optional=["name", "record"])
        entries = assertion_entries(mapping.get("assertions"), p)
    case = _case(name, entries, record, ctx)
    return ctx.suite([case], name=name)


def read_record(path: Path) -> TrialRecord:
    """A ``record:`` file: a canonical record (events with ``kind``) or Mantle tracker events.

    Mantle files may be a JSON array, a tracker dump ``{"events": [...]}`` or JSON Lines.
    """
    require_regular(path)
    with open_text_input(path, refusal(os.fspath(path))) as handle:
        text = handle.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return mantle.read(path)
    events = data.get("events") if isinstance(data, Mapping) else None
    if isinstance(events, list) and all(isinstance(e, Mapping) and "kind" in e for e in events):
        return TrialRecord.from_dict(data, source=str(path))
    return mantle.read(path)


builtin_dialect("mantle", detect=detect, build=build, shape=SHAPE, order=10)


__all__ = [
    "ASSERTION_KEYS",
    "LIFECYCLE",
    "LIFECYCLE_TOOLS",
    "MEMORY",
    "MESSAGES",
    "MESSAGE_FIELDS",
    "SEQUENCE_STEPS",
    "SHAPE",
    "MantleCase",
    "assertion_entries",
    "build",
    "detect",
    "lifecycle_check",
    "memory_entries",
    "message_check",
    "only_key",
    "read_record",
    "tool_fields",
    "with_initial_memory",
]
