"""One reader for a check's fields and its ``expect:`` entry, two kinds of location.

The same bad value goes through the suite-file loader (YAML nodes: ``file:line:col`` and a key
path) and through the cattrs converter (plain data: a JSON path). Both name the same problem,
each at its own location; where the two families of messages word a problem differently
(booleans, counts: the wordings tests and docs pin on each side), the difference is one table
(:class:`agent_asserts.checks.data.Reading`'s attributes), checked here too.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from agent_asserts.checks import Check
from agent_asserts.checks.data import CheckDataError, DataReading, Reading, TypeSpec, read_value
from agent_asserts.loaders import LoadError, loads
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.nodes import from_plain
from agent_asserts.serialization import converter

# entry (flow YAML, which is also the data), loader location, JSON path, the shared message
SAME_PROBLEM = {
    "a string field": (
        "{called_tool: {name: 3}}",
        "s.yml:1:31: checks[0].called_tool.name",
        "$.called_tool.name",
        "must be a string (got 3)",
    ),
    "null where a value is needed": (
        "{called_tool: {name: null}}",
        "s.yml:1:31: checks[0].called_tool.name",
        "$.called_tool.name",
        "is required (got null)",
    ),
    "an integer field": (
        "{max_steps: {n: five}}",
        "s.yml:1:26: checks[0].max_steps.n",
        "$.max_steps.n",
        "must be an integer (got 'five')",
    ),
    "a choice": (
        "{matches_trajectory: {reference: [a], order: random}}",
        "s.yml:1:55: checks[0].matches_trajectory.order",
        "$.matches_trajectory.order",
        "must be one of 'strict', 'in_order', 'unordered', 'subset', 'superset' (got 'random')",
    ),
    "a list item": (
        "{tool_order: {names: [lookup, 1]}}",
        "s.yml:1:40: checks[0].tool_order.names[1]",
        "$.tool_order.names[1]",
        "must be a string (got 1)",
    ),
    "a count's key": (
        "{called_tool: {name: x, count: {at_lest: 1}}}",
        "s.yml:1:42: checks[0].called_tool.count",
        "$.called_tool.count",
        "unknown key 'at_lest' (did you mean 'at_least'?)",
    ),
    "an operator": (
        "{called_tool: {name: x, arguments: {id: {$regx: '^A'}}}}",
        "s.yml:1:58: checks[0].called_tool.arguments.id.$regx",
        "$.called_tool.arguments.id['$regx']",
        "unknown operator '$regx' (did you mean '$regex'?)",
    ),
    "a selector": (
        "{not_called_tool: {name: x, before: {tol: y}}}",
        "s.yml:1:46: checks[0].not_called_tool.before",
        "$.not_called_tool.before",
        "unknown selector 'tol' (did you mean 'tool'?)",
    ),
    "a null selector": (
        "{followed_by: {name: x, next: null}}",
        "s.yml:1:40: checks[0].followed_by.next",
        "$.followed_by.next",
        "is required (got null)",
    ),
    "two expectations": (
        "{expect: {value: reply, includes: a, equals: b}}",
        "s.yml:1:47: checks[0].expect",
        "$.expect",
        "one expectation per 'expect:' (found 'includes' and 'equals')",
    ),
    "no expectation": (
        "{expect: {value: reply}}",
        "s.yml:1:19: checks[0].expect",
        "$.expect",
        "names no expectation (one of 'includes', 'equals', 'matches', 'similarity')",
    ),
    "an expectation's literal": (
        "{expect: {literal: {$regx: 1}, equals: 1}}",
        "s.yml:1:37: checks[0].expect.literal.$regx",
        "$.expect.literal['$regx']",
        "unknown operator '$regx' (did you mean '$regex'?)",
    ),
}


def _through_both(entry: str) -> tuple[str, str]:
    """The loader's error for ``checks: [entry]`` and the converter's for the entry's data."""
    with pytest.raises(LoadError) as loaded:
        loads(f"checks: [{entry}]", name="s.yml")
    with pytest.raises(CheckDataError) as structured:
        converter.structure(yaml.safe_load(entry), Check)
    return str(loaded.value), str(structured.value)


