"""Our checks as a LangSmith / openevals evaluator (``pip install 'agent-asserts[langsmith]'``).

:func:`agent_asserts_evaluator` makes an :class:`AgentAssertsEvaluator` from a case function
``fn(ctx)``, a loaded suite, or the path of a suite file. It is called the way both libraries
call an evaluator, with keywords only:

* openevals' convention, ``evaluator(outputs=..., reference_outputs=...)`` (``inputs`` too):
  ``outputs`` is the run — a message list (OpenAI or LangChain, dicts or objects), a
  ``{"messages": [...]}`` state, a LangSmith run tree, any trace the adapters read
  (docs/traces.md) or a :class:`~agent_asserts.record.TrialRecord`;
* LangSmith's ``evaluate(target, data=..., evaluators=[evaluator])``, which reads the
  evaluator's parameters and passes ``run`` (the target's ``Run``/``RunTree``, with its child
  runs), ``example`` (the dataset ``Example``), ``inputs``, ``outputs`` (the run's outputs) and
  ``reference_outputs`` (the example's outputs); ``aevaluate`` and ``run_evaluator`` call it the
  same way.

The run that is checked: the ``run`` tree when it has child runs (the model and tool runs
traced inside the target); else ``outputs`` (or the run's outputs) when they are a trace; else
the ``run`` itself (its inputs and outputs only); a run that cannot be read is a failed case
(an ``evaluation`` result, ``evaluator_error: cannot read the run: …``), never an exception
LangSmith would only log. It returns a list of results, the form openevals' evaluators and
LangSmith both take for several results: one
``{"key", "score", "comment", "metadata"}`` per check, keyed by the check's name
(``called_tool:issue_refund``; a repeated name gets ``#2``, ``#3``), then ``verdict`` for the
case. A gate check's score is ``True``/``False``, a soft check's its score (0.0 to 1.0);
``invalid`` is never a pass: its score is ``False`` (``0.0`` for a soft check) and its comment
starts ``invalid:``. The comment is the check's message with the evidence ids; the metadata
holds ``status``, ``severity`` and ``evidence``.

A reference trajectory: with ``trajectory="strict"`` (or ``in_order``, ``unordered``,
``subset``, ``superset``) the evaluator also runs ``matches_trajectory`` (key
``matches_trajectory``) against the reference in ``reference_outputs`` (LangSmith: the
example's outputs) — a message list or ``{"messages": [...]}`` (openevals' form), a
``{"trajectory": [...]}`` list of ``{"name", "arguments"}`` calls or tool names, or any trace.
An example without one (or with one that cannot be read) gives that check ``invalid``, never
a pass. Without ``trajectory``, ``reference_outputs`` is not read. ``arguments`` and ``tools``
set the match's argument modes (openevals' ``tool_args_match_mode`` and overrides).

docs/integrations.md has the full example and what LangSmith shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from agent_asserts.checks.trajectory_match import normalize_reference
from agent_asserts.errors import AgentAssertsError
from agent_asserts.integrations import (
    Checks,
    Grade,
    check_trajectory_modes,
    grades,
    merged,
    read_run,
    trajectory_case,
    unique_name,
)
from agent_asserts.live import error_cases
from agent_asserts.record import TrialRecord
from agent_asserts.record.adapters import matching_formats
from agent_asserts.record.adapters.objects import plain_data
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.results import CaseResult
from agent_asserts.status import Status

TRAJECTORY_KEY: Final = "matches_trajectory"
"""The key of the reference-trajectory check (the name of ``matches_trajectory``'s result)."""
_SCORED: Final = (Status.PASS.value, Status.FAIL.value)
REFERENCE_KEYS: Final = ("trajectory", "messages")
"""The keys of ``reference_outputs`` that hold a reference trajectory, in the order read."""


def _checks(spec: Any) -> Checks:
    return spec if isinstance(spec, Checks) else Checks.of(spec)


@attrs.frozen
class AgentAssertsEvaluator:
    """An evaluator for LangSmith's ``evaluate`` and openevals' calling convention.

    Made by :func:`agent_asserts_evaluator` (see the module docs for what it reads and returns).

    Attributes:
        checks: What is checked (a case function, a suite, or a suite file, loaded once).
        trajectory: The order mode of the reference-trajectory check, None for none.
        arguments: Its argument mode (``exact``, ``subset``, ``superset``, ``ignore``, a
            matcher or a comparator ``fn(expected, actual)``).
        tools: Argument modes per tool name, overriding ``arguments`` (openevals'
            ``tool_args_match_overrides``).
        format: The trace format of ``outputs`` (default: detected).
        timeout: The case's time limit in seconds (default: none).
    """

    checks: Checks = attrs.field(converter=_checks)
    trajectory: str | None = None
    arguments: Any = "exact"
    tools: Mapping[str, Any] | None = None
    format: str = "auto"
    timeout: float | None = None

    def __attrs_post_init__(self) -> None:
        if self.trajectory is not None:  # the check's own error names the modes
            check_trajectory_modes(self.trajectory, self.arguments, self.tools)

    def __call__(
        self,
        *,
        inputs: Any = None,
        outputs: Any = None,
        reference_outputs: Any = None,
        run: Any = None,
        example: Any = None,
    ) -> list[dict[str, Any]]:
        """One result per check, then ``verdict``: ``{"key", "score", "comment", "metadata"}``.

        ``inputs`` is accepted (both libraries pass it) and not read: the run records the
        user's input.

        A run that cannot be read is a failed case, not an exception (LangSmith would only log
        it): an ``evaluation`` result whose comment starts ``evaluator_error: cannot read the
        run:`` and names what was looked at, and a failed ``verdict``. A reference that cannot
        be read makes ``matches_trajectory`` ``invalid`` with the reason.
        """
        record: TrialRecord | None = None
        try:
            record = run_record(run=run, outputs=outputs, format=self.format)
        except AgentAssertsError as exc:  # a failed case that says why, not a dropped run
            cases = error_cases(self.checks.name, f"cannot read the run: {exc}")
        else:
            cases = self.checks.evaluate(record, timeout=self.timeout)
        case = merged(cases, self.checks.name)
        if self.trajectory is not None and record is not None:
            if reference_outputs is None and example is not None:
                reference_outputs = getattr(example, "outputs", None)
            reference = self._trajectory_case(record, reference_outputs, self.trajectory)
            worst = merged([*cases, reference], self.checks.name)  # the verdict of all
            case = attrs.evolve(
                case,
                verdict=worst.verdict,
                results=(*case.results, *reference.results),
                error=worst.error,
            )
        out: list[dict[str, Any]] = []
        taken: set[str] = set()
        for grade in grades(case, verdict=True):
            key = unique_name(taken, grade.name)
            taken.add(key)
            out.append(result_of(grade, key))
        return out

    def _trajectory_case(
        self, record: TrialRecord, reference_outputs: Any, order: str
    ) -> CaseResult:
        try:
            reference = reference_trajectory(reference_outputs)
            missing = _no_reference(reference_outputs) if reference is None else None
        except RecordError as exc:
            reference, missing = None, f"cannot read the reference trajectory: {exc}"
        return trajectory_case(
            record,
            reference,
            order=order,
            arguments=self.arguments,
            tools=self.tools,
            name="reference",
            timeout=self.timeout,
            missing=missing,
        )


def agent_asserts_evaluator(
    checks: Any,
    *,
    trajectory: str | None = None,
    arguments: Any = "exact",
    tools: Mapping[str, Any] | None = None,
    format: str = "auto",
    timeout: float | None = None,
) -> AgentAssertsEvaluator:
    """An evaluator that runs ``checks`` (a case function, a ``Suite`` or a suite file's path)
    on each run, for LangSmith's ``evaluate`` and openevals' calling convention.

    Args:
        checks: A case function ``fn(ctx)``, a ``Suite``, or the path of a suite file.
        trajectory: Also match the reference trajectory of ``reference_outputs`` with this
            order mode (``strict``, ``in_order``, ``unordered``, ``subset``, ``superset``).
        arguments: The argument mode of that match (default ``exact``).
        tools: Argument modes per tool name, overriding ``arguments``.
        format: The trace format of ``outputs`` (default: detected).
        timeout: The case's time limit in seconds.

    Raises:
        TypeError: ``checks`` is none of these.
        ValueError: An unknown order or argument mode (the error lists the modes).
        LoadError: The suite file has problems (each with its position).

    >>> messages = [
    ...     {"role": "user", "content": "Refund order A1049"},
    ...     {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
    ...         "function": {"name": "issue_refund", "arguments": '{"amount": 42}'}}]},
    ...     {"role": "tool", "tool_call_id": "c1", "content": '{"ok": true}'},
    ...     {"role": "assistant", "content": "Refunded."}]
    >>> evaluator = agent_asserts_evaluator(lambda ctx: ctx.called_tool("issue_refund"))
    >>> for result in evaluator(outputs=messages):
    ...     print(result["key"], result["score"], result["comment"])
    called_tool:issue_refund True matched 1 tool calls (evidence: e2)
    verdict True PASSED <lambda>: 1 check: 1 passed; score 1.00
    """
    return AgentAssertsEvaluator(
        checks,
        trajectory=trajectory,
        arguments=arguments,
        tools=tools,
        format=format,
        timeout=timeout,
    )


def result_of(grade: Grade, key: str) -> dict[str, Any]:
    """One grade as an evaluator result: a gate's score is ``True``/``False``, a soft one's
    its score (``0.0`` when it is ``invalid``).

    >>> result_of(Grade("max_tool_calls:5", False, None, "invalid: no calls recorded",
    ...     status="invalid", severity="soft"), "max_tool_calls:5")["score"]
    0.0
    """
    score: bool | float
    if grade.assertion:
        score = grade.passed
    elif grade.status in _SCORED and grade.score is not None:
        score = grade.score
    else:  # invalid, evaluator_error: 0.0
        score = 1.0 if grade.passed else 0.0
    return {
        "key": key,
        "score": score,
        "comment": grade.reason,
        "metadata": {
            "status": grade.status,
            "severity": grade.severity,
            "evidence": list(grade.evidence),
        },
    }


def run_record(*, run: Any = None, outputs: Any = None, format: str = "auto") -> TrialRecord:
    """The record an evaluator checks: the ``run`` tree when it has child runs, else
    ``outputs`` (or the run's outputs) when they are a trace, else the ``run`` alone.

    Raises:
        RecordError: No run and no outputs, outputs that are no trace (naming what was looked
            at), or a trace with problems.
    """
    if run is not None and getattr(run, "child_runs", None):
        return read_run(run, format="langsmith")
    if outputs is None or (isinstance(outputs, Mapping) and not outputs):
        outputs = getattr(run, "outputs", None) if run is not None else None
    if outputs is not None and not (isinstance(outputs, Mapping) and not outputs):
        if format != "auto" or run is None or isinstance(outputs, TrialRecord):
            return read_run(outputs, format=format)
        if matching_formats(plain_data(outputs, source="outputs")):
            return read_run(outputs)
    if run is not None:
        return read_run(run, format="langsmith")
    message = "no run to check: pass outputs= (a message list, a run tree, any trace) or run="
    raise RecordError([Problem("$", message, "outputs")])


def reference_trajectory(reference_outputs: Any) -> Any:
    """The reference trajectory in ``reference_outputs``, or None when there is none.

    A list is the trajectory itself (reference calls: names or ``{"name", "arguments"}``;
    else messages or any trace); a mapping gives its ``trajectory`` or ``messages`` value,
    or is read as a trace when it is one; a ``TrialRecord``'s tool calls are the reference.

    >>> reference_trajectory({"trajectory": ["lookup_order", "issue_refund"]})
    ({'name': 'lookup_order'}, {'name': 'issue_refund'})
    >>> reference_trajectory({"answer": "Refunded."}) is None
    True

    Raises:
        RecordError: The value is neither reference calls nor a trace (both reasons given).
    """
    value = reference_outputs
    if isinstance(value, Mapping):
        found = next((value[key] for key in REFERENCE_KEYS if key in value), None)
        if found is None:
            data = plain_data(value, source="reference_outputs")
            return read_run(data) if data and matching_formats(data) else None
        value = found
    if value is None or isinstance(value, TrialRecord):
        return value
    try:
        return normalize_reference(value)
    except (TypeError, ValueError) as calls_error:
        try:
            return read_run(value)
        except RecordError as trace_error:
            message = (
                f"neither a list of reference calls ({calls_error}) "
                f"nor a trace ({'; '.join(p.message for p in trace_error.problems)})"
            )
            raise RecordError([Problem("$", message, "reference_outputs")]) from None


def _no_reference(reference_outputs: Any) -> str:
    what = (
        f"keys {', '.join(map(repr, sorted(map(str, reference_outputs))))}"
        if isinstance(reference_outputs, Mapping) and reference_outputs
        else "nothing"
        if not reference_outputs
        else f"a {type(reference_outputs).__name__}"
    )
    return (
        "the example records no reference trajectory: reference_outputs holds "
        f"{what}, not a list of calls or messages or a "
        f"{' or '.join(map(repr, REFERENCE_KEYS))} key"
    )


__all__ = [
    "REFERENCE_KEYS",
    "TRAJECTORY_KEY",
    "AgentAssertsEvaluator",
    "agent_asserts_evaluator",
    "reference_trajectory",
    "result_of",
    "run_record",
]
