"""Inspect AI eval logs → :class:`~agent_asserts.record.TrialRecord` (``inspect-ai``), per sample.

Reads an eval log as Inspect writes it: a ``.json`` log (``{"version", "status", "eval",
"plan", "results", "stats", "samples": [...]}``) or a ``.eval`` log (a zip archive holding
``header.json`` and one ``samples/<id>_epoch_<n>.json`` per sample; :func:`read_records`). One
record per sample (and epoch). JSON data only; Inspect is not imported.

========================================  ===================================================
Inspect sample                            record
========================================  ===================================================
``messages[]`` ``user`` / ``system``      ``message`` ``user`` / ``system`` (text parts)
``assistant`` message                     ``model_call`` (model, usage and ``stop_reason``
                                          from the ``model`` event whose output it is), then
                                          ``reasoning`` (reasoning content), the text as an
                                          ``agent`` message, one ``tool_call`` per
                                          ``tool_calls[]`` (``function``, ``arguments``;
                                          ``parse_error`` → arguments not recorded and a
                                          parse error); the calls of one message share a
                                          ``group_id``
``tool`` message (``tool_call_id``)       the call's ``result``; ``error`` → ``failed`` with
                                          ``error.message`` / ``error.type``
``events[]`` ``tool``                     the time of its call; a tool event no message
                                          records is a call of its own
``events[]`` ``model``                    the usage and time of its model call; one whose
                                          output no message records is a ``model_call`` of
                                          its own after the messages
``model_usage``                           the run's usage (summed over the models)
``error``                                 a run ``error`` (status ``failed``)
``id``, ``epoch``, ``scores``, the eval    ``metadata`` (``sample_id``, ``epoch``, ``scores``,
                                          ``task``, ``model``, ``run_id``, ``limit``)
========================================  ===================================================

>>> rec, = to_records({"version": 2, "status": "success", "eval": {"task": "t", "model": "m"},
...     "samples": [{"id": 1, "epoch": 1, "input": "Refund A1", "messages": [
...         {"role": "user", "content": "Refund A1"},
...         {"role": "assistant", "content": "", "tool_calls": [
...             {"id": "c1", "function": "refund", "arguments": {"id": "A1"}}]},
...         {"role": "tool", "tool_call_id": "c1", "content": "", "function": "refund",
...          "error": {"type": "unknown", "message": "gateway timed out"}},
...         {"role": "assistant", "content": "It failed."}]}]})
>>> call = rec.tool_calls[0].payload
>>> call.arguments, call.outcome, call.error_message, rec.reply, rec.metadata["task"]
({'id': 'A1'}, 'failed', 'gateway timed out', 'It failed.', 't')
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts._files import max_file_bytes
from agent_asserts._values import MISSING
from agent_asserts.record.adapters.toolkit import (
    TraceBuilder,
    content_text,
    items,
    json_or_text,
    mapping,
    only_record,
    seconds,
    usage,
)
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.parsing import decode_text, parse_json, read_raw
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "inspect-ai"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 150
"""Its place among the built-in formats (their listing and error-message order)."""
FILES: Final = (".eval",)
"""``.eval`` logs are zip archives: only this format's ``read_records`` reads them (so
``format="auto"`` and folders find them)."""

REPORTED_BY: Final = "Inspect sample model_usage (summed over the models)"
_ROLES: Final = {"user": "user", "system": "system"}


def _is_log(data: Any) -> bool:
    return (
        (type(data) is dict or isinstance(data, Mapping))
        and isinstance(data.get("eval"), Mapping)
        and "task" in data["eval"]
        and "version" in data
        and (isinstance(data.get("samples"), list) or "status" in data)
    )


def detect(data: Any) -> bool:
    """Whether ``data`` is an Inspect eval log (its ``eval`` header, with or without samples).

    >>> detect({"version": 2, "status": "success", "eval": {"task": "t"}, "samples": []})
    True
    >>> detect({"eval": {"task": "t"}})
    False
    """
    return _is_log(data)


def _text(content: Any) -> tuple[str, list[str]]:
    """The text and the reasoning texts of a message content (a string or content blocks)."""
    if not isinstance(content, list):
        return content_text(content), []
    reasoning = [
        str(block.get("reasoning"))
        for block in content
        if isinstance(block, Mapping) and block.get("type") == "reasoning"
    ]
    return content_text(content), reasoning


ATTACHMENT: Final = "attachment://"
"""How Inspect writes a long text it moved to the sample's ``attachments`` (in events)."""


