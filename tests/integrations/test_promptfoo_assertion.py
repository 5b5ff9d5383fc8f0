"""The promptfoo Python assertion: ``get_assert(output, context)`` called the way promptfoo's
Python wrapper calls it (the file loaded by its path, both arguments through JSON, the result
written back as JSON), and once through a real ``promptfoo eval`` with a local Python provider
replaying a recorded run, offline.

promptfoo is a Node tool, not a Python extra: ``.ci/run`` installs it from the npm registry into
a cache folder and exports its ``promptfoo`` command as ``AGENT_ASSERTS_PROMPTFOO``. Without
that variable the end-to-end test looks in the cache folder and, when promptfoo is not there,
fails with the command that installs it (it is never skipped: a skipped end-to-end test would
hide a broken CI step).
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_asserts.integrations.promptfoo import SHIM, main

SUITE = """\
name: refund
cases:
  - name: refund
    checks:
      - called_tool: {name: lookup_order, arguments: {order_id: {$regex: "^A[0-9]+$"}}}
      - called_tool: {name: issue_refund, arguments: {amount: 42}}
      - tool_order: [lookup_order, issue_refund]
      - max_tool_calls: 5
        severity: soft
"""


def _call(name: str, arguments: dict[str, Any], call_id: str) -> dict[str, Any]:
    function = {"name": name, "arguments": json.dumps(arguments)}
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": call_id, "type": "function", "function": function}],
    }


def _messages(amount: int = 42) -> list[dict[str, Any]]:
    """A recorded refund run as OpenAI Chat Completions messages."""
    return [
        {"role": "user", "content": "Refund order A1049"},
        _call("lookup_order", {"order_id": "A1049"}, "c1"),
        {"role": "tool", "tool_call_id": "c1", "content": '{"total": 42}'},
        _call("issue_refund", {"order_id": "A1049", "amount": amount}, "c2"),
        {"role": "tool", "tool_call_id": "c2", "content": '{"refund_id": "R1"}'},
        {"role": "assistant", "content": f"Refunded {amount} for order A1049."},
    ]


def _context(config: dict[str, Any], output: Any, **extra: Any) -> dict[str, Any]:
    """A context as promptfoo builds it for a Python assertion (captured from promptfoo 0.121)."""
    test = {
        "vars": {"order": "A1049"},
        "assert": [{"type": "python", "value": "file://check.py", "config": config}],
        "options": {},
        "metadata": {},
    }
    response: dict[str, Any] = {"output": output, "cached": False}
    if "metadata" in extra:
        response["metadata"] = extra["metadata"]
    return {
        "prompt": "Refund order A1049",
        "vars": {"order": "A1049"},
        "test": test,
        "provider": {"config": {"basePath": "."}, "label": "", "functionName": None},
        "providerResponse": response,
        "config": config,
        **extra,
    }


def _like_promptfoo(tmp_path: Path, output: Any, context: dict[str, Any]) -> Any:
    """Call ``get_assert`` as promptfoo's wrapper does: the assertion file (the shim
    ``python -m agent_asserts.integrations.promptfoo`` prints) loaded by its path with its
    folder first on ``sys.path``, ``[output, context]`` read back from JSON, the result
    written as JSON."""
    shim = tmp_path / "agent_asserts_promptfoo.py"
    shim.write_text(SHIM, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("agent_asserts_promptfoo", shim)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args = json.loads(json.dumps([output, context]))
    return json.loads(json.dumps(module.get_assert(*args), ensure_ascii=False))


@pytest.fixture
def suite(tmp_path: Path) -> str:
    path = tmp_path / "refund.suite.yml"
    path.write_text(SUITE, encoding="utf-8")
    return str(path)


def test_a_run_in_the_output_passes_with_one_component_per_check(
    tmp_path: Path, suite: str
) -> None:
    output = json.dumps(_messages())
    result = _like_promptfoo(tmp_path, output, _context({"suite": suite}, output))
    assert result["pass"] is True
    assert result["score"] == 1.0
    assert result["reason"].startswith("PASSED refund: 4 checks: 4 passed")
    assert [(c["pass"], c["reason"]) for c in result["componentResults"]] == [
        (True, "called_tool:lookup_order: matched 1 tool calls (evidence: e2)"),
        (True, "called_tool:issue_refund: matched 1 tool calls (evidence: e4)"),
        (True, "tool_order: found 2 steps in order: e2, e4 (evidence: e2, e4)"),
        (True, "max_tool_calls:5: made 2 tool calls, limit 5 (evidence: e2, e4)"),
    ]
    assert result["componentResults"][1]["metadata"] == {
        "name": "called_tool:issue_refund",
        "passed": True,
        "score": 1.0,
        "reason": "matched 1 tool calls (evidence: e4)",
        "evidence": ["e4"],
        "status": "pass",
        "severity": "gate",
    }
    assert result["namedScores"] == {"max_tool_calls:5": 1.0}


def test_a_failed_gate_check_fails_the_test_with_its_evidence(tmp_path: Path, suite: str) -> None:
    output = json.dumps(_messages(amount=40))
    result = _like_promptfoo(tmp_path, output, _context({"suite": suite}, output))
    assert result["pass"] is False
    assert result["score"] == 0.75
    failed = [c for c in result["componentResults"] if not c["pass"]]
    assert [c["reason"] for c in failed] == [
        "called_tool:issue_refund: matched 0 tool calls of 1 'issue_refund' calls, expected at "
        "least 1; closest e4: $.arguments.amount: expected 42, got 40 (evidence: e4)"
    ]
    assert "FAILED [gate] called_tool('issue_refund', arguments={'amount': 42})" in result["reason"]


def test_a_soft_failure_scores_but_does_not_fail_the_test(tmp_path: Path) -> None:
    suite = tmp_path / "soft.suite.yml"
    suite.write_text(SUITE.replace("max_tool_calls: 5", "max_tool_calls: 1"), encoding="utf-8")
    output = json.dumps(_messages())
    result = _like_promptfoo(tmp_path, output, _context({"suite": str(suite)}, output))
    assert result["pass"] is True
    assert result["reason"].startswith("SCORED refund")
    soft = result["componentResults"][3]
    assert (soft["pass"], soft["score"], soft["metadata"]["severity"]) == (False, 0.0, "soft")
    assert result["namedScores"] == {"max_tool_calls:1": 0.0}


def test_an_invalid_gate_check_is_never_a_pass(tmp_path: Path) -> None:
    suite = tmp_path / "budget.suite.yml"
    suite.write_text(
        SUITE + "      - expect: {value: usage.total_tokens, matches: {$le: 2000}, "
        "name: token budget}\n",
        encoding="utf-8",
    )
    output = json.dumps(_messages())
    result = _like_promptfoo(tmp_path, output, _context({"suite": str(suite)}, output))
    assert result["pass"] is False
    budget = result["componentResults"][-1]
    assert budget["pass"] is False
    assert budget["score"] == 0.0
    assert budget["reason"] == "token budget: invalid: the record has no usage.total_tokens"
    assert budget["metadata"]["status"] == "invalid"


def refund_checks(ctx: Any) -> None:
    """A case function named in the assertion's config as ``module:function``."""
    ctx.called_tool("issue_refund", {"amount": 42})
    ctx.not_called_tool("cancel_order")


