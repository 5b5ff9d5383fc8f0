"""LangSmith runs → :class:`~agent_asserts.record.TrialRecord` (``langsmith``), one per trace.

Reads the run objects of LangSmith's API and SDK (``langsmith.schemas.Run`` as JSON:
``Client.read_run(..., load_child_runs=True)`` or a ``RunTree`` dumped with its children):
a run tree nested in ``child_runs``, a flat list of runs linked by ``parent_run_id`` (what
``Client.list_runs`` yields; one record per ``trace_id``), or a list of run trees. Times are ISO
strings; runs may come in any order. The mapping, by ``run_type``:

=======================  ========================================================================
run                      record
=======================  ========================================================================
the root run             the root agent (record ``metadata.agent``); its ``inputs`` / ``outputs``
                         give the user message and the reply when no model run records them;
                         its ``error`` fails the run
``llm``                  ``model_call`` (model from ``extra.metadata.ls_model_name`` or the
                         invocation parameters, usage from ``usage_metadata``, OpenAI ``usage``,
                         ``llm_output.token_usage`` or the run's own token counts); its input
                         and output messages (LangChain messages in any spelling, OpenAI chat
                         messages, a ``chat.completion``) give the user and agent ``message``
                         events and the calls it asked for
``tool``                 ``tool_call``: ``name``, ``inputs`` → arguments (``{"input": text}``
                         parsed as JSON), ``outputs.output`` → result (a LangChain
                         ``ToolMessage``: its content, ``tool_call_id`` and ``status``), the
                         run's ``error`` → ``is_error``/``outcome`` ``failed``;
                         ``extra.tool_call_id`` → ``call_id``
``chain``, ``retriever``  a ``span`` event (run type, name, inputs, outputs)
and the other types
=======================  ========================================================================

LangSmith records no handoffs: sub-agents are chains like any other, so a trace never gives
``delegation`` events.

>>> rec = to_record({"id": "r1", "run_type": "chain", "name": "agent",
...     "inputs": {"input": "Refund A1"}, "outputs": {"output": "Done."},
...     "child_runs": [{"id": "r2", "parent_run_id": "r1", "run_type": "tool",
...         "name": "refund", "inputs": {"order_id": "A1"}, "error": "gateway timed out"}]})
>>> call = rec.tool_calls[0].payload
>>> call.arguments, call.outcome, call.error_message, rec.reply
({'order_id': 'A1'}, 'failed', 'gateway timed out', 'Done.')
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts._values import MISSING
from agent_asserts.record.adapters._span_tree import (
    AgentInfo,
    ModelInfo,
    Span,
    Step,
    ToolInfo,
    build_record,
    iso_seconds,
    to_parts,
)
from agent_asserts.record.adapters.langchain import unwrap
from agent_asserts.record.adapters.toolkit import (
    content_text,
    count,
    items,
    json_or_text,
    mapping,
    only_record,
    openai_usage,
    parse_arguments,
    read_documents,
)
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "langsmith"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 140
"""Its place among the built-in formats (their listing and error-message order)."""

REPORTED_BY: Final = "LangSmith llm runs: as the traced model reported it"
RUN_TYPES: Final = frozenset({"llm", "tool", "chain", "retriever", "prompt", "parser", "embedding"})
"""The ``run_type`` values of LangSmith runs."""
_ROLES: Final = {"human": "user", "ai": "assistant", "tool": "tool", "system": "system"}
_SCAN: Final = 20


def _is_run(item: Any) -> bool:
    kind = item.get("run_type") if (type(item) is dict or isinstance(item, Mapping)) else None
    return (
        isinstance(kind, str)
        and kind in RUN_TYPES
        and "id" in item
        and bool(item.keys() & {"inputs", "outputs", "child_runs", "parent_run_id"})
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is a LangSmith run (tree), or a list of runs.

    >>> detect({"id": "r", "run_type": "chain", "inputs": {}}), detect([{"run_type": "llm"}])
    (True, False)
    """
    if isinstance(data, list):
        return bool(data) and all(_is_run(item) for item in data[:_SCAN])
    return _is_run(data)