def _signature(
    message: Mapping[str, Any], attachments: Mapping[str, Any]
) -> tuple[str, tuple[str, ...]]:
    """What ties an assistant message to the ``model`` event whose output it is (texts that
    Inspect moved to the sample's ``attachments`` read back).

    >>> _signature({"content": "attachment://a1", "tool_calls": [{"id": "c1"}]}, {"a1": "Hi"})
    ('Hi', ('c1',))
    """
    content = message.get("content")
    blocks = content if isinstance(content, list) else [content]
    texts = []
    for block in blocks:
        text = block.get("text") if isinstance(block, Mapping) else block
        if isinstance(text, str) and text.startswith(ATTACHMENT):
            text = attachments.get(text[len(ATTACHMENT) :], text)
        if isinstance(block, Mapping) and block.get("type") not in ("text", None):
            continue
        texts.append(text if isinstance(text, str) else "")
    calls = tuple(str(mapping(c).get("id")) for c in items(message.get("tool_calls")))
    return "\n".join(texts), calls


class _Reader:
    def __init__(self, sample: Mapping[str, Any], where: str, source: str | None) -> None:
        self.b = TraceBuilder(source=source)
        self.where = where
        self.models: dict[tuple[str, tuple[str, ...]], list[tuple[str, Mapping[str, Any]]]] = {}
        self.tools: dict[str, tuple[str, Mapping[str, Any]]] = {}
        self.calls: dict[str, dict[str, Any]] = {}
        self.attachments = mapping(sample.get("attachments"))
        for index, event in enumerate(items(sample.get("events"))):
            event = mapping(event)
            at = f"{where}.events[{index}]"
            if event.get("event") == "model":
                choices = items(mapping(event.get("output")).get("choices"))
                message = mapping(mapping(choices[0] if choices else None).get("message"))
                key = _signature(message, self.attachments)
                self.models.setdefault(key, []).append((at, event))
            elif event.get("event") == "tool" and event.get("id") is not None:
                self.tools[str(event["id"])] = (at, event)

    def message(self, where: str, item: Any) -> None:
        if not isinstance(item, Mapping) or not isinstance(item.get("role"), str):
            self.b.error(where, "not an Inspect chat message (a role and content)", item)
            return
        role = item["role"]
        if role in _ROLES:
            self.b.message(_ROLES[role], _text(item.get("content"))[0], where=where)
        elif role == "assistant":
            self.assistant(where, item)
        elif role == "tool":
            self.tool_result(where, item)
        else:
            self.b.error(where, f"unknown message role {role!r}", item)

    def model_call(self, where: list[str], event: Mapping[str, Any], model: Any) -> str:
        output = mapping(event.get("output"))
        choices = items(output.get("choices"))
        choice = mapping(choices[0] if choices else None)
        raw = mapping(output.get("usage"))
        counts = usage(
            raw.get("input_tokens"),
            raw.get("output_tokens"),
            raw.get("total_tokens"),
            cached_input_tokens=raw.get("input_tokens_cache_read"),
            cache_write_tokens=raw.get("input_tokens_cache_write"),
            reasoning_tokens=raw.get("reasoning_tokens"),
        )
        name = output.get("model") or event.get("model") or model
        error = event.get("error")
        created = self.b.model_call(
            where=where,
            model=name if isinstance(name, str) else None,
            usage=counts,
            finish_reason=choice.get("stop_reason")
            if isinstance(choice.get("stop_reason"), str)
            else None,
            error_message=str(error) if error is not None else None,
            wall_time=_time(event.get("timestamp")),
        )
        return str(created["event_id"])

    def assistant(self, where: str, item: Mapping[str, Any]) -> None:
        queue = self.models.get(_signature(item, self.attachments))
        positions = [where]
        event: Mapping[str, Any] = {}
        if queue:
            at, event = queue.pop(0)
            positions.append(at)
        model_id = self.model_call(positions, event, item.get("model"))
        text, reasoning = _text(item.get("content"))
        for index, thought in enumerate(reasoning):
            self.b.reasoning(thought, where=f"{where}.content[{index}]", parent_id=model_id)
        if text:
            self.b.message("agent", text, where=f"{where}.content", parent_id=model_id)
        calls = items(item.get("tool_calls"))
        group = self.b.group() if len(calls) > 1 else None
        for index, call in enumerate(calls):
            self.call(f"{where}.tool_calls[{index}]", call, group, model_id)

    def call(self, where: str, call: Any, group: str | None, parent: str | None) -> None:
        call = mapping(call)
        name = call.get("function")
        if not isinstance(name, str) or not name:
            self.b.error(where, "a tool call without a function name", call)
            return
        call_id = str(call["id"]) if call.get("id") is not None else None
        arguments = call.get("arguments", MISSING)
        if call.get("parse_error"):
            self.b.error(where, f"arguments are not valid JSON: {call['parse_error']}", call)
            arguments = MISSING
        positions = [where]
        tool = self.tools.pop(call_id, None) if call_id is not None else None
        if tool is not None:
            positions.append(tool[0])
        event = self.b.call(
            name,
            arguments,
            where=positions,
            call_id=call_id,
            group=group,
            parent_id=parent,
            wall_time=_time(mapping(tool[1] if tool else None).get("timestamp")),
        )
        if call_id is not None:
            self.calls[call_id] = event

    def tool_result(self, where: str, item: Mapping[str, Any]) -> None:
        error = mapping(item.get("error"))
        call_id = item.get("tool_call_id")
        name = item.get("function")
        message = error.get("message") if error else None
        self.b.result(
            None if error else json_or_text(_text(item.get("content"))[0]),
            where=where,
            call_id=str(call_id) if call_id is not None else None,
            name=name if isinstance(name, str) else None,
            is_error=bool(error),
            error_message=str(message) if error else None,
            error_type=str(error["type"]) if error.get("type") is not None else None,
        )

    def leftovers(self) -> None:
        """Tool and model events that no message records."""
        tools, self.tools = self.tools, {}
        for call_id, (at, event) in tools.items():
            self.call(at, {**event, "id": call_id}, None, None)
            self.tool_result(at, {"tool_call_id": call_id, **event, "content": event.get("result")})
        rest = sorted((at, event) for queue in self.models.values() for at, event in queue)
        for at, event in rest:
            self.model_call([at], event, event.get("model"))


