"""``matches_trajectory``: every order mode × argument mode, passing and failing, groups,
the greedy trap, the aligned diff, the native key and argument errors."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts import EvalContext, M, TrialRecord
from agent_asserts.checks.trajectory_match import (
    ANY_ARGUMENTS,
    Call,
    Calls,
    CallSpec,
    MatchesTrajectory,
    References,
    ordered_pairs,
    unordered_pairs,
)
from agent_asserts.loaders import loads


def rec(*calls: tuple[str, dict[str, Any]]) -> TrialRecord:
    b = TrialRecord.builder()
    for name, arguments in calls:
        b.tool(name, arguments=arguments)
    return b.build()


def status(reference: Any, record: TrialRecord, **options: Any) -> str:
    return MatchesTrajectory(reference, **options).evaluate(record).status.value


LOOKUP = ("lookup", {"id": "A1", "verbose": True})
ISSUE = ("issue", {"id": "A1", "amount": 42})
NOTIFY = ("notify", {"to": "x"})

# The reference each argument mode accepts for a call LOOKUP: exact needs every key,
# superset (expected ⊆ actual) a part, subset (actual ⊆ expected) a wider mapping.
REFERENCE_LOOKUP = {
    "exact": ("lookup", {"id": "A1", "verbose": True}),
    "superset": ("lookup", {"id": "A1"}),
    "subset": ("lookup", {"id": "A1", "verbose": True, "page": 2}),
    "ignore": ("lookup", {"id": "zzz"}),
}
WRONG_LOOKUP = {
    "exact": ("lookup", {"id": "A1"}),
    "superset": ("lookup", {"id": "A2"}),
    "subset": ("lookup", {"id": "A1"}),
    "ignore": ("lookup_other", {}),
}
ISSUE_EXACT = ("issue", {"id": "A1", "amount": 42})
ISSUE_BY_MODE = {
    "exact": ISSUE_EXACT,
    "superset": ("issue", {"amount": 42}),
    "subset": ("issue", {"id": "A1", "amount": 42, "note": ""}),
    "ignore": ("issue", {}),
}
MODES = ["exact", "superset", "subset", "ignore"]
ORDERS = ["strict", "in_order", "unordered", "subset", "superset"]


@pytest.mark.parametrize("arguments", MODES)
@pytest.mark.parametrize("order", ORDERS)
def test_same_calls_same_order_pass_in_every_mode(order: str, arguments: str) -> None:
    reference = [REFERENCE_LOOKUP[arguments], ISSUE_BY_MODE[arguments]]
    out = MatchesTrajectory(reference, order=order, arguments=arguments).evaluate(
        rec(LOOKUP, ISSUE)
    )
    assert (out.status.value, out.score) == ("pass", 1.0)
    assert out.details["precision"] == out.details["recall"] == 1.0


@pytest.mark.parametrize("arguments", MODES)
@pytest.mark.parametrize("order", ORDERS)
def test_wrong_arguments_fail_in_every_mode(order: str, arguments: str) -> None:
    # The reference's first call is wrong for this argument mode; the run makes only it and
    # ISSUE, so every mode has a missing or an unexpected call.
    reference = [WRONG_LOOKUP[arguments], ISSUE_BY_MODE[arguments]]
    out = MatchesTrajectory(reference, order=order, arguments=arguments).evaluate(
        rec(LOOKUP, ISSUE)
    )
    assert out.status.value == "fail"
    assert 0.0 < out.score < 1.0


# (run, reference) by order mode: what passes and what fails with plain names.
ORDER_CASES = {
    "strict": (["a", "b", "c"], ["a", "b", "c"], ["a", "c", "b"]),
    "in_order": (["a", "x", "b", "c"], ["a", "c"], ["c", "a"]),
    "unordered": (["a", "b", "c"], ["c", "a", "b"], ["a", "b"]),
    "subset": (["a", "b"], ["a", "b", "c"], ["a"]),
    "superset": (["a", "b", "c"], ["c", "a"], ["a", "d"]),
}


@pytest.mark.parametrize("arguments", MODES)
@pytest.mark.parametrize("order", ORDERS)
def test_order_modes_pass_and_fail_in_every_argument_mode(order: str, arguments: str) -> None:
    run, good, bad = ORDER_CASES[order]
    record = rec(*[(n, {"k": n}) for n in run])
    ref_args = {
        "exact": lambda n: {"k": n},
        "superset": lambda n: {},
        "subset": lambda n: {"k": n, "more": 1},
        "ignore": lambda n: {"other": 1},
    }[arguments]
    assert status([(n, ref_args(n)) for n in good], record, order=order, arguments=arguments) == (
        "pass"
    )
    assert status([(n, ref_args(n)) for n in bad], record, order=order, arguments=arguments) == (
        "fail"
    )


def test_strict_failure_message_is_an_aligned_diff() -> None:
    record = rec(LOOKUP, ("issue", {"id": "A1", "amount": 40}), NOTIFY)
    out = MatchesTrajectory([LOOKUP, ISSUE]).evaluate(record)
    assert out.message == (
        "the run does not match the reference (order 'strict', arguments 'exact'): "
        "1 missing, 2 unexpected; matched 1 of 2 reference calls\n"
        "  = ref[0] lookup({'id': 'A1', 'verbose': True}) at e0\n"
        "  - ref[1] issue({'id': 'A1', 'amount': 42}) missing\n"
        "      closest e1: $.arguments.amount: expected 42, got 40\n"
        "  + e1 issue({'id': 'A1', 'amount': 40}) unexpected\n"
        "  + e2 notify({'to': 'x'}) unexpected"
    )
    assert out.details["missing"] == [1]
    assert out.details["unexpected"] == ["e1", "e2"]


def test_out_of_order_call_says_where_it_ran() -> None:
    out = MatchesTrajectory(["issue", "lookup"], arguments="ignore").evaluate(rec(LOOKUP, ISSUE))
    assert out.message == (
        "the run does not match the reference (order 'strict', arguments 'ignore'): "
        "1 missing, 1 unexpected; matched 1 of 2 reference calls\n"
        "  + e0 lookup({'id': 'A1', 'verbose': True}) unexpected\n"
        "  = ref[0] issue(…) at e1\n"
        "  - ref[1] lookup(…) missing\n"
        "      a matching call ran out of order at e0"
    )


def test_missing_tool_says_it_never_ran() -> None:
    out = MatchesTrajectory(["lookup", "refund"], order="superset").evaluate(rec(LOOKUP))
    assert out.message.splitlines()[-2:] == [
        "  - ref[1] refund(…) missing",
        "      no call of 'refund' in the run",
    ]


def test_exact_mode_reports_extra_keys_with_paths() -> None:
    out = MatchesTrajectory([("lookup", {"id": "A1"})]).evaluate(rec(LOOKUP))
    assert "      closest e0: $.arguments.verbose: unexpected key (got True)" in out.message


def test_score_is_f1_with_precision_and_recall_in_details() -> None:
    # reference of 4, run of 2 (both matching): precision 1, recall 0.5, F1 2/3
    out = MatchesTrajectory(["a", "b", "c", "d"], order="unordered").evaluate(
        rec(("a", {}), ("b", {}))
    )
    assert out.details["precision"] == 1.0
    assert out.details["recall"] == 0.5
    assert out.score == pytest.approx(2 / 3)


def test_subset_and_superset_do_not_count_what_they_allow() -> None:
    record = rec(("a", {}), ("x", {}))
    sub = MatchesTrajectory(["a", "b"], order="subset").evaluate(record)
    assert (sub.details["precision"], sub.details["recall"]) == (0.5, 1.0)
    sup = MatchesTrajectory(["a", "b"], order="superset").evaluate(record)
    assert (sup.details["precision"], sup.details["recall"]) == (1.0, 0.5)


def test_greedy_trap_passes() -> None:
    # The loose first reference call must not take the only partner of the strict one.
    record = rec(("A", {"x": 1}), ("A", {"x": 2}))
    reference = [("A", M.anything()), ("A", {"x": 1})]
    for order in ("unordered", "subset", "superset"):
        assert status(reference, record, order=order) == "pass", order
    assert status([{"name": "A"}, ("A", {"x": 1})], record, order="unordered") == "pass"
    assert status(reference, record, order="unordered", arguments="superset") == "pass"


def test_greedy_trap_unordered_pairs_is_maximum() -> None:
    specs = [
        CallSpec.build({"name": "A", "arguments": M.anything()}, "exact", 0),
        CallSpec.build({"name": "A", "arguments": {"x": 1}}, "exact", 1),
    ]
    calls = Calls.of([Call("A", {"x": 1}, 0), Call("A", {"x": 2}, 1)])
    assert unordered_pairs(References(specs), calls) == [1, 0]


def _groups(*names_and_blocks: tuple[str, int]) -> Calls:
    return Calls.of([Call(name, {}, block) for name, block in names_and_blocks])


def test_parallel_group_calls_pair_in_any_order() -> None:
    specs = [CallSpec.build({"name": n}, "exact", i) for i, n in enumerate(["a", "b", "c"])]
    # b and a share a block (one model response), c comes after
    refs = References(specs)
    assert ordered_pairs(refs, _groups(("b", 0), ("a", 0), ("c", 1))) == [1, 0, 2]
    # without the group, b before a is out of order
    assert ordered_pairs(refs, _groups(("b", 0), ("a", 1), ("c", 2))) == [1, -1, 2]


def test_parallel_group_reassigns_within_the_group() -> None:
    # the greedy trap inside one parallel group: re-pairing keeps both reference calls
    specs = [
        CallSpec.build({"name": "A"}, "exact", 0),
        CallSpec.build({"name": "A", "arguments": {"x": 1}}, "superset", 1),
    ]
    calls = Calls.of([Call("A", {"x": 1}, 0), Call("A", {"x": 2}, 0)])
    assert sorted(ordered_pairs(References(specs), calls)) == [0, 1]
    later = Calls.of([Call("A", {"x": 1}, 0), Call("A", {"x": 2}, 1)])
    assert ordered_pairs(References(specs), later) == [0, -1]


def test_reference_record_and_pairs() -> None:
    reference = rec(LOOKUP, ISSUE)
    assert status(reference, rec(LOOKUP, ISSUE)) == "pass"
    assert status([LOOKUP, ISSUE], rec(LOOKUP, ISSUE)) == "pass"
    assert status([{"name": "lookup"}, {"name": "issue", "arguments": ISSUE[1]}], reference) == (
        "pass"
    )


def test_per_tool_modes_and_matcher_and_callable_modes() -> None:
    record = rec(LOOKUP, ISSUE)
    reference = [("lookup", {}), ISSUE_EXACT]
    assert status(reference, record) == "fail"
    assert status(reference, record, tools={"lookup": "ignore"}) == "pass"
    assert status(reference, record, tools={"lookup": M.partial({"id": M.regex("^A")})}) == "pass"

    def same_id(expected: Any, actual: Any) -> bool:
        return bool(expected.get("id") == actual.get("id"))

    by_id = [("lookup", {"id": "A1"}), ("issue", {"id": "A1"})]
    assert status(by_id, record, arguments=same_id) == "pass"
    out = MatchesTrajectory([("lookup", {"id": "B"})], arguments=same_id, order="superset")
    assert "closest e0: $.arguments: same_id rejected" in out.evaluate(record).message


def test_callable_that_raises_is_an_evaluator_error() -> None:
    def boom(expected: Any, actual: Any) -> bool:
        raise ValueError("no")

    out = MatchesTrajectory([("lookup", {"id": 1})], arguments=boom).evaluate(rec(LOOKUP))
    assert (out.status.value, out.message) == ("evaluator_error", "boom raised ValueError: no")


def test_empty_reference_and_empty_run() -> None:
    assert status([], rec()) == "pass"
    out = MatchesTrajectory([]).evaluate(rec(LOOKUP))
    assert (out.status.value, out.score) == ("fail", 0.0)


def test_no_tool_surface_is_invalid() -> None:
    record = TrialRecord.from_dict({"events": [], "surfaces": ["message"]})
    out = MatchesTrajectory(["a"]).evaluate(record)
    assert out.message == "the record has no 'tool_call' surface (recorded: 'message')"


def test_fluent_method_and_soft_score() -> None:
    ctx = EvalContext(rec(LOOKUP))
    handle = ctx.matches_trajectory(["lookup", "issue"], arguments="ignore").soft()
    assert handle.result.name == "matches_trajectory"
    assert handle.result.score == pytest.approx(2 / 3)
    assert handle.result.evaluator.details["recall"] == 0.5
    assert ctx.verdict().value == "scored"


def test_native_key() -> None:
    suite = loads(
        """
