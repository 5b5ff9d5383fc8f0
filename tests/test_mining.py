"""`infer`: the checks mined from trusted runs, their support, the suite file written, and the
promise that it loads and passes on every run it was mined from."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from agent_asserts import TrialRecord
from agent_asserts.cli import main
from agent_asserts.loaders import load, loads
from agent_asserts.matching import M
from agent_asserts.mining import generalise_paths, infer, invariant, shape
from agent_asserts.status import Verdict


def _run(n: int, *, rng: random.Random | None = None, scenario: str = "refund") -> TrialRecord:
    """A trusted refund run: lookup then refund (then an e-mail), a state change and a reply."""
    rng = rng or random.Random(n)
    order = f"A{1000 + n}"
    reads = [("lookup", {"order_id": order}), ("customer", {"email": f"c{n}@shop.io"})]
    rng.shuffle(reads)
    events: list[dict[str, Any]] = [
        {"kind": "message", "actor_ref": "user", "payload": {"text": f"refund {order}"}}
    ]
    for name, arguments in [
        *reads,
        ("refund", {"order_id": order, "amount": 10 + n % 7, "currency": "EUR"}),
        ("send_email", {"template": rng.choice(["refund_ok", "refund_late"])}),
    ]:
        events.append({"kind": "tool_call", "payload": {"name": name, "arguments": arguments}})
    events.append(
        {"kind": "memory", "event_type": "set", "payload": {"name": "refund.id", "value": order}}
    )
    events.append({"kind": "message", "actor_ref": "agent", "payload": {"text": "Refunded."}})
    return TrialRecord.from_dict(
        {
            "events": events,
            "status": "completed",
            "steps": 4 + n % 3,
            "initial_state": {"orders": {order: {"status": "paid"}}},
            "final_state": {"orders": {order: {"status": "refunded"}}},
            "metadata": {"scenario": scenario},
            "tools": [{"name": t} for t in ("lookup", "customer", "refund", "send_email", "wipe")],
        }
    )


RUNS = [_run(n) for n in range(12)]


def _data(suite: Any) -> list[Any]:
    return [m.check.to_data() for m in suite.cases[0].checks]


class TestMined:
    def test_the_mined_checks(self) -> None:
        data = _data(infer(RUNS))
        assert data == [
            {"succeeded": {}},
            {"ended_with_reply": {}},
            {"called_tool": {"name": "customer", "count": 1}},
            {"called_tool": {"name": "lookup", "count": 1}},
            {"called_tool": {"name": "refund", "count": 1}},
            {"called_tool": {"name": "send_email", "count": 1}},
            {"not_called_tool": {"name": "wipe"}},
            {"only_declared_tools": {"tools": None}},
            {"tool_order": {"names": ["customer", "refund"]}},
            {"tool_order": {"names": ["lookup", "refund"]}},
            {"tool_order": {"names": ["refund", "send_email"], "contiguous": True}},
            {
                "every_call": {
                    "name": "customer",
                    "arguments": {"email": {"$regex": shape(["a@b.io"])}},
                }
            },
            {
                "every_call": {
                    "name": "lookup",
                    "arguments": {"order_id": {"$regex": r"^[A-Z]\d{4}$"}},
                }
            },
            {
                "every_call": {
                    "name": "refund",
                    "arguments": {
                        "amount": {"$between": [10, 16]},
                        "currency": "EUR",
                        "order_id": {"$regex": r"^[A-Z]\d{4}$"},
                    },
                }
            },
            {
                "every_call": {
                    "name": "send_email",
                    "arguments": {"template": {"$one_of": ["refund_late", "refund_ok"]}},
                }
            },
            {"only_changed": {"paths": ["/orders"]}},
            {"memory_was_set": {"name": "refund.id"}},
            {"max_steps": {"n": 8}},
            {"max_tool_calls": {"n": 5}},
        ]

    def test_an_order_another_mined_order_implies_is_left_out(self) -> None:
        runs = [
            TrialRecord.builder().tool("a", {}).tool("b", {}).tool("c", {}).build()
            for _ in range(3)
        ]
        orders = [d for d in _data(infer(runs)) if "tool_order" in d]
        assert orders == [
            {"tool_order": {"names": ["a", "b"], "contiguous": True}},
            {"tool_order": {"names": ["b", "c"], "contiguous": True}},
        ]

    def test_every_check_carries_its_support(self) -> None:
        case = infer(RUNS).cases[0]
        assert {(m.support, m.runs, m.severity) for m in case.checks} == {(12, 12, "gate")}
        assert case.checks[2].comment() == "held in 12 of 12 runs; observed 1 call"

    def test_min_support_adds_soft_checks(self) -> None:
        runs = [
            *RUNS[:9],
            *(
                TrialRecord.builder()
                .tool("lookup", {"order_id": "A1"})
                .agent("x")
                .build(status="completed")
                for _ in range(1)
            ),
        ]
        strict = {json.dumps(d) for d in _data(infer(runs))}
        loose = infer(runs, min_support=0.9).cases[0]
        soft = [m for m in loose.checks if m.severity == "soft"]
        assert soft and all(m.support == 9 and m.runs == 10 for m in soft)
        assert {"called_tool": {"name": "refund"}} in [m.check.to_data() for m in soft]
        assert all(json.dumps(m.check.to_data()) not in strict for m in soft)

    def test_group_by_mines_one_case_per_scenario(self) -> None:
        runs = [*RUNS[:6], *(_run(n, scenario="late") for n in range(6, 10))]
        suite = infer(runs, group_by="scenario")
        assert [(c.name, c.runs) for c in suite.cases] == [("refund", 6), ("late", 4)]

    def test_bad_settings(self) -> None:
        with pytest.raises(ValueError, match="'min_support' must be a share"):
            infer(RUNS, min_support=0)
        with pytest.raises(ValueError, match="'margin' must be a number >= 1"):
            infer(RUNS, margin=0.5)
        with pytest.raises(ValueError, match="infer needs at least one run"):
            infer([])


class TestTheSuiteFile:
    def test_the_yaml_loads_and_passes_on_every_run_it_was_mined_from(self) -> None:
        text = infer(RUNS).to_yaml()
        suite = loads(text)
        assert [c.verdict for r in RUNS for c in suite.evaluate(r)] == [Verdict.PASSED] * 12

    def test_the_yaml_says_the_support_above_each_check(self) -> None:
        lines = infer(RUNS).to_yaml().splitlines()
        assert lines[0] == "# Inferred by agent-asserts infer from 12 trusted runs."
        i = lines.index("      - succeeded")
        assert lines[i - 1] == "      # held in 12 of 12 runs; status completed"

    def test_soft_checks_are_written_soft(self) -> None:
        runs = [*RUNS[:9], TrialRecord.builder().agent("x").build(status="completed")]
        suite = loads(infer(runs, min_support=0.9).to_yaml())
        severities = {e.severity.value for e in suite.cases[0].entries if e.severity}
        assert "soft" in severities
        assert all(c.verdict is not Verdict.FAILED for r in runs for c in suite.evaluate(r))

    def test_the_json_form_loads_too(self) -> None:
        data = json.loads(infer(RUNS).to_json())
        assert data["cases"][0]["metadata"]["support"][0] == "12/12"
        suite = loads(json.dumps(data))
        assert all(c.verdict is Verdict.PASSED for r in RUNS for c in suite.evaluate(r))

    @pytest.mark.parametrize("seed", range(8))
    def test_random_runs_always_pass_their_own_suite(self, seed: int) -> None:
        rng = random.Random(seed)
        runs = []
        for _ in range(rng.randint(1, 8)):
            b = TrialRecord.builder().user("go")
            for _ in range(rng.randint(0, 6)):
                name = rng.choice(["a", "b", "c", "d"])
                b = b.tool(name, {"x": rng.choice([1, 2, "q", "Z9", 3.5, None, True])})
            if rng.random() < 0.7:
                b = b.agent("ok")
            runs.append(
                b.build(status=rng.choice(["completed", "failed"]), steps=rng.randint(1, 9))
            )
        suite = loads(infer(runs).to_yaml())
        assert all(c.verdict is Verdict.PASSED for r in runs for c in suite.evaluate(r))


class TestInvariants:
    def test_constant_set_range_shape(self) -> None:
        assert invariant(["EUR", "EUR"]) == ("EUR", "constant")
        found = invariant(["a", "b", "a"])
        assert found is not None and found[0] == M.one_of("a", "b")
        assert invariant([1, 2.5, 9, 4, 7, 3]) == (M.between(1, 9), "from 1 to 9")
        assert invariant([{"nested": 1}, {"nested": 2}]) is None
        assert invariant([True, 1, "x", None, 2.0, "y"]) is None

    def test_shapes(self) -> None:
        assert shape(["ORD-001", "ORD-9"]) == r"^[A-Z]{3}-\d{1,3}$"
        assert shape(["2026-01-05", "2025-12-31"]) == r"^\d{4}-\d{2}-\d{2}$"
        assert shape(["a.b", "c.d"]) == r"^[a-z]\.[a-z]$"
        assert shape(["abc", "123"]) is None
        assert shape(["", ""]) is None

    def test_paths_differing_in_an_id_merge_into_their_parent(self) -> None:
        assert generalise_paths(["/u/1/name", "/u/2/name", "/u/3/age"]) == ["/u"]
        assert generalise_paths(["/orders", "/audit"]) == ["/audit", "/orders"]
        assert generalise_paths(["/a/b", "/a"]) == ["/a"]


class TestCommand:
    @pytest.fixture
    def runs_dir(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
        monkeypatch.chdir(tmp_path)
        folder = tmp_path / "runs"
        folder.mkdir()
        for i, run in enumerate(RUNS[:6]):
            (folder / f"run{i}.json").write_text(json.dumps(run.to_dict()))
        return folder

    def test_infer_writes_a_suite_that_check_passes(
        self, runs_dir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert main(["infer", "runs", "-o", "suite.yml"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("inferred 19 checks in 1 case from 6 runs; written to suite.yml")
        assert main(["check", "suite.yml", "--record", "runs"]) == 0
        assert len(load("suite.yml").cases[0].entries) == 19

    def test_infer_prints_the_suite_without_output(
        self, runs_dir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert main(["infer", "runs"]) == 0
        out, err = capsys.readouterr()
        assert out.startswith("# Inferred by agent-asserts infer from 6 trusted runs.")
        assert err == "inferred 19 checks in 1 case from 6 runs\n"

    def test_an_unreadable_run_is_reported_and_the_others_used(
        self, runs_dir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        (runs_dir / "broken.json").write_text("{")
        assert main(["infer", "runs", "-o", "suite.json"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: cannot load the record runs/broken.json")
        assert json.loads(Path("suite.json").read_text())["cases"][0]["metadata"] == {
            "inferred_from_runs": 6,
            "support": ["6/6"] * 19,
        }

    def test_a_bad_share_is_a_usage_error(
        self, runs_dir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        with pytest.raises(SystemExit) as info:
            main(["infer", "runs", "--min-support", "1.5"])
        assert info.value.code == 2
        assert "must be a share of the runs in (0, 1] (got '1.5')" in capsys.readouterr().err
