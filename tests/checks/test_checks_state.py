"""State checks over the delta: changed, unchanged, only_changed."""

from __future__ import annotations

import pytest

from agent_asserts.checks.state import Changed, OnlyChanged, Unchanged
from agent_asserts.matching import M
from agent_asserts.record import TrialRecord
from agent_asserts.results import Status

S0 = {"orders": {"A1": {"status": "paid", "total": 10}, "B2": {"status": "paid"}}, "log": []}
SF = {
    "orders": {"A1": {"status": "refunded", "total": 10}, "B2": {"status": "paid"}},
    "log": ["refund"],
    "audit": {"n": 1},
}


def rec(initial: object = S0, final: object = SF) -> TrialRecord:
    return TrialRecord.from_dict({"events": [], "initial_state": initial, "final_state": final})


class TestChanged:
    def test_changed_entry(self) -> None:
        out = Changed("/orders/A1/status", before="paid", after="refunded").evaluate(rec())
        assert out.status is Status.PASS
        assert out.message == "/orders/A1/status changed: 'paid' -> 'refunded'"
        assert out.evidence == (
            {"path": "/orders/A1/status", "op": "changed", "before": "paid", "after": "refunded"},
        )
        assert out.observed["op"] == "changed"

    def test_after_mismatch(self) -> None:
        out = Changed("/orders/A1/status", after="void").evaluate(rec())
        assert out.status is Status.FAIL
        assert out.message == (
            "/orders/A1/status changed: 'paid' -> 'refunded', "
            "$.after: expected 'void', got 'refunded'"
        )
        assert [m.path for m in out.mismatches] == ["$.after"]

    def test_added_and_op(self) -> None:
        assert Changed("/audit", op="added").evaluate(rec()).status is Status.PASS
        out = Changed("/audit", op="removed").evaluate(rec())
        assert out.status is Status.FAIL
        assert out.message == "/audit added: {'n': 1}, expected op 'removed'"
        assert Changed("/audit", before=M.absent()).evaluate(rec()).status is Status.PASS

    def test_change_below_the_path(self) -> None:
        out = Changed("/orders/A1").evaluate(rec())
        assert out.status is Status.PASS
        assert out.evidence == (
            {"path": "/orders/A1/status", "op": "changed", "before": "paid", "after": "refunded"},
        )

    def test_change_above_the_path(self) -> None:
        out = Changed("/audit/n", after=1).evaluate(rec())
        assert out.status is Status.PASS
        assert out.evidence == ({"path": "/audit", "op": "added", "after": {"n": 1}},)

    def test_list_items(self) -> None:
        assert Changed("/log/0", op="added", after="refund").evaluate(rec()).status is Status.PASS

    def test_not_changed(self) -> None:
        out = Changed("/orders/B2/status").evaluate(rec())
        assert out.status is Status.FAIL
        assert out.message == "/orders/B2/status did not change"

    def test_path_in_neither_state_is_invalid(self) -> None:
        out = Changed("/orders/Z9").evaluate(rec())
        assert out.status is Status.INVALID
        assert "'/orders/Z9' exists in neither" in out.message

    def test_unrecorded_states_are_invalid(self) -> None:
        out = Changed("/a").evaluate(rec(initial=None))
        assert (out.status, out.message) == (Status.INVALID, "the record has no initial_state")
        out = Changed("/a").evaluate(rec(final=None))
        assert (out.status, out.message) == (Status.INVALID, "the record has no final_state")

    def test_strict_json_equality(self) -> None:
        assert Changed("/n").evaluate(rec({"n": 1}, {"n": True})).status is Status.PASS
        assert Changed("/n").evaluate(rec({"n": 2}, {"n": 2.0})).status is Status.FAIL

    def test_bad_arguments(self) -> None:
        with pytest.raises(ValueError, match="'path' must be a JSON Pointer"):
            Changed("orders")
        with pytest.raises(ValueError, match="'op' must be one of"):
            Changed("/a", op="modified")  # type: ignore[arg-type]

    def test_forms(self) -> None:
        check = Changed("/orders/A1/status", after="refunded")
        assert check.default_name() == "changed:/orders/A1/status"
        assert check.describe() == "changed('/orders/A1/status', after='refunded')"
        assert check.to_data() == {"changed": {"path": "/orders/A1/status", "after": "refunded"}}
        assert Changed("/a", op="added").describe() == "changed('/a', op='added')"