def test_a_case_function_named_module_function(tmp_path: Path) -> None:
    output = json.dumps(_messages())
    config = {"suite": f"{__name__}:refund_checks"}
    result = _like_promptfoo(tmp_path, output, _context(config, output))
    assert result["pass"] is True
    assert [c["metadata"]["name"] for c in result["componentResults"]] == [
        "called_tool:issue_refund",
        "not_called_tool:cancel_order",
    ]
    assert result["reason"].startswith("PASSED refund_checks")


def test_the_run_from_provider_metadata_via_config_run(tmp_path: Path, suite: str) -> None:
    config = {"suite": suite, "run": "metadata.messages"}
    context = _context(config, "Refunded 42.", metadata={"messages": _messages()})
    result = _like_promptfoo(tmp_path, "Refunded 42.", context)
    assert result["pass"] is True
    config = {"suite": suite, "run": "metadata.run"}
    context = _context(config, "Refunded 42.", metadata={"messages": []})
    assert _like_promptfoo(tmp_path, "Refunded 42.", context) == {
        "pass": False,
        "score": 0.0,
        "reason": "agent_asserts could not check: config.run 'metadata.run': metadata has no "
        "'run' (it has: messages)",
    }


def _span(span_id: str, parent: str | None, name: str, start: int, **attributes: Any) -> Any:
    """A span as promptfoo's trace store hands it to an assertion (times in milliseconds,
    attributes a plain dict with the resource's and ``otel.*`` keys added)."""
    return {
        "spanId": span_id,
        "parentSpanId": parent,
        "name": name,
        "startTime": start,
        "endTime": start + 100,
        "attributes": {"service.name": "shop", "otel.span.kind": "internal", **attributes},
        "statusCode": 0,
    }


