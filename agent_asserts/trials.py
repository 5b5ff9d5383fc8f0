"""Trial repetition: the k-of-N rule of seed 004, pass@k and pass^k.

An agent is non-deterministic, so one case is often run over N recorded trials and judged by
how many pass. With ``pass_rate`` r, ``required = max(1, min(n, ceil(r·n − 1e-9)))`` passes are
needed (the ``1e-9`` keeps ``0.7·10`` at 7 despite float rounding). Only ``PASSED`` trials
count as passes: a ``SCORED`` trial is a miss. Skipped trials are left out of n unless every
trial was skipped, in which case the verdict is ``SKIPPED``.

>>> [required_passes(n, r) for n, r in [(5, 0.8), (10, 0.7), (3, 0.7), (100, 0.07)]]
[4, 7, 3, 7]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from agent_asserts.results import CaseResult, Verdict
from agent_asserts.runner import run_case

if TYPE_CHECKING:
    from agent_asserts.context import EvalContext
    from agent_asserts.judges import Judge
    from agent_asserts.record import TrialRecord


def _check_rate(rate: float) -> None:
    if isinstance(rate, bool) or not isinstance(rate, int | float):
        raise TypeError(f"'pass_rate' must be a number in (0, 1] (got {rate!r})")
    if not 0.0 < rate <= 1.0:
        raise ValueError(f"'pass_rate' must be in (0, 1] (got {rate!r})")


def _check_count(name: str, value: int, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"'{name}' must be an int (got {value!r})")
    if value < minimum:
        raise ValueError(f"'{name}' must be >= {minimum} (got {value!r})")


def required_passes(n: int, rate: float) -> int:
    """How many of ``n`` counted trials must pass at pass rate ``rate`` in (0, 1].

    >>> required_passes(10, 0.01), required_passes(9, 0.9), required_passes(1, 1.0)
    (1, 9, 1)
    """
    _check_count("n", n, 1)
    _check_rate(rate)
    return max(1, min(n, math.ceil(rate * n - 1e-9)))


def _case_tuple(cases: Iterable[CaseResult]) -> tuple[CaseResult, ...]:
    return tuple(cases)


@attrs.frozen
class TrialsResult:
    """The verdict over N trials of one case.

    Attributes:
        verdict: ``PASSED`` when ``passes >= required``, ``FAILED`` otherwise, ``SKIPPED``
            when every trial was skipped.
        required: passes needed (:func:`required_passes` of ``n`` and ``pass_rate``).
        passes: trials whose verdict is ``PASSED``.
        n: counted trials (the non-skipped ones, or all when every one was skipped).
        trials: every trial's :class:`CaseResult`, in input order (skipped ones included).
        pass_rate: the rate the verdict was computed with.
        skipped: trials left out of n because they were skipped (0 when every one was).

    >>> ok, bad = CaseResult("c", "passed"), CaseResult("c", "scored")
    >>> result = TrialsResult.from_cases([ok, ok, bad, ok], pass_rate=0.75)
    >>> result.verdict.value, result.passes, result.required, result.n
    ('passed', 3, 3, 4)
    """

    verdict: Verdict = attrs.field(converter=Verdict)
    required: int
    passes: int
    n: int
    trials: tuple[CaseResult, ...] = attrs.field(converter=_case_tuple)
    pass_rate: float = 1.0
    skipped: int = attrs.field(kw_only=True, repr=False)

    @skipped.default
    def _skipped_trials(self) -> int:
        return len(self.trials) - self.n if self.verdict is not Verdict.SKIPPED else 0

    @classmethod
    def from_cases(cls, cases: Iterable[CaseResult], pass_rate: float = 1.0) -> TrialsResult:
        """Apply the k-of-N rule to already evaluated trials (reused by batch results).

        >>> TrialsResult.from_cases([CaseResult("c", "skipped")]).verdict.value
        'skipped'
        """
        _check_rate(pass_rate)
        trials = tuple(cases)
        skipped = sum(1 for t in trials if t.verdict is Verdict.SKIPPED)
        passes = sum(1 for t in trials if t.verdict is Verdict.PASSED)
        return cls.from_counts(len(trials), skipped, passes, pass_rate, trials)

    @classmethod
    def from_counts(
        cls,
        total: int,
        skipped: int,
        passes: int,
        pass_rate: float = 1.0,
        trials: Iterable[CaseResult] = (),
    ) -> TrialsResult:
        """Apply the k-of-N rule to counts: ``total`` trials, ``skipped`` of them skipped and
        ``passes`` passed (what a batch that keeps no results knows; ``trials`` stays empty).

        >>> print(TrialsResult.from_counts(10, 2, 6, pass_rate=0.7))
        PASSED: 6/8 trials passed (6 required at pass_rate 0.7), 2 skipped
        """
        _check_rate(pass_rate)
        if not total:
            raise ValueError("no trials: give at least one case result")
        all_skipped = skipped == total
        n = total if all_skipped else total - skipped
        required = required_passes(n, pass_rate)
        if all_skipped:
            verdict = Verdict.SKIPPED
        else:
            verdict = Verdict.PASSED if passes >= required else Verdict.FAILED
        return cls(verdict, required, passes, n, trials, float(pass_rate), skipped=total - n)

    @property
    def passed(self) -> bool:
        """True when the verdict is ``PASSED``.

        >>> runs = [CaseResult("c", "passed"), CaseResult("c", "failed")]
        >>> TrialsResult.from_cases(runs, pass_rate=0.5).passed
        True
        """
        return self.verdict is Verdict.PASSED

    def _k(self, k: int, what: str) -> int:
        _check_count("k", k, 1)
        if self.n < k:
            raise ValueError(f"{what} is undefined for k={k} with only n={self.n} trials")
        return k

    def pass_at_k(self, k: int) -> float:
        """The chance that at least one of k trials drawn without replacement passes.

        ``1 − C(n−c, k) / C(n, k)`` with c = ``passes``; ``ValueError`` when n < k.

        >>> trials = [CaseResult("c", v) for v in ["passed", "failed", "failed"]]
        >>> r = TrialsResult.from_cases(trials)
        >>> r.pass_at_k(1), r.pass_at_k(2), r.pass_at_k(3)
        (0.3333333333333333, 0.6666666666666666, 1.0)
        """
        k = self._k(k, "pass@k")
        return float(1 - Fraction(math.comb(self.n - self.passes, k), math.comb(self.n, k)))

    def pass_hat_k(self, k: int) -> float:
        """pass^k: the chance that all of k trials drawn without replacement pass.

        ``C(c, k) / C(n, k)``; ``ValueError`` when n < k.

        >>> r = TrialsResult.from_cases([CaseResult("c", v) for v in ["passed"] * 3 + ["failed"]])
        >>> r.pass_hat_k(1), r.pass_hat_k(2), r.pass_hat_k(4)
        (0.75, 0.5, 0.0)
        """
        k = self._k(k, "pass^k")
        return float(Fraction(math.comb(self.passes, k), math.comb(self.n, k)))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form.

        >>> TrialsResult.from_cases([CaseResult("c", "passed")]).to_dict()["required"]
        1
        """
        return {
            "verdict": self.verdict.value,
            "required": self.required,
            "passes": self.passes,
            "n": self.n,
            "pass_rate": self.pass_rate,
            "trials": [t.to_dict() for t in self.trials],
        }

    def __str__(self) -> str:
        skipped = self.skipped
        text = (
            f"{self.verdict.value.upper()}: {self.passes}/{self.n} trials passed"
            f" ({self.required} required at pass_rate {self.pass_rate:g})"
        )
        return f"{text}, {skipped} skipped" if skipped else text