class TestUnchanged:
    def test_pass(self) -> None:
        out = Unchanged("/orders/B2").evaluate(rec())
        assert out.status is Status.PASS
        assert out.message == "/orders/B2 did not change"

    def test_change_below(self) -> None:
        out = Unchanged("/orders").evaluate(rec())
        assert out.status is Status.FAIL
        assert out.message == (
            "/orders changed (1 related change: changed /orders/A1/status: 'paid' -> 'refunded')"
        )
        assert out.evidence == (
            {"path": "/orders/A1/status", "op": "changed", "before": "paid", "after": "refunded"},
        )

    def test_change_above(self) -> None:
        out = Unchanged("/x/y").evaluate(rec({"x": {"y": 1}}, {}))
        assert out.status is Status.FAIL
        assert out.evidence == ({"path": "/x", "op": "removed", "before": {"y": 1}},)

    def test_invalid(self) -> None:
        assert Unchanged("/nothing").evaluate(rec()).status is Status.INVALID
        assert Unchanged("/a").evaluate(rec(final=None)).message == "the record has no final_state"

    def test_forms(self) -> None:
        assert Unchanged("/orders/B2").default_name() == "unchanged:/orders/B2"
        assert Unchanged("/orders/B2").to_data() == {"unchanged": {"path": "/orders/B2"}}


class TestOnlyChanged:
    def test_pass(self) -> None:
        out = OnlyChanged("/orders/A1", "/log", "/audit").evaluate(rec())
        assert out.status is Status.PASS
        assert out.message == "3 changes, all within /orders/A1, /log, /audit"
        assert len(out.evidence) == 3

    def test_fail_lists_the_other_changes(self) -> None:
        out = OnlyChanged("/orders/A1/status").evaluate(rec())
        assert out.status is Status.FAIL
        assert out.message == (
            "changed outside /orders/A1/status: changed /log: [] -> ['refund']; "
            "added /audit: {'n': 1}"
        )
        assert out.evidence == (
            {"path": "/log", "op": "changed", "before": [], "after": ["refund"]},
            {"path": "/audit", "op": "added", "after": {"n": 1}},
        )

    def test_prefix_is_by_token(self) -> None:
        out = OnlyChanged("/orders/A").evaluate(rec({"orders": {"AB": 1}}, {"orders": {"AB": 2}}))
        assert out.status is Status.FAIL

    def test_change_above_a_path_is_outside(self) -> None:
        out = OnlyChanged("/x/y").evaluate(rec({"x": {"y": 1, "z": 1}}, {}))
        assert out.status is Status.FAIL

    def test_no_paths_means_nothing_may_change(self) -> None:
        assert OnlyChanged().evaluate(rec(S0, S0)).status is Status.PASS
        out = OnlyChanged().evaluate(rec({"a": 1}, {"a": 2}))
        assert out.message == "nothing may change, but: changed /a: 1 -> 2"

    def test_invalid(self) -> None:
        assert OnlyChanged("/a").evaluate(rec(initial=None)).status is Status.INVALID
        with pytest.raises(ValueError, match="'paths' must be JSON Pointers"):
            OnlyChanged("a")

    def test_forms(self) -> None:
        check = OnlyChanged("/a", "/b")
        assert check.paths == ("/a", "/b")
        assert check.default_name() == "only_changed"
        assert check.describe() == "only_changed('/a', '/b')"
        assert check.to_data() == {"only_changed": {"paths": ["/a", "/b"]}}
