"""The agent-asserts command: every subcommand and exit code, through main() and a subprocess."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from agent_asserts.cli import main
from agent_asserts.cli_support import Progress, import_judge, use_color
from agent_asserts.loaders import load
from agent_asserts.testing import DEMO_RECORD

SUITE = """name: refunds
record: runs/ok.json
cases:
  - name: issues the refund
    checks:
      - called_tool: {name: refunds_issue, arguments: {orderId: A1049, amount: 42}}
  - name: stays short
    checks:
      - called_tool: refunds_lookup
      - max_steps: 3
        severity: soft
"""
BROKEN = "checks:\n  - called_tol: x\n  - max_steps: nope\n"
JUDGED = "record: runs/ok.json\nchecks:\n  - judge: {criterion: polite}\n"
JUDGE_MODULE = """
from agent_asserts.judges import JudgeResponse

def grade(request):
    return JudgeResponse(score=1.0 if request.criterion == "polite" else 0.0)
"""


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "ok.json").write_text(json.dumps(DEMO_RECORD), encoding="utf-8")
    bad = json.loads(json.dumps(DEMO_RECORD))
    bad["events"][3]["payload"]["arguments"]["amount"] = 40
    (runs / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    (tmp_path / "suite.yml").write_text(SUITE, encoding="utf-8")
    (tmp_path / "broken.yml").write_text(BROKEN, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path


def test_check_on_the_records_the_suite_names(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "suite.yml"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "PASSED issues the refund: 1 check: 1 passed; score 1.00"
    assert out.splitlines()[1] == "  record: runs/ok.json"
    assert out.rstrip().endswith("2 cases: 1 passed, 1 scored; pass rate 50.0%")
    assert "\x1b[" not in out  # not a terminal: no colour
    assert main(["check", "suite.yml", "--fail-on", "scored"]) == 1


def test_check_on_given_records_fails_with_1(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "suite.yml", "--record", "runs"]) == 1
    out = capsys.readouterr().out
    assert "record: runs/bad.json" in out and "$.arguments.amount: expected 42, got 40" in out
    assert out.rstrip().endswith("4 cases: 1 passed, 1 failed, 2 scored; pass rate 25.0%")
    assert main(["check", "suite.yml", "--record", "runs/ok.json", "--record", "runs/o*.json"]) == 0
    assert capsys.readouterr().out.count("record: runs/ok.json") == 4


def test_check_reads_jsonl(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [json.dumps(DEMO_RECORD)] * 3 + ["", '{"events": [{"kind": 1}]}']
    (workdir / "runs.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["check", "suite.yml", "--record", "runs.jsonl", "--format", "json"]) == 2
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert [r["source"] for r in doc["records"]] == ["runs.jsonl:1", "runs.jsonl:2", "runs.jsonl:3"]
    assert "cannot load the record runs.jsonl:5" in captured.err


def test_unloadable_inputs_give_2_and_the_rest_is_still_reported(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "runs" / "torn.json").write_text("{", encoding="utf-8")
    code = main(["check", "suite.yml", "broken.yml", "missing.yml", "--record", "runs",
                 "--record", "nothing/*.json"])  # fmt: skip
    assert code == 2
    captured = capsys.readouterr()
    assert "broken.yml:2:5: checks[0]: unknown check 'called_tol'" in captured.err
    assert "broken.yml:3:16: checks[1].max_steps: must be an integer" in captured.err
    assert "cannot load missing.yml" in captured.err
    assert "no record file matches 'nothing/*.json'" in captured.err
    assert "cannot load the record runs/torn.json" in captured.err
    assert captured.out.rstrip().endswith("4 cases: 1 passed, 1 failed, 2 scored; pass rate 25.0%")


def test_a_case_without_a_record_is_an_input_problem(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "bare.yml").write_text("checks:\n  - used_no_tools\n", encoding="utf-8")
    assert main(["check", "bare.yml"]) == 2
    assert "case 'bare' names no record file" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["json", "junit", "html", "markdown", "text"])
def test_every_format_to_stdout_and_to_a_file(
    workdir: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    assert main(["check", "suite.yml", "--record", "runs", "--format", fmt]) == 1
    out = capsys.readouterr().out
    if fmt == "json":
        assert json.loads(out)["summary"]["cases"] == 4
    elif fmt == "junit":
        assert len(ET.fromstring(out).findall(".//testcase")) == 4
    elif fmt == "html":
        assert out.startswith("<!DOCTYPE html>") and out.count('class="aa-case"') == 4
        assert "aa-events" in out  # the records are kept for the timeline
    elif fmt == "markdown":
        assert out.startswith("## agent_asserts: 4 cases")
    ext = {"json": "json", "junit": "xml", "html": "html", "markdown": "md", "text": "txt"}[fmt]
    assert main(["check", "suite.yml", "--record", "runs", "--output", f"out/r.{ext}"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "4 cases: 1 passed, 1 failed, 2 scored; pass rate 25.0%",
        f"report written to out/r.{ext}",
    ]
    written = (workdir / "out" / f"r.{ext}").read_text(encoding="utf-8")
    assert written.strip() == out.strip() or fmt == "html"


def test_judge_option(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "myjudges.py").write_text(JUDGE_MODULE, encoding="utf-8")
    (workdir / "judged.yml").write_text(JUDGED, encoding="utf-8")
    assert main(["check", "judged.yml"]) == 1  # no judge configured: the check is invalid
    capsys.readouterr()
    assert main(["check", "judged.yml", "--judge", "myjudges:grade"]) == 0
    assert capsys.readouterr().out.startswith("PASSED judged")
    assert main(["check", "judged.yml", "--judge", "myjudges"]) == 2
    assert main(["check", "judged.yml", "--judge", "nowhere_module_xyz:grade"]) == 2
    assert "MODULE:CALLABLE" in capsys.readouterr().err


def test_validate(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "suite.yml"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "ok: suite.yml (native, 2 cases)",
        "1 file: 1 valid, 0 invalid",
    ]
    assert main(["validate", "broken.yml", "suite.yml", "missing.yml"]) == 2
    out = capsys.readouterr().out
    assert (
        "broken.yml:2:5: checks[0]: unknown check 'called_tol' (did you mean 'called_tool'?)" in out
    )
    assert "broken.yml:3:16: checks[1].max_steps: must be an integer (got 'nope')" in out
    assert "ok: suite.yml" in out and "cannot load missing.yml" in out
    assert out.splitlines()[-1] == "3 files: 1 valid, 2 invalid"


def test_schema(capsys: pytest.CaptureFixture[str]) -> None:
    from agent_asserts.loaders.schema import native_schema

    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(native_schema()))


def test_convert_prints_yaml_or_json(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["convert", "suite.yml", "--to", "native"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("name: refunds\n")
    (workdir / "again.yml").write_text(text, encoding="utf-8")
    assert load("again.yml") == load("suite.yml")
    (workdir / "suite.json").write_text(json.dumps(load("suite.yml").to_dict()), encoding="utf-8")
    monkeypatch.setitem(sys.modules, "yaml", None)  # as if PyYAML were not installed
    assert main(["convert", "suite.json"]) == 0
    assert json.loads(capsys.readouterr().out)["name"] == "refunds"
    assert main(["convert", "broken.yml"]) == 2


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in ([], ["check"], ["convert", "x.yml", "--to", "mantle"], ["nope"]):
        with pytest.raises(SystemExit) as excinfo:
            main(argv)
        assert excinfo.value.code == 2
    capsys.readouterr()


def test_python_m_and_the_console_script(workdir: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "agent_asserts", *args], capture_output=True,
                              text=True, timeout=60, env={"PATH": "", "NO_COLOR": "1"})  # fmt: skip

    failed = run("check", "suite.yml", "--record", "runs/bad.json")
    assert failed.returncode == 1 and failed.stdout.startswith("FAILED issues the refund")
    assert run("validate", "broken.yml").returncode == 2
    (script,) = entry_points(group="console_scripts", name="agent-asserts")
    assert script.value == "agent_asserts.cli:main" and script.load() is main


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_without_no_color() -> None:
    assert use_color(FakeTerminal(), environ={}) is True
    assert use_color(FakeTerminal(), environ={"NO_COLOR": "1"}) is False
    assert use_color(FakeTerminal(), environ={"NO_COLOR": ""}) is True
    assert use_color(io.StringIO(), environ={}) is False


def test_progress_bar_only_for_many_records_on_a_terminal_outside_ci() -> None:
    stream = FakeTerminal()
    bar = Progress(10, stream, environ={})
    for _ in range(10):
        bar.advance()
    bar.close()
    assert "[" + "#" * 30 + "] 10/10 records" in stream.getvalue()
    for total, env, out in [(5, {}, FakeTerminal()), (10, {"CI": "true"}, FakeTerminal()),
                            (10, {}, io.StringIO())]:  # fmt: skip
        quiet = Progress(total, out, environ=env)
        quiet.advance()
        quiet.close()
        assert out.getvalue() == ""
    unknown = FakeTerminal()
    counter = Progress(None, unknown, environ={})
    for _ in range(7):
        counter.advance()
    assert unknown.getvalue().endswith("7 records checked")


def test_import_judge_errors() -> None:
    with pytest.raises(ValueError, match="MODULE:CALLABLE"):
        import_judge("nocolon")
    with pytest.raises(ValueError, match="has no attribute"):
        import_judge("os:no_such_thing")
    with pytest.raises(ValueError, match="not callable"):
        import_judge("os:sep")
