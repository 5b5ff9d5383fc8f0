"""Every record adapter (``agent_asserts.record.adapters.formats()``) on random documents and on
documents mutated from the formats' fixtures: ``detect`` answers yes or no, and reading —
through the format, through detection, and from a file (``iter_records``,
``TrialRecord.load``) — raises only ``RecordError``."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from typing import Any

from fuzz_seeds import mutated, mutated_text, trace_seeds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_inputs import json_data

from agent_asserts.record import RecordError, TrialRecord
from agent_asserts.record.adapters import formats, get_format, records_from_data
from agent_asserts.record.reading import iter_records

EXAMPLES = settings(max_examples=120, suppress_health_check=list(HealthCheck), deadline=None)
FORMATS = formats()
documents = st.one_of(mutated(trace_seeds()), mutated(trace_seeds()), json_data)
texts = st.one_of(mutated_text(trace_seeds()), st.text(max_size=30))


def _only_records(read: Any, fmt: str) -> None:
    """``read(fmt)`` gives records or raises ``RecordError``."""
    with contextlib.suppress(RecordError):
        assert all(isinstance(record, TrialRecord) for record in read(fmt))


def reads_only_with_record_errors(name: str, doc: Any) -> None:
    assert get_format(name).detect(doc) in (True, False)
    for fmt in (name, "auto"):
        _only_records(lambda f: list(records_from_data(doc, f)), fmt)


def reads_files_only_with_record_errors(name: str, text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "run.json")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as file:
            file.write(text)
        for fmt in (name, "auto"):
            _only_records(lambda f: list(iter_records(path, f)), fmt)
        _only_records(lambda f: [TrialRecord.load(path, f)], name)


@EXAMPLES
@given(st.sampled_from(FORMATS), documents)
def test_adapters_read_any_document_with_only_record_errors(name: str, doc: Any) -> None:
    reads_only_with_record_errors(name, doc)


@EXAMPLES
@given(st.sampled_from(FORMATS), texts)
def test_adapters_read_any_file_with_only_record_errors(name: str, text: str) -> None:
    reads_files_only_with_record_errors(name, text)


def test_every_format_has_a_fixture_to_mutate() -> None:
    seen = {name for doc in trace_seeds() for name in FORMATS if get_format(name).detect(doc)}
    assert seen == set(FORMATS), set(FORMATS) - seen
    assert json.dumps  # the seeds are JSON documents


PROPERTIES = [
    ("adapters: data", st.tuples(st.sampled_from(FORMATS), documents),
     reads_only_with_record_errors),
    ("adapters: files", st.tuples(st.sampled_from(FORMATS), texts),
     reads_files_only_with_record_errors),
]  # fmt: skip


NEW_FORMATS = [
    name
    for name in (
        "langsmith",
        "inspect-ai",
        "claude-code",
        "openai-agents-run",
        "mlflow",
        "openinference",
    )
    if name in FORMATS
]
"""The formats of issue 23 item 7, each fuzzed on mutations of its own fixtures."""


def _own_seeds(name: str) -> tuple[Any, ...]:
    return tuple(doc for doc in trace_seeds() if get_format(name).detect(doc))


@EXAMPLES
@given(st.data())
def test_new_formats_read_their_mutated_fixtures_with_only_record_errors(data: Any) -> None:
    name = data.draw(st.sampled_from(NEW_FORMATS))
    reads_only_with_record_errors(name, data.draw(mutated(_own_seeds(name))))
