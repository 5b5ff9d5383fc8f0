"""README.md's tour runs as written and prints what the README shows."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _block_after(heading: str, lang: str, index: int = 0) -> str:
    section = README.split(heading, 1)[1]
    return re.findall(rf"```{lang}\n(.*?)```", section, flags=re.S)[index]


def test_the_tour_prints_the_output_the_readme_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code = _block_after("## A 30-line tour", "python")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {"__name__": "readme_tour"})
    assert out.getvalue() == _block_after("## A 30-line tour", "text")


def test_the_failure_example_is_real_output(monkeypatch: pytest.MonkeyPatch) -> None:
    from agent_asserts import TrialRecord, run_case

    monkeypatch.chdir(ROOT)
    record = TrialRecord.load("docs/examples/refund_run.json")
    result = run_case(
        record,
        lambda ctx: ctx.called_tool("refunds_issue", arguments={"orderId": "A1049", "amount": 40}),
    )
    shown = _block_after("A failed check says *where* it failed", "text")
    assert "\n".join(str(result).splitlines()[1:]) + "\n" == shown


def test_the_first_command_names_files_that_exist() -> None:
    first = re.findall(r"```sh\n(.*?)```", README, flags=re.S)[0]
    for path in re.findall(r"docs/examples/\S+", first):
        assert (ROOT / path).is_file(), path


def test_ci_runs_exactly_the_test_command_of_the_readme() -> None:
    second = re.findall(r"```sh\n(.*?)```", README, flags=re.S)[1].strip()
    test_command = second.split("&&")[-1].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == test_command
