"""`compare`: the statistics against published values, rates, flips and regressions between
two batches, repeated trials, and the command over JSON reports and folders of runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_asserts import compare
from agent_asserts.cli import main
from agent_asserts.comparison import ALL_CASES, case_ids, fisher_exact, newcombe, wilson
from agent_asserts.results import AssertionResult, CaseResult, ReportRow


class TestStatistics:
    # Newcombe, R. G. (1998). Two-sided confidence intervals for the single proportion:
    # comparison of seven methods. Statistics in Medicine 17, 857-872: the score method
    # (method 3) on the paper's examples.
    @pytest.mark.parametrize(
        ("k", "n", "low", "high"),
        [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
         (1, 29, 0.0061, 0.1718)],
    )  # fmt: skip
    def test_wilson_matches_newcombe_1998(self, k: int, n: int, low: float, high: float) -> None:
        assert [round(x, 4) for x in wilson(k, n)] == [low, high]

    # Newcombe, R. G. (1998). Interval estimation for the difference between independent
    # proportions: comparison of eleven methods. Statistics in Medicine 17, 873-890: method 10
    # (the hybrid score interval without continuity correction) on the paper's examples.
    @pytest.mark.parametrize(
        ("a", "m", "b", "n", "low", "high"),
        [(56, 70, 48, 80, 0.0524, 0.3339), (9, 10, 3, 10, 0.1705, 0.8090),
         (5, 56, 0, 29, -0.0381, 0.1926), (0, 10, 0, 20, -0.1611, 0.2775),
         (0, 10, 0, 10, -0.2775, 0.2775)],
    )  # fmt: skip
    def test_newcombe_matches_the_paper(
        self, a: int, m: int, b: int, n: int, low: float, high: float
    ) -> None:
        assert [round(x, 4) for x in newcombe(a, m, b, n)] == [low, high]

    def test_fisher_on_the_lady_tasting_tea(self) -> None:
        # Fisher's own example: 3 of 4 cups right against 1 of 4; the hypergeometric
        # probabilities are 1, 16, 36, 16, 1 in 70.
        assert fisher_exact(3, 4, 1, 4, "greater") == pytest.approx(17 / 70)
        assert fisher_exact(3, 4, 1, 4, "less") == pytest.approx(69 / 70)
        assert fisher_exact(3, 4, 1, 4, "two-sided") == pytest.approx(34 / 70)
        assert fisher_exact(4, 4, 0, 4, "greater") == pytest.approx(1 / 70)

    def test_fisher_on_a_larger_table_against_the_exact_sum(self) -> None:
        from math import comb

        # P(X >= 40) for X ~ Hypergeometric(80 balls, 66 white, 40 drawn): only X = 40
        assert fisher_exact(40, 40, 26, 40) == pytest.approx(comb(40, 26) / comb(80, 66))

    def test_degenerate_tables(self) -> None:
        assert fisher_exact(0, 0, 0, 0) == 1.0
        assert fisher_exact(5, 5, 5, 5) == 1.0
        assert wilson(0, 0) == (0.0, 1.0)
        with pytest.raises(ValueError, match="'alternative' must be"):
            fisher_exact(1, 2, 1, 2, "bigger")


def _case(name: str, ok: bool, *checks: tuple[str, bool]) -> CaseResult:
    results = tuple(
        AssertionResult(name=n, status="pass" if p else "fail", score=1.0 if p else 0.0)
        for n, p in checks
    )
    return CaseResult(name, "passed" if ok else "failed", results=results)


class TestCompare:
    def test_a_significant_fall_is_a_regression(self) -> None:
        base = [_case(f"r{i}", True, ("lookup", True)) for i in range(30)]
        cand = [_case(f"r{i}", i >= 10, ("lookup", i >= 10)) for i in range(30)]
        result = compare(base, cand)
        assert [r.name for r in result.regressions] == [ALL_CASES, "lookup"]
        row = result.rows[1]
        assert (row.base.k, row.base.n, row.candidate.k, row.candidate.n) == (30, 30, 20, 30)
        assert row.difference == pytest.approx(-1 / 3)
        assert row.to_fail == tuple(f"r{i}" for i in sorted(range(10), key=str))
        assert row.to_pass == ()

    def test_a_small_fall_is_not_significant(self) -> None:
        base = [_case(f"r{i}", True) for i in range(20)]
        cand = [_case(f"r{i}", i != 0) for i in range(20)]
        result = compare(base, cand)
        assert result.regressions == ()
        assert result.rows[0].p_value == pytest.approx(0.5)

    def test_min_effect_filters_significant_but_small_falls(self) -> None:
        base = [_case(f"r{i}", True) for i in range(2000)]
        cand = [_case(f"r{i}", i >= 60) for i in range(2000)]  # 3 points, p tiny
        assert [r.name for r in compare(base, cand).regressions] == [ALL_CASES]
        assert compare(base, cand, min_effect=0.05).regressions == ()

    def test_a_rise_is_never_a_regression(self) -> None:
        base = [_case(f"r{i}", i >= 15) for i in range(30)]
        cand = [_case(f"r{i}", True) for i in range(30)]
        row = compare(base, cand).rows[0]
        assert not row.regression and len(row.to_pass) == 15

    def test_not_applicable_results_are_left_out_of_a_rate(self) -> None:
        na = AssertionResult(name="x", status="not_applicable", score=None)
        base = [CaseResult("a", "passed", results=(na,))]
        result = compare(base, base)
        assert [r.name for r in result.rows] == [ALL_CASES]

    def test_the_same_check_twice_in_a_case_gets_two_rows(self) -> None:
        case = _case("a", True, ("tool_order", True), ("tool_order", True))
        assert [r.name for r in compare([case], [case]).rows] == [
            ALL_CASES,
            "tool_order",
            "tool_order#2",
        ]

    def test_case_ids_drop_the_folder_the_batch_shares(self) -> None:
        rows = [ReportRow(_case("c", True), None, f"v1/runs/{n}.json") for n in ("a", "b")]
        other = [ReportRow(_case("c", False), None, f"v2/runs/{n}.json") for n in ("a", "b")]
        assert case_ids(rows) == ["a.json::c", "b.json::c"]
        assert compare(rows, other).rows[0].to_fail == ("a.json::c", "b.json::c")

    def test_repeated_trials_give_pass_at_k(self) -> None:
        base = [_case("flaky", ok) for ok in (True, True, False, True)]
        cand = [_case("flaky", ok) for ok in (True, False, False, False)]
        [trials] = compare(base, cand).trials
        assert trials.k == 4
        assert trials.base.pass_at_k(1) == 0.75 and trials.candidate.pass_at_k(1) == 0.25
        data = trials.to_dict()
        assert data["base"]["pass^4"] == 0.0 and data["candidate"]["pass@4"] == 1.0

    @pytest.mark.parametrize(("alpha", "effect"), [(0, 0), (1, 0), (0.05, -0.1), (0.05, 2)])
    def test_settings_out_of_range(self, alpha: float, effect: float) -> None:
        with pytest.raises(ValueError, match="must be"):
            compare([], [], alpha=alpha, min_effect=effect)

    def test_the_markdown_puts_regressions_first(self) -> None:
        base = [_case(f"r{i}", True, ("a", True), ("b", True)) for i in range(30)]
        cand = [_case(f"r{i}", True, ("a", True), ("b", i >= 12)) for i in range(30)]
        text = compare(base, cand).markdown()
        lines = text.splitlines()
        assert lines[0] == "**1 regression** (α = 0.05, minimum effect 0 points): `b`."
        assert lines[4].startswith("| **⚠ b** | 30/30 (100.0 %) | 18/30 (60.0 %) | -40.0 pts |")
        assert lines[5].startswith("| all cases |")

    def test_the_json_and_html_forms(self) -> None:
        base = [_case("r", True, ("a", True))]
        result = compare(base, base, base_label="v1", candidate_label="v2")
        data = json.loads(result.to_json())
        assert (data["base"], data["candidate"], data["regressions"]) == ("v1", "v2", [])
        assert data["rows"][1]["base"] == {
            "passed": 1,
            "total": 1,
            "rate": 1.0,
            "interval": list(wilson(1, 1)),
        }
        page = result.html(base, base)
        assert page.startswith("<!DOCTYPE html>") and "v1 → v2: no regression" in page
        assert page.count('class="aa-report"') == 2


class TestCommand:
    def _report(self, path: Path, fails: int, n: int = 30) -> None:
        cases = [_case(f"r{i}", i >= fails, ("lookup", i >= fails)) for i in range(n)]
        rows = [ReportRow(c, None, f"runs/{c.name}.json") for c in cases]
        from agent_asserts.report import render

        path.write_text(render(rows, "json"))

    def test_two_json_reports(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self._report(tmp_path / "base.json", 0)
        self._report(tmp_path / "cand.json", 12)
        assert main(["compare", str(tmp_path / "base.json"), str(tmp_path / "cand.json")]) == 1
        out = capsys.readouterr().out
        assert out.startswith("**2 regressions** (α = 0.05, minimum effect 0 points)")
        self._report(tmp_path / "same.json", 0)
        assert main(["compare", str(tmp_path / "base.json"), str(tmp_path / "same.json")]) == 0

    def test_output_format_from_the_extension(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        self._report(tmp_path / "base.json", 0)
        self._report(tmp_path / "cand.json", 1)
        out = tmp_path / "cmp.json"
        argv = ["compare", str(tmp_path / "base.json"), str(tmp_path / "cand.json")]
        assert main([*argv, "--output", str(out)]) == 0
        assert capsys.readouterr().out == f"no regression; written to {out}\n"
        assert json.loads(out.read_text())["rows"][0]["flips"]["to_fail"] == ["r0.json::r0"]

    def test_folders_need_a_suite(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        (tmp_path / "a").mkdir()
        assert main(["compare", str(tmp_path / "a"), str(tmp_path / "a")]) == 2
        assert "not a JSON report; give --suite SUITE" in capsys.readouterr().err

    def test_folders_with_a_suite(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.chdir(tmp_path)
        for side, reply in (("v1", "Refund issued"), ("v2", "Sorry")):
            Path(side).mkdir()
            for i in range(25):
                text = reply if i < 20 else "Refund issued"
                message = {"kind": "message", "actor_ref": "agent", "payload": {"text": text}}
                run = {"events": [message]}
                Path(side, f"r{i}.json").write_text(json.dumps(run))
        Path("suite.yml").write_text("checks:\n  - message_includes: Refund\n")
        assert main(["compare", "v1", "v2", "--suite", "suite.yml"]) == 1
        out = capsys.readouterr().out
        assert "| **⚠ message_includes:Refund** | 25/25 (100.0 %) | 5/25 (20.0 %) |" in out
