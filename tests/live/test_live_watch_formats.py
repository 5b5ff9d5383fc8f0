"""``agent-asserts watch --format otel`` on OTLP/JSON files written from real SDK spans."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from agent_asserts.cli import build_parser
from agent_asserts.cli.watch import run_watch
from agent_asserts.live.otlp import spans_to_otlp


def test_watch_reads_otlp_files_through_the_otel_format(pipeline: Any, tmp_path: Path) -> None:
    pipeline.run("lookup_order")
    (tmp_path / "runs").mkdir()
    trace_file = tmp_path / "runs" / "trace.json"
    trace_file.write_text(json.dumps(spans_to_otlp(pipeline.exporter.get_finished_spans())))
    (tmp_path / "suite.yaml").write_text(
        "cases: [{name: looked up, checks: [{called_tool: lookup_order}]},"
        " {name: no refund, checks: [{not_called_tool: issue_refund}]}]\n"
    )
    args = build_parser().parse_args(
        ["watch", str(tmp_path / "suite.yaml"), "--record-dir", str(tmp_path / "runs"),
         "--format", "otel", "--output", str(tmp_path / "out.jsonl"),
         "--interval", "0", "--max-polls", "2"]
    )  # fmt: skip
    assert run_watch(args, io.StringIO(), io.StringIO()) == 0
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [(r["name"], r["verdict"], r["metadata"]["source"]) for r in rows] == [
        ("looked up", "passed", str(trace_file)),
        ("no refund", "passed", str(trace_file)),
    ]
