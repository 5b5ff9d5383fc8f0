"""``matches_trajectory``'s fast paths give the general path's results on random trajectories.

Without a parallel group every block is one call, and the ordered modes pair through
``_pairs_after_last`` instead of the general ``_Aligner`` (blocks, used marks, re-pairing
inside a group). These properties run both on the same random runs and references — exact
keys, calls taking any arguments, predicate modes, repeated names and keys — and require the
same pairs; then whole outcomes (status, score, message, details, evidence) on records with
no group against the same records with a group on a non-tool event (so the blocks are made)
aligned by the general path. The unordered pairing of keyed calls tries the first untaken
call of a name before the chains of equal keys: its pairs are checked against the pairing's
definition, scanned call by call; the positions of the unpaired calls, found by one search per
position or in one pass, against their definition.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from agent_asserts import M, TrialRecord
from agent_asserts.checks.trajectory_match import (
    Call,
    Calls,
    CallSpec,
    MatchesTrajectory,
    References,
    _Aligner,
    _pairs_after_last,
    _positions_of,
    ordered_pairs,
    unordered_pairs,
)

NAMES = ("a", "b", "c")
MODES = ("exact", "ignore", "superset", "subset")
ORDERS = ("strict", "in_order", "unordered", "subset", "superset")


def _arguments(rng: random.Random) -> dict[str, Any]:
    return {key: rng.randint(0, 2) for key in rng.sample(["x", "y"], rng.randint(0, 2))}


def _reference(rng: random.Random, run: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    reference: list[dict[str, Any]] = []
    for name, arguments in run:
        if rng.random() < 0.2:
            continue
        item: dict[str, Any] = {"name": rng.choice(NAMES) if rng.random() < 0.2 else name}
        if rng.random() < 0.85:
            item["arguments"] = dict(arguments) if rng.random() < 0.7 else _arguments(rng)
        reference.append(item)
    if rng.random() < 0.3:
        rng.shuffle(reference)
    if rng.random() < 0.2:
        matcher = {"name": rng.choice(NAMES), "arguments": {"x": M.anything()}}
        reference.insert(rng.randrange(len(reference) + 1), matcher)
    return reference


@pytest.mark.parametrize("seed", range(4))
def test_pairs_after_last_equal_the_general_alignment(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(1_500):
        run = [(rng.choice(NAMES), _arguments(rng)) for _ in range(rng.randint(0, 10))]
        actual = Calls.of([Call(name, arguments, j) for j, (name, arguments) in enumerate(run)])
        assert actual.single_blocks
        reference = _reference(rng, run)
        for mode in MODES:
            tools = {rng.choice(NAMES): rng.choice(MODES)} if rng.random() < 0.3 else {}
            specs = [
                CallSpec.build(item, tools.get(item["name"], mode), i)
                for i, item in enumerate(reference)
            ]
            references = References(specs)
            general = _Aligner(references, actual).run()
            assert _pairs_after_last(references, actual) == general, (run, reference, mode)
            assert ordered_pairs(references, actual) == general


def _record(run: list[tuple[str, dict[str, Any] | None]], group: bool) -> TrialRecord:
    builder = TrialRecord.builder()
    if group:  # a parallel group on another event: the blocks are made (all of one call)
        builder.event("note", payload={"text": "t"}, group_id="g")
    for name, arguments in run:
        if arguments is None:
            builder.tool(name)
        else:
            builder.tool(name, arguments=arguments)
    return builder.build()


def _outcome(check: MatchesTrajectory, record: TrialRecord) -> tuple[Any, ...]:
    out = check.evaluate(record)
    # the note shifts every event id by one: name the calls by their place among the calls
    ids = {e.event_id: f"call{n}" for n, e in enumerate(record.tool_calls)}
    details = dict(out.details)
    details["unexpected"] = [ids[i] for i in details.get("unexpected", [])]
    return (
        out.status,
        out.score,
        re.sub(r"\be\d+\b", lambda m: ids[m.group()], out.message),
        details,
        tuple(ids[i] for i in out.evidence),
        out.expected,
        out.observed,
    )


@pytest.mark.parametrize("seed", range(4))
def test_outcomes_without_groups_equal_the_general_path(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(100 + seed)
    for _ in range(300):
        run: list[tuple[str, dict[str, Any] | None]] = [
            (rng.choice(NAMES), None if rng.random() < 0.05 else _arguments(rng))
            for _ in range(rng.randint(0, 8))
        ]
        plain, grouped = _record(run, group=False), _record(run, group=True)
        recorded = [(name, arguments or {}) for name, arguments in run]
        reference = _reference(rng, recorded)
        for order in ORDERS:
            for mode in MODES:
                check = MatchesTrajectory(reference, order=order, arguments=mode)
                fast = _outcome(check, plain)
                with monkeypatch.context() as patch:  # the general alignment, by force
                    patch.setattr(Calls, "single_blocks", property(lambda self: False))
                    assert _outcome(check, grouped) == fast, (order, mode)


def _first_untaken_of_equal_key(references: References, actual: Calls) -> list[int]:
    """The unordered pairing of keyed names by its definition, one scan per reference call:
    each keyed reference call, in order, takes the first untaken call of its name and key;
    then the calls left, in order, go to the calls that take any arguments."""
    pairs = [-1] * len(references)
    taken: set[int] = set()
    for i, (name, key) in enumerate(zip(references.names, references.keys, strict=True)):
        if name in references.all_keyed and i in references.keyed_ids.get(name, []):
            for j in actual.by_name.get(name, ()):
                if j not in taken and actual.keys[j] == key:
                    pairs[i] = j
                    taken.add(j)
                    break
    for name, any_ids in references.any_ids.items():
        if name in references.all_keyed:
            free = [j for j in actual.by_name.get(name, ()) if j not in taken]
            for i, j in zip(any_ids, free, strict=False):
                pairs[i] = j
    return pairs


@pytest.mark.parametrize("seed", range(4))
def test_unordered_keyed_pairs_are_the_first_untaken_call_of_equal_key(seed: int) -> None:
    # the first untaken call of the name is tried before the chains of equal keys
    rng = random.Random(200 + seed)
    for _ in range(1_500):
        run = [(rng.choice(NAMES), _arguments(rng)) for _ in range(rng.randint(0, 10))]
        actual = Calls.of([Call(name, arguments, 0) for name, arguments in run])
        reference = [item for item in _reference(rng, run) if not _has_matcher(item)]
        for mode in ("exact", "ignore"):
            tools = {rng.choice(NAMES): rng.choice(MODES)} if rng.random() < 0.3 else {}
            specs = [
                CallSpec.build(item, tools.get(item["name"], mode), i)
                for i, item in enumerate(reference)
            ]
            references = References(specs)
            expected = _first_untaken_of_equal_key(references, actual)
            got = unordered_pairs(references, actual)
            keyed = [i for ids in references.keyed_ids.values() for i in ids]
            keyed += [i for ids in references.any_ids.values() for i in ids]
            for i in keyed:
                if references.names[i] in references.all_keyed:
                    assert got[i] == expected[i], (run, reference, mode, tools)


def _has_matcher(item: dict[str, Any]) -> bool:
    return any(not isinstance(v, int) for v in item.get("arguments", {}).values())


@pytest.mark.parametrize("seed", range(3))
def test_positions_of_by_search_or_in_one_pass_are_the_positions(seed: int) -> None:
    # few hits: one C search per position; many (a third or more): one compress pass
    rng = random.Random(300 + seed)
    for _ in range(2_000):
        density = rng.random()
        size = rng.randint(0, 60)
        pairs = [-1 if rng.random() < density else rng.randint(0, 99) for _ in range(size)]
        assert _positions_of(pairs, -1) == [i for i, j in enumerate(pairs) if j == -1]
        marks = bytearray(1 if rng.random() < density else 0 for _ in range(size))
        for value in (0, 1):
            assert _positions_of(marks, value) == [i for i, m in enumerate(marks) if m == value]
