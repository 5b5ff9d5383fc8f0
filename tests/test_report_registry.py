"""A report format registered from outside the package: render, BatchResult, files and the CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_asserts import BatchResult
from agent_asserts.cli import main
from agent_asserts.record import TrialRecord
from agent_asserts.report import (
    Cases,
    Renderer,
    format_for_path,
    formats,
    register_renderer,
    render,
    renderer,
    rows_of,
    unregister_renderer,
    write_report,
)
from agent_asserts.report.json_report import indented_json
from agent_asserts.results import CaseResult
from agent_asserts.testing import DEMO_RECORD


def render_csv(
    cases: Cases,
    *,
    records: Sequence[TrialRecord | None] | None = None,
    sources: Sequence[str | None] | None = None,
    title: str | None = None,
) -> str:
    rows = rows_of(cases, records=records, sources=sources)
    lines = [f"{title or 'report'},verdict,source"]
    lines += [f"{row.case.name},{row.case.verdict.value},{row.source or ''}" for row in rows]
    return "\n".join(lines) + "\n"


@pytest.fixture
def csv_format() -> Iterator[None]:
    register_renderer("csv", render_csv, extensions=[".csv"])
    yield
    unregister_renderer("csv")


CASES = [CaseResult("a", "passed"), CaseResult("b", "skipped", skip_reason="later")]


def test_protocol_accepts_the_function() -> None:
    fn: Renderer = render_csv
    assert fn(CASES, title="t").splitlines()[0] == "t,verdict,source"


@pytest.mark.usefixtures("csv_format")
def test_registered_format_renders_everywhere(tmp_path: Path) -> None:
    assert formats()[-1] == "csv"
    assert renderer("csv") is render_csv
    assert render(CASES, "csv", sources=["x.json", None]) == (
        "report,verdict,source\na,passed,x.json\nb,skipped,\n"
    )
    batch = BatchResult(tuple(CASES), (0, 0), ("r.json",))
    assert batch.render("csv").splitlines()[1:] == ["a,passed,r.json", "b,skipped,r.json"]
    assert format_for_path("out/REPORT.CSV") == "csv"
    out = write_report(tmp_path / "r.csv", CASES, title="run")
    assert out.read_text(encoding="utf-8").splitlines()[0] == "run,verdict,source"


@pytest.mark.usefixtures("csv_format")
def test_cli_offers_the_registered_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("run.json").write_text(json.dumps(DEMO_RECORD))
    Path("suite.json").write_text(json.dumps({"checks": ["succeeded"]}))
    assert main(["check", "suite.json", "--record", "run.json", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1].endswith(",passed,run.json")


def test_unregistered_format_is_gone_and_clashes_are_refused() -> None:
    with pytest.raises(ValueError, match=r"^report format 'json' is already registered$"):
        register_renderer("json", render_csv)
    with pytest.raises(ValueError, match=r"^extension '\.XML' is already used by 'junit'$"):
        register_renderer("xmlish", render_csv, extensions=[".XML"])
    assert "xmlish" not in formats()
    register_renderer("csv", render_csv, extensions=[".csv"])
    unregister_renderer("csv")
    assert "csv" not in formats()
    with pytest.raises(ValueError, match="cannot tell the report format"):
        format_for_path("r.csv")
    with pytest.raises(ValueError, match=r"^unknown report format 'csv' \(expected one of text, "):
        renderer("csv")


# -- the JSON report's writer: the text json.dumps(indent=2) writes, faster ------------------

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
_KEYS = st.text() | st.integers() | st.floats() | st.booleans() | st.none()
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(_KEYS, inner, max_size=4)
    ),
    max_leaves=30,
)


@given(_VALUES)
def test_indented_json_writes_the_text_json_dumps_writes(value: object) -> None:
    assert indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("value", [{1, 2}, {"a": object()}, {("a", "b"): 1}])
def test_indented_json_refuses_what_json_refuses_with_its_message(value: object) -> None:
    with pytest.raises(TypeError) as ours:
        indented_json(value)
    with pytest.raises(TypeError) as theirs:
        json.dumps(value, indent=2, ensure_ascii=False)
    assert str(ours.value) == str(theirs.value)
