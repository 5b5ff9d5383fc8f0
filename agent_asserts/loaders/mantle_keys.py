"""One Mantle assertion key's body → its check: the single-key field rules.

Used by :mod:`agent_asserts.loaders.mantle_assertions`, which adds the composite keys
(``tools_within_one_turn``, ``sequencing``) and reads the assertion lists. Every reader adds
its problems to the collector and returns None (or leaves the entry out) when it found one.

>>> from agent_asserts.loaders.nodes import from_plain
>>> tool_fields(from_plain({"tool_name": "submit", "source": "local"}), ProblemCollector("<d>"))
{'name': 'submit', 'arguments': None, 'is_error': None, 'source': 'local', 'mcp_server': None, \
'skill_id': None}
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from agent_asserts.checks import conversation
from agent_asserts.checks.base import Check
from agent_asserts.loaders.arguments import report_at_named_key
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.errors import unknown_key_message
from agent_asserts.loaders.nodes import MappingNode, Node, ScalarNode, to_plain
from agent_asserts.loaders.suite import CheckEntry
from agent_asserts.matching import M, Matcher
from agent_asserts.selectors.calls import ToolSelector

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


__all__ = [
    "LIFECYCLE",
    "MEMORY",
    "MESSAGES",
    "MESSAGE_FIELDS",
    "lifecycle_check",
    "memory_entries",
    "message_check",
    "only_key",
    "tool_fields",
]
