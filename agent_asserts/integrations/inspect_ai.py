"""Our checks as an Inspect AI scorer (``pip install 'agent-asserts[inspect-ai]'``).

:func:`agent_asserts_scorer` makes a ``Scorer`` from a case function ``fn(ctx)``, a loaded
suite, or the path of a suite file. For each sample it reads the run from the ``TaskState``
— its messages, with the assistant's tool calls and the tool results — runs the checks and
returns one ``Score``: ``C`` when every gate check passed (the case is ``PASSED`` or
``SCORED``), ``I`` otherwise; the explanation is the case summary with the evidence, and the
metadata holds every check's result (name, passed, score, reason, status, severity). An
``invalid`` check is never a pass: a gate check that is ``invalid`` makes the sample ``I``.

:func:`score_log` runs the same checks over the samples of a finished eval log
(``read_eval_log``), to re-score runs without running the model again.

The ``TaskState`` holds the conversation, not the model events: token usage and times are not
in it, so budgets on them come out ``invalid`` there (they are in an eval log's events:
:func:`score_log` reads them).
"""

from __future__ import annotations

from typing import Any

import attrs
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState

from agent_asserts.integrations import Checks, grades, merged, verdict_grade
from agent_asserts.record import TrialRecord
from agent_asserts.record.adapters.inspect_ai import sample_record
from agent_asserts.results import CaseResult


def state_record(state: TaskState) -> TrialRecord:
    """The record of a sample's run from its ``TaskState`` (messages and tool calls)."""
    sample = {
        "id": state.sample_id,
        "epoch": state.epoch,
        "messages": [message.model_dump(mode="json") for message in state.messages],
    }
    return sample_record(sample, where="state")


def score_of(case: CaseResult) -> Score:
    """A case as an Inspect ``Score``: ``C``/``I`` from the gates, the summary, the results."""
    verdict = verdict_grade(case)
    return Score(
        value=CORRECT if verdict.passed else INCORRECT,
        explanation=verdict.reason,
        metadata={
            "verdict": case.verdict.value,
            "results": [attrs.asdict(grade) for grade in grades(case)],
        },
    )


def agent_asserts_scorer(checks: Any, *, timeout: float | None = None) -> Scorer:
    """An Inspect scorer that runs ``checks`` (a case function, a ``Suite`` or a suite file's
    path) on each sample's run.

    Raises:
        TypeError: ``checks`` is none of these.
        LoadError: the suite file has problems (each with its position).
    """
    loaded = Checks.of(checks)

    @scorer(metrics=[accuracy(), stderr()], name="agent_asserts")
    def make() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            record = state_record(state)
            return score_of(merged(loaded.evaluate(record, timeout=timeout), loaded.name))

        return score

    return make()


def score_log(
    log: EvalLog | str, checks: Any, *, timeout: float | None = None
) -> list[tuple[Any, int, Score]]:
    """``(sample id, epoch, score)`` for each sample of a finished eval log (a path, or the
    ``EvalLog`` ``read_eval_log`` gives), from the samples' messages and model events."""
    loaded = Checks.of(checks)
    evaluation = log if isinstance(log, EvalLog) else read_eval_log(log)
    header = {"eval": evaluation.eval.model_dump(mode="json"), "status": evaluation.status}
    out = []
    for sample in evaluation.samples or ():
        data = sample.model_dump(mode="json")
        record = sample_record(data, where=f"samples[{sample.id}]", header=header)
        case = merged(loaded.evaluate(record, timeout=timeout), loaded.name)
        out.append((sample.id, sample.epoch, score_of(case)))
    return out


__all__ = ["agent_asserts_scorer", "score_log", "score_of", "state_record"]
