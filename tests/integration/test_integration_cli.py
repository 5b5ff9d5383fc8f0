"""The agent-asserts command: every subcommand and exit code, through main() and a subprocess."""

from __future__ import annotations

import html
import io
import json
import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest

from agent_asserts.__main__ import run
from agent_asserts.cli import main
from agent_asserts.cli.support import CLEAR_LINE, Progress, import_judge, use_color
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
    lines = [json.dumps(DEMO_RECORD)] * 3 + ["", '{"events": [{"kind": 1}]}', "{oops"]
    (workdir / "runs.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["check", "suite.yml", "--record", "runs.jsonl", "--format", "json", "--embed-records"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert [(r["source"], r["data"] is None) for r in doc["records"]] == [
        ("runs.jsonl:1", False), ("runs.jsonl:2", False), ("runs.jsonl:3", False),
        ("runs.jsonl:5", True), ("runs.jsonl:6", True),
    ]  # fmt: skip
    assert [c["verdict"] for c in doc["cases"][6:]] == ["failed"] * 4
    assert {doc["cases"][8]["error"], doc["cases"][9]["error"]} == {
        "cannot load the record runs.jsonl:6: invalid JSON: Expecting property name enclosed in "
        "double quotes: line 1 column 2 (char 1)"
    }
    assert doc["cases"][9]["metadata"] == {"source": "runs.jsonl:6"}
    assert "error: cannot load the record runs.jsonl:5: invalid record: 1 problem(s)\n" in (
        captured.err
    )


def test_an_empty_jsonl_file_is_an_input_problem(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "empty.jsonl").write_text("\n\n", encoding="utf-8")
    assert main(["check", "suite.yml", "--record", "empty.jsonl", "--record", "runs/ok.json"]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        "error: cannot load the record empty.jsonl: no records were read (the file is empty)\n"
    )
    assert captured.out.rstrip().endswith("4 cases: 1 passed, 2 failed, 1 scored; pass rate 25.0%")


