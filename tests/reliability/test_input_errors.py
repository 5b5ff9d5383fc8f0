"""Finding 5 (part): wrong types and huge integers are our errors, with where."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agent_asserts import TrialRecord
from agent_asserts._values import MAX_DEPTH, depth_message
from agent_asserts.errors import LoadError
from agent_asserts.loaders import load, loads
from agent_asserts.matching import M
from agent_asserts.matching.structural import as_matcher
from agent_asserts.record import RecordError


@pytest.mark.parametrize("item", [[1], {}, 3])
def test_a_surface_that_is_not_a_string_is_a_record_error(item: object) -> None:
    with pytest.raises(RecordError) as info:
        TrialRecord.from_dict({"surfaces": [item]})
    assert next(str(p) for p in info.value.problems).startswith("$.surfaces[0]: must be a string")


def test_a_suite_integer_past_pythons_digit_limit_is_a_load_error_with_position() -> None:
    with pytest.raises(LoadError) as info:
        loads("checks: [{max_steps: " + "9" * 5000 + "}]")
    assert str(info.value) == (
        "<string>:1:22: checks[0].max_steps: a number of 5000 digits is too long (the limit is "
        "4300 digits)"
    )


@pytest.mark.parametrize("key", ["bot_did_not_utter", "bot_uttered"])
def test_a_mantle_message_whose_only_field_has_a_custom_tag_is_a_load_error(key: str) -> None:
    with pytest.raises(LoadError) as info:
        loads(f"assertions:\n  - {key}:\n      utter_name: !x a\n", dialect="mantle")
    assert str(info.value) == (
        f"<string>:3:7: assertions[0].{key}: {key}() needs at least one of 'utter_name', "
        "'text_matches', 'buttons'\n"
        f"<string>:3:19: assertions[0].{key}.utter_name: unsupported tag '!x'"
    )


def _nested(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [500, 1_000, 100_000])
def test_a_deeply_nested_record_is_a_record_error_with_its_path(depth: int) -> None:
    data = {"final_state": {"a": _nested(depth)}}
    with pytest.raises(RecordError) as info:
        TrialRecord.from_dict(data)
    (problem,) = info.value.problems
    assert str(problem) == "$.final_state.a" + "[0]" * 198 + ": " + depth_message()
    assert depth_message() == "nested more than 200 levels deep (the limit of nesting)"


@pytest.mark.parametrize("depth", [500, 1_000, 100_000])
def test_deep_python_data_given_to_load_is_a_load_error_with_its_path(depth: int) -> None:
    with pytest.raises(LoadError) as info:
        load({"checks": [{"expect": {"value": "reply", "equals": _nested(depth)}}]})
    assert str(info.value) == (
        "<data>: checks[0].expect.equals" + "[0]" * 196 + ": " + depth_message()
    )


def test_data_at_the_depth_limit_still_decodes() -> None:
    record = TrialRecord.from_dict({"final_state": _nested(MAX_DEPTH - 1)})
    assert record.final_state is not None


@pytest.mark.parametrize("depth", [500, 100_000])
@pytest.mark.parametrize("make", [M.exact, M.partial, as_matcher])
def test_a_matcher_of_deep_python_data_is_a_value_error_with_its_path(
    depth: int, make: Callable[[object], object]
) -> None:
    with pytest.raises(ValueError, match="nested more than") as info:
        make(_nested(depth))
    assert str(info.value) == "expected value at $" + "[0]" * 200 + ": " + depth_message()
