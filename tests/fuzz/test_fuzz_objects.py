"""The objects the SDKs hand users (``agent_asserts/record/adapters/objects.py``): random
Python values mixing JSON data with dataclasses, pydantic models, dates, UUIDs, enums, bytes,
objects of unknown kinds, tuples, read-only mappings and spans as ``span.to_json()`` writes them
(with odd values) — ``plain_data`` and ``TrialRecord.from_trace`` raise only ``RecordError``."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import enum
import uuid
from types import MappingProxyType
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_inputs import json_data

from agent_asserts.record import RecordError, TrialRecord
from agent_asserts.record.adapters.objects import plain_data

EXAMPLES = settings(max_examples=120, suppress_health_check=list(HealthCheck), deadline=None)


class Color(enum.Enum):
    RED = "red"
    ODD = (1, object())


@dataclasses.dataclass
class Turn:
    role: Any
    content: Any


class Opaque:
    """An object of no known kind."""


class Hostile:
    """An object whose attributes raise."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(name)


def _model(role: Any, content: Any) -> Any:
    pydantic = __import__("pydantic")

    class Message(pydantic.BaseModel):  # type: ignore[misc]
        model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)
        role: Any
        content: Any

    return Message(role=role, content=content)


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
    st.binary(max_size=10), st.datetimes(), st.dates(), st.uuids(),
    st.sampled_from(list(Color)), st.builds(Opaque), st.builds(Hostile),
    st.sampled_from(["2026-05-01T10:00:00Z", "0x0a", "SpanKind.CLIENT", "ERROR"]),
)  # fmt: skip


def _span_json(children: Any) -> Any:
    """A span as ``span.to_json()`` writes it, parsed, its values drawn from ``children``."""
    return st.fixed_dictionaries(
        {"name": children, "context": st.fixed_dictionaries({"span_id": st.text(max_size=4),
         "trace_id": children}), "start_time": children},
        optional={"end_time": children, "kind": children, "parent_id": children,
                  "attributes": children, "events": children, "status": children},
    )  # fmt: skip


values = st.recursive(
    scalars | json_data,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=8), children, max_size=4),
        st.dictionaries(st.integers(), children, max_size=2),
        st.dictionaries(st.text(max_size=8), children, max_size=3).map(MappingProxyType),
        st.builds(Turn, children, children),
        st.builds(_model, children, children),
        _span_json(children),
        st.lists(_span_json(children), min_size=1, max_size=3),
    ),
    max_leaves=12,
)


def reads_objects_with_only_record_errors(value: Any) -> None:
    for read in (plain_data, TrialRecord.from_trace):
        with contextlib.suppress(RecordError):  # only the library's documented error
            read(value)


@EXAMPLES
@given(values)
def test_sdk_objects_are_read_with_only_record_errors(value: Any) -> None:
    reads_objects_with_only_record_errors(value)


def test_the_strategy_reaches_the_kinds_the_module_reads() -> None:
    # each kind plain_data converts is drawn: dates, UUIDs, enums, dataclasses, models, spans
    assert isinstance(plain_data([datetime.date(2026, 1, 1), uuid.UUID(int=1)])[1], str)
    assert plain_data(Turn("user", "hi")) == {"role": "user", "content": "hi"}
    assert plain_data(_model("user", "hi")) == {"role": "user", "content": "hi"}
    assert plain_data(Color.RED) == "red"


PROPERTIES = [("objects: plain_data, from_trace", st.tuples(values),
               reads_objects_with_only_record_errors)]  # fmt: skip
