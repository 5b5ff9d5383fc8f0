"""The canonical record JSON (``TrialRecord.to_dict``) as a registered trace format.

A document is native when it is an object whose keys are all record keys and whose
``events`` (if any) are objects with a ``kind``; a list of such objects holds one run per item.

>>> detect({"status": "completed", "events": [{"kind": "message", "payload": {"text": "hi"}}]})
True
>>> detect({"events": [{"event": "bot", "text": "hi"}]})  # Mantle tracker events
False
>>> [rec.status for rec in to_records([{"status": "completed"}, {"status": "failed"}])]
['completed', 'failed']
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts.record.decoding import TOP_LEVEL_KEYS
from agent_asserts.record.parsing import load_json
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "native"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 10
"""Its place among the built-in formats (their listing and error-message order)."""

RUNS: Final = ("",)
"""A top-level array of canonical records holds one run per item."""

_KEYS: Final = frozenset(TOP_LEVEL_KEYS) | {"tools"}
_SAMPLE: Final = 3


def _is_record(data: Any) -> bool:
    if not (type(data) is dict or isinstance(data, Mapping)) or not data.keys() <= _KEYS:
        return False
    events = data.get("events")
    if events is None:
        return True
    if not isinstance(events, list):
        return False
    return all(isinstance(e, Mapping) and "kind" in e for e in events[:_SAMPLE])


def detect(data: Any) -> bool:
    """Whether ``data`` is a canonical record, or a non-empty list of them.

    >>> detect({}), detect([{}]), detect([]), detect({"messages": []})
    (True, True, False, False)
    """
    if isinstance(data, list):
        return bool(data) and all(_is_record(item) for item in data[:_SAMPLE])
    return _is_record(data)


def to_records(data: Any, *, source: str | None = None, **options: Any) -> Iterator[TrialRecord]:
    """One record per canonical record object (``data`` is one object or a list of them).

    Raises:
        RecordError: An invalid record (every problem with its JSON path).

    >>> next(to_records({"reply": "ok"})).reply
    'ok'
    """
    if isinstance(data, list):
        for item in data:
            yield TrialRecord.from_dict(item, source=source)
    else:
        yield TrialRecord.from_dict(data, source=source)


parsed_records = to_records
"""The same as :func:`to_records` (its alias): data the caller parsed goes through the one
decoder like any other."""


def to_record(data: Any, *, source: str | None = None, **options: Any) -> TrialRecord:
    """The record of one canonical record object (``TrialRecord.from_dict``).

    >>> to_record({"steps": 2}).steps
    2
    """
    return TrialRecord.from_dict(data, source=source)


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """Read one canonical record file (``TrialRecord.from_dict`` of its JSON).

    >>> import json, pathlib, tempfile
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "run.json"
    >>> _ = file.write_text(json.dumps({"status": "completed"}))
    >>> read(file).status
    'completed'
    """
    name, data = load_json(path)
    return TrialRecord.from_dict(data, source=name)


__all__ = ["RUNS", "detect", "parsed_records", "read", "to_record", "to_records"]
