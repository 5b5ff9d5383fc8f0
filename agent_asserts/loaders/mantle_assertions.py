"""Mantle assertion keys → check entries (the field rules of the Mantle assertions reference).

The single-key rules live in :mod:`agent_asserts.loaders.mantle_keys`; this module adds the
composite keys (``tools_within_one_turn``, ``sequencing``) and reads a list of assertions.

Each key builds the same check object as the fluent method of that name; the rules here are
only which fields are required, optional or rejected, and how values are read. Problems are
reported at their positions and the reading goes on, so one load lists every problem.

>>> from agent_asserts.loaders.collector import ProblemCollector
>>> from agent_asserts.loaders.nodes import from_plain
>>> doc = from_plain([{"tool_executed": {"tool_name": "submit", "source": "mcp",
...                                      "mcp_server": "banking", "arguments": {"x": None}}}])
>>> [e.name for e in assertion_entries(doc, ProblemCollector("<data>"))]
['tool_executed:submit']
"""

from __future__ import annotations

from typing import Final

from agent_asserts.checks import conversation, sequencing, tools
from agent_asserts.checks.base import Check
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.mantle_keys import (
    LIFECYCLE,
    MEMORY,
    MESSAGES,
    lifecycle_check,
    memory_entries,
    message_check,
    only_key,
    tool_fields,
)
from agent_asserts.loaders.nodes import (
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    describe_value,
)
from agent_asserts.loaders.suite import CheckEntry
from agent_asserts.selectors.calls import (
    MemoryClearedSelector,
    MemorySetSelector,
    Selector,
    ToolSelector,
)

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


__all__ = [
    "ASSERTION_KEYS",
    "LIFECYCLE_TOOLS",
    "SEQUENCE_STEPS",
    "assertion_entries",
    "tool_fields",
]
