"""The "add a check" recipe of docs/design/architecture.md, followed with a throwaway module: the
check class (step 1), its fluent method (step 2, here a mixin as in ``fluent/<family>.py``) and
the regenerated schema (step 3) pass the parity test, and the check works from Python and
from a native suite file."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from test_parity import parity_problems

from agent_asserts import EvalContext, TrialRecord
from agent_asserts.checks import all_checks, unregister_check
from agent_asserts.loaders import loads
from agent_asserts.loaders.schema import native_schema

MODULE = '''
"""A throwaway check family: the reply ends with a suffix."""
from typing import ClassVar

import attrs

from agent_asserts.checks import Check, Outcome, register_check


@register_check
@attrs.frozen
class ReplyEndsWith(Check):
    method: ClassVar[str] = "reply_ends_with"
    positional: ClassVar[tuple[str, ...]] = ("suffix",)
    suffix: str

    def evaluate(self, record):
        reply = record.reply or ""
        return Outcome.of(reply.endswith(self.suffix), message=f"the reply is {reply!r}")


class ReplyMethods:
    def reply_ends_with(self, suffix):
        """The reply ends with ``suffix``."""
        return self.record_check(ReplyEndsWith(suffix))
'''


@pytest.fixture
def family(tmp_path: Path) -> Iterator[ModuleType]:
    loads("checks: [succeeded]")  # a suite loaded before the check exists: no stale table
    (tmp_path / "throwaway_reply_checks.py").write_text(textwrap.dedent(MODULE), "utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("throwaway_reply_checks")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("throwaway_reply_checks", None)
        unregister_check("reply_ends_with")


def test_recipe_add_a_check_three_pieces_pass_the_parity_test(family: ModuleType) -> None:
    context = type("Context", (family.ReplyMethods, EvalContext), {})
    registered = {"reply_ends_with": all_checks()["reply_ends_with"]}
    assert parity_problems(registered, context, native_schema()) == []
    assert parity_problems(registered, EvalContext, native_schema()) == [
        "reply_ends_with: EvalContext has no method 'reply_ends_with'"
    ]


def test_recipe_add_a_check_works_in_python_and_in_suite_files(family: ModuleType) -> None:
    record = TrialRecord.builder().agent("goodbye").build()
    context = type("Context", (family.ReplyMethods, EvalContext), {})
    assert context(record).reply_ends_with("bye").result.passed
    (result,) = loads("checks: [{reply_ends_with: bye}]").evaluate(record)
    assert [(r.name, r.passed) for r in result.results] == [("reply_ends_with:bye", True)]
