"""Results and batches reach the report renderers (an edge above them) through one seam,
``agent_asserts._reporting``, which the package façade fills: nothing below the edge imports
``agent_asserts.report``, yet ``CaseResult._repr_html_`` and ``BatchResult``'s reports work."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_asserts import _reporting
from agent_asserts.batch import BatchResult
from agent_asserts.results import CaseResult


@pytest.fixture
def restore_provider() -> Iterator[None]:
    provider, layer = _reporting._provider, _reporting._layer
    yield
    _reporting._provider, _reporting._layer = provider, layer


def test_results_and_batches_import_no_renderer_until_one_is_used() -> None:
    code = (
        "import sys\n"
        "from agent_asserts.batch import BatchResult\n"
        "from agent_asserts.results import CaseResult\n"
        "print(sorted(m for m in sys.modules if m.startswith('agent_asserts.report')))\n"
        "html = CaseResult('a', 'passed')._repr_html_()\n"
        "print('agent_asserts.report.html_report' in sys.modules, 'aa-case' in html)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout.splitlines()
    assert out == ["[]", "True True"]


def test_the_facade_installs_the_report_package() -> None:
    from agent_asserts.report import render, write_report
    from agent_asserts.report.html_report import render_html_fragment
    from agent_asserts.report.json_report import report_dict

    layer = _reporting.report_layer()
    assert (layer.render, layer.write, layer.report_dict) == (render, write_report, report_dict)
    cases = [CaseResult("a", "passed")]  # the same fragment (its ids fixed by id_prefix)
    assert layer.html_fragment(cases, title="t", id_prefix="x") == render_html_fragment(
        cases, title="t", id_prefix="x"
    )


def test_a_text_or_json_report_does_not_import_the_html_report() -> None:
    code = (
        "import sys\n"
        "from agent_asserts import evaluate_many, TrialRecord\n"
        "batch = evaluate_many([TrialRecord.from_dict({'events': []})], lambda ctx: None)\n"
        "text, data = batch.render('text'), batch.to_dict()\n"
        "print('agent_asserts.report.html_report' in sys.modules, data['summary']['passed'])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout.splitlines()
    assert out == ["False 1"]


def test_case_and_batch_reports_go_through_the_installed_layer(
    tmp_path: Path, restore_provider: None
) -> None:
    calls: list[tuple[str, Any]] = []

    def fake_write(path: Any, cases: Any, *, fmt: str | None = None) -> Path:
        calls.append(("write", fmt))
        return Path(path)

    layer = _reporting.ReportLayer(
        render=lambda cases, fmt="text", **options: f"<{fmt}>",
        write=fake_write,
        html_fragment=lambda cases: "<fragment>",
        report_dict=lambda rows: {"rows": len(rows)},
    )
    _reporting.install(lambda: layer)
    case = CaseResult("a", "passed")
    batch = BatchResult((case,), (0,))
    assert case._repr_html_() == "<fragment>" and batch._repr_html_() == "<fragment>"
    assert (batch.render("junit"), str(batch), batch.to_dict()) == (
        "<junit>",
        "<text>",
        {"rows": 1},
    )
    assert batch.write(tmp_path / "r.md") == tmp_path / "r.md" and calls == [("write", None)]


def test_without_a_provider_the_error_says_how_to_install_one(restore_provider: None) -> None:
    _reporting._provider, _reporting._layer = None, None
    with pytest.raises(RuntimeError) as info:
        CaseResult("a", "passed")._repr_html_()
    assert str(info.value) == (
        "no report layer is installed: import agent_asserts (its __init__ installs it)"
    )