@pytest.mark.parametrize("case", list(SAME_PROBLEM))
def test_the_same_bad_value_is_the_same_problem_at_each_location(case: str) -> None:
    entry, at_position, at_path, message = SAME_PROBLEM[case]
    loaded, structured = _through_both(entry)
    assert loaded == f"{at_position}: {message}"
    assert structured == f"{at_path}: {message}"


@pytest.mark.parametrize(
    ("entry", "loaded", "structured"),
    [
        (
            "{called_tool: {name: x, is_error: 1}}",
            "s.yml:1:44: checks[0].called_tool.is_error: must be true or false (got 1)",
            "$.called_tool.is_error: must be a boolean (got 1)",
        ),
        (
            "{expect: {value: /a, initial: 1, includes: a}}",
            "s.yml:1:40: checks[0].expect.initial: must be true or false (got 1)",
            "$.expect.initial: must be a boolean (got 1)",
        ),
        (
            "{called_tool: {name: x, count: two}}",
            "s.yml:1:41: checks[0].called_tool.count: must be a count: an int, {at_least: n}, "
            "{at_most: n} or {between: [low, high]} (got 'two')",
            "$.called_tool.count: a count is an int, {at_least: n}, {at_most: n} or "
            "{between: [low, high]} (got 'two')",
        ),
        (
            "{called_tool: {name: x, count: -1}}",
            "s.yml:1:41: checks[0].called_tool.count: must be >= 0 (got -1)",
            "$.called_tool.count: a count takes an int >= 0 (got -1)",
        ),
    ],
)
def test_the_families_word_booleans_and_counts_their_own_way(
    entry: str, loaded: str, structured: str
) -> None:
    assert _through_both(entry) == (loaded, structured)


@pytest.mark.parametrize(
    ("value", "spec", "problem"),
    [
        (["a", 2], TypeSpec("list", item=TypeSpec("str")), ("[1]", "must be a string (got 2)")),
        ("x", TypeSpec("float"), ("", "must be a number (got 'x')")),
        ({"at_least": 1, "at_most": 2}, TypeSpec("count"), ("", "2 keys")),
        (lambda: 1, TypeSpec("callable", nullable=True), ("", "takes a Python callable")),
    ],
)
def test_read_value_reports_through_either_reading(
    value: Any, spec: TypeSpec, problem: tuple[str, str]
) -> None:
    data_problems: list[tuple[str, str]] = []
    nodes = ProblemCollector("<data>")
    data: Reading[Any] = DataReading(data_problems)
    assert read_value((value, "$"), spec, data) == read_value(from_plain(value), spec, nodes)
    where, words = problem
    ((data_path, data_message),) = data_problems
    (node_problem,) = nodes.problems
    assert data_path == "$" + where and node_problem.path == where
    assert words in data_message and words in node_problem.message


def test_null_is_a_value_of_an_any_field_in_data_only() -> None:
    """A check's data form may hold null (``MemoryWasSet(name, None)``); a suite file's
    ``null`` where a value is needed is a forgotten value."""
    problems: list[tuple[str, str]] = []
    assert read_value((None, "$.value"), TypeSpec("any"), DataReading(problems)) is None
    assert problems == []
    nodes = ProblemCollector("<data>")
    assert read_value(from_plain(None, path=("value",)), TypeSpec("any"), nodes) is None
    assert [str(p) for p in nodes.problems] == ["<data>: value: is required (got null)"]


def test_a_bad_operator_in_a_selector_is_one_problem() -> None:
    with pytest.raises(LoadError) as caught:
        loads("checks: [{not_called_tool: {name: x, before: {tool: {$regx: 1}}}}]", name="s.yml")
    assert str(caught.value) == (
        "s.yml:1:61: checks[0].not_called_tool.before.tool.$regx: unknown operator '$regx' "
        "(did you mean '$regex'?)"
    )


def test_an_unreadable_count_is_reported_once() -> None:
    with pytest.raises(LoadError) as caught:
        loads("checks: [{called_tool: {name: x, count: !!foo 1}}]", name="s.yml")
    assert str(caught.value) == "s.yml:1:41: checks[0].called_tool.count: unsupported tag '!!foo'"