def test_a_plain_reply_is_checked_on_promptfoos_trace(tmp_path: Path, suite: str) -> None:
    root = "a000000000000001"
    trace = {
        "traceId": "0af7651916cd43dd8448eb211c80319c",
        "evaluationId": "eval-1",
        "testCaseId": "t-1",
        "spans": [
            _span(
                root,
                None,
                "invoke_agent shop",
                1_700_000_000_000,
                **{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "shop"},
            ),
            _span(
                "b000000000000002",
                root,
                "execute_tool lookup_order",
                1_700_000_000_100,
                **{
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "lookup_order",
                    "gen_ai.tool.call.arguments": '{"order_id": "A1049"}',
                },
            ),
            _span(
                "b000000000000003",
                root,
                "execute_tool issue_refund",
                1_700_000_000_300,
                **{
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "issue_refund",
                    "gen_ai.tool.call.arguments": '{"order_id": "A1049", "amount": 42}',
                },
            ),
        ],
    }
    context = _context({"suite": suite}, "Refunded 42.", trace=trace)
    result = _like_promptfoo(tmp_path, "Refunded 42.", context)
    assert result["pass"] is True, result["reason"]
    assert [c["pass"] for c in result["componentResults"]] == [True, True, True, True]


def test_a_plain_reply_without_a_trace_says_where_the_run_can_come_from(
    tmp_path: Path, suite: str
) -> None:
    context = _context({"suite": suite}, "Refunded 42.")
    assert _like_promptfoo(tmp_path, "Refunded 42.", context) == {
        "pass": False,
        "score": 0.0,
        "reason": "agent_asserts could not check: the output is text, not a run ('Refunded "
        "42.'), and the test has no trace: have the provider return the run (JSON of messages "
        "or of a trace) as its output, point config.run at where it is (such as "
        "metadata.messages), or turn promptfoo's tracing on",
    }
    output = json.dumps({"answer": "Refunded 42."})
    result = _like_promptfoo(tmp_path, output, _context({"suite": suite}, output))
    assert result["pass"] is False
    assert result["reason"].startswith(
        "agent_asserts could not check: the output is no run and the test has no trace: have "
        "the provider return the run (JSON of messages or of a trace) as its output, point "
        "config.run at where it is (such as metadata.messages), or turn promptfoo's tracing "
        "on; reading the output gave: invalid record: 1 problem(s)\n  <trace text>: $: cannot "
        "tell the trace format"
    )


def test_an_assertion_without_a_suite_or_with_a_bad_option_says_what_config_needs(
    tmp_path: Path, suite: str
) -> None:
    context = _context({}, "x")
    del context["config"]  # promptfoo leaves config out when the assertion has none
    assert _like_promptfoo(tmp_path, "x", context)["reason"] == (
        "agent_asserts could not check: the agent_asserts assertion needs config.suite: a suite "
        "file's path or a case function as module:function (config: None)"
    )
    context = _context({"suite": suite, "timeout": "5s"}, "x")
    assert _like_promptfoo(tmp_path, "x", context)["reason"] == (
        "agent_asserts could not check: config.timeout must be a number of seconds (got '5s')"
    )
    context = _context({"suite": str(Path(suite).with_name("missing.yml"))}, "x")
    result = _like_promptfoo(tmp_path, "x", context)
    assert (result["pass"], result["score"]) == (False, 0.0)
    assert "missing.yml" in result["reason"]


