"""``agent-asserts scan RUNS…``: findings over a folder of traces in every report format, exit 1
when a gate finding fires, 2 when a trace or the configuration cannot be read (the other traces
are still scanned)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_asserts.cli import main
from agent_asserts.serialization import read_json_report


def _chat(n_calls: int, *, same: bool = False, reply: bool = True) -> dict[str, object]:
    """An OpenAI chat transcript with ``n_calls`` answered lookups."""
    messages: list[dict[str, object]] = [{"role": "user", "content": "refund A1049"}]
    for i in range(n_calls):
        arguments = json.dumps({"id": 1 if same else i})
        call = {
            "id": f"c{i}",
            "type": "function",
            "function": {"name": "lookup", "arguments": arguments},
        }
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": '{"ok": true}'})
    if reply:
        messages.append({"role": "assistant", "content": "Refund issued."})
    return {"messages": messages}


@pytest.fixture
def runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "runs"
    folder.mkdir()
    for i in range(8):
        (folder / f"run{i}.json").write_text(json.dumps(_chat(2 + i % 2)))
    return folder


def test_clean_runs_pass_and_say_no_finding(runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", "runs"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-3:] == [
        "exit status 0: no case FAILED (SCORED cases exit 0 unless --fail-on scored)",
        "8 cases: 8 passed; pass rate 100.0%",
        "findings: none",
    ]


def test_a_gate_finding_exits_1_with_its_evidence(
    runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (runs / "run3.json").write_text(json.dumps(_chat(3, same=True)))
    assert main(["scan", "runs"]) == 1
    out = capsys.readouterr().out
    assert "FAILED runs/run3.json: " in out
    assert "  FAILED [gate] loop: no_loops(3)\n" in out
    assert "    'lookup' called 3 times in a row with the same arguments: e2, e4, e6\n" in out
    assert out.splitlines()[-1] == "findings: loop in 1 of 8 runs"


def test_ignore_and_soft_by_name(runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (runs / "run3.json").write_text(json.dumps(_chat(3, same=True)))
    (runs / "run4.json").write_text(json.dumps(_chat(2, reply=False)))
    assert main(["scan", "runs", "--ignore", "loop", "--soft", "no_reply"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "findings: no_reply in 1 of 8 runs"
    assert (
        main(["scan", "runs", "--ignore", "loop", "--soft", "no_reply", "--fail-on", "scored"]) == 1
    )


def test_an_outlier_is_soft(runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (runs / "run5.json").write_text(json.dumps(_chat(40)))
    assert main(["scan", "runs"]) == 0
    out = capsys.readouterr().out
    assert "SCORED runs/run5.json" in out
    assert "  FAILED [soft] outlier_tool_calls: max_tool_calls(" in out


def test_an_unknown_finding_is_a_usage_error(
    runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scan", "runs", "--ignore", "lop"]) == 2
    assert capsys.readouterr().err == "error: unknown finding 'lop' (did you mean 'loop'?)\n"


def test_a_config_file_problem_names_its_line(
    runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("scan.yml").write_text("scan:\n  loop: {times: 1}\n")
    assert main(["scan", "runs", "--config", "scan.yml"]) == 2
    assert capsys.readouterr().err.startswith(
        "error: scan.yml:2:17: scan.loop.times: must be a whole number >= 2 (got 1)"
    )


def test_a_config_file_sets_the_loop_length(runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (runs / "run3.json").write_text(json.dumps(_chat(3, same=True)))
    Path("scan.yml").write_text("scan:\n  loop: {times: 4}\n")
    assert main(["scan", "runs", "--config", "scan.yml"]) == 0
    capsys.readouterr()
    assert main(["scan", "runs", "--config", "scan.yml", "--loop-times", "3"]) == 1


def test_an_unreadable_trace_is_reported_and_the_others_scanned(
    runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (runs / "broken.json").write_text("{not json")
    assert main(["scan", "runs"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("error: cannot load the record runs/broken.json: ")
    assert "8 passed" in out.splitlines()[-2]


def test_the_json_report_reads_back(runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (runs / "run2.json").write_text(json.dumps(_chat(2, reply=False)))
    assert main(["scan", "runs", "--output", "scan.json"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == ["findings: no_reply in 1 of 8 runs", "report written to scan.json"]
    cases = [row.case for row in read_json_report(Path("scan.json"))]
    failed = [c for c in cases if c.verdict.value == "failed"]
    assert [c.name for c in failed] == ["runs/run2.json"]
    assert [r.name for r in failed[0].results if r.failed] == ["no_reply"]
