"""The ``agent_eval`` fixture: a factory of evaluation contexts tied to the running test.

>>> from agent_asserts.testing import DEMO_RECORD
>>> coerce_record(DEMO_RECORD).reply
'Refund issued for order A1049'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from agent_asserts._values import MISSING
from agent_asserts.batch import load_record
from agent_asserts.context import EvalContext
from agent_asserts.pytest_plugin import CONTEXTS
from agent_asserts.record import TrialRecord


def coerce_record(
    record: TrialRecord | Mapping[str, Any] | str | os.PathLike[str],
    format: str = "auto",
    *,
    initial_state: Any = None,
    final_state: Any = None,
) -> TrialRecord:
    """A record from a record, trace data (a canonical dict or any registered format) or a
    path to a file holding one run, read in ``format`` (``"auto"``: detected); the states,
    when given (data or a JSON file path), replace the record's."""
    trial = load_record(record, format)
    if initial_state is None and final_state is None:
        return trial
    return trial.with_state(
        initial_state=MISSING if initial_state is None else initial_state,
        final_state=MISSING if final_state is None else final_state,
    )


def resolve_relative(record: Any, test_dir: Path, cwd: Path | None = None) -> Any:
    """A relative record path resolved against the test file's folder, then the current
    folder; anything else as given.

    Raises:
        FileNotFoundError: a relative path found in neither folder (the message names both).

    >>> resolve_relative("nope.json", Path("/tests"), Path("/work"))
    Traceback (most recent call last):
    ...
    FileNotFoundError: agent_eval: no record file 'nope.json': looked for /tests/nope.json ...
    and /work/nope.json (the current folder)
    """
    if not isinstance(record, str | os.PathLike) or Path(record).is_absolute():
        return record
    here = Path.cwd() if cwd is None else cwd
    for base in (test_dir, here):
        candidate = base / record
        if candidate.exists():
            return candidate
    raise FileNotFoundError(
        f"agent_eval: no record file {os.fspath(record)!r}: looked for {test_dir / record} "
        f"(the test file's folder) and {here / record} (the current folder)"
    )


class EvalFactory:
    """``agent_eval(record, format="auto", *, judge=None, name=None, initial_state=None,
    final_state=None) -> EvalContext``; ``record`` is a record, trace data or a file path.

    Each call makes a new context (several per test are allowed); the first is named after
    the test, the next ones ``<test>#2``, ``<test>#3``… unless ``name`` is given. When the
    test body returns, every context's case decides the test outcome.
    """

    def __init__(self, node: pytest.Item) -> None:
        self._node = node

    def __call__(
        self,
        record: TrialRecord | Mapping[str, Any] | str | os.PathLike[str],
        format: str = "auto",
        *,
        judge: Any = None,
        name: str | None = None,
        initial_state: Any = None,
        final_state: Any = None,
    ) -> EvalContext:
        contexts = self._node.stash.setdefault(CONTEXTS, [])
        record = resolve_relative(record, Path(self._node.path).parent)
        trial = coerce_record(record, format, initial_state=initial_state, final_state=final_state)
        if name is None:
            name = self._node.name if not contexts else f"{self._node.name}#{len(contexts) + 1}"
        ctx = EvalContext(trial, judge=judge, name=name)
        contexts.append((ctx, trial))
        return ctx

    def __repr__(self) -> str:
        return f"<agent_eval for {self._node.nodeid}>"


__all__ = ["EvalFactory", "coerce_record"]
