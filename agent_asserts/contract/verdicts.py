"""Applying the quantifier: per-item verdicts to one outcome, with the violating items named.

``every`` fails on the items that do not satisfy the relation, ``some`` fails when none does,
``none`` fails on the items that do. An empty selection fails ``every`` and ``some`` ("selection
'mutations' is empty") unless the assertion allows it; ``none`` over nothing passes.

>>> from agent_asserts.contract.bindings import Bound
>>> left = Bound("msgs", False, ("a", "b"), ("e1", "e2"), (None, None), (None, None), (), 2)
>>> out = quantify(left, [ItemVerdict("e1", True), ItemVerdict("e2", False, "lacks 'A1'")],
...                "every", "contains 'A1'")
>>> out.status.value, out.message
('fail', "1 of 2 items of 'msgs' fails (contains 'A1'): e2: lacks 'A1'")

Counts agree in number: the noun with the total (``1 of 1 item``), the verb with the count
(``2 of 3 items fail``, ``1 of 3 items equals``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from agent_asserts.contract.bindings import Bound
from agent_asserts.matching import Mismatch
from agent_asserts.outcome import Outcome

LISTED = 10
"""How many violating items a message names (the result's ``observed`` lists all)."""


_PLURAL_VERBS = {
    "contains": "contain",
    "equals": "equal",
    "fails": "fail",
    "has": "have",
    "is": "are",
    "matches": "match",
    "occurs": "occur",
    "satisfies": "satisfy",
}


def single_pass_text(name: str, label: str, description: str) -> str:
    """The message of a passing single-valued binding.

    >>> single_pass_text("s", "final_state#/status", "equals 'refunded'")
    "'s' (final_state#/status) equals 'refunded'"
    """
    return f"{name!r} ({label}) {description}"


def _mismatches(value: Iterable[Mismatch]) -> tuple[Mismatch, ...]:
    return tuple(value)


def items(count: int) -> str:
    """``1 item``, ``2 items``.

    >>> items(1), items(0)
    ('1 item', '0 items')
    """
    return f"{count} item" if count == 1 else f"{count} items"


def agree(phrase: str, count: int) -> str:
    """``phrase`` (a verb phrase in the singular) with its verb agreeing with ``count``.

    >>> agree("occurs before some 'b' item", 2), agree("has a matching 'b' item", 1)
    ("occur before some 'b' item", "has a matching 'b' item")
    """
    if count == 1:
        return phrase
    verb, space, rest = phrase.partition(" ")
    return _PLURAL_VERBS.get(verb, verb) + space + rest


def _some_of(count: int, total: int, name: str) -> str:
    """``1 of 2 items of 'a'``."""
    return f"{count} of {items(total)} of {name!r}"


@attrs.frozen
class ItemVerdict:
    """Whether one item satisfies the relation; ``reason`` says what it lacked (or, for an
    item that satisfies it, what matched: the partner ``e4``, the value), ``closest`` is the
    event id of the right-side candidate it was compared with (None for a literal ``right``).

    >>> ItemVerdict("e3", False, "no 'audits' item matches").ok
    False
    """

    label: str
    ok: bool
    reason: str = ""
    mismatches: tuple[Mismatch, ...] = attrs.field(default=(), converter=_mismatches)
    closest: str | None = None


def listing(verdicts: Sequence[ItemVerdict], *, reasons: bool = True) -> str:
    """``e3: reason; e5: reason; … and 4 more`` (at most :data:`LISTED` items).

    >>> listing([ItemVerdict("e1", False, "x")] * 12, reasons=False)
    'e1, e1, e1, e1, e1, e1, e1, e1, e1, e1, … and 2 more'
    """
    if reasons:
        return shortened([f"{v.label}: {v.reason}" if v.reason else v.label for v in verdicts])
    return shortened([v.label for v in verdicts], ", ")


def shortened(texts: Sequence[str], separator: str = "; ", most: int = LISTED) -> str:
    """The first ``most`` texts joined, then ``… and N more``.

    Args:
        texts: What to list.
        separator: Between two texts.
        most: How many texts to show at the most.

    Returns:
        The listing.

    >>> shortened(["e1", "e2", "e3"], ", ", most=2)
    'e1, e2, … and 1 more'
    """
    more = len(texts) - most
    text = separator.join(texts[:most])
    return text + (f"{separator}… and {more} more" if more > 0 else "")


def _observed(left: Bound, bad: Sequence[ItemVerdict]) -> dict[str, Any]:
    return {
        "items": len(left.items),
        "violations": [{"item": v.label, "reason": v.reason} for v in bad],
    }


def _first(bad: Sequence[ItemVerdict]) -> dict[str, Any]:
    if not bad:
        return {}
    return {"mismatches": bad[0].mismatches, "closest": bad[0].closest}


def empty_outcome(left: Bound, quantifier: str, allow_empty: bool) -> Outcome | None:
    """The outcome for an empty left selection, or None when it is not empty.

    >>> empty = Bound("mutations", False, (), (), (), (), (), 0)
    >>> empty_outcome(empty, "every", False).message
    "selection 'mutations' is empty"
    """
    if left.items:
        return None
    name = left.name
    if left.single:  # first/last of an empty selection
        text = f"selection {name!r} is empty, so it has no item to test"
        if allow_empty:
            return Outcome.of(True, message=f"{text} (allow_empty)", observed=None)
        return Outcome.of(False, message=text, observed=None)
    if quantifier == "none":
        return Outcome.of(True, message=f"selection {name!r} is empty", observed={"items": 0})
    if allow_empty:
        return Outcome.of(
            True, message=f"selection {name!r} is empty (allow_empty)", observed={"items": 0}
        )
    return Outcome.of(False, message=f"selection {name!r} is empty", observed={"items": 0})


def quantify(
    left: Bound, verdicts: Sequence[ItemVerdict], quantifier: str, description: str
) -> Outcome:
    """One outcome from the per-item verdicts of a non-empty left side.

    Args:
        left: The left binding (its name appears in the message).
        verdicts: One verdict per left item, in order.
        quantifier: every, some or none (ignored for a single value).
        description: The relation in words (``has a matching 'audits' item on …``).
    """
    name = left.name
    if left.single:
        verdict = verdicts[0]
        if verdict.ok:
            return Outcome.of(True, message=single_pass_text(name, verdict.label, description))
        return Outcome.of(
            False,
            message=f"{name!r} ({verdict.label}) fails ({description}): {verdict.reason}",
            **_first([verdict]),
        )
    total = len(verdicts)
    good = [v for v in verdicts if v.ok]
    bad = [v for v in verdicts if not v.ok]
    if quantifier == "every":
        if not bad:
            return Outcome.of(
                True,
                message=f"every item of {name!r} ({total}) {description}",
                observed={"items": total, "violations": []},
            )
        text = (
            f"{_some_of(len(bad), total, name)} {agree('fails', len(bad))} ({description}): "
            f"{listing(bad)}"
        )
        return Outcome.of(False, message=text, observed=_observed(left, bad), **_first(bad))
    if quantifier == "some":
        if good:
            named = listing(good, reasons=False)
            text = f"{_some_of(len(good), total, name)} {agree(description, len(good))} ({named})"
            return Outcome.of(
                True, message=text, observed={"items": total, "matched": [v.label for v in good]}
            )
        text = f"no item of {name!r} ({total}) {description}: {listing(bad)}"
        return Outcome.of(False, message=text, observed=_observed(left, bad), **_first(bad))
    if not good:
        return Outcome.of(
            True,
            message=f"no item of {name!r} ({total}) {description}",
            observed={"items": total, "violations": []},
        )
    text = (
        f"{_some_of(len(good), total, name)} {agree(description, len(good))}, expected none: "
        f"{listing(good)}"
    )
    return Outcome.of(False, message=text, observed=_observed(left, good), closest=good[0].closest)


__all__ = [
    "LISTED",
    "ItemVerdict",
    "agree",
    "empty_outcome",
    "items",
    "listing",
    "quantify",
    "shortened",
    "single_pass_text",
]
