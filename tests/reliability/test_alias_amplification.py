"""Issue 25, High 2: alias amplification through large scalars.

A 10.8 KB YAML suite (a 10 KB anchored string aliased through two list levels) made a 991 MB
result name (``f"{method}:{primary}"``, repeated by the time-out message), 1.9 GB of memory and
31 s under ``timeout=1``: the alias budget counted nodes (99,000 of them), not their size.
"""

from __future__ import annotations

import time

import pytest

from agent_asserts import TrialRecord
from agent_asserts.checks.base import CUT, MAX_NAME_LENGTH, bounded_text
from agent_asserts.checks.outcome import OutputEquals
from agent_asserts.loaders import LoadError, loads
from agent_asserts.loaders.source import MAX_ALIAS_CHARS_ENV

pytest.importorskip("yaml")


def amplified(first: int, second: int, size: int = 10_000) -> str:
    """A suite whose ``output_equals`` list repeats a ``size``-character string
    ``first * second`` times through two levels of aliases."""
    strings = ", ".join(["*s"] * first)
    lists = ", ".join(["*l1"] * second)
    return (
        f"metadata:\n  s: &s {'A' * size}\n  l1: &l1 [{strings}]\n"
        f"checks:\n  - output_equals: [{lists}]\n"
    )


def test_the_issues_suite_is_refused_before_anything_is_built() -> None:
    text = amplified(99, 1_000)  # 15 KB of YAML, 991 MB once expanded
    assert len(text) < 16_000
    started = time.monotonic()
    with pytest.raises(LoadError) as raised:
        loads(text)
    assert time.monotonic() - started < 1.0
    assert str(raised.value) == (
        "<string>: alias expansion: the aliases of this document would add more than "
        f"10,000,000 characters of text (a 'billion laughs' document; set {MAX_ALIAS_CHARS_ENV}"
        " to change the limit)"
    )


def test_aliases_within_the_text_budget_still_load() -> None:
    suite = loads(amplified(10, 50))  # 5 MB of text gained: within the 10 MB budget
    (check,) = suite.cases[0].checks
    assert isinstance(check, OutputEquals)
    assert len(check.expected) == 50


def test_the_text_budget_is_set_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MAX_ALIAS_CHARS_ENV, "1000")
    with pytest.raises(LoadError, match="more than 1,000 characters of text"):
        loads(amplified(3, 3, size=100))
    loads(amplified(3, 3, size=10))  # 3 * 3 * 10: within it


def test_a_huge_primary_argument_gives_a_bounded_name_within_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(MAX_ALIAS_CHARS_ENV, str(10**10))  # the user widened the budget
    suite = loads(amplified(10, 300))  # a 30 MB name before the bound
    record = TrialRecord.builder().agent("hi").build()
    started = time.monotonic()
    result = suite.cases[0].evaluate(record, timeout=1)
    assert time.monotonic() - started < 1 + 1  # the limit plus a second
    (checked,) = result.results
    assert len(checked.name) == MAX_NAME_LENGTH
    assert checked.name.startswith("output_equals:[['AAAA")
    assert checked.name.endswith("A" + CUT)
    assert len(checked.message) < 300


def test_bounded_text_is_the_text_when_short_and_its_start_when_long() -> None:
    values = [
        "refund",
        [1, "a", None, True, 2.5],
        ("x",),
        {"k": [1, {"n": "v"}]},
        (),
        [],
        {},
    ]
    for value in values:
        assert bounded_text(value, 100) == str(value)
    long = [{"key": ["x" * 30, ("y",), None]}] * 50
    cut = bounded_text(long, 120)
    assert cut == str(long)[:119] + CUT
    assert bounded_text("é" * 500, 10) == "é" * 9 + CUT


def test_a_cut_name_is_built_from_the_first_items_only() -> None:
    # 10**12 characters if built whole: answered at once
    huge = [["x" * 10_000] * 10_000] * 10_000
    started = time.monotonic()
    name = OutputEquals(huge).default_name()
    assert time.monotonic() - started < 0.5
    assert name == ("output_equals:" + str([["x" * 10_000]]))[: MAX_NAME_LENGTH - 1] + CUT
