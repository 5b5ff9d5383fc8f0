"""The ``otel`` adapter on large traces: cost per span, and that it grows linearly.

Builds OTLP/JSON traces of an agent span with N model calls (``chat``, with the tool call it
asks for in ``gen_ai.output.messages``) and N ``execute_tool`` spans, listed in end order as
exports write them, and times ``otel.to_record`` (median of 5 rounds, CPU time).

Targets: at 8,001 spans, under 1 ms per span; the per-span cost at 8,001 spans under 2x the
cost at 1,001 spans (no quadratic pairing, tree walking or ordering).

    python benchmarks/span_adapters.py
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from _harness import Targets

from agent_asserts.record.adapters import otel

T0 = 1_796_000_000_000_000_000


def _span(span_id: str, parent: str | None, name: str, start: int, end: int, **attrs: Any) -> Any:
    values = []
    for key, value in attrs.items():
        typed = {"intValue": str(value)} if isinstance(value, int) else {"stringValue": value}
        values.append({"key": key.replace("__", "."), "value": typed})
    span = {
        "traceId": "5b8efff798038103d269b633813fc60c",
        "spanId": span_id,
        "name": name,
        "kind": 1,
        "startTimeUnixNano": str(T0 + start * 1000),
        "endTimeUnixNano": str(T0 + end * 1000),
        "attributes": values,
    }
    if parent:
        span["parentSpanId"] = parent
    return span


def trace(n: int) -> dict[str, Any]:
    """An OTLP/JSON export of one agent span, ``n`` model calls and ``n`` tool calls."""
    root = "a000000000000001"
    spans = [
        _span(
            root,
            None,
            "invoke_agent big",
            0,
            10 * n + 10,
            gen_ai__operation__name="invoke_agent",
            gen_ai__agent__name="big",
        )
    ]
    for i in range(n):
        ask = [{"type": "tool_call", "id": f"call_{i}", "name": "lookup", "arguments": {"i": i}}]
        output = json.dumps([{"role": "assistant", "parts": ask}])
        spans.append(
            _span(
                f"c{i:015x}",
                root,
                "chat m",
                10 * i + 1,
                10 * i + 4,
                gen_ai__operation__name="chat",
                gen_ai__usage__input_tokens=10,
                gen_ai__usage__output_tokens=2,
                gen_ai__output__messages=output,
            )
        )
        spans.append(
            _span(
                f"e{i:015x}",
                root,
                "execute_tool lookup",
                10 * i + 5,
                10 * i + 8,
                gen_ai__operation__name="execute_tool",
                gen_ai__tool__name="lookup",
                gen_ai__tool__call__id=f"call_{i}",
                gen_ai__tool__call__result="ok",
            )
        )
    spans.sort(key=lambda span: int(span["endTimeUnixNano"]))
    return {"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}


def per_span(n: int, rounds: int = 5) -> float:
    data = trace(n)
    times = []
    for _ in range(rounds):
        start = time.process_time()
        record = otel.to_record(data)
        times.append(time.process_time() - start)
    assert len(record.tool_calls) == n
    return statistics.median(times) / (2 * n + 1)


def main() -> int:
    targets = Targets()
    small, large = per_span(500), per_span(4000)
    print(
        f"otel.to_record: {small * 1e6:.0f} us/span at 1,001 spans, "
        f"{large * 1e6:.0f} us/span at 8,001 spans"
    )
    targets.check("under 1 ms per span at 8,001 spans", large < 1e-3, f"{large * 1e6:.0f} us")
    ratio = large / small
    targets.check("linear: per-span cost at 8,001 / at 1,001 < 2", ratio < 2, f"{ratio:.2f}")
    return targets.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
