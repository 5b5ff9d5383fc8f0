"""Batches: ``evaluate_many`` over any number of records, and the ``BatchResult`` it returns.

>>> from agent_asserts.batch import evaluate_many
>>> from agent_asserts.testing import demo_record
>>> evaluate_many([demo_record()], lambda ctx: ctx.max_steps(10)).pass_rate
1.0
"""

from __future__ import annotations

from agent_asserts.batch.evaluate import (
    SourcedRecord,
    case_names,
    evaluate_many,
    evaluate_one,
    iter_jsonl,
    load_error_text,
    load_record,
    source_of,
    unloadable_cases,
)
from agent_asserts.batch.result import BatchResult, BatchSummary

__all__ = [
    "BatchResult",
    "BatchSummary",
    "SourcedRecord",
    "case_names",
    "evaluate_many",
    "evaluate_one",
    "iter_jsonl",
    "load_error_text",
    "load_record",
    "source_of",
    "unloadable_cases",
]