def chat_message(item: Any) -> dict[str, Any] | None:
    """A LangChain message (any spelling) or an OpenAI chat message as a chat message in
    parts form; None when ``item`` is neither.

    >>> chat_message({"type": "ai", "content": "", "tool_calls": [
    ...     {"name": "f", "args": {"x": 1}, "id": "c1"}]})
    {'role': 'assistant',
     'parts': [{'type': 'tool_call', 'name': 'f', 'id': 'c1', 'arguments': {'x': 1}}]}
    """
    found = unwrap(item)
    if found is None:
        return to_parts(item)
    kind, fields = found
    role = _ROLES.get(kind, fields.get("role") if kind == "chat" else kind)
    message: dict[str, Any] = {"role": role, "content": fields.get("content")}
    extra = mapping(fields.get("additional_kwargs"))
    calls = items(fields.get("tool_calls")) or items(extra.get("tool_calls"))
    if calls:
        message["tool_calls"] = calls
    if isinstance(extra.get("reasoning_content"), str):
        message["reasoning_content"] = extra["reasoning_content"]
    if kind == "tool":
        message["tool_call_id"] = fields.get("tool_call_id")
    return to_parts(message)


def io_messages(value: Any) -> list[dict[str, Any]]:
    """The chat messages (parts form) of a model call's recorded inputs or outputs:
    ``messages`` (a list, or LangChain's list of lists), LangChain ``generations``, a
    ``chat.completion``'s ``choices``, or one message.

    >>> io_messages({"choices": [{"message": {"role": "assistant", "content": "Hi"}}]})
    [{'role': 'assistant', 'parts': [{'type': 'text', 'content': 'Hi'}]}]
    """
    value = mapping(value)
    found: list[Any] = []
    listed = value.get("messages")
    if isinstance(listed, list):
        found = listed[0] if listed and isinstance(listed[0], list) else listed
    generations = items(value.get("generations"))
    first = generations[0] if generations else None
    for generation in first if isinstance(first, list) else [first] if first else []:
        generation = mapping(generation)
        if "message" in generation:
            found.append(generation["message"])
        elif isinstance(generation.get("text"), str):
            found.append({"role": "assistant", "content": generation["text"]})
    choices = items(value.get("choices"))
    if choices and isinstance(mapping(choices[0]).get("message"), Mapping):
        found.append(choices[0]["message"])
    if not found and (unwrap(value) is not None or isinstance(value.get("role"), str)):
        found = [value]
    out = [chat_message(item) for item in found]
    return [message for message in out if message is not None]


def io_usage(outputs: Any) -> dict[str, Any] | None:
    """The usage a model call's recorded outputs carry: ``usage_metadata`` (LangSmith's and
    LangChain's), a generation message's ``usage_metadata``, ``llm_output.token_usage``, or an
    OpenAI ``usage``.

    >>> io_usage({"usage": {"prompt_tokens": 9, "completion_tokens": 3}})
    {'input_tokens': 9, 'output_tokens': 3}
    """
    outputs = mapping(outputs)
    if isinstance(outputs.get("usage_metadata"), Mapping):
        return openai_usage(outputs["usage_metadata"])
    for message in _generation_messages(outputs):
        found_message = unwrap(message)
        fields = found_message[1] if found_message is not None else mapping(message)
        if isinstance(fields.get("usage_metadata"), Mapping):
            return openai_usage(fields["usage_metadata"])
    for raw in (mapping(outputs.get("llm_output")).get("token_usage"), outputs.get("usage")):
        if isinstance(raw, Mapping) and (found := openai_usage(raw)):
            return found
    return None


def _usage(run: Mapping[str, Any]) -> dict[str, Any] | None:
    metadata = mapping(mapping(run.get("extra")).get("metadata"))
    if found := io_usage(run.get("outputs")):
        return found
    if isinstance(metadata.get("usage_metadata"), Mapping) and (
        found := openai_usage(metadata["usage_metadata"])
    ):
        return found
    return openai_usage(
        {key: run[key] for key in ("prompt_tokens", "completion_tokens") if count(run.get(key))}
    )


def _generation_messages(outputs: Mapping[str, Any]) -> list[Any]:
    generations = items(outputs.get("generations"))
    first = generations[0] if generations else None
    listed = first if isinstance(first, list) else [first]
    return [
        mapping(g).get("message") for g in listed if isinstance(mapping(g).get("message"), Mapping)
    ]


