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
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from agent_asserts.checks.semantic import JudgeCheck
from agent_asserts.loaders.building import BuildContext
from agent_asserts.loaders.dialects import register_dialect
from agent_asserts.loaders.mantle_assertions import (
    ASSERTION_KEYS,
    LIFECYCLE_TOOLS,
    assertion_entries,
)
from agent_asserts.loaders.nodes import Node, SequenceNode, to_plain
from agent_asserts.loaders.suite import Case, CheckEntry, Suite
from agent_asserts.record import TrialRecord
from agent_asserts.record.adapters import mantle
from agent_asserts.record.parsing import require_regular

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


def _case(
    name: str,
    entries: list[CheckEntry],
    record: Path | None,
    ctx: BuildContext,
    metadata: dict[str, Any] | None = None,
    slots: dict[str, Any] | None = None,
) -> MantleCase:
    fields: dict[str, Any] = {"entries": tuple(entries), "metadata": metadata or {}}
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
        criterion = p.expect_str(item, non_empty=True)
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
    with open(path, encoding="utf-8-sig") as handle:
        text = handle.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return mantle.read(path)
    events = data.get("events") if isinstance(data, Mapping) else None
    if isinstance(events, list) and all(isinstance(e, Mapping) and "kind" in e for e in events):
        return TrialRecord.from_dict(data, source=str(path))
    return mantle.read(path)


register_dialect("mantle", detect=detect, build=build, shape=SHAPE, order=10)

__all__ = [
    "LIFECYCLE_TOOLS",
    "SHAPE",
    "MantleCase",
    "build",
    "detect",
    "read_record",
    "with_initial_memory",
]
