"""Damaged span-format input never crashes an adapter: every damaged item is a parse error
naming where it was, or (when the document itself has the wrong shape) one ``RecordError``."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from span_fixtures import load, span_cases

from agent_asserts import RecordError
from agent_asserts.record.adapters import get_format

JUNK: list[Any] = [None, 5, -1, 1.5, True, "x", "{bad", [], [1], {}, {"a": 1}]


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*path, index))
    return found


def _damage(data: Any, rng: random.Random, paths: list[tuple[Any, ...]]) -> Any:
    damaged = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths)
        target = damaged
        try:
            for key in path[:-1]:
                target = target[key]
            if isinstance(target, dict) == isinstance(path[-1], str):
                target[path[-1]] = copy.deepcopy(rng.choice(JUNK))
        except (KeyError, IndexError, TypeError):
            continue
    return damaged


@pytest.mark.parametrize(("fmt", "name"), span_cases())
def test_damaged_documents_give_parse_errors_or_one_record_error(fmt: str, name: str) -> None:
    data = load(fmt, name)
    paths = [path for path in _paths(data) if path]
    rng = random.Random(f"{fmt}/{name}")
    read = get_format(fmt).to_records
    for _ in range(60):
        damaged = _damage(data, rng, paths)
        try:
            records = list(read(damaged, source="damaged.json"))
        except RecordError as exc:
            problems = exc.problems
            records = []
        else:
            problems = []
        assert all(p.message for p in problems)
        for record in records:
            json.dumps(record.to_dict())  # a record always serialises
            assert all(p.position and p.reason for p in record.parse_errors)
