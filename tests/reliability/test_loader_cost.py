"""Issue 25, item 14 (the loader's share): ~65 MB of memory per MB of suite file, and a 1.1M-item
flat YAML list that did not load in 40 s.

The first pass made the full reading cheaper (alias counting and alias tracking only when the
text writes an ``&``, one pattern per plain scalar, a depth check over containers only): the
list went from 16.9 to about 8.6 s of processor time. The second reads a suite quickly first,
without positions (``json``, or PyYAML's events without its composed tree), and the full way
only when a problem is found: the list loads in about 5.6 s from YAML and 3.1 s from JSON, and
the peak is about 18-21 MB per MB instead of 74-77 (docs/reliability.md, "Cost of loading a
suite").
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from agent_asserts.loaders import loads
from agent_asserts.loaders.source import alias_gains, parse_text, resolve_plain, yaml_module

pytest.importorskip("yaml")


def test_a_long_flat_list_loads_in_bounded_processor_time() -> None:
    n = 200_000
    text = "checks:\n  - output_equals: [" + ", ".join(str(i) for i in range(n)) + "]\n"
    started = time.process_time()
    suite = loads(text)
    spent = time.process_time() - started
    assert suite.cases[0].checks[0].expected[-1] == n - 1  # type: ignore[attr-defined]
    assert spent < 8, spent  # about 1.5 s here; it was about 3 s


def test_an_ampersand_in_text_is_no_anchor_and_anchors_still_count() -> None:
    # the fast path skips alias counting only when no '&' is written at all
    plain = parse_text("a: 'Q&A'\nb: [1, 2]\n", file="s.yml")
    assert plain.get("a").value == "Q&A"  # type: ignore[union-attr]
    yaml = yaml_module()
    composed = yaml.compose("a: &x [abc, de]\nb: *x\nc: *x\n")
    assert alias_gains(composed, yaml, 100, 100) == (6, 10)
    aliased = parse_text("a: &x [1, 2]\nb: *x\n", file="s.yml")
    assert [item.value for item in aliased.get("b").items] == [1, 2]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("", None), ("~", None), ("Null", None), ("nUll", "nUll"), ("TRUE", True),
        ("fAlse", "fAlse"), ("-0", 0), ("+12", 12), ("012", 12), ("0o17", 15), ("0o8", "0o8"),
        ("0x1F", 31), ("1e3", 1000.0), ("1.", 1.0), ("-.5e-3", -0.0005), ("-.Inf", float("-inf")),
        ("1:20", "1:20"), ("2024-01-01", "2024-01-01"), ("yes", "yes"), ("1_000", "1_000"),
        (".", "."), ("0x", "0x"),
    ],
)  # fmt: skip
def test_plain_scalars_resolve_to_the_yaml_1_2_core_schema(text: str, value: object) -> None:
    got = resolve_plain(text)
    assert (type(got), got) == (type(value), value)


def test_nan_resolves_to_nan() -> None:
    got = resolve_plain(".NaN")
    assert isinstance(got, float) and got != got


def _many_cases(n: int) -> dict[str, object]:
    return {
        "name": "big",
        "cases": [
            {
                "name": f"case {i}",
                "checks": [
                    {"called_tool": {"name": f"tool_{i % 17}",
                                     "arguments": {"orderId": f"A{i:06d}", "amount": i * 3}}},
                    {"tool_order": [f"lookup_{i % 5}", f"issue_{i % 7}"]},
                    {"not_called_tool": "refunds_cancel"},
                    {"max_tool_calls": 5, "severity": "soft", "label": "efficiency"},
                    {"output_matches": f"order A{i:06d}"},
                    {"max_steps": 10},
                ],
            }
            for i in range(n)
        ],
    }  # fmt: skip


def _peak_per_megabyte(dump: Any, name: str) -> float:
    import gc
    import tracemalloc

    loads(dump(_many_cases(2)), name=name)  # what the first load imports is not counted
    text = dump(_many_cases(600))
    gc.collect()
    tracemalloc.start()
    try:
        suite = loads(text, name=name)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(suite.cases) == 600
    return peak / len(text.encode())


def test_memory_per_megabyte_of_a_json_suite() -> None:
    # was about 51 MB per MB (PyYAML's composed tree and the nodes' positions and key paths);
    # about 18 now (compact JSON), 7-8 of it the loaded suite itself
    import json

    assert _peak_per_megabyte(json.dumps, "s.json") < 25


def test_memory_per_megabyte_of_a_yaml_suite() -> None:
    # was about 76 MB per MB; about 21 now
    yaml = yaml_module()

    def dump(doc: object) -> str:
        return str(yaml.safe_dump(doc, sort_keys=False, width=1000))

    assert _peak_per_megabyte(dump, "s.yml") < 30