def trials_verdict(case_results: Iterable[CaseResult], pass_rate: float = 1.0) -> Verdict:
    """The k-of-N verdict of ``case_results`` (see :class:`TrialsResult`).

    >>> trials_verdict([CaseResult("c", "passed"), CaseResult("c", "failed")], 0.5).value
    'passed'
    """
    return TrialsResult.from_cases(case_results, pass_rate).verdict


def run_trials(
    records: Iterable[TrialRecord],
    fn: Callable[[EvalContext], Any],
    *,
    pass_rate: float = 1.0,
    judge: Judge | None = None,
) -> TrialsResult:
    """Run the case function ``fn`` on every record (one trial each) and apply k-of-N.

    Each trial runs through ``run_case(record, fn, judge=judge)``.

    >>> from agent_asserts.record import TrialRecord
    >>> runs = [TrialRecord.builder().tool("lookup").build(), TrialRecord.builder().build()]
    >>> def case(ctx):
    ...     ctx.called_tool("lookup")
    >>> print(run_trials(runs, case, pass_rate=0.5))
    PASSED: 1/2 trials passed (1 required at pass_rate 0.5)
    """
    _check_rate(pass_rate)
    trials = [run_case(record, fn, judge=judge) for record in records]
    if not trials:
        raise ValueError("run_trials needs at least one record")
    return TrialsResult.from_cases(trials, pass_rate)


__all__ = ["TrialsResult", "required_passes", "run_trials", "trials_verdict"]
