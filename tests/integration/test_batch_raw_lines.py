"""``iter_jsonl(path, parse=False)``: the lines are parsed where the records are evaluated,
with the same results and the same errors as lines parsed while reading."""

from __future__ import annotations

import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from agent_asserts import EvalContext, evaluate_many
from agent_asserts.batch import SourcedRecord, iter_jsonl, load_record, parse_line


def refund_case(ctx: EvalContext) -> None:
    ctx.called_tool("refund", arguments={"amount": 42})
    ctx.max_steps(3).soft()


def _runs(tmp_path: Path) -> Path:
    good = [
        {"steps": i % 5, "events": [{"kind": "tool_call", "payload": {
            "name": "refund", "arguments": {"amount": 42 if i % 3 else 40}}}]}
        for i in range(40)
    ]  # fmt: skip
    lines = [json.dumps(r).encode() for r in good]
    lines[5] = b'{"steps": [oops'  # invalid JSON
    lines[9] = b'{"steps": 1, "steps": 2}'  # duplicate key
    lines[13] = b'{"steps": "\xff"}'  # not UTF-8
    lines[17] = b"   "  # blank: skipped
    lines[21] = "\u00a0\u2028".encode()  # Unicode whitespace only: skipped, as before
    path = tmp_path / "runs.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"\n".join(lines) + b"\n")  # with a BOM
    return path


def test_unparsed_lines_give_the_parsed_results_and_errors_on_a_process_pool(
    tmp_path: Path,
) -> None:
    path = _runs(tmp_path)
    parsed = evaluate_many(iter_jsonl(path, sources=True), refund_case)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        raw = evaluate_many(iter_jsonl(path, parse=False), refund_case, executor=pool)
    assert raw.cases == parsed.cases
    assert raw.sources == parsed.sources
    assert len(raw.cases) == 38
    errors = [c.error.rpartition(": ")[0] for c in raw.cases if c.error]
    assert [e.rpartition("runs.jsonl:")[2] for e in errors] == [
        "6: invalid JSON: Expecting value",
        "10: $.steps",
        "14: not UTF-8: 'utf-8' codec can't decode byte 0xff in position 11",
    ]


def test_unparsed_lines_come_as_sourced_bytes(tmp_path: Path) -> None:
    rows = list(iter_jsonl(_runs(tmp_path), parse=False))
    assert all(isinstance(r, SourcedRecord) and isinstance(r.data, bytes) for r in rows)
    assert rows[0].data.startswith(b'{"steps": 0')  # the BOM is not part of the first line
    assert rows[0].source.endswith("runs.jsonl:1")


def test_a_bytes_input_is_a_json_text() -> None:
    assert load_record(b'{"steps": 2}').steps == 2
    with pytest.raises(ValueError, match=r"^\$\.steps: duplicate key$"):
        parse_line(b'{"steps": 1, "steps": 2}')
    with pytest.raises(TypeError, match="a JSON text as bytes"):
        load_record(3)  # type: ignore[arg-type]