UNLOADABLE = [
    ("broken.yml", "broken.yml", "cannot load the suite broken.yml:\n"
     "  broken.yml:2:5: checks[0]: unknown check 'called_tol' (did you mean 'called_tool'?)\n"
     "  broken.yml:3:16: checks[1].max_steps: must be an integer (got 'nope')"),
    ("missing.yml", "missing.yml",
     "cannot load the suite missing.yml: [Errno 2] No such file or directory: 'missing.yml'"),
    ("nothing/*.json", "nothing/*.json", "no record file matches 'nothing/*.json'"),
    ("issues the refund", "runs/torn.json", "cannot load the record runs/torn.json: invalid "
     "record: 1 problem(s)\n  runs/torn.json:1:2: invalid JSON: Expecting property name "
     "enclosed in double quotes"),
    ("stays short", "runs/torn.json", "cannot load the record runs/torn.json: invalid "
     "record: 1 problem(s)\n  runs/torn.json:1:2: invalid JSON: Expecting property name "
     "enclosed in double quotes"),
    ("issues the refund", "runs.jsonl:2", "cannot load the record runs.jsonl:2: invalid JSON: "
     "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("stays short", "runs.jsonl:2", "cannot load the record runs.jsonl:2: invalid JSON: "
     "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
]  # fmt: skip
"""(case name, source, error) of every unloadable input of the run below, in report order."""
UNLOADABLE_ARGS = ["check", "suite.yml", "broken.yml", "missing.yml", "--record", "runs",
                   "--record", "runs.jsonl", "--record", "nothing/*.json"]  # fmt: skip


@pytest.fixture
def unloadable(workdir: Path) -> Path:
    (workdir / "runs" / "torn.json").write_text("{", encoding="utf-8")
    (workdir / "runs.jsonl").write_text(json.dumps(DEMO_RECORD) + "\n{oops\n\n", encoding="utf-8")
    return workdir


def test_unloadable_inputs_give_2_and_are_reported_with_the_rest(
    unloadable: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*UNLOADABLE_ARGS, "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert captured.err == "".join(f"error: {error}\n" for _, _, error in UNLOADABLE[:4]) + (
        f"error: {UNLOADABLE[5][2]}\n"
    )
    doc = json.loads(captured.out)
    sources = [r["source"] for r in doc["records"]]
    failed = [
        (c["name"], sources[c["record"]], c["error"])
        for c in doc["cases"]
        if c["error"] is not None
    ]
    assert failed == UNLOADABLE
    # an unloadable suite's case is marked as such ('suite:' in the text report)
    assert all(
        {k: v for k, v in c["metadata"].items() if k != "input"} == {"source": sources[c["record"]]}
        for c in doc["cases"]
        if c["error"]
    )
    assert [c["name"] for c in doc["cases"] if c["metadata"].get("input") == "suite"] == [
        n for n, _, e in UNLOADABLE if e.startswith("cannot load the suite")
    ]
    # the two suites that could not be loaded are counted as suites, not as failed cases
    assert doc["summary"] | {"score": None} == {"cases": 11, "failed": 6, "scored": 3, "skipped": 0,
        "passed": 2, "pass_rate": 2 / 11, "score": None, "suites_not_loaded": 2}  # fmt: skip


@pytest.mark.parametrize("fmt", ["text", "junit", "html", "markdown"])
def test_unloadable_inputs_are_failed_cases_in_every_format(
    unloadable: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    assert main([*UNLOADABLE_ARGS, "--format", fmt]) == 2
    out = capsys.readouterr().out
    if fmt == "junit":
        root = ET.fromstring(out)
        # a suite that could not be loaded is a JUnit error (as pytest's collection errors),
        # a record that could not be loaded a failed case
        counts = {k: root.get(k) for k in ("tests", "failures", "errors", "skipped")}
        assert counts == {"tests": "13", "failures": "6", "errors": "2", "skipped": "0"}
        errors = []
        for case in root.iter("testcase"):
            failure = case.find("failure")
            if failure is None:
                failure = case.find("error")
            if failure is not None and failure.text and "  error: " in failure.text:
                error = failure.text.partition("  error: ")[2]
                assert (failure.tag == "error") == error.startswith("cannot load the suite")
                errors.append((case.get("name"), case.get("classname"), error))
        assert errors == UNLOADABLE
        return
    if fmt == "html":
        assert out.count('class="aa-case"') == 13
        out = html.unescape(out)
    for name, source, error in UNLOADABLE:
        suite = error.startswith("cannot load the suite")
        if fmt == "text" and suite:  # on stderr once, as a suite: not a case of the text report
            assert f"FAILED {name}: 0 checks" not in out and error not in out
            continue
        assert f"FAILED {name}: 0 checks" in out
        assert f"  error: {error}" in out, (name, source)
        assert source in out
    # every summary counts the 11 cases and, apart, the 2 suites that could not be loaded
    tally = "11 cases: 2 passed, 6 failed, 3 scored; pass rate 18.2%; 2 suites could not be loaded"
    if fmt == "text":
        assert out.endswith(f"\n{tally}\n")
    else:
        assert tally in out


def test_a_case_without_a_record_is_an_input_problem(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "bare.yml").write_text("checks:\n  - used_no_tools\n", encoding="utf-8")
    (workdir / "lost.yml").write_text("record: gone.json\nchecks: [used_no_tools]\n", "utf-8")
    assert main(["check", "bare.yml", "lost.yml", "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        "error: bare.yml: case 'bare' names no record file (add 'record:' to the suite or give "
        "--record)\nerror: cannot load the record gone.json: [Errno 2] No such file or directory: "
        "'gone.json'\n"
    )
    doc = json.loads(captured.out)
    sources = [r["source"] for r in doc["records"]]
    assert [(c["name"], c["verdict"], sources[c["record"]]) for c in doc["cases"]] == [
        ("bare", "failed", "bare.yml"), ("lost", "failed", "gone.json")
    ]  # fmt: skip


def test_an_unwritable_report_path_is_an_input_problem(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "afile").write_text("", encoding="utf-8")
    assert main(["check", "suite.yml", "--output", "afile/r.html"]) == 2
    assert capsys.readouterr() == (
        "",
        "error: cannot write the report to afile/r.html: Not a directory: afile\n",
    )
    assert main(["check", "suite.yml", "--output", "/proc/nope/r.html"]) == 2
    assert capsys.readouterr().err == (
        "error: cannot write the report to /proc/nope/r.html: No such file or directory: "
        "/proc/nope\n"
    )
    assert main(["check", "suite.yml", "--output", "runs", "--format", "text"]) == 2
    assert capsys.readouterr().err == ("error: cannot write the report to runs: Is a directory\n")


def test_an_output_extension_without_a_format_is_an_input_problem(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "suite.yml", "--output", "report.pdf"]) == 2
    assert capsys.readouterr() == ("", (
        "error: --output: cannot tell the report format of 'report.pdf' (use one of .htm, .html, "
        ".json, .markdown, .md, .text, .txt, .xml), or give --format\n"
    ))  # fmt: skip
    assert not (workdir / "report.pdf").exists()
    assert main(["check", "suite.yml", "--output", "report.pdf", "--format", "text"]) == 0
    assert (workdir / "report.pdf").read_text(encoding="utf-8").startswith("PASSED issues")


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
        "exit status 1: 1 case FAILED",
        "4 cases: 1 passed, 1 failed, 2 scored; pass rate 25.0%",
        f"report written to out/r.{ext}",
    ]
    written = (workdir / "out" / f"r.{ext}").read_text(encoding="utf-8")
    # on stdout, the text report carries the exit rule just above its tally line
    shown = out.replace("exit status 1: 1 case FAILED\n", "") if fmt == "text" else out
    assert written.strip() == shown.strip() or fmt == "html"


def test_judge_option(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "myjudges.py").write_text(JUDGE_MODULE, encoding="utf-8")
    (workdir / "judged.yml").write_text(JUDGED, encoding="utf-8")
    assert main(["check", "judged.yml"]) == 1  # no judge configured: the check is invalid
    capsys.readouterr()
    assert main(["check", "judged.yml", "--judge", "myjudges:grade"]) == 0
    assert capsys.readouterr().out.startswith("PASSED judged")
    assert main(["check", "judged.yml", "--judge", "myjudges"]) == 2
    assert capsys.readouterr() == ("", "error: --judge myjudges: must look like MODULE:CALLABLE\n")
    assert main(["check", "judged.yml", "--judge", "nowhere_module_xyz:grade"]) == 2
    assert capsys.readouterr().err == (
        "error: --judge nowhere_module_xyz:grade: No module named 'nowhere_module_xyz'\n"
    )
    (workdir / "brokenjudge.py").write_text("raise RuntimeError('no API key')\n", "utf-8")
    assert main(["check", "judged.yml", "--judge", "brokenjudge:grade"]) == 2
    assert capsys.readouterr() == ("", (
        "error: --judge brokenjudge:grade: importing brokenjudge raised RuntimeError: no API key\n"
    ))  # fmt: skip
    (workdir / "syntaxjudge.py").write_text("def grade(:\n", "utf-8")
    assert main(["check", "judged.yml", "--judge", "syntaxjudge:grade"]) == 2
    assert capsys.readouterr().err.startswith(
        "error: --judge syntaxjudge:grade: importing syntaxjudge raised SyntaxError: "
    )
    assert main(["check", "judged.yml", "--judge", "myjudges:nope"]) == 2
    assert capsys.readouterr().err == (
        "error: --judge myjudges:nope: myjudges has no attribute 'nope'\n"
    )


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
    assert "ok: suite.yml" in out and "cannot load the suite missing.yml" in out
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


SCRIPT = shutil.which("agent-asserts", path=str(Path(sys.executable).parent))
"""The installed console script, next to the interpreter running the tests."""
ENTRY_POINT_RUNS = [
    (["check", "suite.yml"], 0, "out", "2 cases: 1 passed, 1 scored; pass rate 50.0%"),
    (["check", "suite.yml", "--fail-on", "scored"], 1, "out",
     "2 cases: 1 passed, 1 scored; pass rate 50.0%"),
    (["check", "suite.yml", "--record", "runs/bad.json"], 1, "out",
     "2 cases: 1 failed, 1 scored; pass rate 0.0%"),
    (["check", "broken.yml"], 2, "err", "  broken.yml:3:16: checks[1].max_steps: must be an "
     "integer (got 'nope')"),
    (["check", "suite.yml", "--output", "r.pdf"], 2, "err", "error: --output: cannot tell the "
     "report format of 'r.pdf' (use one of .htm, .html, .json, .markdown, .md, .text, .txt, "
     ".xml), or give --format"),
    (["check"], 2, "err", "agent-asserts check: error: the following arguments are required: "
     "SUITE"),
    (["validate", "suite.yml"], 0, "out", "1 file: 1 valid, 0 invalid"),
    (["validate", "broken.yml", "suite.yml"], 2, "out", "2 files: 1 valid, 1 invalid"),
]  # fmt: skip
"""(arguments, exit code, stream, its last line) of runs through the console script."""


def run_command(cwd: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, timeout=60, cwd=cwd,
                          env={"PATH": "", "NO_COLOR": "1"})  # fmt: skip


@pytest.mark.parametrize(
    ("args", "code", "stream", "last"),
    ENTRY_POINT_RUNS,
    ids=[" ".join(r[0]) for r in ENTRY_POINT_RUNS],
)
def test_the_console_script_exit_codes(
    workdir: Path, args: list[str], code: int, stream: str, last: str
) -> None:
    assert SCRIPT is not None, "the agent-asserts console script is not installed"
    done = run_command(workdir, SCRIPT, *args)
    lines = (done.stdout if stream == "out" else done.stderr).splitlines()
    assert (done.returncode, lines[-1]) == (code, last)
    assert "Traceback" not in done.stderr


def test_the_console_script_schema_and_convert(workdir: Path) -> None:
    assert SCRIPT is not None, "the agent-asserts console script is not installed"
    schema = run_command(workdir, SCRIPT, "schema")
    assert schema.returncode == 0 and schema.stderr == ""
    assert json.loads(schema.stdout)["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    converted = run_command(workdir, SCRIPT, "convert", "suite.yml", "--to", "native")
    assert converted.returncode == 0 and converted.stderr == ""
    (workdir / "again.yml").write_text(converted.stdout, encoding="utf-8")
    assert load("again.yml") == load("suite.yml")


def test_python_m_and_the_entry_point(workdir: Path) -> None:
    failed = run_command(workdir, sys.executable, "-m", "agent_asserts", "check", "suite.yml",
                         "--record", "runs/bad.json")  # fmt: skip
    assert failed.returncode == 1 and failed.stdout.startswith("FAILED issues the refund")
    (script,) = entry_points(group="console_scripts", name="agent-asserts")
    assert callable(script.load())  # as installed (agent_asserts.__main__:run once reinstalled)
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    target = pyproject["project"]["scripts"]["agent-asserts"]
    assert target == "agent_asserts.__main__:run"
    assert EntryPoint("agent-asserts", target, "console_scripts").load() is run


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
    with pytest.raises(ValueError, match=r"^must look like MODULE:CALLABLE$"):
        import_judge("nocolon")
    with pytest.raises(ValueError, match=r"^os has no attribute 'no_such_thing'$"):
        import_judge("os:no_such_thing")
    with pytest.raises(ValueError, match=r"^'sep' of os is not callable \(got str\)$"):
        import_judge("os:sep")


def test_problems_clear_the_progress_bar_line_and_redraw_it(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for i in range(6):
        (workdir / "runs" / f"r{i}.json").write_text(json.dumps(DEMO_RECORD), encoding="utf-8")
    (workdir / "runs" / "torn.json").write_text("{", encoding="utf-8")
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.delenv("CI", raising=False)
    assert main(["check", "suite.yml", "--record", "runs"]) == 2
    capsys.readouterr()
    bar = "\r[" + "#" * 26 + "...." + "] 8/9 records"  # torn.json is the last of 9
    error = "error: cannot load the record runs/torn.json: invalid record: 1 problem(s)\n"
    assert f"{bar}{CLEAR_LINE}{error}" in terminal.getvalue()
    after = terminal.getvalue().partition(error)[2]
    assert after.startswith("  runs/torn.json:1:2: invalid JSON: Expecting property name "
                            "enclosed in double quotes\n" + bar[1:])  # fmt: skip
    assert terminal.getvalue().endswith("] 9/9 records" + CLEAR_LINE)
