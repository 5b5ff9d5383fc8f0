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
from typing import Any

from agent_asserts.record._json import parse_json, read_text, strict_loads
from agent_asserts.record.errors import Problem, RecordError


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


__all__ = ["read_documents"]
