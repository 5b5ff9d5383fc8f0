"""The native dialect: argument forms, expect:, cases, records and evaluation."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_asserts.checks.expectations import (
    Equals,
    Includes,
    LiteralValue,
    RecordField,
    Similarity,
    StatePath,
)
from agent_asserts.checks.sequencing import ToolOrder
from agent_asserts.checks.tools import CalledTool, NotCalledTool
from agent_asserts.checks.traces import MaxSteps
from agent_asserts.loaders import Case, CheckEntry, LoadError, Suite, load, loads
from agent_asserts.loaders.suite import check_signatures
from agent_asserts.matching import Count, M
from agent_asserts.results import Severity, Verdict
from agent_asserts.testing import demo_record

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"


def checks_of(text: str) -> list[Any]:
    return [entry.check for entry in loads(text).cases[0].entries]


class TestArgumentForms:
    def test_scalar_list_and_mapping(self) -> None:
        assert checks_of(
            "checks:\n"
            "  - not_called_tool: refunds_cancel\n"
            "  - tool_order: [a, b]\n"
            "  - tool_order: {names: [a, b], contiguous: true}\n"
            "  - called_tool: {name: x, arguments: {id: {$regex: '^A'}},\n"
            "                  count: {between: [1, 2]}}\n"
            "  - followed_by: [a, b]\n"
            "  - max_steps: 3\n"
        ) == [
            NotCalledTool("refunds_cancel"),
            ToolOrder("a", "b"),
            ToolOrder("a", "b", contiguous=True),
            CalledTool("x", arguments={"id": M.regex("^A")}, count=Count.between(1, 2)),
            check_signatures()["followed_by"].cls("a", "b"),
            MaxSteps(3),
        ]

    def test_a_list_fills_the_fluent_methods_positional_parameters(self) -> None:
        # EvalContext.called_tool(name, arguments, result, is_error, count): not the class's
        # own ``positional`` (("name",)), which names results and describe()s checks
        assert checks_of(
            "checks:\n"
            "  - called_tool: [refunds_lookup, {orderId: A1049}]\n"
            "  - called_tool: [refunds_issue, {amount: {$gt: 0}}, {ok: true}, false, 1]\n"
            "  - not_called_tool: [refunds_cancel, {orderId: A1049}]\n"
            "  - skill_cancelled: [refund, confirm]\n"
            "  - called_tool: refunds_lookup\n"
        ) == [
            CalledTool("refunds_lookup", {"orderId": "A1049"}),
            CalledTool("refunds_issue", {"amount": M.gt(0)}, {"ok": True}, False, 1),
            NotCalledTool("refunds_cancel", {"orderId": "A1049"}),
            check_signatures()["skill_cancelled"].cls("refund", "confirm"),
            CalledTool("refunds_lookup"),
        ]
        assert CalledTool("refunds_lookup", {"orderId": "A1049"}).describe() == (
            "called_tool('refunds_lookup', arguments={'orderId': 'A1049'})"
        )

    def test_a_too_long_positional_list(self) -> None:
        with pytest.raises(LoadError) as info:
            loads("checks:\n  - last_tool: [a, {x: 1}, 3]\n")
        assert str(info.value) == (
            "<string>:2:28: checks[0].last_tool[2]: too many arguments "
            "(last_tool takes name, arguments, got 3)"
        )

    def test_a_list_given_to_a_list_entries_check_is_one_check_per_item(self) -> None:
        suite = loads(
            "checks:\n"
            "  - memory_was_set: [{name: a.b}, {name: a.c, value: 1}, a.d]\n"
            "    severity: soft\n"
            "  - memory_was_not_set: [a.e, {name: a.f, value: {$gt: 2}}]\n"
            "  - memory_was_cleared: [{name: a.g}]\n"
        )
        entries = suite.cases[0].entries
        assert [e.check.describe() for e in entries] == [
            "memory_was_set('a.b')",
            "memory_was_set('a.c', value=1)",
            "memory_was_set('a.d')",
            "memory_was_not_set('a.e')",
            "memory_was_not_set('a.f', value=M.gt(2))",
            "memory_was_cleared('a.g')",
        ]
        assert [e.severity for e in entries[:3]] == [Severity.SOFT] * 3
        results = suite.evaluate(demo_record())[0].results
        assert [r.name for r in results][:3] == [
            "memory_was_set:a.b",
            "memory_was_set:a.c",
            "memory_was_set:a.d",
        ]
        assert load(suite.to_dict()) == suite

    def test_problems_of_a_list_entries_list(self) -> None:
        with pytest.raises(LoadError) as info:
            loads(
                "checks:\n"
                "  - memory_was_cleared: [{name: a.x, value: 1}, [a, b], {name: null}]\n"
                "    name: cleared\n"
                "  - memory_was_set: []\n"
                "  - memory_was_set: [{name: a.x, value: null}]\n"
            )
        assert str(info.value).splitlines() == [
            "<string>:2:38: checks[0].memory_was_cleared[0]: unknown key 'value' (expected 'name')",
            "<string>:2:49: checks[0].memory_was_cleared[1]: an item of a memory_was_cleared list "
            "is one check: a value or a mapping of its arguments (got a list)",
            "<string>:2:64: checks[0].memory_was_cleared[2].name: is required (got null)",
            "<string>:3:5: checks[0]: 'name' cannot name the results of a memory_was_cleared "
            "list (one per item)",
            "<string>:4:21: checks[1].memory_was_set: must not be empty",
            "<string>:5:41: checks[2].memory_was_set[0].value: is required (got null)",
        ]

    def test_no_argument_forms(self) -> None:
        checks = checks_of("checks: [succeeded, {succeeded: null}, {succeeded: {}}]")
        assert len(set(checks)) == 1

    def test_single_value_of_a_one_positional_list(self) -> None:
        (check,) = checks_of("checks:\n  - tool_order: lookup\n")
        assert check == ToolOrder("lookup")

    def test_operator_as_the_positional_value(self) -> None:
        (check,) = checks_of("checks:\n  - output_equals: {$regex: done}\n")
        assert check.expected == M.regex("done")

    def test_a_mapping_value_is_written_under_its_parameter_name(self) -> None:
        (check,) = checks_of("checks:\n  - output_equals: {expected: {status: ok}}\n")
        assert check.expected == {"status": "ok"}

    def test_siblings(self) -> None:
        (entry,) = (
            loads(
                "checks:\n  - max_tool_calls: 5\n    severity: soft\n    at_least: 0.5\n"
                "    label: efficiency\n    name: budget\n"
            )
            .cases[0]
            .entries
        )
        assert (entry.severity, entry.threshold, entry.label, entry.name) == (
            Severity.SOFT,
            0.5,
            "efficiency",
            "budget",
        )


class TestSelectors:
    def test_strings_and_mappings(self) -> None:
        from agent_asserts.selectors import on

        lines = [
            "checks:",
            "  - not_called_tool: {name: c, before: {tool: i, arguments: {n: {$gt: 1}}}}",
            "  - sequencing:",
            "    - {memory_set: {name: a.b, value: 1}}",
            "    - {skill_activated: {skill_id: x}}",
            "    - lookup",
            "    - {ordered_block_entered: {skill_id: s, block_id: b}}",
            "  - event: {selector: {event: {kind: audit, operation_ref: op-7}}}",
            "  - followed_by: [a, {subagent: researcher}]",
            "  - not_event: {selector: {memory_cleared: a.b}}",
            "  - event_order: [{message: {actor: user}}, tool_call]",
        ]
        suite = loads("\n".join(lines))
        checks = suite.cases[0].checks
        assert checks[0].before == on.tool("i", arguments={"n": M.gt(1)})
        assert checks[1].selectors == (
            on.memory_set("a.b", 1),
            on.skill("activated", "x"),
            "lookup",
            on.block("entered", "s", "b"),
        )
        assert checks[2].selector == on.event("audit", operation_ref="op-7")
        assert checks[3].next == on.subagent("researcher")
        assert load(suite.to_dict()) == suite

    def test_selector_problems(self) -> None:
        text = (
            "checks:\n  - sequencing: [{tol: x}, {memory_set: {nam: x}}, {tool: x, argumnts: 1}, 3]"
        )
        with pytest.raises(LoadError) as info:
            loads(text)
        assert str(info.value).splitlines() == [
            "<string>:2:18: checks[0].sequencing[0]: unknown selector 'tol' (did you mean 'tool'?)",
            "<string>:2:28: checks[0].sequencing[1]: unknown key 'nam' (did you mean 'name'?)",
            "<string>:2:52: checks[0].sequencing[2]: "
            "unknown key 'argumnts' (did you mean 'arguments'?)",
            "<string>:2:76: checks[0].sequencing[3]: must be a name or a selector mapping (got 3)",
        ]


class TestExpect:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("{value: reply, includes: A1049}", Includes(RecordField("reply"), "A1049")),
            (
                "{value: /orders/A1/status, equals: paid}",
                Equals(StatePath("/orders/A1/status"), "paid"),
            ),
            ("{value: /a, initial: true, equals: 1}", Equals(StatePath("/a", initial=True), 1)),
            (
                "{value: usage.total_tokens, equals: {$le: 10}}",
                Equals(RecordField("usage.total_tokens"), M.le(10)),
            ),
            ("{literal: [1, 2], equals: [1, 2]}", Equals(LiteralValue([1, 2]), [1, 2])),
            ("{value: reply, similarity: done}", Similarity(RecordField("reply"), "done")),
        ],
    )
    def test_sources_and_expectations(self, text: str, expected: Any) -> None:
        (check,) = checks_of(f"checks:\n  - expect: {text}\n")
        assert check == expected

    def test_chained_keys_inside_expect(self) -> None:
        (entry,) = (
            loads(
                "checks:\n  - expect: {value: reply, similarity: x, at_least: 0.9, severity: gate, "
                "label: l, name: n}\n"
            )
            .cases[0]
            .entries
        )
        assert (entry.threshold, entry.severity, entry.label, entry.name) == (
            0.9,
            Severity.GATE,
            "l",
            "n",
        )


class TestCasesAndRecords:
    def test_single_case_takes_the_file_stem(self, tmp_path: Path) -> None:
        path = tmp_path / "refund_checks.yml"
        path.write_text("checks: [succeeded]\n")
        suite = load(path)
        assert (suite.name, suite.cases[0].name, suite.dialect, suite.source) == (
            "refund_checks",
            "refund_checks",
            "native",
            str(path),
        )

    def test_cases_default_names_and_records(self, tmp_path: Path) -> None:
        path = tmp_path / "suite.yml"
        path.write_text(
            "record: runs/a.json\ncases:\n  - checks: [succeeded]\n"
            "  - name: own\n    record: runs/b.json\n    metadata: {tags: [x]}\n    checks: []\n"
        )
        suite = load(path)
        assert [(c.name, c.record_path) for c in suite.cases] == [
            ("suite[0]", tmp_path / "runs" / "a.json"),
            ("own", tmp_path / "runs" / "b.json"),
        ]
        assert suite.cases[1].metadata == {"tags": ["x"]}

    def test_evaluate_all_keeps_going_when_a_record_is_missing(self, tmp_path: Path) -> None:
        (tmp_path / "ok.json").write_text(json.dumps(demo_record().to_dict()))
        path = tmp_path / "suite.yml"
        path.write_text(
            "cases:\n"
            "  - {name: missing, record: nope.json, checks: [succeeded]}\n"
            "  - {name: none, checks: [succeeded]}\n"
            "  - {name: ok, record: ok.json, metadata: {tag: t}, checks: [succeeded]}\n"
        )
        results = load(path).evaluate_all()
        assert [(r.name, r.verdict) for r in results] == [
            ("missing", Verdict.FAILED),
            ("none", Verdict.FAILED),
            ("ok", Verdict.PASSED),
        ]
        assert results[0].error is not None and "nope.json" in results[0].error
        assert (
            results[1].error
            == "cannot load the record: case 'none' names no record file (add 'record:')"
        )
        assert results[2].metadata == {"tag": "t"}

    def test_examples_evaluate(self) -> None:
        results = load(EXAMPLES / "refunds.suite.yml").evaluate_all()
        assert [(r.name, r.verdict) for r in results] == [
            ("happy path", Verdict.PASSED),
            ("amounts and state", Verdict.PASSED),
        ]

    def test_suite_evaluate_runs_every_case_on_one_record(self) -> None:
        suite = loads(
            "cases:\n  - {name: a, checks: [succeeded]}\n  - {name: b, checks: [{max_steps: 1}]}\n"
        )
        assert [r.verdict for r in suite.evaluate(demo_record())] == [
            Verdict.PASSED,
            Verdict.FAILED,
        ]


class TestEvaluation:
    def test_a_raising_check_does_not_stop_the_others(self) -> None:
        class Boom(MaxSteps):
            def evaluate(self, record: Any) -> Any:
                raise RuntimeError("boom")

        case = Case("c", (CheckEntry(Boom(1)), CheckEntry(MaxSteps(10))))
        result = case.evaluate(demo_record())
        assert [r.status.value for r in result.results] == ["evaluator_error", "pass"]

    def test_judge_is_passed_on(self) -> None:
        from agent_asserts.judges import JudgeResponse

        seen: list[str] = []

        def judge(request: Any) -> Any:
            seen.append(request.criterion)
            return JudgeResponse(score=1.0)

        suite = loads("checks:\n  - judge: {criterion: polite}\n", judge=judge)
        (result,) = suite.evaluate(demo_record())
        assert seen == ["polite"]
        assert result.verdict is Verdict.PASSED


class TestLoadApi:
    def test_forced_dialect(self) -> None:
        assert loads("checks: [succeeded]", dialect="native").dialect == "native"

    def test_unknown_forced_dialect(self) -> None:
        with pytest.raises(
            ValueError, match="unknown dialect 'natve' \\(did you mean 'native'\\?\\)"
        ):
            loads("checks: []", dialect="natve")

    def test_loads_name(self) -> None:
        with pytest.raises(LoadError, match=r"^refunds\.yml:1:9: checks: must be a list"):
            loads("checks: 3", name="refunds.yml")
        assert loads("checks: []", name="dir/refunds.yml").name == "refunds"

    def test_bad_source_type(self) -> None:
        with pytest.raises(TypeError):
            load(42)  # type: ignore[arg-type]

    def test_every_check_method_is_in_the_all_checks_example(self) -> None:
        from agent_asserts.loaders.nodes import to_plain
        from agent_asserts.loaders.source import parse_file

        doc = to_plain(parse_file(EXAMPLES / "all-checks.suite.yml"))
        used = {next(iter(e)) if isinstance(e, dict) else e for e in doc["checks"]}
        assert set(check_signatures()) - used == set()

    def test_json_file_without_pyyaml(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setitem(sys.modules, "yaml", None)  # import yaml now raises ImportError
        path = tmp_path / "s.json"
        path.write_text('{"checks": [{"max_steps": "5"}, {"used_no_tools": null}]}')
        with pytest.raises(LoadError) as info:
            load(path)
        assert str(info.value) == f"{path}: checks[0].max_steps: must be an integer (got '5')"
        path.write_text('{"checks": [{"max_steps": 5}]}')
        assert load(path).cases[0].checks == (MaxSteps(5),)
        assert loads('{"checks": ["succeeded"]}').cases[0].entries[0].check.method == "succeeded"
        with pytest.raises(ImportError, match="PyYAML"):
            loads("checks: [succeeded]")

    def test_suite_equality_ignores_source(self) -> None:
        a = loads("checks: [succeeded]")
        b = load({"name": "suite", "checks": ["succeeded"]})
        assert a == b
        assert isinstance(a, Suite)
