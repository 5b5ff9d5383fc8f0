"""evaluate_many and BatchResult: order, laziness, executors, trials, counts, reports."""

from __future__ import annotations

import json
import multiprocessing
import pickle
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

from agent_asserts import EvalContext, TrialRecord, Verdict
from agent_asserts.batch import BatchResult, SourcedRecord, evaluate_many, iter_jsonl
from agent_asserts.loaders import load


def make_record(i: int) -> TrialRecord:
    b = TrialRecord.builder(initial_state={"n": 0})
    b.user("hi").tool("lookup", arguments={"id": i}).tool("issue", arguments={"amount": i % 4})
    b.agent("done")
    return b.build(final_state={"n": i % 3}, steps=3 + i % 5)


def mixed_case(ctx: EvalContext) -> None:
    """PASSED, FAILED, SCORED and SKIPPED all occur over make_record(0..)."""
    if ctx.record.steps == 7:
        ctx.skip("seven steps")
    ctx.called_tool("lookup")
    ctx.called_tool("issue", arguments={"amount": M_AMOUNT}).soft()
    ctx.max_steps(5)


M_AMOUNT = 1

SUITE = {
    "cases": [
        {"name": "looks up", "checks": [{"called_tool": "lookup"}]},
        {"name": "short", "checks": [{"max_steps": 4}]},
    ]
}


def test_one_result_per_record_in_input_order() -> None:
    batch = evaluate_many((make_record(i) for i in range(6)), mixed_case)
    assert [c.name for c in batch.cases] == ["mixed_case"] * 6
    assert batch.record_indexes == (0, 1, 2, 3, 4, 5)
    assert {c.verdict for c in batch.cases} == set(Verdict)
    assert batch.pass_rate == pytest.approx(
        sum(c.verdict is Verdict.PASSED for c in batch.cases) / 6
    )


def test_a_suite_gives_one_result_per_record_and_case_ordered_by_record() -> None:
    batch = evaluate_many([make_record(0), make_record(3)], load(SUITE))
    assert [(c.name, i) for c, i in zip(batch.cases, batch.record_indexes, strict=True)] == [
        ("looks up", 0),
        ("short", 0),
        ("looks up", 1),
        ("short", 1),
    ]
    assert [c.verdict.value for c in batch.cases] == ["passed", "passed", "passed", "failed"]
    assert batch.failure_counts() == {"max_steps:4": 1}


def test_trials_group_cases_by_name_with_k_of_n() -> None:
    batch = evaluate_many([make_record(i) for i in range(4)], load(SUITE))
    trials = batch.trials(pass_rate=0.5)
    assert list(trials) == ["looks up", "short"]
    assert (trials["looks up"].passes, trials["looks up"].n) == (4, 4)
    assert trials["short"].verdict is Verdict.PASSED  # steps 3, 4 pass; 5, 6 fail: 2 of 4
    assert batch.trials()["short"].verdict is Verdict.FAILED


class Guarded:
    """Records that refuse to be pulled more than ``slack`` ahead of the evaluated ones."""

    def __init__(self, n: int, slack: int) -> None:
        self.n, self.slack = n, slack
        self.pulled = 0
        self.done = 0
        self.lock = threading.Lock()
        self.max_ahead = 0

    def case(self, ctx: EvalContext) -> None:
        ctx.called_tool("lookup")
        with self.lock:
            self.done += 1

    def __iter__(self) -> Iterator[TrialRecord]:
        for i in range(self.n):
            with self.lock:
                ahead = self.pulled - self.done
                if ahead >= self.slack:
                    raise AssertionError(f"pulled {ahead + 1} records ahead of the evaluated ones")
                self.pulled += 1
                self.max_ahead = max(self.max_ahead, ahead + 1)
            yield make_record(i)


def test_records_are_pulled_lazily_without_an_executor() -> None:
    guard = Guarded(50, slack=1)
    assert len(evaluate_many(guard, guard.case)) == 50
    assert guard.max_ahead == 1


def test_records_are_pulled_at_most_twice_the_workers_ahead() -> None:
    guard = Guarded(200, slack=2 * 3)
    with ThreadPoolExecutor(max_workers=3) as pool:
        batch = evaluate_many(guard, guard.case, executor=pool)
    assert len(batch) == 200 and batch.pass_rate == 1.0
    assert 1 <= guard.max_ahead <= 6


def test_a_generator_pulled_too_far_fails_the_batch() -> None:
    guard = Guarded(20, slack=2)
    with ThreadPoolExecutor(max_workers=2) as pool, pytest.raises(AssertionError, match="ahead"):
        evaluate_many(guard, guard.case, executor=pool, max_in_flight=3)


def test_identical_results_with_and_without_a_process_pool_on_1000_records() -> None:
    records = [make_record(i) for i in range(1000)]
    plain = evaluate_many(records, mixed_case)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        pooled = evaluate_many(iter(records), mixed_case, executor=pool)
    assert pooled.cases == plain.cases
    assert pooled.record_indexes == plain.record_indexes
    assert set(plain.verdict_counts().values()) != {0}
    assert all(plain.verdict_counts()[v.value] > 0 for v in Verdict)


def test_paths_dicts_and_unloadable_records(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(make_record(0).to_dict()), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"events": [{"kind": 3}]}', encoding="utf-8")
    batch = evaluate_many([good, make_record(1).to_dict(), bad], load(SUITE), keep_records=True)
    assert batch.sources == (str(good), None, str(bad))
    assert [c.verdict.value for c in batch.cases] == ["passed"] * 4 + ["failed"] * 2
    assert batch.cases[-1].error is not None and "cannot load the record" in batch.cases[-1].error
    assert batch.records is not None and batch.records[2] is None
    assert batch.records[0] == make_record(0)


