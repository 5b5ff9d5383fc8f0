"""What one evaluation of a check found: :class:`Outcome`, below both the checks and contracts.

Every check's ``evaluate(record)`` and every contract requirement returns an :class:`Outcome`;
the recorder turns it into an ``AssertionResult``. :func:`missing_surface` is the one wording of
"the record did not record what this check needs" (an ``INVALID`` outcome, never a pass or fail).

>>> Outcome.of(True, message="matched 1 tool call").status
<Status.PASS: 'pass'>
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from agent_asserts._text import LazyText, alias_repr, settle, text_of
from agent_asserts._values import MISSING, as_status, as_tuple
from agent_asserts.status import Status

if TYPE_CHECKING:
    from agent_asserts.matching import Mismatch
    from agent_asserts.record import TrialRecord


@attrs.frozen(repr=False, slots=False)
class Outcome:
    """What one evaluation of a check found: status, score, message and evidence.

    ``message`` may be a :class:`~agent_asserts._text.LazyText`, rendered when first read (the
    recorded result keeps it unrendered until then). The recorded result's ``evaluator`` takes
    ``evaluator`` (what the evaluator reports of itself: a judge's model, its verdict) and
    ``details`` (anything else) as its details, and ``evaluator_type`` as its type when set
    (else the check's). ``force_gate`` makes the result gate its case whatever its severity
    (a judge that failed); ``passed_by_judge`` says the judge's own verdict decided the status,
    not the score.

    An outcome keeps its values in a ``__dict__`` and reads unset fields from class-level
    defaults: the fluent path builds one per call with only the fields it sets.

    >>> Outcome.of(False, message="matched 0 tool calls").status
    <Status.FAIL: 'fail'>
    """

    status: Status = attrs.field(converter=as_status)
    score: float
    _message: str | LazyText = attrs.field(default="", alias="message", eq=text_of)
    expected: Any = None
    observed: Any = None
    evidence: tuple[Any, ...] = attrs.field(default=(), converter=as_tuple)
    mismatches: tuple[Mismatch, ...] = attrs.field(default=(), converter=as_tuple)
    closest: str | None = None
    details: Mapping[str, Any] = attrs.field(factory=dict)
    evaluator: Mapping[str, Any] = attrs.field(factory=dict)
    evaluator_type: str | None = None
    force_gate: bool = False
    passed_by_judge: bool = False
    # True on an outcome made by the fast constructors without details, evaluator, evaluator
    # type, forced gate or judge verdict: the recorder then reads none of them
    _plain: ClassVar[bool] = False

    @property
    def message(self) -> str:
        """What the evaluation found, in words (rendered on first read).

        >>> Outcome.of(True, message=LazyText(str.format, "matched {} calls", 2)).message
        'matched 2 calls'
        """
        return settle(self, "_message")

    def __repr__(self) -> str:
        return alias_repr(self)

    @classmethod
    def of(
        cls,
        passed: bool,
        message: str | LazyText = "",
        expected: Any = None,
        observed: Any = None,
        evidence: Any = (),
        details: Any = MISSING,
        **fields: Any,
    ) -> Outcome:
        """A ``PASS`` (score 1) or ``FAIL`` (score 0) outcome.

        >>> Outcome.of(True).score
        1.0
        """
        if cls is not Outcome or (fields and not _SET_DIRECTLY.issuperset(fields)):
            if details is not MISSING:
                fields["details"] = details
            return cls(
                Status.PASS if passed else Status.FAIL,
                1.0 if passed else 0.0,
                message=message,
                expected=expected,
                observed=observed,
                evidence=evidence,
                **fields,
            )
        # the common case: do what the converters and factories would, and set only the
        # fields that differ from their (class-level) defaults
        outcome = _new(Outcome)
        values = outcome.__dict__
        values["status"] = _PASS if passed else _FAIL
        values["score"] = 1.0 if passed else 0.0
        values["_message"] = message
        values["expected"] = expected
        values["observed"] = observed
        values["evidence"] = evidence if type(evidence) is tuple else tuple(evidence)
        values["details"] = {} if details is MISSING else details
        values["evaluator"] = {}
        values["_plain"] = details is MISSING
        if fields:
            _set_fields(values, fields)
        return outcome

    def replace(self, **changes: Any) -> Outcome:
        """A copy with ``changes`` (``attrs.evolve`` for the hot paths: the copied fields are
        valid already, so only the changed ones are converted).

        >>> Outcome.of(True, message="ok").replace(evidence=["e1"]).evidence
        ('e1',)
        """
        outcome = _new(Outcome)
        fields = outcome.__dict__
        fields.update(self.__dict__)
        _set_fields(fields, changes)
        return outcome

    @classmethod
    def scored(cls, score: float, **fields: Any) -> Outcome:
        """An outcome with a continuous score; passes at 1.0 until a threshold is set.

        >>> Outcome.scored(0.5).status
        <Status.FAIL: 'fail'>
        """
        return cls(Status.PASS if score >= 1.0 else Status.FAIL, score, **fields)

    @classmethod
    def _unscored(cls, status: Status, message: str, fields: dict[str, Any]) -> Outcome:
        """An outcome of ``status`` with score 0 (the body of ``invalid``, ``error`` and
        ``not_applicable``; without other fields, the bare fast form)."""
        if fields or cls is not Outcome:
            return cls(status, 0.0, message=message, **fields)
        return _bare(status, message)

    @classmethod
    def invalid(cls, message: str, **fields: Any) -> Outcome:
        """The check could not be evaluated (a missing surface, path or run-level value).

        >>> Outcome.invalid("the record has no step count").status
        <Status.INVALID: 'invalid'>
        """
        return cls._unscored(Status.INVALID, message, fields)

    @classmethod
    def error(cls, message: str, **fields: Any) -> Outcome:
        """The evaluator itself failed (a predicate or judge raised).

        >>> Outcome.error("predicate raised ValueError: x").status
        <Status.EVALUATOR_ERROR: 'evaluator_error'>
        """
        return cls._unscored(Status.EVALUATOR_ERROR, message, fields)

    @classmethod
    def not_applicable(cls, message: str, **fields: Any) -> Outcome:
        """The check's condition did not hold, so it says nothing about this record.

        >>> Outcome.not_applicable("tool never ran").status
        <Status.NOT_APPLICABLE: 'not_applicable'>
        """
        return cls._unscored(Status.NOT_APPLICABLE, message, fields)


_new = object.__new__
_OUTCOME_NAMES = {f.alias or f.name: f.name for f in attrs.fields(Outcome)}
_PASS, _FAIL = Status.PASS, Status.FAIL
for _field in attrs.fields(Outcome):  # the class-level defaults unset fields read
    if _field.default is not attrs.NOTHING and not isinstance(_field.default, attrs.Factory):  # type: ignore[arg-type]
        setattr(Outcome, _field.name, _field.default)


# the fields Outcome.of sets itself (with no validator to run): given among its **fields, they
# keep the fast path; any other name goes through __init__ (which names an unknown one)
_SET_DIRECTLY: Final = frozenset(
    {"mismatches", "closest", "evaluator", "evaluator_type", "force_gate", "passed_by_judge"}
)


_NOT_PLAIN: Final = frozenset(
    {"details", "evaluator", "evaluator_type", "force_gate", "passed_by_judge"}
)


def _set_fields(fields: dict[str, Any], changes: Mapping[str, Any]) -> None:
    """Store ``changes`` (by public name) into an outcome's ``__dict__``, converted as
    ``__init__`` would convert them (a ``KeyError`` names an unknown field)."""
    for key, value in changes.items():
        if key in ("evidence", "mismatches"):
            value = value if type(value) is tuple else tuple(value)
        elif key == "status":
            value = as_status(value)
        elif key in _NOT_PLAIN:
            fields.pop("_plain", None)
        fields[_OUTCOME_NAMES[key]] = value


def _bare(status: Status, message: str | LazyText) -> Outcome:
    """An outcome with only a status and a message (score 0)."""
    outcome = _new(Outcome)
    fields = outcome.__dict__
    fields["status"] = status
    fields["score"] = 0.0
    fields["_message"] = message
    fields["details"] = {}
    fields["evaluator"] = {}
    fields["_plain"] = True
    return outcome


def missing_surface(record: TrialRecord, *kinds: str) -> Outcome | None:
    """``INVALID`` when the record's harness did not record one of ``kinds``, else None.

    The message lists what the record did record as :meth:`TrialRecord.records` sees it: its
    ``surfaces`` and every kind present in its events.

    >>> from agent_asserts.record import TrialRecord
    >>> rec = TrialRecord.from_dict({"events": [{"kind": "audit"}], "surfaces": ["message"]})
    >>> missing_surface(rec, "tool_call").message
    "the record has no 'tool_call' surface (recorded: 'audit', 'message')"
    """
    if record.surfaces is None:  # the record claims no surfaces: every kind counts as recorded
        return None
    for kind in kinds:
        if not record.records(kind):
            present = set(record.surfaces or ()) | set(record.index.kinds)
            recorded = ", ".join(repr(s) for s in sorted(present))
            return Outcome.invalid(
                f"the record has no {kind!r} surface (recorded: {recorded or 'nothing'})"
            )
    return None


__all__ = ["Outcome", "missing_surface"]
