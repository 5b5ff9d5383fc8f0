"""Property test: the cattrs converter round-trips any valid record through JSON."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from record_strategies import record_dicts

from agent_asserts.record import Event, TrialRecord
from agent_asserts.serialization import converter


@settings(max_examples=100)
@given(record_dicts())
def test_converter_round_trips_records(data: dict[str, Any]) -> None:
    rec = TrialRecord.from_dict(data)
    text = json.dumps(converter.unstructure(rec))
    assert converter.structure(json.loads(text), TrialRecord) == rec
    for event in rec.events:
        assert converter.structure(converter.unstructure(event), Event) == event
