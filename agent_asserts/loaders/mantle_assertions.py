"""Mantle assertion keys → check entries (the field rules of the Mantle assertions reference).

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

from typing import Any, Final

import attrs

from agent_asserts.checks import lifecycle, memory, messages, sequencing, tools, turns
from agent_asserts.checks.base import Check
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.errors import unknown_key_message
from agent_asserts.loaders.nodes import (
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    describe_value,
    to_plain,
)
from agent_asserts.loaders.suite import CheckEntry
from agent_asserts.matching import M
from agent_asserts.selector_kinds import (
    MemoryClearedSelector,
    MemorySetSelector,
    Selector,
    ToolSelector,
)

LIFECYCLE: Final[dict[str, type[lifecycle.LifecycleCheck]]] = {
    cls.method: cls
    for cls in (
        lifecycle.SkillActivated,
        lifecycle.SkillCompleted,
        lifecycle.SkillCancelled,
        lifecycle.SkillInterrupted,
        lifecycle.SkillResumed,
        lifecycle.BlockEntered,
        lifecycle.BlockCompleted,
        lifecycle.BlockCancelled,
        lifecycle.BlockInterrupted,
        lifecycle.BlockResumed,
    )
}
"""Skill and ordered-block keys → their check classes (the key is the fluent method)."""

MEMORY: Final[dict[str, type[Check]]] = {
    "memory_was_set": memory.MemoryWasSet,
    "memory_was_not_set": memory.MemoryWasNotSet,
    "memory_was_cleared": memory.MemoryWasCleared,
}
MESSAGES: Final = {"bot_uttered": messages.BotUttered, "bot_did_not_utter": messages.BotDidNotUtter}
MESSAGE_FIELDS: Final = ("utter_name", "text_matches", "buttons")
TOOL_REQUIRED: Final = ("tool_name", "source")
TOOL_OPTIONAL: Final = ("mcp_server", "skill_id", "arguments", "is_error")
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
"""Mantle's own tools, which ``tools_within_one_turn`` neither matches nor counts as extra."""


def _only_key(
    node: Node, p: ProblemCollector, allowed: tuple[str, ...], what: str
) -> tuple[str, Node] | None:
    """The one key of an entry and its value node (None after adding a problem)."""
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


def _lifecycle(key: str, node: Node, p: ProblemCollector) -> lifecycle.LifecycleCheck | None:
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
    if len(p) > before:
        return None
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
    if source == "local" and "mcp_server" in body.items:
        message = "'mcp_server' is not allowed when 'source' is 'local'"
        p.add_key_problem(body, "mcp_server", message)
    server = p.expect_str(body.get("mcp_server"), non_empty=True)
    skill_id = p.expect_str(body.get("skill_id"), non_empty=True)
    is_error = p.expect_bool(body.get("is_error"))
    arguments = None
    args_node = p.expect_mapping(body.get("arguments"))
    if args_node is not None:
        arguments = {k: M.exact(to_plain(v)) for k, v in args_node.items.items()}
    if len(p) > before:
        return None
    return {
        "name": name,
        "arguments": arguments,
        "is_error": is_error,
        "source": source,
        "mcp_server": server if source == "mcp" else None,
        "skill_id": skill_id,
    }


def _memory(key: str, node: Node, p: ProblemCollector) -> list[CheckEntry]:
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


def _messages(key: str, node: Node, p: ProblemCollector) -> messages.MessageCheck | None:
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
    return MESSAGES[key](utter_name=utter, text_matches=pattern, buttons=buttons)


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
        found = _only_key(item, p, ASSERTION_KEYS, "a call")
        if found is not None and found[0] != "tool_executed":
            p.add(item, f"a call is a 'tool_executed' entry (got {found[0]!r})")
            continue
        fields = None if found is None else tool_fields(found[1], p)
        if fields is not None and fields["name"] in LIFECYCLE_TOOLS:
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
    return turns.ToolsWithinOneTurn(
        *calls, allow_extra_calls=allow, ordered=bool(ordered), ignore=LIFECYCLE_TOOLS
    )


def _step(node: Node, p: ProblemCollector) -> Selector | None:
    found = _only_key(node, p, ASSERTION_KEYS, "a sequencing step")
    if found is None:
        return None
    key, body = found
    if key not in SEQUENCE_STEPS:
        allowed = "skill, ordered-block, tool_executed, memory_was_set, memory_was_cleared"
        p.add(node, f"{key} is not allowed inside sequencing (steps are {allowed} or bot_uttered)")
        return None
    if key in LIFECYCLE:
        check = _lifecycle(key, body, p)
        return None if check is None else check.selector()
    if key == "tool_executed":
        fields = tool_fields(body, p)
        return None if fields is None else ToolSelector(**fields)
    if key == "bot_uttered":
        said = _messages(key, body, p)
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
        found = _only_key(item, p, ASSERTION_KEYS, "an assertion")
        if found is None:
            continue
        key, body = found
        check: Check | None = None
        if key in MEMORY:
            entries += _memory(key, body, p)
            continue
        if key in LIFECYCLE:
            check = _lifecycle(key, body, p)
        elif key == "tool_executed":
            fields = tool_fields(body, p)
            if fields is not None:
                name = fields.pop("name")
                check = tools.CalledTool(name, **fields)
                entries.append(CheckEntry(check, name=f"tool_executed:{name}"))
            continue
        elif key in MESSAGES:
            check = _messages(key, body, p)
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
