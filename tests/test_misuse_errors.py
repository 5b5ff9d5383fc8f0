"""Misuse errors name the method or parameter and what it accepts; the last traceback frame is
never attrs-generated code; agent_eval's relative paths."""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agent_asserts import EvalContext, M, on
from agent_asserts.testing import DEMO_RECORD, demo_record

ctx = EvalContext(demo_record())

MISUSES: list[tuple[Callable[[], Any], type[Exception], str]] = [
    (
        lambda: ctx.called_tool("refunds_issue", arguments="orderId=A1049"),
        TypeError,
        "called_tool() parameter 'arguments' takes a mapping, a list, a matcher or None, not a "
        "string (got 'orderId=A1049'; did you mean {'orderId': 'A1049'}?)",
    ),
    (
        lambda: ctx.not_called_tool("refunds_issue", "x"),
        TypeError,
        "not_called_tool() parameter 'arguments' takes a mapping, a list, a matcher or None, "
        "not a string (got 'x')",
    ),
    (
        lambda: on.tool("refunds_issue", arguments="a=1, b=2"),
        TypeError,
        "on.tool() parameter 'arguments' takes a mapping, a list, a matcher or None, not a "
        "string (got 'a=1, b=2'; did you mean {'a': '1', 'b': '2'}?)",
    ),
    (
        lambda: ctx.called_tool("x", count="1"),
        TypeError,
        "EvalContext.called_tool(): 'count' must be int, Count or None, got str ('1')",
    ),
    (
        lambda: ctx.max_steps("5"),
        TypeError,
        "EvalContext.max_steps(): 'n' must be int, got str ('5')",
    ),
    (
        lambda: ctx.called_tool("x", total=1),
        TypeError,
        "EvalContext.called_tool(): 'total' must be bool, got int (1)",
    ),
    (
        lambda: ctx.matches_trajectory("lookup"),
        TypeError,
        "matches_trajectory() parameter 'reference' takes a list of {name, arguments} "
        "mappings, (name, arguments) pairs or tool names, or a TrialRecord (got 'lookup')",
    ),
    (
        lambda: M.subset_of([1]),
        TypeError,
        "M.subset_of(): 'mapping' must be mapping, got list ([1])",
    ),
]


@pytest.mark.parametrize(("call", "error", "message"), MISUSES)
def test_misuse_message_and_last_frame(
    call: Callable[[], Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert "attrs generated" not in last.filename
    assert last.filename.endswith(".py") and "/attr/" not in last.filename


def test_agent_eval_resolves_relative_paths_against_the_test_folder(
    pytester: pytest.Pytester,
) -> None:
    sub = pytester.mkpydir("tests")
    (sub / "run.json").write_text(json.dumps(DEMO_RECORD))
    (sub / "test_rel.py").write_text(
        "def test_it(agent_eval):\n"
        "    assert agent_eval('run.json').called_tool('refunds_issue')\n"
        "def test_missing(agent_eval):\n"
        "    agent_eval('nope.json')\n"
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "tests")
    result.assert_outcomes(passed=1, failed=1)
    here = pytester.path
    result.stdout.fnmatch_lines(
        [
            f"*FileNotFoundError: agent_eval: no record file 'nope.json': looked for "
            f"{here}/tests/nope.json (the test file's folder) and {here}/nope.json "
            "(the current folder)"
        ]
    )


def test_agent_eval_paths_try_the_test_folder_first_then_the_current_folder(
    tmp_path: Path,
) -> None:
    from agent_asserts.pytest_support import resolve_relative

    tests, cwd = tmp_path / "tests", tmp_path / "cwd"
    tests.mkdir()
    cwd.mkdir()
    (cwd / "only_here.json").write_text("{}")
    (cwd / "both.json").write_text("{}")
    (tests / "both.json").write_text("{}")
    assert resolve_relative("both.json", tests, cwd) == tests / "both.json"
    assert resolve_relative("only_here.json", tests, cwd) == cwd / "only_here.json"
    assert resolve_relative(str(cwd / "x.json"), tests, cwd) == str(cwd / "x.json")