def _model_name(run: Mapping[str, Any]) -> str | None:
    extra = mapping(run.get("extra"))
    params = mapping(extra.get("invocation_params"))
    outputs = mapping(run.get("outputs"))
    for value in (
        mapping(extra.get("metadata")).get("ls_model_name"),
        params.get("model"),
        params.get("model_name"),
        mapping(outputs.get("llm_output")).get("model_name"),
        outputs.get("model"),
    ):
        if isinstance(value, str) and value:
            return value
    return None


def _model(run: Mapping[str, Any]) -> ModelInfo:
    found = _usage(run) or {}
    details = {k: v for k, v in mapping(found.get("details")).items() if count(v) is not None}
    return ModelInfo(
        model=_model_name(run),
        provider=mapping(mapping(run.get("extra")).get("metadata")).get("ls_provider"),
        input_tokens=found.get("input_tokens"),
        output_tokens=found.get("output_tokens"),
        details=details,
        reported_by=REPORTED_BY if found else None,
        input=tuple(io_messages(run.get("inputs"))),
        output=tuple(io_messages(run.get("outputs"))),
    )


def _tool(run: Mapping[str, Any], problems: list[tuple[str, str, Any]], where: str) -> ToolInfo:
    name = str(run.get("name") or "unknown")
    inputs = run.get("inputs")
    raw_arguments = inputs
    if (
        isinstance(inputs, Mapping)
        and set(inputs) == {"input"}
        and isinstance(inputs["input"], str)
    ):
        raw_arguments = inputs["input"]
    arguments, arguments_raw, problem = parse_arguments(raw_arguments)
    if inputs is None:
        arguments = MISSING
    if problem is not None:
        problems.append((f"{where}.inputs", problem, arguments_raw))
    outputs = run.get("outputs")
    output = outputs.get("output", outputs) if isinstance(outputs, Mapping) else outputs
    call_id = mapping(run.get("extra")).get("tool_call_id")
    error = run.get("error")
    failed = error not in (None, "")
    message = unwrap(output)
    if message is not None and message[0] == "tool":
        fields = message[1]
        call_id = call_id or fields.get("tool_call_id")
        output = fields.get("content")
        output = content_text(output) if isinstance(output, list) else output
        if fields.get("status") == "error" and not failed:
            failed, error = True, output
    result = None if failed and output == error else json_or_text(output)
    return ToolInfo(
        name=name,
        call_id=str(call_id) if call_id is not None else None,
        arguments=arguments,
        arguments_raw=arguments_raw,
        result=result,
        is_error=failed,
        outcome="failed" if failed else "succeeded",
        error_message=str(error) if failed else None,
    )


def io_text(value: Any) -> str | None:
    """The user's or the agent's text in a run's recorded inputs or outputs: the text itself,
    a conventional key (``input``, ``output``, ``question``, ``answer``…), the one text value,
    or the last message's text.

    >>> io_text({"question": "Refund A1", "k": 3}), io_text({"a": 1})
    ('Refund A1', None)
    """
    if isinstance(value, str):
        return value or None
    value = mapping(value)
    for key in ("input", "output", "question", "answer", "query", "content", "text"):
        if isinstance(value.get(key), str) and value[key]:
            return str(value[key])
    texts = [v for v in value.values() if isinstance(v, str)]
    if len(texts) == 1:
        return texts[0] or None
    messages = io_messages(value)
    parts = messages[-1]["parts"] if messages else []
    joined = "".join(p["content"] for p in parts if p.get("type") == "text")
    return joined or None


def step(run: Mapping[str, Any], where: str, root: bool) -> Step:
    """The :class:`Step` of one run (``root``: the trace's top run, which is its agent).

    Raises:
        ValueError: The run has no id.
    """
    if not isinstance(run, Mapping) or run.get("id") is None:
        raise ValueError("a run needs to be an object with an 'id'")
    kind = str(run.get("run_type"))
    error = run.get("error") not in (None, "")
    parent = run.get("parent_run_id")
    span = Span(
        span_id=str(run["id"]),
        parent_id=None if root or parent is None else str(parent),
        name=str(run.get("name") or kind),
        position=where,
        start=iso_seconds(run.get("start_time")),
        end=iso_seconds(run.get("end_time")),
        trace_id=str(run["trace_id"]) if run.get("trace_id") is not None else None,
        error=error,
        error_message=str(run["error"]) if error else None,
        kind=kind,
    )
    session = run.get("session_id")
    conversation = str(session) if session is not None else None
    if root and kind != "llm" and kind != "tool":
        info = AgentInfo(
            span.name, input=io_text(run.get("inputs")), output=io_text(run.get("outputs"))
        )
        return Step(span, "agent", agent=info, conversation_id=conversation)
    if kind == "llm":
        return Step(span, "model", model=_model(run), conversation_id=conversation)
    if kind == "tool":
        problems: list[tuple[str, str, Any]] = []
        tool = _tool(run, problems, where)
        return Step(span, "tool", tool=tool, problems=tuple(problems), conversation_id=conversation)
    payload: dict[str, Any] = {"type": kind, "name": span.name}
    for key in ("inputs", "outputs", "error"):
        if run.get(key) not in (None, {}):
            payload[key] = run[key]
    return Step(span, "other", payload=payload, conversation_id=conversation)