def test_a_suite_file_is_loaded_at_the_edge_not_by_the_batch(tmp_path: Path) -> None:
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(SUITE), encoding="utf-8")
    assert len(evaluate_many([make_record(0)], load(path))) == 2
    with pytest.raises(TypeError) as info:
        evaluate_many([make_record(0)], path)
    assert str(info.value) == (
        f"'suite_or_fn' must be a Suite, a Case or a case function, not a path ({path!r}): "
        "load the suite file first with agent_asserts.loaders.load(path)"
    )


def test_iter_jsonl_reads_lazily_and_names_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    lines = [json.dumps(make_record(i).to_dict()) for i in range(3)]
    path.write_bytes("\n".join([*lines, "{oops", "", "\udcff"]).encode("utf-8", "surrogateescape"))
    reader = iter_jsonl(path)
    first = next(reader)
    assert isinstance(first, dict) and TrialRecord.from_dict(first) == make_record(0)
    rest = list(reader)
    assert rest[-2:] == [
        SourcedRecord(f"{path}:4", error="invalid JSON: Expecting property name enclosed in "
                      "double quotes: line 1 column 2 (char 1)"),
        SourcedRecord(f"{path}:6", error="not UTF-8: 'utf-8' codec can't decode byte 0xff in "
                      "position 0: invalid start byte"),
    ]  # fmt: skip
    sourced = list(iter_jsonl(path, sources=True))
    assert [getattr(item, "source", None) for item in sourced] == [
        f"{path}:{n}" for n in (1, 2, 3, 4, 6)
    ]
    assert pickle.loads(pickle.dumps(sourced[3])) == sourced[3]  # crosses process pools


def test_a_bad_jsonl_line_is_a_failed_case_and_the_other_lines_are_evaluated(
    tmp_path: Path,
) -> None:
    path = tmp_path / "runs.jsonl"
    lines = [json.dumps(make_record(i).to_dict()) for i in range(4)]
    lines[2] = '{"events": [oops'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    error = f"cannot load the record {path}:3: invalid JSON: Expecting value: line 1 column 13"
    error += " (char 12)"
    with ThreadPoolExecutor(2) as pool:
        pooled = evaluate_many(iter_jsonl(path), load(SUITE), executor=pool)
    for batch in (evaluate_many(iter_jsonl(path), load(SUITE)), pooled):
        assert [(c.name, c.verdict.value) for c in batch.cases] == [
            ("looks up", "passed"), ("short", "passed"), ("looks up", "passed"),
            ("short", "passed"), ("looks up", "failed"), ("short", "failed"),
            ("looks up", "passed"), ("short", "failed"),
        ]  # fmt: skip
        assert batch.sources == (None, None, f"{path}:3", None)
        assert [(c.error, dict(c.metadata)) for c in batch.cases[4:6]] == [
            (error, {"source": f"{path}:3"})
        ] * 2
        assert batch.report_rows()[4].source == f"{path}:3"
    with_sources = evaluate_many(iter_jsonl(path, sources=True), mixed_case)
    assert with_sources.sources == tuple(f"{path}:{n}" for n in range(1, 5))
    assert with_sources.cases[2].error == error


def test_batch_reports_and_html(tmp_path: Path) -> None:
    batch = evaluate_many([make_record(i) for i in range(3)], mixed_case, keep_records=True)
    assert str(batch).splitlines()[-1].startswith("3 cases: ")
    assert batch.to_dict()["summary"]["cases"] == 3
    html = batch._repr_html_()
    assert html.count('class="aa-case"') == 3 and "aa-events" in html
    out = batch.write(tmp_path / "r.xml")
    assert out.read_text(encoding="utf-8").count("<testcase ") == 3
    assert batch.render("markdown").startswith("## agent_asserts: 3 cases")


def test_empty_batch_and_bad_arguments() -> None:
    empty = evaluate_many([], mixed_case)
    assert (len(empty), empty.pass_rate, empty.passed) == (0, 0.0, False)
    assert isinstance(empty, BatchResult)
    with pytest.raises(ValueError, match="max_in_flight"):
        evaluate_many([], mixed_case, max_in_flight=-1)


@pytest.mark.parametrize("records", ["runs.jsonl", b"runs.jsonl", Path("runs.jsonl")])
def test_a_single_path_as_records_is_a_type_error(records: object) -> None:
    with pytest.raises(TypeError) as info:
        evaluate_many(records, mixed_case)  # type: ignore[arg-type]
    assert str(info.value) == (
        "'records' must be an iterable of records, record dicts or paths, not a single path "
        f"({records!r}): pass iter_jsonl(path) for a JSON Lines file or [path] for one record file"
    )


@pytest.mark.parametrize("target", [5, None, {"cases": []}])
def test_a_target_that_is_not_a_suite_case_or_function_is_a_type_error(target: object) -> None:
    with pytest.raises(TypeError) as info:
        evaluate_many([make_record(0)], target)  # type: ignore[arg-type]
    assert str(info.value) == (
        f"'suite_or_fn' must be a Suite, a Case or a case function (got {target!r})"
    )


def test_iter_jsonl_reads_lines_strictly(tmp_path: Path) -> None:
    runs = tmp_path / "runs.jsonl"
    runs.write_text('{"steps": 1, "steps": 2}\n{"steps": NaN}\n{"steps": 3}\n')
    rows = list(iter_jsonl(runs))
    assert [r.error for r in rows[:2]] == [  # type: ignore[union-attr]
        "$.steps: duplicate key",
        "$.steps: invalid JSON: NaN is not a JSON value",
    ]
    assert rows[2] == {"steps": 3}
    batch = evaluate_many(iter_jsonl(runs), mixed_case)
    assert batch.cases[0].error == f"cannot load the record {runs}:1: $.steps: duplicate key"