def test_main_prints_the_assertion_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main() == 0
    assert capsys.readouterr().out == (
        "from agent_asserts.integrations.promptfoo import get_assert  # noqa: F401\n"
    )


# --- one real `promptfoo eval` ------------------------------------------------------------

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "agent-asserts"
INSTALL = f"npm install --prefix {CACHE / 'promptfoo'} promptfoo@0.121.20"

PROVIDER = """\
import json
from pathlib import Path

def call_api(prompt, options, context):
    # a local "agent": replays the run recorded for the order, returns its reply as the
    # output and the run in the response's metadata
    run = json.loads(Path(f"runs/{context['vars']['order']}.json").read_text(encoding="utf-8"))
    return {"output": run[-1]["content"], "metadata": {"messages": run}}
"""

CONFIG = """\
description: agent_asserts inside promptfoo
prompts: ["Refund order {{order}}"]
providers: ["file://agent.py"]
defaultTest:
  assert:
    - type: python
      value: file://agent_asserts_promptfoo.py
      config: {suite: refund.suite.yml, run: metadata.messages}
tests:
  - vars: {order: A1049}
  - vars: {order: A2051}
"""


TRACED_PROVIDER = """\
import json
import os
import time
import urllib.request


def _span(trace_id, span_id, parent, name, start, attributes):
    return {
        "traceId": trace_id, "spanId": span_id, "parentSpanId": parent, "name": name,
        "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 100_000_000),
        "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attributes.items()],
    }


def call_api(prompt, options, context):
    # a local instrumented "agent": sends the spans of its run (GenAI conventions) to
    # promptfoo's OTLP receiver, under the trace promptfoo opened for the test; returns its reply
    amount = 42 if context["vars"]["order"] == "A1049" else 40
    _, trace_id, parent, _ = context["traceparent"].split("-")
    now = time.time_ns()
    agent = "a000000000000001"
    spans = [
        _span(trace_id, agent, parent, "invoke_agent shop", now,
              {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "shop"}),
        _span(trace_id, "b000000000000002", agent, "execute_tool lookup_order", now + 1,
              {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup_order",
               "gen_ai.tool.call.arguments": json.dumps({"order_id": "A1049"})}),
        _span(trace_id, "b000000000000003", agent, "execute_tool issue_refund", now + 2,
              {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "issue_refund",
               "gen_ai.tool.call.arguments": json.dumps({"order_id": "A1049", "amount": amount})}),
    ]
    export = {"resourceSpans": [{"scopeSpans": [{"scope": {"name": "shop"}, "spans": spans}]}]}
    request = urllib.request.Request(
        f"http://127.0.0.1:{os.environ['AGENT_ASSERTS_OTLP_PORT']}/v1/traces",
        data=json.dumps(export).encode(), headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=30).read()
    return {"output": f"Refunded {amount} for order A1049."}
"""

TRACED_CONFIG = """\
description: agent_asserts on promptfoo's trace
prompts: ["Refund order {{order}}"]
providers: ["file://agent.py"]
tracing:
  enabled: true
  otlp: {http: {enabled: true, port: PORT}}
defaultTest:
  assert:
    - type: python
      value: file://agent_asserts_promptfoo.py
      config: {suite: refund.suite.yml}
tests:
  - vars: {order: A1049}
  - vars: {order: A2051}
"""


def _promptfoo() -> str:
    """The ``promptfoo`` command: ``AGENT_ASSERTS_PROMPTFOO`` (set by .ci/run), else the cache
    folder .ci/run installs into."""
    command = os.environ.get("AGENT_ASSERTS_PROMPTFOO") or str(
        CACHE / "promptfoo" / "node_modules" / ".bin" / "promptfoo"
    )
    if not Path(command).is_file():
        pytest.fail(
            f"promptfoo is not installed at {command}: run `{INSTALL}` (Node 20 or later; "
            "what .ci/run does) or set AGENT_ASSERTS_PROMPTFOO to a promptfoo command"
        )
    return command


