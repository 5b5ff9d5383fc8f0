"""The check protocol: a frozen attrs object with ``evaluate(record) -> Outcome``.

A check holds its parameters as attrs fields that mirror the fluent method of the same name
(``method``), so one class serves ``EvalContext``, every loader, ``to_data()`` (the native
YAML form) and the JSON Schema.

>>> from agent_asserts.checks.cost import StepCount
>>> from agent_asserts.record import TrialRecord
>>> StepCount(3).evaluate(TrialRecord.from_dict({"steps": 2, "events": []})).message
'expected 3 steps, got 2'
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final, cast

import attrs

from agent_asserts._convert import as_status, as_tuple
from agent_asserts._lazy import LazyText, alias_repr, settle, text_of
from agent_asserts._missing import MISSING
from agent_asserts.checks.serialize import arguments_to_data
from agent_asserts.matching import render
from agent_asserts.status import Severity, Status

if TYPE_CHECKING:
    from agent_asserts.judges import Judge
    from agent_asserts.matching import Mismatch
    from agent_asserts.record import TrialRecord


@attrs.frozen(repr=False, slots=False)
class Outcome:
    """What one evaluation of a check found: status, score, message and evidence.

    ``message`` may be a :class:`~agent_asserts._lazy.LazyText`, rendered when first read (the
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


def _render_arg(value: Any) -> str:
    return render(value)


class Check(abc.ABC):
    """Base of every check. Subclasses are ``@attrs.frozen`` and set ``method``.

    ``positional`` names the fields a scalar given in YAML fills and ``describe()`` shows
    unnamed, in order; ``yaml_positional``, when set, is the order in which a YAML list fills
    the fields: the fluent method's positional parameters (``called_tool(name, arguments,
    result, is_error, count)``), which the parity test ties to the ``EvalContext`` method;
    ``varargs`` names the field that collects ``*args`` of the fluent method;
    ``list_entries`` says that a list given to the method (in Python or YAML) means one
    check per item (``memory_was_set(["a.x", {"name": "a.y", "value": 1}])``);
    ``python_only`` that the check has no YAML form (it holds a callable);
    ``fluent_expands`` that the fluent method takes a whole spec and records one check per
    part (``contract(spec)``), so its parameters are not the check's fields.
    """

    method: ClassVar[str] = ""
    default_severity: ClassVar[Severity] = Severity.GATE
    evaluator_type: ClassVar[str] = "deterministic"
    positional: ClassVar[tuple[str, ...]] = ()
    yaml_positional: ClassVar[tuple[str, ...] | None] = None
    varargs: ClassVar[str | None] = None
    list_entries: ClassVar[bool] = False
    python_only: ClassVar[bool] = False
    fluent_expands: ClassVar[bool] = False

    @abc.abstractmethod
    def evaluate(self, record: TrialRecord) -> Outcome:
        """Evaluate over ``record``; never raises for a malformed or incomplete record.

        >>> from agent_asserts.checks.cost import MaxSteps
        >>> from agent_asserts.testing import demo_record
        >>> MaxSteps(2).evaluate(demo_record()).message
        'expected at most 2 steps, got 4'
        """

    def severity_for(self, judge: Judge | None) -> Severity | None:
        """The severity this check records with when it decides its own (a contract
        assertion's word, a judge check's), or None for the recorder's default.

        >>> from agent_asserts.checks.cost import MaxSteps
        >>> MaxSteps(5).severity_for(None) is None
        True
        """
        return None

    def own_threshold(self) -> float | None:
        """The threshold this check graded its score against (a judge's ``threshold=``), which
        its result carries; None for checks without one.

        >>> from agent_asserts.checks.cost import MaxSteps
        >>> MaxSteps(5).own_threshold() is None
        True
        """
        return None

    def run(self, record: TrialRecord, *, judge: Judge | None = None) -> Outcome:
        """Evaluate with the context's services (a judge); plain checks ignore them.

        >>> from agent_asserts.checks.cost import MaxSteps
        >>> from agent_asserts.testing import demo_record
        >>> MaxSteps(5).run(demo_record(), judge=None).status
        <Status.PASS: 'pass'>
        """
        return self.evaluate(record)

    def primary(self) -> Any:
        """The value that names the result after the colon, or ``MISSING`` for none.

        >>> from agent_asserts.checks.tools import CalledTool, UsedNoTools
        >>> CalledTool("refunds_issue").primary(), UsedNoTools().primary()
        ('refunds_issue', MISSING)
        """
        if self.varargs is None and self.positional:
            return getattr(self, self.positional[0])
        return MISSING

    def default_name(self) -> str:
        """``{method}:{primary argument}`` or ``{method}``.

        >>> from agent_asserts.checks.cost import MaxSteps
        >>> MaxSteps(4).default_name()
        'max_steps:4'
        """
        primary = self.primary()
        if primary is MISSING or primary is None:
            return self.method
        return f"{self.method}:{primary}"

    def given_arguments(self) -> dict[str, Any]:
        """The fields that differ from their defaults, in declaration order.

        (Named so that it never collides with a check field called ``arguments``, as in
        ``called_tool(name, arguments=...)``; ``arguments()`` is kept as an alias for checks
        without such a field.)

        >>> from agent_asserts.checks.tools import CalledTool
        >>> CalledTool("refunds_issue", arguments={"amount": 42}).given_arguments()
        {'name': 'refunds_issue', 'arguments': {'amount': 42}}
        """
        out: dict[str, Any] = {}
        for field in attrs.fields(cast(Any, type(self))):
            if not field.init or field.name.startswith("_"):
                continue
            value = getattr(self, field.name)
            default = field.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                default = default.factory()
            if (
                field.name == self.varargs
                or field.name in self.positional
                or default is attrs.NOTHING
                or not _same(value, default)
            ):
                out[field.name] = value
        return out

    arguments = given_arguments

    def describe(self) -> str:
        """The call that builds this check: ``called_tool('refund', count=1)``.

        The text is kept on the (frozen) check after the first call: a check built once and
        recorded many times (``checks.memo.built``) renders it once.

        >>> from agent_asserts.checks.cost import StepCount
        >>> StepCount(3).describe()
        'step_count(3)'
        """
        kept = self.__dict__.get("_described")
        if kept is not None:
            return kept  # type: ignore[no-any-return]
        text = self._render_description()
        self.__dict__["_described"] = text
        return text

    def _render_description(self) -> str:
        parts: list[str] = []
        for key, value in self.given_arguments().items():
            if key == self.varargs:
                parts.extend(_render_arg(v) for v in value)
            elif key in self.positional:
                parts.append(_render_arg(value))
            else:
                parts.append(f"{key}={_render_arg(value)}")
        return f"{self.method}({', '.join(parts)})"

    def to_data(self) -> Any:
        """The native YAML/JSON form ``{method: {argument: value, …}}``.

        >>> from agent_asserts.checks.cost import StepCount
        >>> StepCount(3).to_data()
        {'step_count': {'n': 3}}
        """
        return {self.method: arguments_to_data(self)}


def _same(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


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


__all__ = ["Check", "Outcome", "missing_surface"]
