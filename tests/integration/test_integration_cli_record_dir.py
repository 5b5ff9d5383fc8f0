"""``check --record DIR``: suite files skipped (and said so), dangling symlinks reported, an
unloadable suite reported once and labelled as a suite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_asserts.cli import main
from agent_asserts.testing import DEMO_RECORD


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "ok.json").write_text(json.dumps(DEMO_RECORD))
    return tmp_path


def test_suite_files_in_the_record_folder_are_skipped_with_a_note(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("runs/suite.json").write_text(json.dumps({"checks": ["succeeded"]}))
    Path("runs/other_suite.json").write_text(json.dumps({"cases": [{"name": "x"}]}))
    assert main(["check", "runs/suite.json", "--record", "runs"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "note: runs/other_suite.json: skipped, it is a suite file, not a record",
        "note: runs/suite.json: skipped, it is a suite file, not a record",
    ]
    assert out.splitlines()[-1] == "1 case: 1 passed; pass rate 100.0%"


def test_dangling_symlink_is_reported(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path("suite.json").write_text(json.dumps({"checks": ["succeeded"]}))
    Path("runs/gone.json").symlink_to("missing.json")
    assert main(["check", "suite.json", "--record", "runs"]) == 2
    out, err = capsys.readouterr()
    assert err == (
        "error: runs/gone.json: dangling symlink (its target missing.json does not exist)\n"
    )
    assert "FAILED runs/gone.json: 0 checks\n  record: runs/gone.json\n" in out


def test_unloadable_suite_is_reported_once_as_a_suite(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("runs/bad.json").write_text(json.dumps({"checks": ["sucseeded"]}))
    Path("suite.json").write_text(json.dumps({"checks": ["succeeded"]}))
    assert main(["check", "runs/bad.json", "suite.json", "--record", "runs"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("error: cannot load the suite runs/bad.json:\n")  # once, on stderr
    assert "runs/bad.json" not in out  # not again in the report, not a case
    assert out.endswith(  # counted as a suite, not as a case
        "exit status 2: an input could not be loaded or written\n"
        "1 case: 1 passed; pass rate 100.0%; 1 suite could not be loaded\n"
    )
    assert main(["check", "runs/bad.json", "suite.json", "--record", "runs", "--output", "r.json"])
    out, err = capsys.readouterr()
    assert err.count("cannot load the suite runs/bad.json") == 1
    assert out.splitlines()[1] == "1 case: 1 passed; pass rate 100.0%; 1 suite could not be loaded"
    suite_case, case = json.loads(Path("r.json").read_text())["cases"]  # the file says why
    assert suite_case["metadata"] == {"source": "runs/bad.json", "input": "suite"}
    assert suite_case["error"].startswith("cannot load the suite runs/bad.json:")
    assert case["verdict"] == "passed"


def test_a_record_folder_is_read_as_iter_records_reads_it(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # one list of a folder's record files for every reader: .ndjson runs are checked too
    # (they used to be left out of `check --record DIR` while `iter_records` read them)
    from agent_asserts.record.reading import folder_files

    Path("runs/more.ndjson").write_text(json.dumps(DEMO_RECORD) + "\n")
    Path("runs/notes.txt").write_text("not a record")
    Path("suite.json").write_text(json.dumps({"checks": ["succeeded"]}))
    assert [p.name for p in folder_files(Path("runs"))] == ["more.ndjson", "ok.json"]
    assert main(["check", "suite.json", "--record", "runs"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 cases: 2 passed; pass rate 100.0%"


def test_a_suite_given_on_the_command_line_is_told_by_the_file_it_is(workdir: Path) -> None:
    """Whatever it holds and however it is spelled (here through a link), a file given as a
    suite is not read as a record; a suite path that does not exist names nothing."""
    from agent_asserts.cli.support import scan_records

    Path("alias.json").symlink_to("runs/ok.json")
    runs = [Path("runs/ok.json")]
    assert scan_records(runs, ["runs"], ["alias.json"]).suites == runs
    assert scan_records(runs, ["runs"], ["./runs/ok.json"]).suites == runs
    assert scan_records(runs, ["runs"], ["missing.json"]).records == runs
