"""Reading a trace file: one JSON document, or JSON Lines (one document per line).

>>> import pathlib, tempfile
>>> tmp = tempfile.TemporaryDirectory(); path = pathlib.Path(tmp.name, "t.jsonl")
>>> _ = path.write_text('{"a": 1}\\n\\n{"a": 2}\\n')
>>> read_documents(path, "otel"); tmp.cleanup()
[{'a': 1}, {'a': 2}]
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.parsing import parse_json, read_text, strict_loads
from agent_asserts.record.trial import TrialRecord


def read_documents(path: str | os.PathLike[str], format_name: str) -> Any:
    """The file's JSON document, or the list of its JSON Lines documents.

    Raises:
        RecordError: The file is not UTF-8, or is neither JSON nor JSON Lines (naming the
            line and the format being read).
    """
    name, text = read_text(path)
    try:
        return strict_loads(text, name)
    except json.JSONDecodeError:
        pass
    documents = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            documents.append(parse_json(line))
        except RecordError as exc:
            reason = "; ".join(problem.message for problem in exc.problems)
            message = f"not a {format_name} JSON document or JSON Lines file: {reason}"
            raise RecordError([Problem(f"line {number}", message, name)]) from None
    return documents


def only_record(records: Iterable[TrialRecord], what: str, source: str | None) -> TrialRecord:
    """The one record of a document that holds one run (an empty one is an empty record).

    Raises:
        RecordError: The document holds several runs (``what``: ``traces``, ``histories``),
            naming their number and :func:`to_records`.

    >>> only_record([], "traces", None).events
    ()
    >>> only_record([TrialRecord(), TrialRecord()], "traces", "t.json")
    Traceback (most recent call last):
    ...
    agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
      t.json: $: the data holds 2 traces; read them with to_records() or iter_records()
    """
    found = list(records)
    if len(found) == 1:
        return found[0]
    if not found:
        return TrialRecord()
    message = f"the data holds {len(found)} {what}; read them with to_records() or iter_records()"
    raise RecordError([Problem("$", message, source)])


__all__ = ["only_record", "read_documents"]
