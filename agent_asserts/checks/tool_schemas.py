"""``tool_arguments_valid``: every call's arguments are valid against the JSON Schema of the
tool the record declares (top-level ``tools``). Needs the ``jsonschema`` extra.

>>> from agent_asserts.record import TrialRecord
>>> tools = [{"name": "refund", "parameters": {"type": "object",
...     "properties": {"amount": {"type": "number"}}, "required": ["amount"]}}]
>>> rec = TrialRecord.builder().tool("refund", {"amount": "ten"}).build(tools=tools)
>>> ToolArgumentsValid().evaluate(rec).message
"1 of 1 call has invalid arguments: e0 ('refund') $.amount: 'ten' is not of type 'number'"
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from agent_asserts._values import MISSING
from agent_asserts.checks.base import Check
from agent_asserts.checks.registry import register
from agent_asserts.checks.selection import event_ids
from agent_asserts.matching import Mismatch
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.record import ToolCallPayload

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord

JSONSCHEMA_EXTRA = (
    "tool_arguments_valid needs the jsonschema package: pip install 'agent-asserts[jsonschema]'"
)


def _path(parts: Any) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


@register
@attrs.frozen
class ToolArgumentsValid(Check):
    """Every call (of ``name``, or of every tool) has arguments valid against the declared
    tool's ``parameters`` schema. ``invalid`` when the record declares no tools, when a called
    tool is not declared or declares no parameters, when a schema is not a valid JSON Schema,
    or when a call's arguments were not recorded.

    >>> from agent_asserts.record import TrialRecord
    >>> b = TrialRecord.builder().tool("lookup", {}).tool("refund", {})
    >>> rec = b.build(tools=[{"name": "lookup"}])
    >>> ToolArgumentsValid().evaluate(rec).message
    "calls of undeclared tools: 'refund' (declared: 'lookup')"
    """

    name: str | None = None

    method: ClassVar[str] = "tool_arguments_valid"
    positional: ClassVar[tuple[str, ...]] = ("name",)

    def __attrs_post_init__(self) -> None:
        if self.name is not None and (not isinstance(self.name, str) or not self.name):
            raise TypeError(f"'name' must be a tool name or None (got {self.name!r})")

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, "tool_call")
        if invalid is not None:
            return invalid
        if not record.tools:
            return Outcome.invalid("the record declares no tools")
        declared = {tool.name: tool for tool in record.tools}
        events = record.events
        calls = (
            record.positions_of_kind("tool_call")
            if self.name is None
            else record.tool_positions(self.name)
        )
        names = [getattr(events[p].payload, "name", "") for p in calls]
        undeclared = sorted({n for n in names if n not in declared})
        if undeclared:
            listed = ", ".join(repr(n) for n in undeclared)
            known = ", ".join(repr(n) for n in declared)
            return Outcome.invalid(f"calls of undeclared tools: {listed} (declared: {known})")
        if not calls:
            what = "no tool was called" if self.name is None else f"{self.name!r} was never called"
            return Outcome.of(True, message=what, observed=0)
        unrecorded = [
            p for p in calls if getattr(events[p].payload, "arguments", MISSING) is MISSING
        ]
        if unrecorded:
            ids = ", ".join(event_ids(record, unrecorded))
            return Outcome.invalid(f"arguments not recorded: {ids}")
        try:
            import jsonschema
        except ImportError:
            return Outcome.invalid(JSONSCHEMA_EXTRA)
        validators: dict[str, Any] = {}
        for tool_name in dict.fromkeys(names):
            schema = declared[tool_name].parameters
            if schema is None:
                return Outcome.invalid(f"tool {tool_name!r} declares no parameters schema")
            cls = jsonschema.validators.validator_for(schema)
            try:
                cls.check_schema(schema)
            except jsonschema.SchemaError as exc:
                return Outcome.invalid(
                    f"the parameters of tool {tool_name!r} are not a valid JSON Schema:"
                    f" {exc.message}"
                )
            validators[tool_name] = cls(schema)
        bad: list[tuple[int, list[Mismatch]]] = []
        for p, tool_name in zip(calls, names, strict=True):
            payload = events[p].payload
            arguments = payload.arguments if isinstance(payload, ToolCallPayload) else None
            errors = sorted(
                validators[tool_name].iter_errors(arguments), key=lambda e: list(map(str, e.path))
            )
            if errors:
                found = [Mismatch(_path(e.path), e.schema, e.instance, e.message) for e in errors]
                bad.append((p, found))
        total = plural(len(calls), "call")
        if not bad:
            text = f"the arguments of {total} are valid against the declared schemas"
            return Outcome.of(True, message=text, evidence=event_ids(record, calls))
        first, mismatches = bad[0]
        first_event = events[first]
        head = f"{first_event.event_id} ({names[calls.index(first)]!r}) {mismatches[0]}"
        verb = "has" if len(bad) == 1 else "have"
        return Outcome.of(
            False,
            message=f"{len(bad)} of {total} {verb} invalid arguments: {head}",
            evidence=event_ids(record, [p for p, _ in bad]),
            closest=first_event.event_id,
            mismatches=mismatches,
            observed=len(bad),
        )


__all__ = ["JSONSCHEMA_EXTRA", "ToolArgumentsValid"]
