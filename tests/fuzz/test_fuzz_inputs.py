"""Fuzzing kept in the suite: any input gives a result or a documented error, never a crash.

Bounded example counts keep CI fast; ``tests/fuzz/run_long.py`` runs the same properties
longer and records its crash count.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from fuzz_seeds import json_like
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_asserts import TrialRecord
from agent_asserts.errors import AgentAssertsError
from agent_asserts.loaders import load, loads
from agent_asserts.record import RecordError

EXAMPLES = settings(max_examples=150, suppress_health_check=list(HealthCheck), deadline=None)
KEYS = ["events", "kind", "payload", "surfaces", "reply", "errors", "initial_state",
        "final_state", "name", "arguments", "result", "checks", "cases", "record", "tools",
        "usage", "steps", "status", "event_id", "text", "role", "value", "type",
        "toolSlug", "bind", "require", "scenario", "goals", "evals", "expect"]  # fmt: skip

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
    st.text(max_size=8), st.sampled_from(KEYS),
)  # fmt: skip
json_data: Any = json_like(
    scalars, st.one_of(st.sampled_from(KEYS), st.text(max_size=5)), size=4, leaves=25
)
records = st.dictionaries(st.sampled_from(KEYS), json_data, max_size=6)


@EXAMPLES
@given(records)
def test_from_dict_raises_only_record_errors(data: dict[str, Any]) -> None:
    with contextlib.suppress(RecordError):
        TrialRecord.from_dict(data)


documents = json_data.filter(lambda d: isinstance(d, dict | list))  # load() takes these


@EXAMPLES
@given(documents)
def test_load_of_any_data_raises_only_load_errors(data: Any) -> None:
    with contextlib.suppress(AgentAssertsError):
        load(data)


@EXAMPLES
@given(documents)
def test_loads_of_any_json_text_raises_only_load_errors(data: Any) -> None:
    with contextlib.suppress(AgentAssertsError):
        loads(json.dumps(data))


def _from_dict(data: dict[str, Any]) -> None:
    test_from_dict_raises_only_record_errors.hypothesis.inner_test(data)  # type: ignore[attr-defined]


def _load(data: Any) -> None:
    test_load_of_any_data_raises_only_load_errors.hypothesis.inner_test(data)  # type: ignore[attr-defined]


def _loads(data: Any) -> None:
    test_loads_of_any_json_text_raises_only_load_errors.hypothesis.inner_test(data)  # type: ignore[attr-defined]


PROPERTIES = [
    ("TrialRecord.from_dict", st.tuples(records), _from_dict),
    ("load(data)", st.tuples(documents), _load),
    ("loads(json)", st.tuples(documents), _loads),
]
