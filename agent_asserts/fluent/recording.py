"""From a check to its recorded result: the recorder every fluent family builds on and the step
every recorder shares.

The base every fluent family builds on: one abstract recording path.

>>> from agent_asserts import EvalContext
>>> issubclass(EvalContext, Recorder)
True

From a check to its recorded result: the step every recorder shares (``EvalContext``'s
``record_check`` and fluent methods, the runner, the loaders).

:func:`run_check` evaluates a check (an exception escaping it becomes an ``evaluator_error``
outcome); :func:`outcome_to_result` turns the outcome into an
:class:`~agent_asserts.results.AssertionResult`. What every result of one check shares — its
description (rendered when first read), default severity, own threshold, evaluator, default
name — is read from the check as one :class:`Shared` per recording.

>>> from agent_asserts.checks.traces import StepCount
>>> from agent_asserts.testing import demo_record
>>> check = StepCount(4)
>>> result = outcome_to_result(check, run_check(check, demo_record()))
>>> result.name, result.status.value, result.description
('step_count:4', 'pass', 'step_count(4)')
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING, Any

from agent_asserts._text import LazyText
from agent_asserts._version import __version__
from agent_asserts.checks.base import Check
from agent_asserts.checks.tools import decide_unrecorded
from agent_asserts.matching import Count
from agent_asserts.outcome import Outcome
from agent_asserts.results import AssertionResult, EvaluatorInfo, Severity

if TYPE_CHECKING:
    from agent_asserts.checks.base import Check
    from agent_asserts.fluent.handles import AssertionHandle
    from agent_asserts.judges import Judge
    from agent_asserts.record import TrialRecord


CountLike = int | Count | None


class Recorder(abc.ABC):
    """Implemented by :class:`~agent_asserts.context.EvalContext`: evaluate and record a check."""

    @abc.abstractmethod
    def record_check(self, check: Check) -> AssertionHandle:
        """Evaluate and record one check.

        >>> from agent_asserts import EvalContext
        >>> from agent_asserts.checks.traces import MaxSteps
        >>> from agent_asserts.testing import demo_record
        >>> EvalContext(demo_record()).record_check(MaxSteps(5)).result.passed
        True
        """

    def _record(self, check: Check) -> AssertionHandle:
        """:meth:`record_check` with its defaults, the fluent methods' call (an implementation
        may skip the argument checks of its public method here)."""
        return self.record_check(check)


_EVALUATOR_VERSION = f"agent_asserts {__version__}"


# Check's own run / severity_for / own_threshold: a class that keeps them needs no call
_PLAIN_RUN = Check.run


_PLAIN_SEVERITY = Check.severity_for


_PLAIN_THRESHOLD = Check.own_threshold


class _NoDetails(dict[str, Any]):
    """The empty ``details`` of an evaluator that reports nothing: one ``EvaluatorInfo`` per
    evaluator type is shared by all such results, so its details refuse changes (an empty
    ``dict`` in every other respect: equal to ``{}``, JSON, pickling).

    >>> _NoDetails() == {}, dict(_NoDetails())
    (True, {})
    >>> _NoDetails()["model"] = "m"
    Traceback (most recent call last):
    ...
    TypeError: the details of a shared EvaluatorInfo are read-only
    """

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("the details of a shared EvaluatorInfo are read-only")

    __setitem__ = __delitem__ = update = setdefault = pop = popitem = clear = _refuse
    __ior__ = _refuse


_plain_infos: dict[str, EvaluatorInfo] = {}


def plain_info(evaluator_type: str) -> EvaluatorInfo:
    """The one ``EvaluatorInfo`` shared by the results of ``evaluator_type`` that report no
    details (its ``details`` are read-only); batches rebuild such results with it too.

    >>> plain_info("deterministic") is plain_info("deterministic"), plain_info("x").details
    (True, {})
    """
    shared = _plain_infos.get(evaluator_type)
    if shared is None:
        shared = _plain_infos[evaluator_type] = EvaluatorInfo(
            evaluator_type, _EVALUATOR_VERSION, _NoDetails()
        )
    return shared


class Shared:
    """What every result of one check shares: worked out once per recording (from class
    attributes and the check's fields; nothing is kept on the frozen check).

    ``plain`` says the check keeps ``Check.run`` and ``Check.severity_for`` (it needs no judge
    and decides no severity).
    """

    __slots__ = ("described", "evaluator_type", "info", "plain", "severity", "threshold")

    def __init__(self, check: Check) -> None:
        kind = type(check)
        self.described: str | LazyText = LazyText(check.describe)
        self.severity: Severity = check.default_severity
        self.threshold = None if kind.own_threshold is _PLAIN_THRESHOLD else check.own_threshold()
        self.evaluator_type: str = check.evaluator_type
        self.info = _plain_infos.get(self.evaluator_type) or plain_info(self.evaluator_type)
        self.plain = kind.run is _PLAIN_RUN and kind.severity_for is _PLAIN_SEVERITY


def shared(check: Check) -> Shared:
    """What every result of ``check`` shares (a new :class:`Shared`).

    >>> from agent_asserts.checks.traces import StepCount
    >>> shared(StepCount(2)).plain, shared(StepCount(2)).severity.value
    (True, 'gate')
    """
    return Shared(check)


def run_check(check: Check, record: TrialRecord, *, judge: Judge | None = None) -> Outcome:
    """Evaluate ``check``; an exception escaping it becomes an ``evaluator_error`` outcome.

    >>> from agent_asserts.checks.traces import StepCount
    >>> from agent_asserts.testing import demo_record
    >>> run_check(StepCount(4), demo_record()).status.value
    'pass'
    """
    try:
        if type(check).run is _PLAIN_RUN:  # no services to pass: evaluate directly
            outcome = check.evaluate(record)
        else:
            outcome = check.run(record, judge=judge)
        if record.unrecorded_arguments:
            return decide_unrecorded(check, record, outcome, judge)
        return outcome
    except Exception as exc:
        return Outcome.error(f"check raised {type(exc).__name__}: {exc}")


def outcome_to_result(
    check: Check,
    outcome: Outcome,
    *,
    name: str | None = None,
    severity: Severity | str | None = None,
    threshold: float | None = None,
    label: str | None = None,
) -> AssertionResult:
    """Turn one check's outcome into a recorded result (used by the context and the loaders).

    >>> from agent_asserts.checks.traces import StepCount
    >>> r = outcome_to_result(StepCount(1), Outcome.of(True, message="expected 1 step, got 1"))
    >>> (r.name, r.status.value, r.severity.value)
    ('step_count:1', 'pass', 'gate')
    """
    kept = Shared(check)
    return build_result(check, kept, outcome, name, severity, threshold, label)


def build_result(
    check: Check,
    kept: Shared,
    outcome: Outcome,
    name: str | None,
    severity: Severity | str | None,
    threshold: float | None,
    label: str | None,
) -> AssertionResult:
    """:func:`outcome_to_result` with positional arguments and the check's :class:`Shared`."""
    shared_info, default_severity, evaluator_type = kept.info, kept.severity, kept.evaluator_type
    own_threshold, described = kept.threshold, kept.described
    if not (  # outcome.plain: nothing to merge, no forced gate, no judge verdict
        outcome.details
        or outcome.evaluator
        or outcome.evaluator_type
        or outcome.force_gate
        or outcome.passed_by_judge
    ):
        info = shared_info  # the one shared (read-only) info of its type
        if severity is None:
            severity = default_severity
        passed_by_judge = False
    else:
        if outcome.details or outcome.evaluator or outcome.evaluator_type:
            evaluator_type = outcome.evaluator_type or evaluator_type
            info = EvaluatorInfo(
                evaluator_type, _EVALUATOR_VERSION, {**outcome.evaluator, **outcome.details}
            )
        else:
            info = shared_info
        passed_by_judge = outcome.passed_by_judge
        if outcome.force_gate:
            severity = Severity.GATE
        elif severity is None:
            severity = default_severity
    # A check that grades against its own threshold (a judge's `threshold=`) decided its status
    # with it, so the result is built with it (own_threshold); a `threshold` given here replaces
    # it afterwards.
    if not name:
        name = check.default_name()
    result = AssertionResult(
        name,
        outcome.status,
        outcome.score,
        severity,
        own_threshold,
        label,
        outcome._message,  # kept unrendered: rendered when read
        outcome.expected,
        outcome.observed,
        outcome.mismatches,
        outcome.closest,
        outcome.evidence,
        info,
        described,  # rendered when read
        not passed_by_judge,
    )
    return result if threshold is None else result.with_threshold(threshold)


__all__ = [
    "CountLike",
    "Recorder",
    "Shared",
    "build_result",
    "outcome_to_result",
    "plain_info",
    "run_check",
    "shared",
]
