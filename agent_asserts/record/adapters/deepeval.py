"""DeepEval test cases → :class:`~agent_asserts.record.TrialRecord` (``deepeval``).

Reads an ``LLMTestCase`` as JSON data — what ``test_case.model_dump()`` gives (snake_case), its
wire form (``model_dump(by_alias=True)``: ``actualOutput``, ``toolsCalled``…, what
``TrialRecord.from_trace(test_case)`` reads), or a list of them (one record each). JSON data
only; DeepEval is not imported.

=======================================  ====================================================
DeepEval                                 record
=======================================  ====================================================
``input``                                the user's message
``tools_called[i]``                      a ``tool_call``: ``name``; ``input_parameters`` its
                                         arguments (absent or null: *not recorded*); its
                                         ``reasoning`` a ``reasoning`` event before it
its ``output``                           the call's ``result`` (``succeeded``: a ``ToolCall``
                                         records no error); without one the call has no
                                         result (``pending``)
``actual_output``                        the agent's reply; the run is then ``completed``
                                         (without it: ``incomplete``, no reply)
``input_token_count``,                   ``usage`` (``input_tokens``, ``output_tokens``)
``output_token_count``
``expected_tools``                       ``metadata["expected_tools"]``: the reference
                                         trajectory, as ``matches_trajectory`` takes it
                                         (``name``, and ``arguments`` when given)
anything else (``name``,                 ``metadata``, under its snake_case name
``expected_output``, ``metadata``,
``completion_time``, ``token_cost``…)
=======================================  ====================================================

>>> rec = to_record({
...     "input": "Refund order A1",
...     "actualOutput": "Refunded.",
...     "toolsCalled": [{"name": "refund", "inputParameters": {"id": "A1"}, "output": "ok"}],
...     "expectedTools": [{"name": "refund"}],
... })
>>> call = rec.tool_calls[0].payload
>>> call.name, call.arguments, call.result, rec.reply, rec.status
('refund', {'id': 'A1'}, 'ok', 'Refunded.', 'completed')
>>> rec.metadata["expected_tools"]
[{'name': 'refund'}]
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts._values import MISSING
from agent_asserts.record.adapters.toolkit import (
    TraceBuilder,
    only_record,
    read_with,
    result_as_written,
)
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "deepeval"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 200
"""Its place among the built-in formats (their listing and error-message order)."""
TAGS_RECORDS: Final = True
"""``to_records`` takes ``format_name`` (the readers' ``metadata["format"]``)."""
RUNS: Final = ("",)
"""A top-level list holds one test case per item."""

ALIASES: Final = {
    "actualOutput": "actual_output",
    "expectedOutput": "expected_output",
    "retrievalContext": "retrieval_context",
    "additionalMetadata": "metadata",
    "additional_metadata": "metadata",
    "toolsCalled": "tools_called",
    "expectedTools": "expected_tools",
    "tokenCost": "token_cost",
    "inputTokenCount": "input_token_count",
    "outputTokenCount": "output_token_count",
    "completionTime": "completion_time",
    "mcpServers": "mcp_servers",
    "mcpToolsCalled": "mcp_tools_called",
    "mcpResourcesCalled": "mcp_resources_called",
    "mcpPromptsCalled": "mcp_prompts_called",
    "customColumnKeyValues": "custom_column_key_values",
    "expectedLabels": "expected_labels",
    "inputParameters": "input_parameters",
}
"""DeepEval's wire (camelCase) names and old names → the field names of its Python objects."""

_MARKS: Final = ("actual_output", "actualOutput", "tools_called", "toolsCalled")
_SCAN: Final = 20
_COUNTS: Final = (("input_token_count", "input_tokens"), ("output_token_count", "output_tokens"))
_READ: Final = frozenset(
    {"input", "actual_output", "tools_called", "input_token_count", "output_token_count"}
)


def _is_case(item: Any) -> bool:
    return (
        (type(item) is dict or isinstance(item, Mapping))
        and "input" in item
        and any(k in item for k in _MARKS)
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is a DeepEval test case (``input`` with ``actual_output`` or
    ``tools_called``, in either spelling) or a list of them.

    >>> detect({"input": "hi", "actual_output": "hello"}), detect([{"input": "hi"}])
    (True, False)
    """
    if isinstance(data, list):
        return bool(data) and all(_is_case(item) for item in data[:_SCAN])
    return _is_case(data)


def _fields(case: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
    """The test case's fields by their Python name: ``(the key as written, value)``."""
    out: dict[str, tuple[str, Any]] = {}
    for key, value in case.items():
        out.setdefault(ALIASES.get(str(key), str(key)), (str(key), value))
    return out


def reference_of(tools: Any) -> list[dict[str, Any]]:
    """``expected_tools`` as a reference trajectory (what ``matches_trajectory`` takes): a
    ``{"name", "arguments"}`` mapping per expected call, ``arguments`` only when the call gives
    its ``input_parameters`` (a call without them accepts any arguments).

    Raises:
        ValueError: an item is no tool call with a name (naming its position).

    >>> reference_of([{"name": "a", "inputParameters": {"x": 1}}, {"name": "b"}])
    [{'name': 'a', 'arguments': {'x': 1}}, {'name': 'b'}]
    """
    if not isinstance(tools, list):
        raise ValueError(f"expected_tools: expected a list of tool calls (got {tools!r})")
    out = []
    for index, item in enumerate(tools):
        item = _plain_call(item)
        name = item.get("name") if isinstance(item, Mapping) else None
        if not isinstance(name, str) or not name:
            raise ValueError(f"expected_tools[{index}]: expected a tool call with a name")
        call: dict[str, Any] = {"name": name}
        arguments = _fields(item).get("input_parameters", ("", None))[1]
        if arguments is not None:
            call["arguments"] = arguments
        out.append(call)
    return out


def _plain_call(item: Any) -> Any:
    """A DeepEval ``ToolCall`` object as its data (any pydantic model: ``model_dump``)."""
    dump = getattr(item, "model_dump", None)
    return dump(mode="json", exclude_none=True) if callable(dump) else item


def _case_record(case: Any, where: str, source: str | None, format_name: str | None) -> TrialRecord:
    b = TraceBuilder(source=source, format_name=format_name)
    if not isinstance(case, Mapping):
        b.error(where, f"expected a DeepEval test case object (got {type(case).__name__})", case)
        return b.build(status="incomplete")
    fields = _fields(case)
    key, text = fields.get("input", ("input", None))
    if isinstance(text, str):
        b.message("user", text, where=f"{where}.{key}")
    elif text is not None:
        b.error(f"{where}.{key}", f"expected text (got {type(text).__name__})", text)
    key, calls = fields.get("tools_called", ("tools_called", None))
    if calls is not None and not isinstance(calls, list):
        b.error(f"{where}.{key}", "expected a list of tool calls", calls)
        calls = None
    for index, item in enumerate(calls or ()):
        _tool_call(b, item, f"{where}.{key}[{index}]")
    key, reply = fields.get("actual_output", ("actual_output", None))
    replied = isinstance(reply, str)
    if replied:
        b.message("agent", reply, where=f"{where}.{key}")
    elif reply is not None:
        b.error(f"{where}.{key}", f"expected text (got {type(reply).__name__})", reply)
    usage = {}
    for name, counter in _COUNTS:
        key, count = fields.get(name, (name, None))
        if type(count) is int and count >= 0:
            usage[counter] = count
        elif count is not None:
            b.error(f"{where}.{key}", "expected a token count (an integer >= 0)", count)
    metadata = {name: value for name, (_, value) in fields.items() if name not in _READ}
    if "expected_tools" in metadata and metadata["expected_tools"] is not None:
        try:
            metadata["expected_tools"] = reference_of(metadata["expected_tools"])
        except ValueError as exc:
            b.error(f"{where}.{fields['expected_tools'][0]}", str(exc), metadata["expected_tools"])
    return b.build(status="completed" if replied else None, usage=usage or None, metadata=metadata)


def _tool_call(b: TraceBuilder, item: Any, where: str) -> None:
    if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
        b.error(where, "expected a tool call with a 'name'", item)
        return
    fields = _fields(item)
    reasoning = fields.get("reasoning", ("", None))[1]
    if isinstance(reasoning, str) and reasoning:
        b.reasoning(reasoning, where=f"{where}.reasoning")
    arguments = fields.get("input_parameters", ("", None))[1]
    extra: dict[str, Any] = {}
    output = fields.get("output", ("", None))[1]
    if output is not None:
        result, raw = result_as_written(output)
        extra = {"result": result, "outcome": "succeeded", "is_error": False}
        if raw is not None:
            extra["result_raw"] = raw
    recorded = arguments if arguments is not None else MISSING  # null: not recorded
    b.call(item["name"], recorded, where=where, extra=extra)


def to_records(data: Any, *, source: str | None = None, **options: Any) -> Iterator[TrialRecord]:
    """One record per test case (see the module docs). The option ``format_name`` (the
    readers pass it) is named in the record's ``metadata["format"]``.

    Raises:
        RecordError: ``data`` is neither a test case nor a list of them.
    """
    name = options.get("format_name")
    if isinstance(data, Mapping):
        yield _case_record(data, "$", source, name)
        return
    if not isinstance(data, list):
        message = f"expected a DeepEval test case or a list of them (got {type(data).__name__})"
        raise RecordError([Problem("$", message, source)])
    for index, case in enumerate(data):
        yield _case_record(case, f"$[{index}]", source, name)


def to_record(data: Any, *, source: str | None = None, **options: Any) -> TrialRecord:
    """The record of one test case.

    Raises:
        RecordError: Not a test case, or several (use :func:`to_records`).
    """
    return only_record(to_records(data, source=source), "test cases", source)


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """The record of the first test case of a JSON file."""
    return read_with(to_records, path, **options)


__all__ = ["ALIASES", "detect", "read", "reference_of", "to_record", "to_records"]
