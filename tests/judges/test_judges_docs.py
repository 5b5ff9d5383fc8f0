"""docs/judges.md quotes the template exactly; ctx.judge is the fluent method."""

from __future__ import annotations

from pathlib import Path

from agent_asserts.context import EvalContext
from agent_asserts.judges import TEMPLATE, TEMPLATE_VERSION, callable_judge
from agent_asserts.record import TrialRecord

DOC = Path(__file__).resolve().parents[2] / "docs" / "judges.md"


def test_docs_quote_the_current_template() -> None:
    text = DOC.read_text(encoding="utf-8")
    marker = f"<!-- template {TEMPLATE_VERSION} -->\n```text\n"
    start = text.index(marker) + len(marker)
    quoted = text[start : text.index("```\n", start)]
    assert quoted == TEMPLATE


def test_ctx_judge_is_the_fluent_method() -> None:
    """``EvalContext(record, judge=j).judge(criterion)`` must reach the semantic check."""
    ctx = EvalContext(TrialRecord.builder().build(), judge=callable_judge(lambda p: True))
    assert ctx.judge("criterion").result.name == "judge:criterion"