checks:
  - matches_trajectory:
      reference:
        - {name: lookup, arguments: {id: {$regex: "^A"}}}
        - {name: issue}
      order: in_order
      arguments: superset
"""
    )
    (case,) = suite.evaluate(rec(LOOKUP, NOTIFY, ISSUE))
    assert case.verdict.value == "passed"
    (entry,) = suite.cases[0].checks
    assert entry.to_data() == {
        "matches_trajectory": {
            "reference": [
                {"name": "lookup", "arguments": {"id": {"$regex": "^A"}}},
                {"name": "issue"},
            ],
            "order": "in_order",
            "arguments": "superset",
        }
    }


def test_native_key_reports_a_bad_order() -> None:
    from agent_asserts.loaders import LoadError

    with pytest.raises(LoadError) as info:
        loads("checks:\n  - matches_trajectory: {reference: [a], order: sideways}\n")
    assert "order" in str(info.value)
    assert "sideways" in str(info.value)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (
            {"reference": "lookup"},
            TypeError,
            "matches_trajectory() parameter 'reference' takes a list of {name, arguments} "
            "mappings, (name, arguments) pairs or tool names, or a TrialRecord (got 'lookup')",
        ),
        (
            {"reference": [{"name": "a", "args": {}}]},
            ValueError,
            "reference[0]: unknown key 'args' (did you mean 'arguments'?)",
        ),
        (
            {"reference": [3]},
            TypeError,
            "reference[0]: must be a tool name, a {name, arguments} mapping or a "
            "(name, arguments) pair (got 3)",
        ),
        (
            {"reference": ["a"], "order": "any"},
            ValueError,
            "matches_trajectory() parameter 'order' takes one of 'strict', 'in_order', "
            "'unordered', 'subset', 'superset' (got 'any')",
        ),
        (
            {"reference": ["a"], "arguments": "partial"},
            ValueError,
            "matches_trajectory() parameter 'arguments' takes 'exact', 'subset', 'superset', "
            "'ignore', a matcher or a callable (got 'partial')",
        ),
        (
            {"reference": ["a"], "tools": {"a": 3}},
            TypeError,
            "matches_trajectory() parameter \"tools['a']\" takes 'exact', 'subset', "
            "'superset', 'ignore', a matcher or a callable (got 3)",
        ),
    ],
)
def test_bad_arguments_name_the_parameter(
    kwargs: dict[str, Any], error: type, message: str
) -> None:
    reference = kwargs.pop("reference")
    with pytest.raises(error) as info:
        EvalContext(rec()).matches_trajectory(reference, **kwargs)
    assert str(info.value) == message


def test_long_diff_is_capped() -> None:
    reference = [(f"t{i}", {}) for i in range(50)]
    out = MatchesTrajectory(reference, arguments="ignore").evaluate(rec(("t0", {})))
    lines = out.message.splitlines()
    assert lines[-1] == "  … and 29 more differences"
    assert len(lines) == 1 + 20 * 2 + 1


def test_long_diff_shows_the_first_differences_after_many_matched_rows() -> None:
    # 30 matched calls, then 12 missing and 15 unexpected: the first 20 differences in run
    # order (the unpaired reference calls come where the run was), the 7 others counted
    run = [(f"t{i}", {}) for i in range(30)] + [("x", {"n": n}) for n in range(15)]
    reference = [(f"t{i}", {}) for i in range(30)] + [("y", {"n": n}) for n in range(12)]
    out = MatchesTrajectory(reference).evaluate(rec(*run))
    lines = out.message.splitlines()
    assert lines[0].endswith(": 12 missing, 15 unexpected; matched 30 of 42 reference calls")
    assert lines[1:3] == ["  - ref[30] y({'n': 0}) missing", "      no call of 'y' in the run"]
    assert lines[23:25] == ["  - ref[41] y({'n': 11}) missing", "      no call of 'y' in the run"]
    assert lines[25] == "  + e30 x({'n': 0}) unexpected"
    assert lines[32] == "  + e37 x({'n': 7}) unexpected"
    assert lines[-1] == "  … and 7 more differences"
    assert len(lines) == 1 + 12 * 2 + 8 + 1


def grouped(*calls: tuple[str, dict[str, Any], str | None]) -> TrialRecord:
    b = TrialRecord.builder()
    for name, arguments, group in calls:
        b.tool(name, arguments=arguments, group_id=group)
    return b.build()


@pytest.mark.parametrize("arguments", MODES)
def test_strict_with_a_parallel_group_on_a_record(arguments: str) -> None:
    # lookup and issue were issued together (one model response) in the other order
    record = grouped(("issue", ISSUE[1], "r1"), ("lookup", LOOKUP[1], "r1"), ("notify", {}, None))
    reference = [REFERENCE_LOOKUP[arguments], ISSUE_BY_MODE[arguments], ("notify", {})]
    for order in ("strict", "in_order"):
        out = MatchesTrajectory(reference, order=order, arguments=arguments).evaluate(record)
        assert out.status.value == "pass", (order, out.message)
    # notify is not part of the group: before the group it is out of order
    late = [("notify", {}), REFERENCE_LOOKUP[arguments], ISSUE_BY_MODE[arguments]]
    out = MatchesTrajectory(late, order="strict", arguments=arguments).evaluate(record)
    assert out.status.value == "fail"
    assert out.details["missing"] == [1, 2]
    spec = CallSpec.build({"name": late[1][0], "arguments": late[1][1]}, arguments)
    assert out.message.splitlines()[-4:-2] == [
        f"  - ref[1] {spec.text()} missing",
        "      a matching call ran out of order at e1",
    ]


def test_without_the_group_the_same_record_fails_strict() -> None:
    record = grouped(("issue", ISSUE[1], None), ("lookup", LOOKUP[1], None))
    out = MatchesTrajectory([LOOKUP, ISSUE]).evaluate(record)
    assert out.status.value == "fail"
    assert out.details["missing"] == [1]


def test_greedy_trap_inside_a_parallel_group_on_a_record() -> None:
    record = grouped(("A", {"x": 1}, "g"), ("A", {"x": 2}, "g"))
    reference = [("A", M.anything()), ("A", {"x": 1})]
    assert status(reference, record, order="strict") == "pass"
    assert status(reference, grouped(("A", {"x": 1}, None), ("A", {"x": 2}, None))) == "fail"


def test_the_first_call_without_arguments_in_run_order_is_named() -> None:
    # the calls of the compared tools are read in run order or tool by tool; either way the
    # message names the earliest call whose arguments were not recorded
    record = TrialRecord.builder().tool("b").tool("a").tool("a", arguments={"x": 1}).build()
    for reference in ([("a", {"x": 1}), ("b", {})], [("b", {}), ("a", {"x": 1})]):
        out = MatchesTrajectory(reference, order="unordered").evaluate(record)
        assert out.status.value == "invalid"
        assert out.message.startswith("tool call e0 ('b') has no recorded arguments to compare")
    few = TrialRecord.builder().tool("c").tool("c").tool("c").tool("b").tool("a").build()
    out = MatchesTrajectory([("a", {})], order="superset").evaluate(few)
    assert out.message.startswith("tool call e4 ('a') has no recorded arguments to compare")


def test_evidence_and_unexpected_ids_come_from_the_record_index() -> None:
    record = TrialRecord.builder().user("hi").tool("a", {"x": 1}).agent("ok").tool("b", {}).build()
    assert record.index.event_ids == ("e0", "e1", "e2", "e3")
    out = MatchesTrajectory([("a", {"x": 1})], order="unordered").evaluate(record)
    assert out.evidence == ("e1",)
    assert out.details["unexpected"] == ["e3"]


def test_canonical_key_of_a_cycle_is_none_and_the_shared_encoder_keeps_no_state() -> None:
    from agent_asserts.checks.trajectory_match import canonical_key

    cyclic: dict[str, Any] = {"a": 1}
    cyclic["self"] = cyclic
    assert canonical_key(cyclic) is None
    assert canonical_key({"b": [1, 2.0], "a": cyclic["a"]}) == '{"a":1,"b":[1,2]}'
    deep: list[Any] = []
    inner = deep
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    with pytest.raises(RecursionError):
        canonical_key(deep)
    assert canonical_key([{"x": 1.0}]) == '[{"x":1}]'


def test_compiled_references_match_the_specs_built_one_by_one() -> None:
    calls = [
        {"name": "a", "arguments": {"x": 1.0}},
        {"name": "b", "arguments": {"y": 2}},
        {"name": "a"},
        {"name": "c", "arguments": {"z": M.gt(1)}},
    ]
    tools = {"b": "superset"}
    compiled = References.compile(calls, "exact", tools)
    one_by_one = References(
        [CallSpec.build(c, tools.get(str(c["name"]), "exact"), i) for i, c in enumerate(calls)]
    )
    for attribute in ("names", "keys", "by_name", "any_ids", "keyed_ids", "all_keyed", "compared"):
        assert getattr(compiled, attribute) == getattr(one_by_one, attribute), attribute
    assert compiled.keys[:3] == ['{"x":1}', None, ANY_ARGUMENTS]
    assert [repr(s) for s in compiled.specs] == [repr(s) for s in one_by_one.specs]
    assert compiled.specs is compiled.specs  # made once, on first use
