"""A pattern wrapped in slashes gets a hint in its failure message."""

from __future__ import annotations

from agent_asserts import EvalContext, M, TrialRecord


def test_regex_mismatch_hints_at_slashes() -> None:
    (mismatch,) = M.regex(r"/order\s+#\d+/").explain("order #12")
    assert mismatch.reason == (
        r"expected a match of '/order\\s+#\\d+/', got 'order #12' (the pattern is wrapped in "
        r"slashes, which match literal '/' here: write 'order\\s+#\\d+')"
    )
    assert M.regex(r"order\s+#\d+").explain("x")[0].reason == (
        r"expected a match of 'order\\s+#\\d+', got 'x'"
    )


def test_output_matches_and_bot_uttered_hint() -> None:
    rec = TrialRecord.builder().agent("Refund issued for order #12").build()
    ctx = EvalContext(rec)
    assert ctx.output_matches("/refund/i").result.message == (
        "the reply does not match '/refund/i' (the pattern is wrapped in slashes, which match "
        "literal '/' here: write '(?i)refund')"
    )
    assert ctx.output_matches("(?i)refund").result.passed
    result = ctx.bot_uttered(text_matches="/Refund/").result
    assert "write 'Refund'" in str(result.mismatches[0])
