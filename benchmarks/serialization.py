"""Serialization benchmark: the converter's hand-written result hooks against cattrs-generated ones.

The converter of ``agent_asserts.serialization`` writes ``AssertionResult`` / ``CaseResult`` with
their ``to_dict()`` and reads them back with hand-written hooks. cattrs can generate both
from the attrs classes (``make_dict_unstructure_fn`` / ``make_dict_structure_fn`` with
overrides for the values JSON cannot hold and the fields written under an alias). Issue #11
keeps a hand-written path only where it is faster; this script measures both directions side
by side (``_harness.side_by_side``, CPU time, interleaved rounds) on a JSON report's worth of
cases: ``--cases`` cases of ``--results`` results each, every failed result with a mismatch.

Targets: each hand-written path the converter keeps is at most 1.0x the generated one (it is
kept only while it is the faster one).

Usage: ``python benchmarks/serialization.py [--cases 200] [--results 10]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import Targets, fmt, side_by_side

from agent_asserts._values import to_jsonable
from agent_asserts.matching import Mismatch
from agent_asserts.results import AssertionResult, CaseResult, EvaluatorInfo, LogEntry
from agent_asserts.serialization import converter


def sample_cases(cases: int, results: int) -> list[CaseResult]:
    """``cases`` failed cases of ``results`` results; every other result fails with a mismatch."""
    out = []
    for c in range(cases):
        rows = []
        for r in range(results):
            failed = r % 2 == 1
            mismatch = Mismatch("$.arguments.amount", 40, 42 + r, "expected 40, got 42")
            rows.append(
                AssertionResult(
                    name=f"called_tool:refunds_issue_{r}",
                    status="fail" if failed else "pass",
                    score=0.0 if failed else 1.0,
                    message=f"matched 0 of 1 calls ({c}/{r})" if failed else "",
                    expected={"amount": 40},
                    observed=42 + r,
                    mismatches=(mismatch,) if failed else (),
                    closest="e3" if failed else None,
                    evidence=("e3",),
                    evaluator=EvaluatorInfo(details={"selector": "on.tool('refunds_issue')"}),
                    description=f"called_tool('refunds_issue_{r}', arguments={{'amount': 40}})",
                )
            )
        out.append(CaseResult(f"case {c}", "failed", results=tuple(rows), metadata={"n": c}))
    return out


def generated_converter() -> cattrs.Converter:
    """A converter whose result hooks cattrs generates from the attrs classes."""
    conv = cattrs.Converter()

    def mismatch(data: Any, _cls: Any) -> Any:
        if isinstance(data, Mapping) and "path" in data:
            return Mismatch(data["path"], data.get("expected"), data.get("actual"), data["reason"])
        return data

    conv.register_structure_hook(Mismatch, mismatch)
    for cls in (EvaluatorInfo, LogEntry):
        conv.register_unstructure_hook(cls, make_dict_unstructure_fn(cls, conv))
        conv.register_structure_hook(cls, make_dict_structure_fn(cls, conv))
    jsonable = override(unstruct_hook=to_jsonable)
    text = override(unstruct_hook=str)
    result_out = make_dict_unstructure_fn(
        AssertionResult, conv, _cattrs_use_alias=True, expected=jsonable, observed=jsonable,
        mismatches=jsonable, evidence=jsonable, _message=text, _description=text,
    )  # fmt: skip
    listed = override(struct_hook=lambda v, _: tuple(conv.structure(m, Mismatch) for m in v))
    plain = override(struct_hook=lambda v, _: v)
    result_in = make_dict_structure_fn(
        AssertionResult, conv, _cattrs_use_alias=True, mismatches=listed, _message=plain,
        _description=plain,
    )  # fmt: skip
    conv.register_unstructure_hook(AssertionResult, result_out)
    conv.register_structure_hook(AssertionResult, result_in)
    case_out = make_dict_unstructure_fn(CaseResult, conv, metadata=jsonable)
    conv.register_unstructure_hook(CaseResult, lambda c: {**case_out(c), "score": c.score})
    conv.register_structure_hook(CaseResult, make_dict_structure_fn(CaseResult, conv))
    return conv


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--results", type=int, default=10)
    args = parser.parse_args(argv)
    cases = sample_cases(args.cases, args.results)
    generated = generated_converter()
    data = json.loads(json.dumps(converter.unstructure(cases)))
    assert generated.structure(data, list[CaseResult]) == cases  # the same objects back
    assert converter.structure(data, list[CaseResult]) == cases
    size = f"{args.cases} cases x {args.results} results"
    print(f"Serialization of a JSON report's cases ({size}), median CPU time per pass:")
    targets = Targets()
    hand, gen = side_by_side(
        [lambda: converter.unstructure(cases), lambda: generated.unstructure(cases)], rounds=9
    )
    print(f"  unstructure: hand-written to_dict {fmt(hand)}, cattrs-generated {fmt(gen)}")
    targets.check("unstructure: hand-written / generated <= 1.0", hand <= gen, f"{hand / gen:.2f}x")
    hand, gen = side_by_side(
        [
            lambda: converter.structure(data, list[CaseResult]),
            lambda: generated.structure(data, list[CaseResult]),
        ],
        rounds=9,
    )
    print(f"  structure: hand-written hooks {fmt(hand)}, cattrs-generated {fmt(gen)}")
    targets.check("structure: hand-written / generated <= 1.0", hand <= gen, f"{hand / gen:.2f}x")
    return targets.exit_code()


if __name__ == "__main__":
    raise SystemExit(main())
