"""``matcher: semantic | grounded_semantic``: the judge decides, item by item.

The criterion is ``right`` (text). For ``semantic`` the judge sees the item alone; for
``grounded_semantic`` it sees the item and the ``grounding`` selections, and nothing else of
the record. The request is rendered by :func:`agent_asserts.judges.render_prompt` (fenced,
untrusted JSON); a judge that raises or answers badly is an ``evaluator_error`` that always
gates, like every judge error.

>>> from agent_asserts.contract.bindings import Bound
>>> from agent_asserts.contract.model import Requirement
>>> from agent_asserts.judges import JudgeResponse
>>> req = Requirement("matcher", "m", "is polite", matcher="semantic")
>>> left = Bound("m", False, ("Thanks!",), ("e1",), (None,), (None,), (), 1)
>>> verdicts, info = judged_verdicts(req, left, {}, lambda r: JudgeResponse(1.0, explanation="yes"))
>>> verdicts[0].ok, info["judge_calls"]
(True, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agent_asserts.contract.bindings import Bound
from agent_asserts.contract.relations import EvaluatorFailed
from agent_asserts.contract.verdicts import ItemVerdict
from agent_asserts.errors import RecordLacks
from agent_asserts.judges import (
    TEMPLATE_VERSION,
    JudgeRequest,
    JudgeResponseError,
    call_judge,
    render_prompt,
)

if TYPE_CHECKING:
    from agent_asserts.contract.model import Requirement
    from agent_asserts.judges import Judge


def _ids(bound: Bound) -> list[str]:
    return [label for label, event in zip(bound.labels, bound.events, strict=True) if event]


def judged_verdicts(
    req: Requirement, left: Bound, grounding: Mapping[str, Bound], judge: Judge | None
) -> tuple[list[ItemVerdict], dict[str, Any]]:
    """Ask ``judge`` about every left item; returns the verdicts and evaluator details.

    Raises:
        RecordLacks: No judge is configured.
        EvaluatorFailed: The judge raised or returned an invalid response (always gates).
    """
    if judge is None:
        raise RecordLacks("no judge configured")
    criterion = str(req.right)
    context = {name: bound.forms() for name, bound in grounding.items()}
    context_ids = [i for bound in grounding.values() for i in _ids(bound)]
    verdicts: list[ItemVerdict] = []
    explanations: list[str] = []
    for item, label, event in zip(left.forms(), left.labels, left.events, strict=True):
        data: dict[str, Any] = {"value": item}
        if req.matcher == "grounded_semantic":
            data["grounding"] = context
        ids = ([label] if event is not None else []) + context_ids
        request = JudgeRequest(
            criterion,
            evidence=data,
            prompt=render_prompt(criterion, data),
            event_ids=tuple(dict.fromkeys(ids)),
        )
        try:
            response = call_judge(judge, request)
        except JudgeResponseError as exc:
            raise EvaluatorFailed(
                f"the judge returned an invalid response: {exc}", force_gate=True
            ) from exc
        except Exception as exc:
            raise EvaluatorFailed(
                f"the judge raised {type(exc).__name__}: {exc}", force_gate=True
            ) from exc
        passed = response.passed if response.passed is not None else response.score >= 1.0
        explanations.append(response.explanation)
        reason = f"judge score {response.score:.2f}" + (
            f": {response.explanation}" if response.explanation else ""
        )
        verdicts.append(ItemVerdict(label, passed, reason))
    info = {
        "template_version": TEMPLATE_VERSION,
        "judge_calls": len(verdicts),
        "explanations": explanations,
    }
    return verdicts, info


__all__ = ["judged_verdicts"]
