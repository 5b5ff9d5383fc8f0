"""Both round trips on fuzzed data: a record's ``to_dict()`` is strict JSON and reads back to
the same ``to_dict()``; a suite that loads writes a ``to_dict()`` that loads back equal
(``UnserializableCheck`` — a check holding a callable — and the ``ValueError`` of a document
that would pass the limit of nesting are the documented refusals).
Each property lets out only what the library does not document."""

from __future__ import annotations

import json
from typing import Any

from fuzz_seeds import mutated, suite_seeds, trace_seeds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_inputs import json_data
from test_fuzz_loaders import DIALECTS

from agent_asserts import TrialRecord
from agent_asserts.loaders import LoadError, load
from agent_asserts.record import RecordError
from agent_asserts.record.adapters import records_from_data
from agent_asserts.serialization import UnserializableCheck

EXAMPLES = settings(max_examples=40, suppress_health_check=list(HealthCheck), deadline=None)
ODD = [float("nan"), float("inf"), -float("inf"), "\ud800", "\x00", {"$float": "NaN"},
       {"$float": {"$float": 1}}, 10**40, -0.0]  # fmt: skip
ODD_VALUES = st.sampled_from(ODD)
arguments = st.dictionaries(st.text(max_size=4), st.one_of(json_data, ODD_VALUES), max_size=4)


def _strict(data: Any) -> str:
    return json.dumps(data, allow_nan=False, sort_keys=True)


def record_reads_back(record: TrialRecord) -> None:
    """``to_dict()`` is strict JSON, and ``from_dict`` of it writes the same text again."""
    text = _strict(record.to_dict())
    again = TrialRecord.from_dict(json.loads(text))
    assert _strict(again.to_dict()) == text


def traces_read_back(doc: Any) -> None:
    try:
        records = list(records_from_data(doc, "auto"))
    except RecordError:
        return
    for record in records:
        record_reads_back(record)


def built_records_read_back(calls: list[tuple[str, dict[str, Any]]], reply: str) -> None:
    builder = TrialRecord.builder().user("hi")
    for name, args in calls:
        builder = builder.tool(name or "t", args, result=args)
    record_reads_back(builder.agent(reply).build())


def suite_reads_back(dialect: str | None, doc: Any) -> None:
    try:
        suite = load(doc, dialect=dialect)
    except LoadError:
        return
    try:
        data = suite.to_dict()
    except UnserializableCheck:
        return
    except ValueError as exc:  # documented: a written document past the limit of nesting
        if "would not load back" not in str(exc):
            raise
        return
    assert load(data) == suite, data


documents = st.one_of(mutated(suite_seeds()), json_data).map(
    lambda doc: doc if isinstance(doc, dict | list) else [doc]
)
traces = st.one_of(mutated(trace_seeds()), json_data)
calls = st.lists(st.tuples(st.text(max_size=5), arguments), max_size=3)


@EXAMPLES
@given(traces)
def test_every_record_read_from_a_trace_reads_back_from_its_to_dict(doc: Any) -> None:
    traces_read_back(doc)


@EXAMPLES
@given(calls, st.one_of(st.text(max_size=8), st.sampled_from(["\ud800", "\u202e"])))
def test_a_built_record_with_odd_values_reads_back_from_its_to_dict(
    tool_calls: list[tuple[str, dict[str, Any]]], reply: str
) -> None:
    built_records_read_back(tool_calls, reply)


@EXAMPLES
@given(st.sampled_from(DIALECTS), documents)
def test_every_suite_that_loads_loads_back_from_its_to_dict(dialect: str | None, doc: Any) -> None:
    suite_reads_back(dialect, doc)


PROPERTIES = [
    ("round trip: trace records", st.tuples(traces), traces_read_back),
    ("round trip: built records", st.tuples(calls, st.text(max_size=8)), built_records_read_back),
    ("round trip: suites", st.tuples(st.sampled_from(DIALECTS), documents), suite_reads_back),
]
