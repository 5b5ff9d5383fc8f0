"""Every dialect's loader on random documents and on documents mutated from the docs' and the
tests' suite examples — as data, as text and as a suite file (``.yml``/``.json``) — only
``LoadError`` comes out, and a suite that loads evaluates a record without raising (its
problems are results)."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import attrs
from fuzz_seeds import mutated, mutated_text, suite_seeds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_inputs import json_data

from agent_asserts.loaders import LoadError, load, loads
from agent_asserts.loaders.collector import ProblemCollector
from agent_asserts.loaders.dialects import BuildContext, dialects, get_dialect
from agent_asserts.loaders.nodes import to_plain
from agent_asserts.loaders.source import parse_into, read_json_quick, read_yaml_quick
from agent_asserts.results import CaseResult
from agent_asserts.testing import demo_record

EXAMPLES = settings(max_examples=120, suppress_health_check=list(HealthCheck), deadline=None)
DIALECTS = [None, *sorted(d.name for d in dialects())]  # None: detected from the shape
RECORD = demo_record()

documents = st.one_of(mutated(suite_seeds()), json_data).map(
    lambda doc: doc if isinstance(doc, dict | list) else [doc]  # load() takes these
)
texts = st.one_of(mutated_text(suite_seeds()), st.text(max_size=40))


def _loads_then_evaluates(build: Any) -> None:
    """``build()`` raises only ``LoadError``; the suite it builds evaluates a record."""
    try:
        suite = build()
    except LoadError:
        return
    results = suite.evaluate(RECORD, timeout=10)
    assert all(isinstance(result, CaseResult) for result in results)


def loads_data(dialect: str | None, doc: Any) -> None:
    _loads_then_evaluates(lambda: load(doc, dialect=dialect))


def loads_text(dialect: str | None, text: str) -> None:
    _loads_then_evaluates(lambda: loads(text, dialect=dialect))


def loads_file(dialect: str | None, text: str, suffix: str) -> None:
    """The text written (surrogates and all) to a suite file, loaded from its path."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "suite" + suffix)
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as file:
            file.write(text)
        _loads_then_evaluates(lambda: load(path, dialect=dialect))


@EXAMPLES
@given(st.sampled_from(DIALECTS), documents)
def test_load_of_mutated_data_raises_only_load_errors(dialect: str | None, doc: Any) -> None:
    loads_data(dialect, doc)


@EXAMPLES
@given(st.sampled_from(DIALECTS), texts)
def test_loads_of_mutated_text_raises_only_load_errors(dialect: str | None, text: str) -> None:
    loads_text(dialect, text)


@settings(EXAMPLES, max_examples=60)
@given(st.sampled_from(DIALECTS), texts, st.sampled_from([".yml", ".json"]))
def test_load_of_a_mutated_suite_file_raises_only_load_errors(
    dialect: str | None, text: str, suffix: str
) -> None:
    loads_file(dialect, text, suffix)


def _suite_or_error(dialect: str | None, doc: Any, problems: ProblemCollector) -> str:
    """What building ``doc`` gives, as text: the suite's repr, or that it did not load."""
    from agent_asserts.loaders import _build

    ctx = attrs.evolve(BuildContext.for_source(None, dialect=""), problems=problems)
    chosen = None if dialect is None else get_dialect(dialect)
    try:
        return repr(_build(doc, ctx, chosen))
    except LoadError:
        return "LoadError"


def quick_reading_agrees(dialect: str | None, text: str, json_expected: bool) -> None:
    """The quick reading of a suite (no positions) gives a document only when the full one
    finds no problem, the same data, and the same suite (or the same refusal)."""
    quick = read_json_quick(text, "s") if text.lstrip()[:1] in ("{", "[") else None
    if quick is None and not json_expected:
        quick = read_yaml_quick(text, "s")
    if quick is None:
        return
    problems = ProblemCollector("s")
    full = parse_into(text, problems, json_expected=json_expected)
    assert full is not None and not problems.problems, problems.problems
    assert repr(to_plain(quick)) == repr(to_plain(full))
    got = _suite_or_error(dialect, quick, ProblemCollector("s"))
    assert got == _suite_or_error(dialect, full, ProblemCollector("s"))


@settings(EXAMPLES, max_examples=40)
@given(st.sampled_from(DIALECTS), texts, st.booleans())
def test_the_quick_reading_agrees_with_the_full_one(
    dialect: str | None, text: str, json_expected: bool
) -> None:
    quick_reading_agrees(dialect, text, json_expected)


PROPERTIES = [
    ("loaders: data", st.tuples(st.sampled_from(DIALECTS), documents), loads_data),
    ("loaders: text", st.tuples(st.sampled_from(DIALECTS), texts), loads_text),
    ("loaders: files",
     st.tuples(st.sampled_from(DIALECTS), texts, st.sampled_from([".yml", ".json"])), loads_file),
    ("loaders: quick reading",
     st.tuples(st.sampled_from(DIALECTS), texts, st.booleans()), quick_reading_agrees),
]  # fmt: skip
