"""The argument checks are installed once, when the guarded class is imported: a method
patched on the class afterwards keeps its patch, and the checks do not depend on which method
is called first.

Each test runs in a fresh interpreter, so nothing another test of the suite called or patched
can hide an order dependence.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout.strip()


def test_a_spy_patched_before_any_call_stays_in_place() -> None:
    out = _run(
        """
        from agent_asserts import EvalContext
        from agent_asserts.checks.traces import MaxSteps
        from agent_asserts.testing import demo_record

        original = EvalContext.record_check
        calls = []

        def spy(self, *args, **kwargs):
            calls.append(1)
            return original(self, *args, **kwargs)

        EvalContext.record_check = spy
        for _ in range(3):
            EvalContext(demo_record()).record_check(MaxSteps(9))
        print(len(calls), EvalContext.record_check is spy)
        """
    )
    assert out == "3 True"


def test_a_method_is_the_same_checked_function_before_and_after_its_first_call() -> None:
    out = _run(
        """
        from agent_asserts import EvalContext
        from agent_asserts.testing import demo_record

        before = EvalContext.called_tool
        ctx = EvalContext(demo_record())
        ctx.called_tool("refunds_lookup")
        print(EvalContext.called_tool is before)
        try:
            ctx.called_tool(3)
        except TypeError as error:
            print(error)
        """
    )
    assert out.splitlines() == [
        "True",
        "EvalContext.called_tool(): 'name' must be str, got int (3)",
    ]


def test_the_checks_do_not_depend_on_which_method_is_called_first() -> None:
    code = """
        from agent_asserts import EvalContext, M, on
        from agent_asserts.testing import demo_record

        ctx = EvalContext(demo_record())
        calls = {{
            "tool": lambda: ctx.called_tool(3),
            "order": lambda: ctx.tool_order("refunds_lookup", 3),
            "gt": lambda: M.gt("3"),
            "on": lambda: on.tool("x", is_error="yes"),
        }}
        for name in {order!r}:
            try:
                calls[name]()
            except TypeError as error:
                print(name, error)
        """
    names = ["tool", "order", "gt", "on"]
    forward = _run(code.format(order=names)).splitlines()
    backward = _run(code.format(order=names[::-1])).splitlines()
    assert forward == backward[::-1]
    assert forward == [
        "tool EvalContext.called_tool(): 'name' must be str, got int (3)",
        "order EvalContext.tool_order(): 'names[1]' must be str, got int (3)",
        "gt M.gt(): 'bound' must be int or float, got str ('3')",
        "on on.tool(): 'is_error' must be bool or None, got str ('yes')",
    ]