def _offline_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        PROMPTFOO_PYTHON=sys.executable,
        PROMPTFOO_CONFIG_DIR=str(tmp_path / "promptfoo-home"),  # its database, not ~/.promptfoo
        PROMPTFOO_DISABLE_TELEMETRY="1",
        PROMPTFOO_DISABLE_UPDATE="1",
        PROMPTFOO_DISABLE_SHARING="1",
        PROMPTFOO_DISABLE_REMOTE_GENERATION="1",
        FORCE_COLOR="0",  # the table as plain text
        PYTHONPATH=os.pathsep.join([str(Path(__file__).parents[2]), env.get("PYTHONPATH", "")]),
    )
    return env


def _eval(
    tmp_path: Path, config: str = CONFIG, provider: str = PROVIDER, **env: str
) -> tuple[list[dict[str, Any]], str]:
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "A1049.json").write_text(json.dumps(_messages(42)), encoding="utf-8")
    (tmp_path / "runs" / "A2051.json").write_text(json.dumps(_messages(40)), encoding="utf-8")
    (tmp_path / "agent.py").write_text(provider, encoding="utf-8")
    (tmp_path / "refund.suite.yml").write_text(SUITE, encoding="utf-8")
    (tmp_path / "agent_asserts_promptfoo.py").write_text(SHIM, encoding="utf-8")
    (tmp_path / "promptfooconfig.yaml").write_text(config, encoding="utf-8")
    done = subprocess.run(
        [_promptfoo(), "eval", "-c", "promptfooconfig.yaml", "-o", "out.json", "--no-cache"],
        cwd=tmp_path,
        env=_offline_env(tmp_path) | env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = tmp_path / "out.json"
    assert out.is_file(), f"promptfoo eval wrote no out.json:\n{done.stdout}\n{done.stderr}"
    rows = json.loads(out.read_text(encoding="utf-8"))["results"]["results"]
    return sorted(rows, key=lambda row: row["vars"]["order"]), done.stdout


def test_a_real_promptfoo_eval_runs_the_assertion(tmp_path: Path) -> None:
    (ok, wrong), stdout = _eval(tmp_path)
    assert ok["success"] is True, ok["gradingResult"]
    [ours] = [c for c in ok["gradingResult"]["componentResults"] if "componentResults" in c]
    assert ours["pass"] is True
    assert ours["reason"].startswith("PASSED refund: 4 checks: 4 passed")
    assert [c["reason"] for c in ours["componentResults"]] == [
        "called_tool:lookup_order: matched 1 tool calls (evidence: e2)",
        "called_tool:issue_refund: matched 1 tool calls (evidence: e4)",
        "tool_order: found 2 steps in order: e2, e4 (evidence: e2, e4)",
        "max_tool_calls:5: made 2 tool calls, limit 5 (evidence: e2, e4)",
    ]
    assert ok["namedScores"] == {"max_tool_calls:5": 1.0}

    assert wrong["success"] is False
    assert wrong["gradingResult"]["pass"] is False
    assert wrong["error"].startswith("FAILED refund: 4 checks: 3 passed, 1 failed")
    assert "$.arguments.amount: expected 42, got 40" in wrong["error"]
    assert "[PASS] Refunded 42 for order A1049." in stdout
    assert "[FAIL] Refunded 40 for order A1049." in stdout


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_a_real_promptfoo_eval_with_tracing_checks_promptfoos_trace(tmp_path: Path) -> None:
    port = str(_free_port())
    (ok, wrong), stdout = _eval(
        tmp_path,
        TRACED_CONFIG.replace("PORT", port),
        TRACED_PROVIDER,
        AGENT_ASSERTS_OTLP_PORT=port,
    )
    assert ok["success"] is True, ok["gradingResult"]
    [ours] = [c for c in ok["gradingResult"]["componentResults"] if "componentResults" in c]
    assert [c["reason"] for c in ours["componentResults"]][:2] == [
        "called_tool:lookup_order: matched 1 tool calls (evidence: b000000000000002)",
        "called_tool:issue_refund: matched 1 tool calls (evidence: b000000000000003)",
    ]
    assert wrong["success"] is False
    assert "$.arguments.amount: expected 42, got 40" in wrong["error"]
    assert "[FAIL] Refunded 40 for order A1049." in stdout
