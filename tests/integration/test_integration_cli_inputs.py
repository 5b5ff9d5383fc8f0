"""``agent-asserts check`` on hostile suites (issue #25, item 8): a suite's ``record:`` files are
read only inside the suite's folder (and the folders ``--allow-records-from`` names), and
reports embed record data only with ``--embed-records``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_asserts.cli import main
from agent_asserts.testing import DEMO_RECORD

SECRET = {"private_key": "-----BEGIN PRIVATE KEY----- abc"}


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "suites").mkdir()
    (tmp_path / "suites" / "runs").mkdir()
    (tmp_path / "suites" / "runs" / "ok.json").write_text(json.dumps(DEMO_RECORD))
    (tmp_path / "secret.json").write_text(json.dumps(SECRET))
    return tmp_path


def _suite(record: str, *, mantle: bool = False) -> str:
    Path("suites/s.yml").write_text(
        f"record: {json.dumps(record)}\n"
        + ("record_format: mantle\n" if mantle else "")
        + "cases:\n  - {name: c, checks: [{called_tool: refunds_lookup}]}\n"
    )
    return "suites/s.yml"


@pytest.mark.parametrize("record", ["../secret.json", "runs/../../secret.json", "ABSOLUTE"])
def test_a_record_outside_the_suites_folder_is_not_read(
    workdir: Path, capsys: pytest.CaptureFixture[str], record: str
) -> None:
    record = str(workdir / "secret.json") if record == "ABSOLUTE" else record
    suite = _suite(record, mantle=True)
    assert main(["check", suite, "--format", "json", "--output", "report.json"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"error: suites/s.yml: case 'c': the record {Path('suites', record)} is outside the "
        "suite's folder (suites): give --allow-records-from DIR to read records from another "
        "folder\n"
    )
    text = (workdir / "report.json").read_text()
    assert "PRIVATE KEY" not in text
    (case,) = json.loads(text)["cases"]
    assert case["verdict"] == "failed" and "is outside the suite's folder" in case["error"]


def test_a_symlink_in_the_suites_folder_to_a_file_outside_is_not_read(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "suites" / "runs" / "key.json").symlink_to(workdir / "secret.json")
    assert main(["check", _suite("runs/key.json", mantle=True)]) == 2
    assert "the record suites/runs/key.json is outside" in capsys.readouterr().err


def test_allow_records_from_widens_the_folders(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "elsewhere").mkdir()
    (workdir / "elsewhere" / "ok.json").write_text(json.dumps(DEMO_RECORD))
    suite = _suite(str(workdir / "elsewhere" / "ok.json"))
    assert main(["check", suite]) == 2
    capsys.readouterr()
    assert main(["check", suite, "--allow-records-from", "elsewhere"]) == 0
    assert capsys.readouterr().out.endswith("1 case: 1 passed; pass rate 100.0%\n")
    assert main(["check", _suite("runs/ok.json")]) == 0  # inside the suite's folder: read


@pytest.mark.parametrize("fmt", ["json", "html"])
def test_record_data_is_embedded_only_when_asked(
    workdir: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    (workdir / "suites" / "runs" / "key.json").write_text(json.dumps(SECRET))
    suite = _suite("runs/key.json", mantle=True)  # any JSON object is a Mantle record
    main(["check", suite, "--format", fmt])
    assert "PRIVATE KEY" not in capsys.readouterr().out
    main(["check", suite, "--format", fmt, "--embed-records"])
    assert ("PRIVATE KEY" in capsys.readouterr().out) is (fmt == "json")  # HTML: the timeline
    main(["check", _suite("runs/ok.json"), "--format", fmt, "--embed-records"])
    out = capsys.readouterr().out
    if fmt == "json":
        assert json.loads(out)["records"][0]["data"]["events"]
    else:
        assert '<ol class="aa-events">' in out
    main(["check", _suite("runs/ok.json"), "--format", fmt])
    assert "refunds_lookup" in (out := capsys.readouterr().out)
    assert '<ol class="aa-events">' not in out and '"data": {' not in out