def _time(value: Any) -> float | None:
    try:
        return seconds(value)
    except ValueError:
        return None


def _run_usage(sample: Mapping[str, Any]) -> dict[str, Any] | None:
    models = mapping(sample.get("model_usage"))
    total: dict[str, int] = {}
    for counts in models.values():
        for key in ("input_tokens", "output_tokens", "total_tokens"):
            value = mapping(counts).get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                total[key] = total.get(key, 0) + value
    found = usage(**total)
    return {**found, "reported_by": REPORTED_BY} if found else None


def sample_record(
    sample: Any,
    *,
    where: str = "$",
    header: Mapping[str, Any] | None = None,
    source: str | None = None,
) -> TrialRecord:
    """The record of one sample (``header``: the log's ``eval`` and ``status``).

    Raises:
        RecordError: ``sample`` is not an object.
    """
    if not isinstance(sample, Mapping):
        raise RecordError([Problem(where, "an Inspect sample must be an object", source)])
    header = header or {}
    evaluation = mapping(header.get("eval"))
    reader = _Reader(sample, where, source)
    for index, message in enumerate(items(sample.get("messages"))):
        reader.message(f"{where}.messages[{index}]", message)
    reader.leftovers()
    metadata: dict[str, Any] = {}
    for key, name in (("task", "task"), ("model", "model"), ("run_id", "run_id")):
        if evaluation.get(key) is not None:
            metadata[name] = evaluation[key]
    for key, name in (
        ("id", "sample_id"),
        ("epoch", "epoch"),
        ("scores", "scores"),
        ("limit", "limit"),
    ):
        if sample.get(key) is not None:
            metadata[name] = sample[key]
    error = sample.get("error")
    errors = []
    if error is not None:
        message = mapping(error).get("message", error)
        errors.append({"message": str(message), "position": f"{where}.error"})
    status = None if errors or sample.get("limit") is None else "incomplete"
    return reader.b.build(usage=_run_usage(sample), errors=errors, metadata=metadata, status=status)


