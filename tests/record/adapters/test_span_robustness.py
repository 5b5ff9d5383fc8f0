"""Damaged span-format input never crashes an adapter: every damaged item is a parse error
naming where it was, or (when the document itself has the wrong shape) one ``RecordError``."""

from __future__ import annotations

import copy
import json
import random
import time
from typing import Any

import pytest
from span_fixtures import load, span_cases

from agent_asserts import RecordError
from agent_asserts.record.adapters import get_format, langfuse, openai_agents, otel

JUNK: list[Any] = [None, 5, -1, 1.5, True, "x", "{bad", [], [1], {}, {"a": 1}]


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*path, index))
    return found


def _damage(data: Any, rng: random.Random, paths: list[tuple[Any, ...]]) -> Any:
    damaged = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths)
        target = damaged
        try:
            for key in path[:-1]:
                target = target[key]
            if isinstance(target, dict) == isinstance(path[-1], str):
                target[path[-1]] = copy.deepcopy(rng.choice(JUNK))
        except (KeyError, IndexError, TypeError):
            continue
    return damaged


@pytest.mark.parametrize(("fmt", "name"), span_cases())
def test_damaged_documents_give_parse_errors_or_one_record_error(fmt: str, name: str) -> None:
    data = load(fmt, name)
    paths = [path for path in _paths(data) if path]
    rng = random.Random(f"{fmt}/{name}")
    read = get_format(fmt).to_records
    for _ in range(60):
        damaged = _damage(data, rng, paths)
        try:
            records = list(read(damaged, source="damaged.json"))
        except RecordError as exc:
            problems = exc.problems
            records = []
        else:
            problems = []
        assert all(p.message for p in problems)
        for record in records:
            json.dumps(record.to_dict())  # a record always serialises
            assert all(p.position and p.reason for p in record.parse_errors)


# -- the shape of the tree: a chain of spans reads as fast as a flat tree ----------------------

SPANS = 20_000


def _iso(index: int) -> str:
    return f"2026-08-01T12:{index // 60_000:02d}:{index // 1000 % 60:02d}.{index % 1000:03d}Z"


def _otel(chain: bool) -> Any:
    spans = []
    for index in range(SPANS):
        span = {
            "traceId": "0af7651916cd43dd8448eb211c80319c",
            "spanId": f"{index + 1:016x}",
            "name": "execute_tool lookup" if index % 2 else "step",
            "startTimeUnixNano": str(1_785_585_600_000_000_000 + index * 1000),
        }
        if index:
            span["parentSpanId"] = f"{(index if chain else 1):016x}"
        spans.append(span)
    return {"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}


def _langfuse(chain: bool) -> Any:
    observations = []
    for index in range(SPANS):
        observation = {
            "id": f"o{index}",
            "traceId": "t1",
            "type": "AGENT" if index % 3 == 0 else "TOOL",
            "name": f"step {index}",
            "startTime": _iso(index),
        }
        if index:
            observation["parentObservationId"] = f"o{index - 1 if chain else 0}"
        observations.append(observation)
    return {"id": "t1", "observations": observations}


def _agents(chain: bool) -> Any:
    items: list[Any] = [{"object": "trace", "id": "trace_1", "workflow_name": "deep"}]
    for index in range(SPANS):
        kind = "agent" if index % 3 == 0 else "function"
        items.append(
            {
                "object": "trace.span",
                "id": f"span_{index}",
                "trace_id": "trace_1",
                "parent_id": f"span_{index - 1 if chain else 0}" if index else None,
                "started_at": _iso(index),
                "span_data": {"type": kind, "name": f"step {index}"},
            }
        )
    return {"data": items}


@pytest.mark.parametrize(
    ("adapter", "make"),
    [(otel, _otel), (langfuse, _langfuse), (openai_agents, _agents)],
    ids=["otel", "langfuse", "openai-agents"],
)
def test_a_single_chain_of_spans_loads_about_as_fast_as_a_flat_tree(
    adapter: Any, make: Any
) -> None:
    # Issue 25: 20,000 spans in one parent chain took 521 s (the time grew with the square of
    # the depth). The walk is linear now: the chain may not take more than 5x the flat tree.
    read = adapter.to_record
    timings = {}
    records = {}
    for chain in (False, True):
        data = make(chain)
        started = time.perf_counter()
        records[chain] = read(data)
        timings[chain] = time.perf_counter() - started
    assert timings[True] <= 5 * timings[False] + 0.05, timings
    deep, flat = records[True], records[False]
    assert len(deep.events) == len(flat.events) and not deep.parse_errors
    parents = {event.event_id: event.parent_id for event in deep.events}
    nested = [event for event in deep.events if event.parent_id is not None]
    assert len(nested) >= len(deep.events) - 2  # every span under the one before it
    assert all(parents.get(event.parent_id, "") != event.event_id for event in nested)


def test_a_cycle_of_parent_links_is_cut_and_reported_where_it_closes() -> None:
    spans = [
        {"spanId": f"{n:016x}", "parentSpanId": f"{parent:016x}", "name": f"s{n}"}
        for n, parent in ((1, 2), (2, 3), (3, 1), (4, 4))
    ]
    for span in spans:
        span["traceId"] = "0af7651916cd43dd8448eb211c80319c"
    record = otel.to_record({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]})
    # no start times: the tie goes to the parent
    assert [e.payload["name"] for e in record.events] == ["s3", "s4", "s2", "s1"]
    assert sorted((p.position, p.reason) for p in record.parse_errors) == [
        (
            "resourceSpans[0].scopeSpans[0].spans[2]",
            "its parent '0000000000000001' closes a cycle of parent links: "
            "read as a top-level span",
        ),
        (
            "resourceSpans[0].scopeSpans[0].spans[3]",
            "its parent '0000000000000004' closes a cycle of parent links: "
            "read as a top-level span",
        ),
    ]
    parents = {e.payload["name"]: e.parent_id for e in record.events}
    assert parents == {
        "s1": "0000000000000002",
        "s2": "0000000000000003",
        "s3": None,
        "s4": None,
    }


