"""Our checks as a promptfoo Python assertion (promptfoo is a Node tool: ``npm install promptfoo``).

promptfoo runs a Python assertion file by calling its ``get_assert(output, context)``: ``output``
is the provider's output (text, or the JSON value a provider returned), ``context`` holds
``prompt``, ``vars``, ``test``, ``provider``, ``providerResponse``, the provider's ``metadata``,
the assertion's ``config``, and — when promptfoo's tracing is on — the ``trace`` with its spans.
:func:`get_assert` is that function. The assertion's ``config`` names what to check:

* ``suite``: the path of a suite file (relative to the folder ``promptfoo eval`` runs in), or a
  case function as ``module:function`` (that folder is importable);
* ``format`` (optional): the trace format of the run (default: detected);
* ``run`` (optional): where the run is, as a dotted path into ``context`` (``metadata.messages``,
  ``providerResponse.raw``); by default the output when it is a run (JSON text of messages or of
  any trace the adapters read), else the promptfoo trace's spans;
* ``timeout`` (optional): the case's time limit in seconds.

It returns a promptfoo grading result: ``pass`` is the case verdict (every gate check passed),
``score`` the case's score, ``reason`` the summary, one ``componentResults`` entry per check
(its message and evidence as reason, its status and severity in ``metadata``) and the soft
checks' scores as ``namedScores``. ``invalid`` is never a pass: an invalid check's component
fails, score 0, its reason saying ``invalid: …``, and an invalid gate check fails the test.

promptfoo loads the assertion file by its path and puts the file's folder first on
``sys.path``, so point it at a one-line file of your own, not at this module::

    # agent_asserts_promptfoo.py (python -m agent_asserts.integrations.promptfoo prints it)
    from agent_asserts.integrations.promptfoo import get_assert

    # promptfooconfig.yaml
    assert:
      - type: python
        value: file://agent_asserts_promptfoo.py
        config: {suite: checks/refund.suite.yml}

docs/integrations.md has the full example and what promptfoo shows.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import attrs

from agent_asserts.cli.support import import_judge
from agent_asserts.errors import AgentAssertsError
from agent_asserts.integrations import (
    Checks,
    Grade,
    grades,
    merged,
    read_run,
    unique_name,
    verdict_grade,
)
from agent_asserts.record import TrialRecord
from agent_asserts.record.adapters.otel import from_spans
from agent_asserts.results import CaseResult

SHIM = "from agent_asserts.integrations.promptfoo import get_assert  # noqa: F401\n"
"""The one-line assertion file promptfoo is pointed at (``file://agent_asserts_promptfoo.py``)."""


class ConfigError(AgentAssertsError, ValueError):
    """The assertion's ``config`` does not say what to check, or says it wrongly."""


class NoRun(AgentAssertsError, ValueError):
    """Neither the provider's output nor promptfoo's trace is a run the adapters read."""


def checks_of(config: Any) -> Checks:
    """The checks the assertion's ``config`` names: ``suite`` is a suite file's path or a case
    function as ``module:function``.

    Raises:
        ConfigError: ``config`` has no ``suite``, or it is not text.
        LoadError: the suite file has problems (each with its position).
        ImportError, ValueError: the ``module:function`` cannot be imported or is no function.

    >>> checks_of({"suite": "docs/examples/refunds.suite.yml"}).name
    'refund is issued only after lookup'
    >>> checks_of({})
    Traceback (most recent call last):
    ...
    agent_asserts.integrations.promptfoo.ConfigError: the agent_asserts assertion needs
    config.suite: a suite file's path or a case function as module:function (config: {})
    """
    spec = config.get("suite") if isinstance(config, Mapping) else None
    if not isinstance(spec, str) or not spec.strip():
        raise ConfigError(
            "the agent_asserts assertion needs config.suite: a suite file's path or a case "
            f"function as module:function (config: {config!r:.200})"
        )
    if _is_function(spec):
        return Checks.of(import_judge(spec))
    return Checks.of(spec)


def _is_function(spec: str) -> bool:
    """``module:function`` (a dotted module name, no path separator, no suite file suffix)."""
    module, sep, name = spec.partition(":")
    if not sep or not name or "/" in spec or "\\" in spec:
        return False
    return all(part.isidentifier() for part in module.split(".") + name.split("."))


def run_of(output: Any, context: Mapping[str, Any], format: str = "auto") -> TrialRecord:
    """The record of the run promptfoo graded: where ``config.run`` points, else the output
    when it is a run, else the spans of promptfoo's trace.

    Raises:
        NoRun: the output is no run the adapters read and there is no trace (the output's
            error is in the message).
        RecordError: what ``config.run`` points at, or the trace, is no run.
        ConfigError: ``config.run`` points at nothing in ``context``.

    >>> import json
    >>> from agent_asserts.testing import demo_record
    >>> run_of(json.dumps(demo_record().to_dict()), {}).tool_calls[0].payload.name
    'refunds_lookup'
    >>> run_of("Refunded 42.", {})
    Traceback (most recent call last):
    ...
    agent_asserts.integrations.promptfoo.NoRun: the output is text, not a run ('Refunded 42.'),
    and the test has no trace: have the provider return the run (JSON of messages or of a trace)
    as its output, point config.run at where it is (such as metadata.messages), or turn
    promptfoo's tracing on
    """
    config = context.get("config")
    where = config.get("run") if isinstance(config, Mapping) else None
    if where is not None:
        return read_run(_at(context, where), format=format)
    try:
        return read_run(output, format=format)
    except (AgentAssertsError, TypeError, ValueError) as output_error:
        trace = context.get("trace")
        if isinstance(trace, Mapping) and trace.get("spans"):
            return trace_record(trace)
        where_else = (
            "have the provider return the run (JSON of messages or of a trace) as its output, "
            "point config.run at where it is (such as metadata.messages), or turn promptfoo's "
            "tracing on"
        )
        if isinstance(output, str) and output.lstrip()[:1] not in ("{", "["):
            raise NoRun(
                f"the output is text, not a run ({output[:60]!r}), and the test has no trace: "
                + where_else
            ) from None
        raise NoRun(
            f"the output is no run and the test has no trace: {where_else}; reading the "
            f"output gave: {output_error}"
        ) from None


def _at(context: Mapping[str, Any], where: Any) -> Any:
    if not isinstance(where, str) or not where:
        raise ConfigError(f"config.run must be a dotted path into the context (got {where!r:.80})")
    value: Any = context
    for i, key in enumerate(where.split(".")):
        if isinstance(value, Mapping) and key in value:
            value = value[key]
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            found = ".".join(where.split(".")[:i]) or "the context"
            keys = sorted(value) if isinstance(value, Mapping) else []
            raise ConfigError(
                f"config.run {where!r}: {found} has no {key!r}"
                + (f" (it has: {', '.join(map(str, keys))})" if keys else "")
            )
    return value


def trace_record(trace: Mapping[str, Any]) -> TrialRecord:
    """The record of a promptfoo trace (``context["trace"]``: spans with times in
    milliseconds, attributes as a plain dict, the OpenTelemetry status code).

    >>> trace = {"traceId": "0af7651916cd43dd8448eb211c80319c", "spans": [
    ...     {"spanId": "b7ad6b7169203331", "name": "execute_tool lookup_order",
    ...      "startTime": 1700000000000, "endTime": 1700000000500, "statusCode": 0,
    ...      "attributes": {"gen_ai.operation.name": "execute_tool",
    ...                     "gen_ai.tool.call.arguments": '{"id": 7}'}}]}
    >>> call = trace_record(trace).tool_calls[0]
    >>> call.payload.name, call.payload.arguments, call.duration
    ('lookup_order', {'id': 7}, 0.5)
    """
    trace_id = trace.get("traceId")
    spans = []
    for span in trace.get("spans") or ():
        if not isinstance(span, Mapping):
            spans.append(span)  # the otel adapter names the bad span and its position
            continue
        otlp: dict[str, Any] = {
            "spanId": span.get("spanId"),
            "name": span.get("name"),
            "attributes": span.get("attributes") or {},
        }
        if trace_id is not None:
            otlp["traceId"] = trace_id
        if span.get("parentSpanId"):
            otlp["parentSpanId"] = span["parentSpanId"]
        for ms, nanos in (("startTime", "startTimeUnixNano"), ("endTime", "endTimeUnixNano")):
            if isinstance(span.get(ms), int | float):
                otlp[nanos] = str(round(span[ms] * 1_000_000))
        if span.get("statusCode") is not None:
            otlp["status"] = {"code": span["statusCode"], "message": span.get("statusMessage")}
        spans.append(otlp)
    return from_spans(spans, source="promptfoo trace")


def grading_result(case: CaseResult) -> dict[str, Any]:
    """A case as a promptfoo grading result: the verdict, one component result per check, the
    soft checks' scores as named scores (JSON data, what promptfoo reads back).

    >>> from agent_asserts.integrations import Checks
    >>> from agent_asserts.testing import demo_record
    >>> [case] = Checks.of(lambda ctx: ctx.called_tool("refunds_issue")).evaluate(demo_record())
    >>> result = grading_result(case)
    >>> result["pass"], result["score"], result["componentResults"][0]["reason"]
    (True, 1.0, 'called_tool:refunds_issue: matched 1 tool calls (evidence: e3)')
    """
    verdict = verdict_grade(case)
    graded = grades(case)
    components = [_component(grade) for grade in graded]
    result: dict[str, Any] = {
        "pass": verdict.passed,
        "score": _score(verdict),
        "reason": verdict.reason,
        "componentResults": components,
    }
    named: dict[str, float] = {}
    for grade in graded:
        if not grade.assertion and grade.score is not None:
            # two soft checks of one name: both kept
            named[unique_name(named, grade.name)] = _score(grade)
    if named:
        result["namedScores"] = named
    return result


def _score(grade: Grade) -> float:
    """promptfoo needs a number: 0.0 for ``invalid`` and ``evaluator_error``, else the
    grade's score, or 1.0/0.0 from whether it passed when it has none."""
    if grade.status in ("invalid", "evaluator_error"):
        return 0.0
    if grade.score is not None:
        return grade.score
    return 1.0 if grade.passed else 0.0


def _component(grade: Grade) -> dict[str, Any]:
    return {
        "pass": grade.passed,
        "score": _score(grade),
        "reason": f"{grade.name}: {grade.reason}",
        "metadata": attrs.asdict(grade),
    }


def get_assert(output: Any, context: dict[str, Any]) -> dict[str, Any]:
    """promptfoo's Python assertion entry point: run the checks ``context["config"]`` names on
    the run promptfoo graded.

    When the assertion's ``config`` does not say what to check, or the run cannot be read,
    the result fails with the error as its reason (``agent_asserts could not check: …``),
    what promptfoo would show for an exception, without its stack trace.

    >>> import json
    >>> from agent_asserts.testing import demo_record
    >>> result = get_assert(json.dumps(demo_record().to_dict()),
    ...                     {"config": {"suite": "docs/examples/refunds.suite.yml"}})
    >>> result["pass"], len(result["componentResults"]), result["namedScores"]
    (True, 11, {'happy path/similarity:reply': 1.0, 'happy path/max_tool_calls:5': 1.0})
    >>> get_assert("Refunded 42.", {"config": {"suite": "docs/examples/refunds.suite.yml"}})
    {'pass': False, 'score': 0.0, 'reason': "agent_asserts could not check: the output is ..."}
    """
    try:
        config = context.get("config")
        checks = checks_of(config)
        options = config if isinstance(config, Mapping) else {}  # checks_of made sure
        format, timeout = options.get("format", "auto"), options.get("timeout")
        if not isinstance(format, str):
            raise ConfigError(f"config.format must be a format's name (got {format!r:.80})")
        if timeout is not None and (
            isinstance(timeout, bool) or not isinstance(timeout, int | float)
        ):
            raise ConfigError(f"config.timeout must be a number of seconds (got {timeout!r:.80})")
        record = run_of(output, context, format)
    except (AgentAssertsError, ImportError, OSError, TypeError, ValueError) as error:
        return {"pass": False, "score": 0.0, "reason": f"agent_asserts could not check: {error}"}
    case = merged(checks.evaluate(record, timeout=timeout), checks.name)
    return grading_result(case)


def main() -> int:
    """``python -m agent_asserts.integrations.promptfoo``: print the assertion file's text."""
    sys.stdout.write(SHIM)
    return 0


__all__ = [
    "SHIM",
    "ConfigError",
    "NoRun",
    "checks_of",
    "get_assert",
    "grading_result",
    "run_of",
    "trace_record",
]

if __name__ == "__main__":
    raise SystemExit(main())
