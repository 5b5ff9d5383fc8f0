"""``EvalContext``: the fluent facade over one trial record.

Every fluent method builds a check object and hands it to :meth:`EvalContext.record_check`,
the one path from a check to a recorded :class:`~agent_asserts.results.AssertionResult`; the
loaders use the same path.

>>> from agent_asserts import EvalContext
>>> from agent_asserts.testing import demo_record
>>> ctx = EvalContext(demo_record())
>>> _ = ctx.called_tool("refunds_lookup", arguments={"orderId": "A1049"}, count=1)
>>> _ = ctx.tool_order("refunds_lookup", "refunds_issue")
>>> _ = ctx.max_tool_calls(1).soft()
>>> ctx.verdict()
<Verdict.SCORED: 'scored'>
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import attrs

from agent_asserts._boundary import guard
from agent_asserts.checks import CHECKS
from agent_asserts.checks.base import Check
from agent_asserts.checks.expectations import LiteralValue, StatePath
from agent_asserts.errors import AgentAssertsError
from agent_asserts.fluent import (
    ConversationMethods,
    EventMethods,
    OutcomeMethods,
    StateMethods,
    TraceMethods,
    TrajectoryMethods,
)
from agent_asserts.fluent.handles import AssertionHandle, ValueExpectation
from agent_asserts.fluent.recording import (
    Recorder,
    Shared,
    build_result,
    outcome_to_result,
    plain_info,
    run_check,
)
from agent_asserts.matching import Matcher
from agent_asserts.record import Button, Event, TrialRecord
from agent_asserts.results import (
    AssertionResult,
    CaseResult,
    EvaluatorInfo,
    LogEntry,
    RequirementFailed,
    Severity,
    Skipped,
    Status,
    Verdict,
    VerdictResolver,
)
from agent_asserts.selectors import Selector, ToolSelector

if TYPE_CHECKING:
    from agent_asserts.checks.contract import ContractCheck
    from agent_asserts.checks.semantic import JudgeCheck
    from agent_asserts.judges import Judge


def _hint_names() -> dict[str, Any]:
    """The names the fluent methods' type hints use that their modules import only for type
    checking (the argument checks of :mod:`agent_asserts._boundary` resolve them)."""
    return {
        "AssertionHandle": AssertionHandle, "Button": Button, "Check": Check,
        "Event": Event, "EvalContext": EvalContext, "Matcher": Matcher,
        "Selector": Selector, "ToolSelector": ToolSelector,
    }  # fmt: skip


class CaseTimeout(AgentAssertsError):
    """The case passed its cooperative timeout (checked at every context call)."""


class EvalContext(
    OutcomeMethods,
    TrajectoryMethods,
    EventMethods,
    ConversationMethods,
    StateMethods,
    TraceMethods,
):
    """The fluent contract over one record; see ``docs/context.md``.

    Args:
        record: the trial record every check reads.
        judge: the judge for ``judge()`` checks (see :mod:`agent_asserts.judges`); kept as
            ``judge_fn`` (``judge`` is the fluent method).
        name: the case name used by :meth:`result`.
        deadline: a ``time.monotonic()`` value after which any context call raises
            :class:`CaseTimeout` (set by ``run_case(timeout=...)``).
    """

    def __init__(
        self,
        record: TrialRecord,
        *,
        judge: Judge | None = None,
        name: str = "case",
        deadline: float | None = None,
    ) -> None:
        if not isinstance(record, TrialRecord):
            raise TypeError(
                f"'record' must be a TrialRecord (got {type(record).__name__}); build one with "
                "TrialRecord.load(path), TrialRecord.from_dict(data) or TrialRecord.builder()"
            )
        if judge is not None and not callable(judge):
            raise TypeError(f"'judge' must be a callable or None (got {type(judge).__name__})")
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string (got {name!r})")
        self.record = record
        self.judge_fn = judge
        self.name = name
        self.deadline = deadline
        self.running: tuple[Check, str | None] | None = None
        self._results: list[AssertionResult] = []
        self._logs: list[LogEntry] = []
        self._forced_gates: set[int] = set()
        self.skip_reason: str | None = None
        self._prefix = ""

    # -- the one recording path -------------------------------------------------------------

    def record_check(
        self,
        check: Check,
        *,
        name: str | None = None,
        severity: Severity | str | None = None,
        threshold: float | None = None,
        label: str | None = None,
    ) -> AssertionHandle:
        """Evaluate ``check`` on the record and record its result; returns its handle.

        >>> from agent_asserts.checks.traces import MaxSteps
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).record_check(MaxSteps(2), severity="soft").result.status
        <Status.FAIL: 'fail'>
        """
        if self.deadline is not None:
            self.check_deadline()
        kept = Shared(check)
        if severity is None and not kept.plain:  # the check may decide its own severity
            severity = check.severity_for(self.judge_fn)
        self.running = (check, name)  # named by a time limit that stops the case here
        outcome = run_check(check, self.record, judge=self.judge_fn)
        self.running = None
        result = build_result(check, kept, outcome, name, severity, threshold, label)
        return self._add(result, outcome.force_gate)

    # the fluent methods' call: this function itself, past the argument checks that guard()
    # wraps the public name in (a subclass that overrides record_check gets it back, see
    # __init_subclass__)
    _record = record_check

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "record_check" in vars(cls):  # its own recording path stays the one path
            cls._record = Recorder._record  # type: ignore[assignment]

    def agent(self, name: str) -> EvalContext:
        """A context over ``record.for_agent(name)`` that records into this case, each result
        named ``agent(NAME).`` + its usual name.

        >>> from agent_asserts import TrialRecord
        >>> b = TrialRecord.builder().tool("refund", {}, agent="billing")
        >>> rec = b.tool("notify", {}).build()
        >>> ctx = EvalContext(rec)
        >>> ctx.agent("billing").not_called_tool("notify").result.name
        'agent(billing).not_called_tool:notify'
        >>> [r.name for r in ctx.results]
        ['agent(billing).not_called_tool:notify']
        """
        if not isinstance(name, str) or not name:
            raise TypeError(f"'name' must be an agent name (got {name!r})")
        view = EvalContext(
            self.record.for_agent(name), judge=self.judge_fn, name=self.name, deadline=self.deadline
        )
        view._results = self._results
        view._logs = self._logs
        view._forced_gates = self._forced_gates
        view._prefix = f"{self._prefix}agent({name})."
        return view

    def add_result(self, result: AssertionResult, *, forced_gate: bool = False) -> AssertionHandle:
        """Record an already built result (used by ``check()`` and by the loaders).

        >>> from agent_asserts import AssertionResult
        >>> from agent_asserts.testing import demo_record
        >>> result = AssertionResult(name="manual", status="pass", score=1.0)
        >>> EvalContext(demo_record()).add_result(result)
        <AssertionHandle manual pass [gate]>
        """
        return self._add(result, forced_gate)

    def _add(self, result: AssertionResult, forced_gate: bool) -> AssertionHandle:
        if self._prefix:
            result = attrs.evolve(result, name=self._prefix + result.name)
        self._results.append(result)
        index = len(self._results) - 1
        if forced_gate:
            self._forced_gates.add(index)
        return AssertionHandle(self, index)

    def _replace(self, index: int, change: Callable[[AssertionResult], AssertionResult]) -> None:
        self._results[index] = change(self._results[index])

    def check_deadline(self) -> None:
        """Raise :class:`CaseTimeout` once the cooperative deadline has passed.

        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record(), deadline=0.0).check_deadline()
        Traceback (most recent call last):
        ...
        agent_asserts.context.CaseTimeout: the case passed its cooperative timeout
        """
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise CaseTimeout("the case passed its cooperative timeout")

    # -- results ----------------------------------------------------------------------------

    @property
    def results(self) -> tuple[AssertionResult, ...]:
        """Every recorded result, in recording order.

        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record()); _ = ctx.succeeded(); _ = ctx.max_steps(5)
        >>> [r.name for r in ctx.results]
        ['succeeded', 'max_steps:5']
        """
        return tuple(self._results)

    @property
    def logs(self) -> tuple[LogEntry, ...]:
        """Every ``log()`` entry.

        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record()); ctx.log("no sandbox")
        >>> [entry.message for entry in ctx.logs]
        ['no sandbox']
        """
        return tuple(self._logs)

    def verdict(self) -> Verdict:
        """The verdict so far (no error; ``SKIPPED`` once ``skip()`` was called).

        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record()); _ = ctx.stopped()
        >>> ctx.verdict()
        <Verdict.FAILED: 'failed'>
        """
        return VerdictResolver().resolve(self._results, skipped=self.skip_reason is not None)

    def result(self, *, error: str | None = None) -> CaseResult:
        """The :class:`CaseResult` of this context (``error`` marks an uncaught failure).

        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record(), name="refund"); _ = ctx.stopped().soft()
        >>> r = ctx.result()
        >>> r.name, r.verdict.value, r.score, ctx.result(error="boom").verdict.value
        ('refund', 'scored', 0.0, 'failed')
        """
        verdict = VerdictResolver().resolve(
            self._results, error=error is not None, skipped=self.skip_reason is not None
        )
        return CaseResult(
            name=self.name,
            verdict=verdict,
            results=tuple(self._results),
            error=error,
            skip_reason=self.skip_reason,
            logs=tuple(self._logs),
        )

    # -- escape hatches ---------------------------------------------------------------------

    def check(self, name: str, passed: bool, message: str = "") -> AssertionHandle:
        """Record a plain boolean result (gate by default).

        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).check("custom", 2 > 1).result.passed
        True
        """
        self.check_deadline()
        if not isinstance(name, str) or not name:
            raise ValueError(f"'name' must be a non-empty string (got {name!r})")
        if not (isinstance(passed, bool) or type(passed).__name__ == "bool_"):
            raise TypeError(f"'passed' must be a bool (got {passed!r})")
        if not isinstance(message, str):
            raise TypeError(f"'message' must be a string (got {message!r})")
        passed = bool(passed)
        status = Status.PASS if passed else Status.FAIL
        result = AssertionResult(
            name=name,
            status=status,
            score=1.0 if passed else 0.0,
            message=message,
            evaluator=EvaluatorInfo(type="custom"),
            description=f"check({name!r})",
        )
        return self.add_result(result)

    def require(self, name: str, passed: bool, message: str = "") -> None:
        """``check()``, then stop the case with :class:`RequirementFailed` when it failed.

        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).require("has reply", False)
        Traceback (most recent call last):
        ...
        agent_asserts.results.RequirementFailed: requirement 'has reply' failed
        """
        self.check(name, passed, message)
        if not passed:
            raise RequirementFailed(name, message)

    def skip(self, reason: str) -> None:
        """Stop the case as ``SKIPPED`` (unless a gate already failed).

        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).skip("no sandbox")
        Traceback (most recent call last):
        ...
        agent_asserts.results.Skipped: no sandbox
        """
        self.check_deadline()
        self.skip_reason = reason
        raise Skipped(reason)

    def log(self, message: str, **context: Any) -> None:
        """Leave a diagnostic for reports; it never affects the verdict.

        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record()); ctx.log("branch", taken="a")
        >>> str(ctx.logs[0])
        "branch {'taken': 'a'}"
        """
        self._logs.append(LogEntry(message, context))

    # -- values -----------------------------------------------------------------------------

    def expect(self, value: Any) -> ValueExpectation:
        """Expectations over any value: ``includes``, ``equals``, ``matches``, ``similarity``…

        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.expect(ctx.record.reply).includes("A1049").result.passed
        True
        """
        self.check_deadline()
        return ValueExpectation(self, LiteralValue(value))

    def state(self, path: str, *, initial: bool = False) -> ValueExpectation:
        """Expectations over the value at a JSON Pointer into the final (or initial) state.

        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record())
        >>> ctx.state("/orders/A1049/status").equals("refunded").result.name
        'equals:/orders/A1049/status'
        """
        self.check_deadline()
        if not isinstance(initial, bool):
            raise TypeError(f"'initial' must be a bool (got {initial!r})")
        return ValueExpectation(self, StatePath(path, initial=initial))

    def judge(
        self,
        criterion: str,
        *,
        rubric: str | None = None,
        evidence: Any = None,
        threshold: float | None = None,
        model: str | None = None,
    ) -> AssertionHandle:
        """A semantic check graded by the configured judge (see docs/judges.md).

        >>> from agent_asserts.judges import callable_judge
        >>> from agent_asserts.testing import demo_record
        >>> ctx = EvalContext(demo_record(), judge=callable_judge(lambda p: "A1049" in p))
        >>> r = ctx.judge("the reply names the order").result
        >>> r.name, r.status.value, r.severity.value
        ('judge:the reply names the order', 'pass', 'soft')
        """
        judge_check = cast("type[JudgeCheck]", CHECKS["judge"])  # imported on first use
        check = judge_check(
            criterion, rubric=rubric, evidence=evidence, threshold=threshold, model=model
        )
        return self.record_check(check, threshold=threshold)

    def contract(self, spec: Any) -> list[AssertionHandle]:
        """Evaluate a bind → require contract: one result per assertion, named by its ``id``.

        ``spec`` is a ``Contract``, its dict form, or the ``Suite`` that ``load()`` gives for
        a contract file (read a file with ``agent_asserts.loaders.load_contract(path)``; see
        docs/contract.md).

        >>> from agent_asserts.testing import demo_record
        >>> handles = EvalContext(demo_record()).contract({
        ...     "bind": {"s": {"from": "final_state", "path": "/orders/A1049/status"}},
        ...     "require": {"op": "equals", "left": "s", "right": "refunded"}})
        >>> [(h.result.name, h.result.status.value) for h in handles]
        [('contract', 'pass')]
        """
        contract_check = cast("type[ContractCheck]", CHECKS["contract"])  # imported on first use
        return [
            self.record_check(c, name=c.assertion.id, severity=c.assertion.gate_severity)
            for c in contract_check.from_spec(spec)
        ]

    def __repr__(self) -> str:
        return f"<EvalContext {self.name!r}: {len(self._results)} results>"


guard(EvalContext, "EvalContext", names=_hint_names())

__all__ = ["CaseTimeout", "EvalContext", "outcome_to_result", "plain_info", "run_check"]