@pytest.mark.parametrize(
    "value",
    [float("inf"), float("-inf"), float("nan"), 10**400, True],
    ids=["inf", "-inf", "nan", "10**400", "true"],
)
@pytest.mark.parametrize("field", ["startTimeUnixNano", "endTimeUnixNano"])
def test_a_time_that_is_no_number_of_nanoseconds_is_a_parse_error_at_its_span(
    value: Any, field: str
) -> None:
    # Issue 25 item 12: ±inf raised OverflowError out of the otel adapter.
    good = {"traceId": "0af7651916cd43dd8448eb211c80319c", "name": "good", "spanId": "1" * 16}
    bad = {**good, "name": "bad", "spanId": "2" * 16, field: value}
    export = {"resourceSpans": [{"scopeSpans": [{"spans": [good, bad]}]}]}
    record = otel.to_record(export)
    assert [e.payload["name"] for e in record.events] == ["good"]
    (error,) = record.parse_errors
    assert error.position == "resourceSpans[0].scopeSpans[0].spans[1]"
    assert error.reason.startswith("the time ") and "is not a number of nanoseconds" in error.reason


def test_an_attribute_key_nested_thousands_of_levels_deep_is_read_without_recursion() -> None:
    # OpenInference's flattened message lists are rebuilt NESTING levels deep at most; deeper
    # keys stay plain keys, so no key reaches the recursion limit.
    key = "llm.input_messages.0." + "x.0." * 5000 + "y"
    span = {
        "traceId": "0af7651916cd43dd8448eb211c80319c",
        "spanId": "b7ad6b7169203331",
        "name": "llm",
        "attributes": {"openinference.span.kind": "LLM", key: "v"},
    }
    record = otel.to_record({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]})
    assert [e.kind for e in record.events] == ["model_call"]


def test_a_rejected_span_keeps_its_descendants_and_costs_no_round_per_level() -> None:
    # A tool span without a name is rejected by the record model; its children named it as
    # their parent, and each level used to be dropped in a decoding round of its own
    # ("no event has id …"): 3,000 spans took 272 s and every descendant was lost.
    def export(bad: bool) -> Any:
        data = _otel(chain=True)
        first = data["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
        if bad:
            first["name"] = ""
            first["attributes"] = {"gen_ai.operation.name": "execute_tool"}
        return data

    timings = {}
    records = {}
    for bad in (False, True):
        data = export(bad)
        started = time.perf_counter()
        records[bad] = otel.to_record(data)
        timings[bad] = time.perf_counter() - started
    assert timings[True] <= 5 * timings[False] + 0.05, timings
    record = records[True]
    assert [p.reason for p in record.parse_errors] == ["must be a non-empty string (got '')"]
    assert len(record.events) == SPANS - 1
    assert record.events[0].parent_id is None  # the rejected span's child is a top-level event
    assert record.events[1].parent_id == record.events[0].event_id


def test_exports_nested_in_lists_are_a_parse_error_not_a_recursion() -> None:
    export = _otel(chain=False)
    export["resourceSpans"][0]["scopeSpans"][0]["spans"] = [
        {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "1" * 16, "name": "x"}
    ]
    nested: Any = export
    for _ in range(5000):
        nested = [nested]
    first, second = otel.to_records([export, nested])
    assert [e.payload["name"] for e in first.events] == ["x"]
    assert [(p.position, p.reason) for p in second.parse_errors] == [
        ("[1]", "an export must be an object")
    ]
