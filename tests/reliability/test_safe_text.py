"""Finding 3 and 8: one hostile string through every output; nothing in it acts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agent_asserts import EvalContext, TrialRecord, run_case
from agent_asserts._text import CONTROL, escape_controls, safe_repr, safe_str
from agent_asserts.judges import JudgeRequest, JudgeResponse, callable_judge, render_prompt
from agent_asserts.report import render

# a screen clear, a window title, a carriage return, NEL, the line and paragraph separators,
# a right-to-left override and an isolate
HOSTILE = "x\x1b[2J\x1b]0;pwned\x07\rfake\x85nel\u2028ls\u2029ps\u202eevil\u2066iso\x9bc1"
ACTING = set("\x1b\x07\r\x85\u2028\u2029\u202e\u2066\x9b")


def _case() -> tuple[TrialRecord, object]:
    record = TrialRecord.builder().agent(HOSTILE).build(errors=[HOSTILE])

    def case(ctx: EvalContext) -> None:
        ctx.no_failed_actions()
        ctx.check(HOSTILE, False, HOSTILE)
        ctx.judge("polite").gate()

    judge = callable_judge(lambda prompt: JudgeResponse(0.0, explanation=HOSTILE))
    return record, run_case(record, case, judge=judge, name=HOSTILE)


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "junit"])
def test_no_acting_character_reaches_a_report(fmt: str) -> None:
    record, result = _case()
    shown = render([result], fmt, records=[record], sources=[HOSTILE])
    assert not ACTING & set(shown), sorted(ACTING & set(shown))
    assert "\\x1b[2J" in shown and "\\u202e" in shown  # shown, escaped, not dropped


def test_the_text_summary_escapes_what_the_record_and_the_judge_said() -> None:
    _, result = _case()
    summary = str(result)
    assert not ACTING & set(summary)
    assert "\\x1b]0;pwned\\x07\\rfake\\x85nel\\u2028ls" in summary


def test_the_cli_prints_escapes_not_the_bytes(tmp_path: Path) -> None:
    (tmp_path / "run.json").write_text(json.dumps({"events": [], "errors": [HOSTILE]}))
    (tmp_path / "suite.yaml").write_text(
        "record: run.json\ncases:\n  - name: " + json.dumps(HOSTILE) + "\n"
        "    checks: [no_failed_actions]\n"
    )
    (tmp_path / "bad.yaml").write_text("checks: [" + json.dumps(HOSTILE) + "]\n")
    done = subprocess.run(
        [sys.executable, "-m", "agent_asserts", "check", "suite.yaml", "bad.yaml"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2
    for stream in (done.stdout, done.stderr):
        assert not ACTING & set(stream), sorted(ACTING & set(stream))
    assert "\\x1b[2J" in done.stdout and "\\x1b[2J" in done.stderr


def test_the_judge_prompt_keeps_every_line_break_and_override_escaped() -> None:
    prompt = render_prompt(HOSTILE, {"reply": HOSTILE}, rubric=HOSTILE, nonce="f00d")
    assert not ACTING & set(prompt)
    assert prompt.splitlines() == prompt.removesuffix("\n").split("\n")  # no other separator
    evidence = prompt.split("BEGIN UNTRUSTED DATA f00d\n")[1].split("\nEND UNTRUSTED DATA")[0]
    assert json.loads(evidence) == {"reply": HOSTILE}  # the same data, escaped as JSON


def test_the_judge_request_carries_the_escaped_prompt() -> None:
    seen: list[JudgeRequest] = []

    def judge(request: JudgeRequest) -> JudgeResponse:
        seen.append(request)
        return JudgeResponse(1.0)

    run_case(TrialRecord.builder().agent(HOSTILE).build(), lambda ctx: ctx.judge("ok"),
             judge=judge)  # fmt: skip
    assert not ACTING & set(seen[0].prompt)


def test_one_placeholder_for_every_broken_repr_and_str() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no")

        def __str__(self) -> str:
            raise ValueError("no")

    assert safe_repr(Broken()) == "<Broken object (repr failed: RuntimeError)>"
    assert safe_str(Broken()) == "<Broken object (str failed: ValueError)>"
    from agent_asserts._values import to_jsonable
    from agent_asserts.matching import render as render_value
    from agent_asserts.record.validators import got

    assert to_jsonable(Broken()) == render_value(Broken()) == got(Broken()) == safe_repr(Broken())


def test_every_control_class_is_escaped() -> None:
    chars = [chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0))]
    chars += ["\u2028", "\u2029", "\u061c", "\u200e", "\u200f"]
    chars += [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
    for char in chars:
        expected_kept = char in "\t\n"
        assert (escape_controls(char) == char) is expected_kept, repr(char)
        assert CONTROL.search(escape_controls(char, keep_newlines=False)) is None
