"""Skill and ordered-block lifecycle checks: ``skill_activated`` … ``ordered_block_resumed``.

One implementation, :class:`LifecycleCheck`, counts the events a ``SkillSelector`` or
``BlockSelector`` picks; four field layouts (skill, skill at a step, block, block at a step)
and one table of transitions (one :func:`transition_check` row each, collected in
:data:`LIFECYCLE_CHECKS`) declare the ten registered classes, one per fluent method.
A skill event never satisfies an ordered-block check, nor the reverse (different kinds).
``step_id`` narrows cancel, interrupt and resume (and a block's completion); the classes
that do not take it have no such field.

>>> from agent_asserts.record import TrialRecord
>>> rec = (
...     TrialRecord.builder()
...     .skill("activated", "card_replace")
...     .block("entered", "card_replace", "main")
...     .skill("cancelled", "card_replace", step_id="confirm")
...     .build()
... )
>>> SkillActivated("card_replace").evaluate(rec).message
"skill 'card_replace' activated: e0"
>>> SkillCancelled("card_replace", step_id="autonomous").evaluate(rec).message
"skill 'card_replace' was not cancelled at step 'autonomous' (2 skill events; closest e2)"
>>> BlockEntered("card_replace", "main").default_name()
'ordered_block_entered:card_replace.main'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar, cast

import attrs

from agent_asserts._lazy import LazyText
from agent_asserts.checks.base import Check
from agent_asserts.checks.registry import register
from agent_asserts.checks.selection import closest_fields, event_ids, id_list
from agent_asserts.checks.suggest_names import held_hint, record_names
from agent_asserts.matching.values import plural
from agent_asserts.outcome import Outcome, missing_surface
from agent_asserts.selectors.calls import BlockSelector, Selector, SkillSelector

if TYPE_CHECKING:
    from agent_asserts.record import TrialRecord


def identifier(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    """attrs validator: a non-empty string id (``skill_id``, ``block_id``).

    >>> SkillActivated("")
    Traceback (most recent call last):
    ...
    ValueError: 'skill_id' must not be empty
    """
    if not isinstance(value, str):
        raise TypeError(f"'{attribute.name}' must be a str (got {value!r})")
    if not value:
        raise ValueError(f"'{attribute.name}' must not be empty")


def optional_identifier(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    """attrs validator: None or a non-empty string id (``step_id``).

    >>> SkillCancelled("card_replace", step_id=3)
    Traceback (most recent call last):
    ...
    TypeError: 'step_id' must be a str (got 3)
    """
    if value is not None:
        identifier(instance, attribute, value)


@attrs.frozen
class LifecycleCheck(Check):
    """Passes when at least one lifecycle event matches :meth:`selector`.

    Subclasses set ``kind`` (``skill`` or ``ordered_block``) and ``transition``, and build
    their selector from their fields. A failure carries the closest event of that kind.
    """

    kind: ClassVar[str] = "skill"
    transition: ClassVar[str] = ""

    def selector(self) -> Selector:
        """The selector of the events this check counts.

        >>> BlockEntered("card_replace", "main").selector()
        on.block('entered', 'card_replace', 'main')
        """
        raise NotImplementedError  # pragma: no cover - every registered subclass overrides

    def subject(self) -> str:
        """``skill 'card_replace'`` or ``ordered block 'main' of skill 'card_replace'``.

        >>> SkillCompleted("card_replace").subject()
        "skill 'card_replace'"
        """
        raise NotImplementedError  # pragma: no cover

    def evaluate(self, record: TrialRecord) -> Outcome:
        invalid = missing_surface(record, self.kind)
        if invalid is not None:
            return invalid
        selector = self.selector()
        step_id = getattr(self, "step_id", None)
        at = "" if step_id is None else f" at step {step_id!r}"
        matched = selector.select(record)
        ids = event_ids(record, matched)
        details = {"selector": selector.describe()}
        if matched:
            text = LazyText(_reached_text, self, at, ids)
            return Outcome.of(True, message=text, evidence=ids, observed=len(ids), details=details)
        candidates = record.positions_of_kind(self.kind)
        noun = "skill event" if self.kind == "skill" else "ordered-block event"
        seen = plural(len(candidates), noun)
        closest = selector.closest(record)  # None only when there is no candidate
        near = "" if closest is None else f"; closest {closest[0].event_id}"
        skill = getattr(self, "skill_id", None)
        hint = ""
        skills = record_names(record, "skill") if candidates else []
        if skill is not None and skills and skill not in skills:
            hint = held_hint(record, "skill", skill)
        return Outcome.of(
            False,
            message=f"{self.subject()} was not {self.transition}{at} ({seen}{near}){hint}",
            observed=0,
            evidence=event_ids(record, candidates),
            details=details,
            **closest_fields(closest),
        )


def _reached_text(check: LifecycleCheck, at: str, ids: tuple[str, ...]) -> str:
    return f"{check.subject()} {check.transition}{at}: {id_list(ids)}"


@attrs.frozen
class _Skill(LifecycleCheck):
    skill_id: str = attrs.field(validator=identifier)
    positional: ClassVar[tuple[str, ...]] = ("skill_id",)

    def selector(self) -> Selector:
        return SkillSelector(self.transition, self.skill_id, getattr(self, "step_id", None))

    def subject(self) -> str:
        return f"skill {self.skill_id!r}"


@attrs.frozen
class _SkillAtStep(_Skill):
    yaml_positional: ClassVar[tuple[str, ...]] = ("skill_id", "step_id")
    step_id: str | None = attrs.field(default=None, validator=optional_identifier)


@attrs.frozen
class _Block(LifecycleCheck):
    skill_id: str = attrs.field(validator=identifier)
    block_id: str = attrs.field(validator=identifier)
    kind: ClassVar[str] = "ordered_block"
    positional: ClassVar[tuple[str, ...]] = ("skill_id", "block_id")

    def primary(self) -> Any:
        """``skill_id.block_id``: a skill may own several blocks."""
        return f"{self.skill_id}.{self.block_id}"

    def selector(self) -> Selector:
        step_id = getattr(self, "step_id", None)
        return BlockSelector(self.transition, self.skill_id, self.block_id, step_id)

    def subject(self) -> str:
        return f"ordered block {self.block_id!r} of skill {self.skill_id!r}"


@attrs.frozen
class _BlockAtStep(_Block):
    yaml_positional: ClassVar[tuple[str, ...]] = ("skill_id", "block_id", "step_id")
    step_id: str | None = attrs.field(default=None, validator=optional_identifier)


S = TypeVar("S", bound=LifecycleCheck)


def transition_check(shape: type[S], transition: str) -> type[S]:
    """Declare and register the check class of ``shape`` (its fields) at ``transition``.

    ``shape`` is one of the four field layouts (skill, skill at a step, block, block at a
    step); the class is ``Skill<Transition>`` or ``Block<Transition>`` and its method (the
    fluent name and native key) ``skill_<transition>`` or ``ordered_block_<transition>``.
    Every lifecycle check below is one row of this table.

    >>> LIFECYCLE_CHECKS["ordered_block_resumed"].__name__, BlockResumed.transition
    ('BlockResumed', 'resumed')
    >>> print(SkillCancelled.__doc__)
    A ``cancelled`` event of skill ``skill_id`` (at ``step_id``, when given).
    """
    skill = shape.kind == "skill"
    name = ("Skill" if skill else "Block") + transition.capitalize()
    subject = "skill ``skill_id``" if skill else "ordered block ``block_id`` of ``skill_id``"
    at = " (at ``step_id``, when given)" if "step_id" in attrs.fields_dict(shape) else ""
    namespace = {
        "__module__": __name__,
        "__qualname__": name,
        "__doc__": f"A ``{transition}`` event of {subject}{at}.",
        "method": f"{'skill' if skill else 'ordered_block'}_{transition}",
        "transition": transition,
    }
    cls = attrs.frozen(type(name, (shape,), namespace))
    return cast("type[S]", register(cls))


SkillActivated = transition_check(_Skill, "activated")
SkillCompleted = transition_check(_Skill, "completed")
SkillCancelled = transition_check(_SkillAtStep, "cancelled")
SkillInterrupted = transition_check(_SkillAtStep, "interrupted")
SkillResumed = transition_check(_SkillAtStep, "resumed")
BlockEntered = transition_check(_Block, "entered")
BlockCompleted = transition_check(_BlockAtStep, "completed")
BlockCancelled = transition_check(_BlockAtStep, "cancelled")
BlockInterrupted = transition_check(_BlockAtStep, "interrupted")
BlockResumed = transition_check(_BlockAtStep, "resumed")

LIFECYCLE_CHECKS: Final[dict[str, type[LifecycleCheck]]] = {
    cls.method: cls
    for cls in (
        SkillActivated,
        SkillCompleted,
        SkillCancelled,
        SkillInterrupted,
        SkillResumed,
        BlockEntered,
        BlockCompleted,
        BlockCancelled,
        BlockInterrupted,
        BlockResumed,
    )
}
"""Method name (fluent method, native and Mantle key) → its lifecycle check class.

>>> LIFECYCLE_CHECKS["skill_cancelled"]("refund", step_id="autonomous").describe()
"skill_cancelled('refund', step_id='autonomous')"
>>> LIFECYCLE_CHECKS["skill_resumed"]("refund").to_data()
{'skill_resumed': {'skill_id': 'refund'}}
>>> BlockCompleted("refund", "main").default_name()
'ordered_block_completed:refund.main'
>>> BlockCancelled("refund", "main", step_id="s2").describe()
"ordered_block_cancelled('refund', 'main', step_id='s2')"
"""


__all__ = [
    "LIFECYCLE_CHECKS",
    "BlockCancelled",
    "BlockCompleted",
    "BlockEntered",
    "BlockInterrupted",
    "BlockResumed",
    "LifecycleCheck",
    "SkillActivated",
    "SkillCancelled",
    "SkillCompleted",
    "SkillInterrupted",
    "SkillResumed",
]
