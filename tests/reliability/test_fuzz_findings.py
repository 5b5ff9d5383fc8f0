"""Regression tests for the crashes the fuzz properties of ``tests/fuzz`` found (issue #17):
each raised something other than the documented ``LoadError``/``RecordError``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_asserts.loaders import LoadError, load, loads
from agent_asserts.record import RecordError
from agent_asserts.record.adapters import records_from_data
from agent_asserts.record.reading import STREAM_ABOVE, iter_records

TOO_DEEP = "nested more than 200 levels deep (the limit of nesting)"


def test_suite_text_with_a_lone_surrogate_is_a_load_error() -> None:
    # was UnicodeEncodeError from the YAML parser
    with pytest.raises(LoadError) as caught:
        loads("name: x\nchecks: [{expect: {value: reply, includes: '\ud800'}}]\n")
    assert str(caught.value) == (
        "<string>:2:45: invalid text: a lone surrogate '\\ud800' (not a Unicode character)"
    )


@pytest.mark.parametrize(
    ("opening", "closing", "levels", "message"),
    [
        ("[", "]", 250, f"[0]: {TOO_DEEP}"),
        ('{"a": ', "}", 600, f".a: {TOO_DEEP}"),  # was RecursionError in loaders/nodes.py
        ("[", "]", 600, "<string>: invalid JSON: the document is nested too deeply"),
    ],
)
def test_json_suite_text_nested_past_the_limit_is_a_load_error(
    opening: str, closing: str, levels: int, message: str
) -> None:
    text = '{"checks": [{"expect": {"value": "reply", "equals": ' + opening * levels
    text += "1" + closing * levels + "}}]}"
    with pytest.raises(LoadError) as caught:
        loads(text)
    assert str(caught.value).endswith(message)


def test_yaml_suite_text_within_the_limit_loads() -> None:
    inner = "[" * 190 + "1" + "]" * 190
    suite = loads(f"checks: [{{expect: {{value: reply, equals: {inner}}}}}]")
    assert len(suite.cases) == 1


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"a": value}
    return value


def _ces(extra: Any) -> dict[str, Any]:
    return {"name": "run", "detailed_trace": ["User: hi", "Agent Text: hello"], "extra": extra}


def test_an_adapter_refuses_a_document_nested_past_the_limit() -> None:
    # was RecursionError in the ces adapter (its metadata walk) at about 900 levels
    with pytest.raises(RecordError) as caught:
        list(records_from_data(_ces(_deep(900)), "ces", source="run.json"))
    (problem,) = caught.value.problems
    assert str(problem) == f"run.json: $.extra{'.a' * 199}: {TOO_DEEP}"
    assert list(records_from_data(_ces(_deep(150)), "ces"))  # within the limit: read


def test_a_large_record_file_nested_past_the_limit_is_a_record_error(tmp_path: Path) -> None:
    # a file over STREAM_ABOVE is sampled by a streaming reader: was RecursionError there
    path = tmp_path / "run.json"
    padding = "x" * STREAM_ABOVE
    path.write_text(json.dumps({"padding": padding, "deep": _deep(900)}))
    with pytest.raises(RecordError) as caught:
        list(iter_records(path))
    assert str(caught.value.problems[0]).endswith(f"$.deep{'.a' * 199}: {TOO_DEEP}")


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("op", {"a": 1}, "require.op: must be one of 'equals', 'contains', 'matches_schema', "
         "'count_at_most', 'precedes', 'follows_within', 'has_matching', 'matcher' (got {'a': 1})"),
        ("op", ["equals"], "require.op: must be one of 'equals', 'contains', 'matches_schema', "
         "'count_at_most', 'precedes', 'follows_within', 'has_matching', 'matcher' "
         "(got ['equals'])"),
        ("matcher", {"a": 1}, "require.matcher: must be one of 'exact', 'structural', "
         "'semantic', 'grounded_semantic', 'custom' (got {'a': 1})"),
    ],
)  # fmt: skip
def test_a_contract_op_or_matcher_that_is_no_name_is_a_load_error(
    key: str, value: Any, message: str
) -> None:
    # was TypeError (unhashable type) in contract/validate.py
    require: dict[str, Any] = {"op": "matcher", "left": "s", "right": 1, key: value}
    document = {"bind": {"s": {"from": "final_state", "path": "/a"}}, "require": require}
    with pytest.raises(LoadError) as caught:
        load(document)
    assert str(caught.value) == f"<data>: {message}"


def test_gemini_system_instruction_parts_that_are_not_text_are_left_out() -> None:
    # was TypeError (joining an int)
    doc = {"systemInstruction": {"parts": [{"text": 99}, {"text": "be brief"}]},
           "contents": [{"role": "user", "parts": [{"text": "hi"}]}]}  # fmt: skip
    (record,) = records_from_data(doc, "gemini")
    assert [(e.kind, e.payload.text) for e in record.events] == [
        ("message", "be brief"),
        ("message", "hi"),
    ]


def test_an_openai_chat_response_whose_message_is_no_object_is_a_parse_error() -> None:
    # was AttributeError ('str' object has no attribute 'get')
    doc = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}],
           "response": {"object": "chat.completion", "choices": [{"message": "yo"}]}}  # fmt: skip
    for fmt in ("openai-chat", "auto"):
        (record,) = records_from_data(doc, fmt)
        assert record.reply == "yo"
        assert [str(e.reason) for e in record.parse_errors] == ["a completion without a message"]


def test_a_message_whose_role_is_no_string_is_a_parse_error_when_detecting() -> None:
    # was TypeError (unhashable type: 'dict') in the OpenAI Chat shape test
    (record,) = records_from_data([{"type": "message", "role": {"a": 1}}], "auto")
    assert [e.reason for e in record.parse_errors] == ["a message with an unknown role {'a': 1}"]


def test_an_object_whose_attributes_raise_is_a_record_error() -> None:
    # found by tests/fuzz/test_fuzz_objects.py: RuntimeError from the hint's method probe
    from agent_asserts.record.adapters.objects import plain_data

    with pytest.raises(RecordError) as caught:
        plain_data({"a": [_Hostile()]})
    assert str(caught.value.problems[0]).startswith(
        "$.a[0]: cannot read an object of type '_Hostile' (test_fuzz_findings._Hostile) as trace "
        "data: pass JSON data"
    )


class _Hostile:
    def __getattr__(self, name: str) -> object:
        raise RuntimeError(name)