def to_records(data: Any, *, source: str | None = None, **options: Any) -> Iterator[TrialRecord]:
    """One record per sample of a ``.json`` eval log (a log without samples holds none).

    Raises:
        RecordError: ``data`` is not an Inspect eval log.
    """
    if not _is_log(data):
        keys = sorted(data)[:8] if isinstance(data, Mapping) else type(data).__name__
        message = f"expected an Inspect eval log with 'version', 'eval' and 'samples' (got {keys})"
        raise RecordError([Problem("$", message, source)])
    samples = data.get("samples")
    for index, sample in enumerate(samples if isinstance(samples, list) else []):
        yield sample_record(sample, where=f"$.samples[{index}]", header=data, source=source)


def read_records(
    path: str | os.PathLike[str], *, source: str | None = None, **options: Any
) -> Iterator[TrialRecord]:
    """The records of an eval log file: a ``.eval`` zip archive (``header.json`` and
    ``samples/*.json``) or a ``.json`` log.

    Raises:
        RecordError: The file is neither, or a member is not JSON.
    """
    name = source or os.fspath(path)
    raw = read_raw(path)
    if not zipfile.is_zipfile(io.BytesIO(raw)):
        yield from to_records(parse_json(decode_text(raw, name), name), source=name)
        return
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile as exc:
        raise RecordError([Problem("", f"not a readable .eval archive: {exc}", name)]) from None
    with archive:
        members = archive.namelist()
        header = _member(archive, "header.json", name) if "header.json" in members else {}
        if not isinstance(header, Mapping):
            raise RecordError([Problem("header.json", "the eval header must be an object", name)])
        for member in sorted(
            m for m in members if m.startswith("samples/") and m.endswith(".json")
        ):
            sample = _member(archive, member, name)
            yield sample_record(sample, where=member, header=header, source=name)


def _member(archive: zipfile.ZipFile, member: str, source: str) -> Any:
    """A member's JSON data, within the size limit of record files."""
    where = f"{source}: {member}"
    limit = max_file_bytes()
    if limit and archive.getinfo(member).file_size > limit:
        message = f"over the size limit of {limit} bytes"
        raise RecordError([Problem("", message, where)])
    try:
        raw = archive.read(member)
    except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError) as exc:
        raise RecordError([Problem("", f"unreadable archive member: {exc}", where)]) from None
    return parse_json(decode_text(raw, where), where)


def to_record(data: Any, *, source: str | None = None) -> TrialRecord:
    """The record of a log holding one sample.

    Raises:
        RecordError: Not an eval log, or several samples (use :func:`to_records`).
    """
    return only_record(to_records(data, source=source), "samples", source)


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """The record of an eval log file (``.eval`` or ``.json``) holding one sample."""
    return only_record(read_records(path, **options), "samples", options.get("source"))


__all__ = [
    "REPORTED_BY",
    "detect",
    "read",
    "read_records",
    "sample_record",
    "to_record",
    "to_records",
]
