"""Google Gemini contents, ADK session events and ADK eval sets → records (``gemini``).

Keys are read in either case (REST/JSON ``camelCase`` or Python ``snake_case``). Three shapes:

* **contents**: a list of ``Content`` (``{"role", "parts"}``) or ``{"contents": [...],
  "response": GenerateContentResponse}`` (also ``GenerateContentResponse`` objects in the list);
* **ADK session events**: a session ``{"events": [Event...], "state": ...}`` or a list of
  events (``author``, ``invocationId``, ``content``, ``actions``…);
* **ADK eval sets**: ``{"evalSetId", "evalCases": [...]}`` (one record per case; ``RUNS``), or
  one eval case.

========================================  ===================================================
Gemini / ADK                              record
========================================  ===================================================
user ``text`` parts                       ``message`` ``user``; a user content holding only
                                          ``functionResponse`` parts is no message
model content                             ``model_call`` (usage from ``usageMetadata``); text
                                          → ``agent`` message, ``thought: true`` text →
                                          ``reasoning``, ``functionCall`` → ``tool_call`` (a
                                          content's calls share a ``group_id``)
``functionResponse``                      the call's result (``response.output`` when given);
                                          ``response.error`` → ``failed``
ADK ``author``                            ``agent`` (the first agent is the root: None); a
                                          change of author, or ``actions.transferToAgent`` →
                                          ``delegation``
ADK ``actions.stateDelta``                a ``memory`` ``set`` per key
ADK ``timestamp``                         ``wall_time`` (seconds)
ADK ``errorCode``/``errorMessage``        ``record.errors``; a failed ``model_call``
session ``state``                         ``final_state``
eval case ``session_input.state`` /       ``initial_state`` / ``final_state``
``final_session_state``
invocation ``user_content``,              user message, tool calls (``tool_uses`` paired with
``intermediate_data``, ``final_response`` ``tool_responses``, or ``invocation_events``), agent
                                          messages (``intermediate_responses`` by author)
========================================  ===================================================

>>> rec = to_record([
...     {"role": "user", "parts": [{"text": "Refund A1"}]},
...     {"role": "model", "parts": [{"functionCall": {"name": "refund", "args": {"id": "A1"}}}]},
...     {"role": "user", "parts": [{"functionResponse": {"name": "refund",
...                                                     "response": {"error": "timed out"}}}]},
...     {"role": "model", "parts": [{"text": "It failed."}]},
... ])
>>> call = rec.tool_calls[0].payload
>>> call.outcome, call.error_message, rec.reply
('failed', 'timed out', 'It failed.')
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts.record.adapters.toolkit import (
    TraceBuilder,
    items,
    read_with,
    result_as_written,
    usage,
)
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "gemini"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 70
"""Its place among the built-in formats (their listing and error-message order)."""
TAGS_RECORDS: Final = True
"""``to_records`` takes ``format_name`` (the readers' ``metadata["format"]``)."""

RUNS: Final = ("eval_cases", "evalCases")
"""An eval set holds one run per eval case."""
_SCAN: Final = 50
_CAMEL: Final = re.compile(r"_([a-z])")


def get(mapping: Mapping[str, Any], key: str, default: Any = None) -> Any:
    """``mapping[key]`` under its snake_case or camelCase spelling.

    >>> get({"functionCall": 1}, "function_call"), get({"function_call": 2}, "function_call")
    (1, 2)
    """
    if key in mapping:
        return mapping[key]
    return mapping.get(_CAMEL.sub(lambda m: m.group(1).upper(), key), default)


def _is_content(item: Any) -> bool:
    return (
        isinstance(item, Mapping)
        and isinstance(item.get("parts"), list)
        and item.get("role") in ("user", "model", "function", "tool", None)
        and "kind" not in item  # Pydantic AI messages have parts too
    )


def _is_response(item: Any) -> bool:
    return (type(item) is dict or isinstance(item, Mapping)) and isinstance(
        item.get("candidates"), list
    )


def _is_event(item: Any) -> bool:
    return (
        isinstance(item, Mapping)
        and "author" in item
        and (get(item, "invocation_id") is not None or "content" in item or "actions" in item)
    )


def _is_case(item: Any) -> bool:
    return (
        (type(item) is dict or isinstance(item, Mapping))
        and get(item, "eval_id") is not None
        and ("conversation" in item or get(item, "conversation_scenario") is not None)
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is Gemini contents, ADK session events or an ADK eval set / case.

    >>> detect([{"role": "model", "parts": [{"text": "hi"}]}])
    True
    >>> detect({"evalSetId": "s", "evalCases": []})
    True
    >>> detect([{"role": "user", "content": "hi"}])
    False
    """
    if type(data) is dict or isinstance(data, Mapping):
        if get(data, "eval_cases") is not None and get(data, "eval_set_id") is not None:
            return True
        if _is_case(data) or _is_response(data):
            return True
        for key in ("contents", "events"):
            if isinstance(data.get(key), list):
                data = data[key]
                break
        else:
            return False
    if not isinstance(data, list) or not data:
        return False
    sample = data[:_SCAN]
    return all(_is_content(i) or _is_response(i) for i in sample) or all(
        _is_event(i) for i in sample
    )


def gemini_usage(raw: Any) -> dict[str, Any] | None:
    """``usageMetadata`` as usage: prompt / candidates / total, the other counts in details.

    >>> gemini_usage({"promptTokenCount": 80, "candidatesTokenCount": 12, "thoughtsTokenCount": 4})
    {'input_tokens': 80, 'output_tokens': 12, 'details': {'thoughts_token_count': 4}}
    """
    if not isinstance(raw, Mapping):
        return None
    details = {}
    for key in (
        "thoughts_token_count",
        "cached_content_token_count",
        "tool_use_prompt_token_count",
    ):
        value = get(raw, key)
        if value:
            details[key] = value
    return usage(
        get(raw, "prompt_token_count"),
        get(raw, "candidates_token_count"),
        get(raw, "total_token_count"),
        **details,
    )


class _Reader:
    def __init__(self, source: str | None, format_name: str | None = None) -> None:
        self.b = TraceBuilder(source=source, format_name=format_name)
        self.root: str | None = None
        self.errors: list[Any] = []

    def content(self, where: str, content: Any, **info: Any) -> None:
        if not _is_content(content):
            self.b.error(where, "not a Gemini content (role and parts)", content)
            return
        if content.get("role") == "model":
            self.model(where, content["parts"], **info)
        else:
            self.user(where, content["parts"], info.get("wall_time"))

    def user(self, where: str, parts: list[Any], wall_time: float | None = None) -> None:
        texts, places = [], [where]
        for index, part in enumerate(parts):
            at = f"{where}.parts[{index}]"
            if not isinstance(part, Mapping):
                self.b.error(at, "a part must be an object", part)
            elif get(part, "function_response") is not None:
                self.result(at, get(part, "function_response"), wall_time)
            else:
                places.append(at)
                if isinstance(part.get("text"), str):
                    texts.append(part["text"])
        if len(places) > 1:
            self.b.message("user", "\n".join(texts), where=places, wall_time=wall_time)

    def model(self, where: str, parts: list[Any], **info: Any) -> None:
        agent = self.b.agent
        model = self.b.model_call(
            where=where, agent=agent, **{k: v for k, v in info.items() if v is not None}
        )
        parent = model["event_id"]
        calls = [p for p in parts if isinstance(p, Mapping) and get(p, "function_call") is not None]
        group = self.b.group() if len(calls) > 1 else None
        envelope = {"agent": agent, "parent_id": parent, "wall_time": info.get("wall_time")}
        for index, part in enumerate(parts):
            at = f"{where}.parts[{index}]"
            if not isinstance(part, Mapping):
                self.b.error(at, "a part must be an object", part)
            elif get(part, "function_call") is not None:
                self.call(at, get(part, "function_call"), group, envelope)
            elif isinstance(part.get("text"), str):
                if part.get("thought") is True:
                    self.b.reasoning(part["text"], where=at, **envelope)
                else:
                    self.b.message("agent", part["text"], where=at, **envelope)
            elif get(part, "function_response") is not None:
                self.result(at, get(part, "function_response"), info.get("wall_time"))
            else:
                model["payload"]["trace_items"].append(at)  # inline data, code: part of the call

    def call(self, where: str, call: Any, group: str | None, envelope: dict[str, Any]) -> None:
        name = call.get("name") if isinstance(call, Mapping) else None
        if not isinstance(name, str) or not name:
            self.b.error(where, "a functionCall without a name", call)
            return
        assert isinstance(call, Mapping)
        call_id = call.get("id") if isinstance(call.get("id"), str) else None
        self.b.call(
            name,
            call.get("args", {}),
            where=where,
            call_id=call_id,
            group=group,
            **{k: v for k, v in envelope.items() if v is not None},
        )

    def result(self, where: str, response: Any, wall_time: float | None = None) -> None:
        if not isinstance(response, Mapping):
            self.b.error(where, "a functionResponse must be an object", response)
            return
        body = response.get("response")
        error = body.get("error") if isinstance(body, Mapping) else None
        if isinstance(body, Mapping) and "output" in body:
            result: Any = body["output"]
        else:
            result = body
        call_id = response.get("id") if isinstance(response.get("id"), str) else None
        name = response.get("name") if isinstance(response.get("name"), str) else None
        message = error if isinstance(error, str) or error is None else str(error)
        result, raw = result_as_written(result)
        self.b.result(
            result,
            result_raw=raw,
            where=where,
            call_id=call_id,
            name=name,
            is_error=error is not None,
            error_message=message,
            wall_time=wall_time,
        )

    # -- ADK events ------------------------------------------------------------------------

    def event(self, where: str, event: Any) -> None:
        if not _is_event(event):
            self.b.error(where, "not an ADK event (author and content)", event)
            return
        author = event.get("author")
        wall_time = self.b.time(event.get("timestamp"), where=f"{where}.timestamp")
        if author != "user" and isinstance(author, str):
            self.root = self.root or author
            self.b.switch_agent(None if author == self.root else author, where=where)
        content = event.get("content")
        code, message = get(event, "error_code"), get(event, "error_message")
        if content is not None:
            info: dict[str, Any] = {
                "wall_time": wall_time,
                "usage": gemini_usage(get(event, "usage_metadata")),
            }
            if code is not None or message is not None:
                info.update(
                    error_type=str(code) if code is not None else None, error_message=message
                )
            self.content(f"{where}.content", content, **info)
        elif code is not None or message is not None:
            self.b.model_call(
                where=where,
                error_type=str(code) if code else None,
                error_message=message,
                wall_time=wall_time,
            )
        if code is not None or message is not None:
            self.errors.append(
                {"error_code": code, "error_message": message, "event": event.get("id")}
            )
        actions = event.get("actions")
        if isinstance(actions, Mapping):
            self.actions(f"{where}.actions", actions, wall_time)

    def actions(self, where: str, actions: Mapping[str, Any], wall_time: float | None) -> None:
        delta = get(actions, "state_delta")
        if isinstance(delta, Mapping):
            for key, value in delta.items():
                self.b.add(
                    "memory",
                    {"name": str(key), "value": value},
                    where=f"{where}.stateDelta",
                    event_type="set",
                    agent=self.b.agent,
                    wall_time=wall_time,
                )
        target = get(actions, "transfer_to_agent")
        if isinstance(target, str) and target:
            self.b.switch_agent(None if target == self.root else target, where=where)


def _records_of_session(data: Any, source: str | None, format_name: str | None) -> TrialRecord:
    events = data.get("events") if isinstance(data, Mapping) else data
    reader = _Reader(source, format_name)
    prefix = "$.events" if events is not data else "$"
    for index, event in enumerate(items(events)):
        reader.event(f"{prefix}[{index}]", event)
    metadata = final_state = None
    if isinstance(data, Mapping):
        final_state = data.get("state")
        metadata = {k: v for k, v in data.items() if k not in ("events", "state")}
    return reader.b.build(errors=reader.errors, metadata=metadata, final_state=final_state)


def _records_of_contents(data: Any, source: str | None, format_name: str | None) -> TrialRecord:
    contents = data.get("contents") if isinstance(data, Mapping) else data
    reader = _Reader(source, format_name)
    metadata = None
    if isinstance(data, Mapping):
        system = get(data, "system_instruction")
        if _is_content(system):
            text = "\n".join(
                p["text"]
                for p in system["parts"]
                if isinstance(p, Mapping) and isinstance(p.get("text"), str)
            )
            reader.b.message("system", text, where="$.systemInstruction")
    prefix = "$.contents" if contents is not data else "$"
    for index, item in enumerate(items(contents)):
        where = f"{prefix}[{index}]"
        if _is_response(item):
            _response(reader, where, item)
        else:
            reader.content(where, item)
    if isinstance(data, Mapping):
        if _is_response(data.get("response")):
            _response(reader, "$.response", data["response"])
        skip = {"contents", "response", "systemInstruction", "system_instruction"}
        metadata = {k: v for k, v in data.items() if k not in skip}
    return reader.b.build(metadata=metadata)


def _response(reader: _Reader, where: str, response: Mapping[str, Any]) -> None:
    candidate = response["candidates"][0] if response["candidates"] else None
    if not isinstance(candidate, Mapping) or not _is_content(candidate.get("content")):
        reader.b.error(f"{where}.candidates", "a response without a candidate content", candidate)
        return
    info = {
        "model": get(response, "model_version"),
        "usage": gemini_usage(get(response, "usage_metadata")),
        "finish_reason": get(candidate, "finish_reason"),
    }
    reader.content(f"{where}.candidates[0].content", candidate["content"], **info)


def _listed(reader: _Reader, where: str, data: Mapping[str, Any]) -> list[Any]:
    """The list at ``where`` (its last key read from ``data``); none for a missing or empty
    value, and a record error naming ``where`` for anything else (an int, a string)."""
    value = get(data, where.rsplit(".", 1)[-1])
    if not value or isinstance(value, list):
        return value or []
    reader.b.error(where, "expected a list", value)
    return []


def _invocation(reader: _Reader, where: str, invocation: Any) -> None:
    if not isinstance(invocation, Mapping):
        reader.b.error(where, "an invocation must be an object", invocation)
        return
    wall_time = reader.b.time(
        get(invocation, "creation_timestamp"), where=f"{where}.creation_timestamp"
    )
    user = get(invocation, "user_content")
    if user is not None:
        reader.content(f"{where}.user_content", user, wall_time=wall_time)
    data = get(invocation, "intermediate_data")
    if isinstance(data, Mapping):
        at = f"{where}.intermediate_data"
        events = get(data, "invocation_events")
        if isinstance(events, list):
            for index, event in enumerate(events):
                reader.event(f"{at}.invocation_events[{index}]", event)
        for index, call in enumerate(_listed(reader, f"{at}.tool_uses", data)):
            reader.call(f"{at}.tool_uses[{index}]", call, None, {"wall_time": wall_time})
        for index, response in enumerate(_listed(reader, f"{at}.tool_responses", data)):
            reader.result(f"{at}.tool_responses[{index}]", response)
        for index, entry in enumerate(_listed(reader, f"{at}.intermediate_responses", data)):
            here = f"{at}.intermediate_responses[{index}]"
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list)):
                reader.b.error(here, "expected [author, parts]", entry)
                continue
            text = "\n".join(
                p["text"]
                for p in entry[1]
                if isinstance(p, Mapping) and isinstance(p.get("text"), str)
            )
            agent = entry[0] if isinstance(entry[0], str) else None
            reader.b.message("agent", text, where=here, agent=agent)
    final = get(invocation, "final_response")
    if _is_content(final):
        parts = final["parts"]
        text = "\n".join(
            p["text"] for p in parts if isinstance(p, Mapping) and isinstance(p.get("text"), str)
        )
        reader.b.message("agent", text, where=f"{where}.final_response")


def _record_of_case(
    case: Any, where: str, source: str | None, format_name: str | None
) -> TrialRecord:
    reader = _Reader(source, format_name)
    if not _is_case(case):
        reader.b.error(where, "not an ADK eval case (eval_id and conversation)", case)
        return reader.b.build()
    for index, invocation in enumerate(_listed(reader, f"{where}.conversation", case)):
        _invocation(reader, f"{where}.conversation[{index}]", invocation)
    session = get(case, "session_input")
    initial = get(session, "state") if isinstance(session, Mapping) else None
    final = get(case, "final_session_state")
    metadata = {"eval_id": get(case, "eval_id")}
    return reader.b.build(initial_state=initial, final_state=final, metadata=metadata)


def to_records(data: Any, *, source: str | None = None, **options: Any) -> Iterator[TrialRecord]:
    """The runs of Gemini / ADK data: one per eval case of an eval set, else one. The option
    ``format_name`` (the readers pass it) is named in the record's ``metadata["format"]``.

    Raises:
        RecordError: ``data`` has none of the three shapes.
    """
    name = options.get("format_name")
    cases = get(data, "eval_cases") if isinstance(data, Mapping) else None
    if isinstance(cases, list):
        key = "eval_cases" if "eval_cases" in data else "evalCases"
        for index, case in enumerate(cases):
            yield _record_of_case(case, f"$.{key}[{index}]", source, name)
        return
    if _is_case(data):
        yield _record_of_case(data, "$", source, name)
        return
    events = data.get("events") if isinstance(data, Mapping) else data
    if isinstance(events, list) and events and _is_event(events[0]):
        yield _records_of_session(data, source, name)
        return
    if _is_response(data):
        data = {"contents": [], "response": data}
    contents = data.get("contents") if isinstance(data, Mapping) else data
    if not isinstance(contents, list):
        raise RecordError(
            [Problem("$", "expected Gemini contents, ADK events or an ADK eval set", source)]
        )
    yield _records_of_contents(data, source, name)


def to_record(data: Any, **options: Any) -> TrialRecord:
    """The record of one Gemini / ADK run (an eval set of several cases is an error)."""
    records = list(to_records(data, **options))
    if len(records) != 1:
        message = f"holds {len(records)} runs: read them with agent_asserts.iter_records(...)"
        raise RecordError([Problem("$", message, options.get("source"))])
    return records[0]


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """Read one Gemini / ADK run from a JSON file."""
    return read_with(to_records, path, **options)


__all__ = ["RUNS", "detect", "gemini_usage", "get", "read", "to_record", "to_records"]