def _flatten(tree: Mapping[str, Any], where: str) -> list[tuple[str, Any, bool]]:
    """``(where, run, is_root)`` for a run and every run under it (children after parents)."""
    out: list[tuple[str, Any, bool]] = []
    todo: list[tuple[str, Any, bool]] = [(where, tree, True)]
    while todo:
        position, run, root = todo.pop()
        out.append((position, run, root))
        children = items(run.get("child_runs")) if isinstance(run, Mapping) else []
        for index in reversed(range(len(children))):
            todo.append((f"{position}.child_runs[{index}]", children[index], False))
    return out


def _traces(data: Any) -> Iterator[list[tuple[str, Any, bool]]]:
    if isinstance(data, Mapping):
        yield _flatten(data, "$")
        return
    if not isinstance(data, list):
        message = f"expected a LangSmith run or a list of runs (got {type(data).__name__})"
        raise RecordError([Problem("$", message)])
    ids = {str(r["id"]) for r in data if isinstance(r, Mapping) and r.get("id") is not None}
    by_trace: dict[str, list[tuple[str, Any, bool]]] = {}
    for index, run in enumerate(data):
        where = f"$[{index}]"
        run_map = mapping(run)
        parent = run_map.get("parent_run_id")
        is_root = parent is None or str(parent) not in ids
        key = run_map.get("trace_id") or (run_map.get("id") if is_root else parent)
        if items(run_map.get("child_runs")) and is_root:
            yield _flatten(run_map, where)
            continue
        by_trace.setdefault(str(key), []).extend(
            (w, r, root and is_root) for w, r, root in _flatten(run_map, where)
        )
    yield from by_trace.values()


def to_records(data: Any, *, source: str | None = None) -> Iterator[TrialRecord]:
    """One record per trace: a run tree, or the runs of a flat list that share a ``trace_id``.

    >>> runs = [{"id": "a", "run_type": "chain", "trace_id": "a", "inputs": {"input": "hi"}},
    ...         {"id": "b", "run_type": "chain", "trace_id": "b", "inputs": {"input": "yo"}}]
    >>> [r.events[0].payload.text for r in to_records(runs)]
    ['hi', 'yo']
    """
    for runs in _traces(data):
        steps: list[Step] = []
        errors: list[tuple[str, str, Any]] = []
        roots = [run for _, run, root in runs if root]
        for where, run, root in runs:
            try:
                steps.append(step(run, where, root and run is roots[0]))
            except ValueError as exc:
                errors.append((where, str(exc), run))
            except (TypeError, AttributeError) as exc:
                errors.append((where, f"unreadable run: {type(exc).__name__}: {exc}", run))
        metadata: dict[str, Any] = {}
        top = mapping(roots[0]) if roots else {}
        for key, name in (
            ("trace_id", "trace_id"),
            ("session_name", "project"),
            ("session_id", "session_id"),
        ):
            if top.get(key) is not None:
                metadata[name] = str(top[key])
        yield build_record(steps, source=source, metadata=metadata, parse_errors=errors)


def to_record(data: Any, *, source: str | None = None) -> TrialRecord:
    """The record of a run tree, or of a list of runs holding one trace.

    Raises:
        RecordError: Not LangSmith runs, or several traces (use :func:`to_records`).
    """
    return only_record(to_records(data, source=source), "traces", source)


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """The record of a LangSmith export file (JSON, or JSON Lines of runs)."""
    return to_record(read_documents(path, FORMAT), **options)


__all__ = [
    "REPORTED_BY",
    "RUN_TYPES",
    "chat_message",
    "detect",
    "io_messages",
    "io_text",
    "io_usage",
    "read",
    "step",
    "to_record",
    "to_records",
]
