"""The argument-type wrapper is installed on first call without undoing a later patch.

Each test runs in a fresh interpreter, so the guarded methods are still their first-call
stubs when the test patches them (within the suite, another test may have called them).
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


def test_a_spy_patched_before_the_first_call_stays_in_place() -> None:
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


def test_the_stub_still_installs_the_checked_wrapper_and_checks_types() -> None:
    out = _run(
        """
        from agent_asserts import EvalContext
        from agent_asserts.testing import demo_record

        stub = EvalContext.called_tool
        ctx = EvalContext(demo_record())
        ctx.called_tool("refunds_lookup")
        print(EvalContext.called_tool is not stub)
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
