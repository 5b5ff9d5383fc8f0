"""Pair reference calls with actual calls: the two alignments behind ``matches_trajectory``.

Both take the two sides as columns (:mod:`agent_asserts.checks.trajectory_calls`) and return,
for each reference call, the position of the actual call it is paired with (``-1`` for none).
Calls whose reference has a hash key (the ``exact`` and ``ignore`` modes) are paired through
one dictionary per tool name whose entries chain the calls of equal key (no container per key:
the cost stays O(n) and allocation-light on large runs); the other modes compare candidates of
the same tool name and use maximum bipartite matching, so an early loose reference call never
takes the only partner of a later strict one.

>>> from agent_asserts.checks.trajectory_calls import Call
>>> from agent_asserts.checks.trajectory_reference import CallSpec
>>> specs = [CallSpec.build({"name": "A"}, "exact", 0),
...          CallSpec.build({"name": "A", "arguments": {"x": 1}}, "superset", 1)]
>>> actual = Calls.of([Call("A", {"x": 1}, 0), Call("A", {"x": 2}, 1)])
>>> unordered_pairs(References(specs), actual), ordered_pairs(References(specs), actual)
([1, 0], [0, -1])
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from agent_asserts.checks.trajectory_calls import Calls, References
from agent_asserts.checks.trajectory_reference import ANY_ARGUMENTS, CallSpec
from agent_asserts.matching.containers import maximum_matching


def _chains(keys: list[Any], acts: Sequence[int]) -> tuple[dict[Any, int], list[int]]:
    """For the calls ``acts`` (indexes into ``keys``): the first position in ``acts`` of each
    key, and for each position the next position of the same key (-1 at the end)."""
    head: dict[Any, int] = {}
    following = [-1] * len(acts)
    for k in range(len(acts) - 1, -1, -1):
        key = keys[acts[k]]
        following[k] = head.get(key, -1)
        head[key] = k
    return head, following


def unordered_pairs(references: References, actual: Calls) -> list[int]:
    """A maximum one-to-one pairing, ignoring order.

    >>> from agent_asserts.checks.trajectory_calls import Call
    >>> from agent_asserts.checks.trajectory_reference import CallSpec
    >>> refs = References([CallSpec.build({"name": "b"}, "exact")])
    >>> unordered_pairs(refs, Calls.of([Call("a", {}, 0)]))
    [-1]
    """
    pairs = [-1] * len(references)
    taken = _pair_by_key(references, actual, pairs)
    for name, ref_ids in references.by_name.items():
        acts = actual.by_name.get(name, ())
        if not acts:
            continue
        if name not in references.all_keyed:
            _pair_by_matching(references.specs, actual, ref_ids, acts, pairs)
            continue
        any_ids = references.any_ids.get(name)
        if any_ids:  # the calls left, in order, to the calls that take any arguments
            free = [j for j in acts if not taken[j]] if name in references.keyed_ids else acts
            for i, j in zip(any_ids, free, strict=False):
                pairs[i] = j
    return pairs


def _pair_by_key(references: References, actual: Calls, pairs: list[int]) -> bytearray:
    """Pair each reference call that has a key (of a name whose calls all have one) with the
    first untaken call of its name and key; the calls taken, by position.

    The reference calls are taken in their order (on a match, the run's: the keys on both
    sides are read as they lie in memory). The first untaken call of the name is tried first
    (on a match it is the one); else the calls of equal key are chained, for that name only.
    """
    taken = bytearray(actual.size)
    if not references.keyed_ids:
        return taken
    all_keyed, by_name, actual_keys = references.all_keyed, actual.by_name, actual.keys
    first: dict[str, int] = {}  # per name: its first untaken call (an index into its calls)
    chains: dict[str, tuple[dict[Any, int], list[int]]] = {}
    for i, (name, key) in enumerate(zip(references.names, references.keys, strict=True)):
        if key is None or key is ANY_ARGUMENTS or name not in all_keyed:
            continue
        acts = by_name.get(name, ())
        f = first.get(name, 0)
        while f < len(acts) and taken[acts[f]]:
            f += 1
        first[name] = f
        if f == len(acts):
            continue
        if actual_keys[acts[f]] == key:
            k = f
        else:
            chain = chains.get(name)
            if chain is None:
                chain = chains[name] = _chains(actual_keys, acts)
            head, following = chain
            k = head.get(key, -1)
            while k >= 0 and taken[acts[k]]:  # taken as a first untaken call
                k = following[k]
            if k < 0:
                head[key] = -1
                continue
            head[key] = following[k]
        j = pairs[i] = acts[k]
        taken[j] = 1
    return taken


def _pair_by_matching(
    specs: Sequence[CallSpec],
    actual: Calls,
    ref_ids: list[int],
    acts: Sequence[int],
    pairs: list[int],
) -> None:
    adjacency = [
        [k for k, j in enumerate(acts) if specs[i].compatible(actual.argument(j))] for i in ref_ids
    ]
    taken = [False] * len(acts)
    greedy = [-1] * len(ref_ids)
    for u, options in enumerate(adjacency):
        for k in options:
            if not taken[k]:
                greedy[u] = k
                taken[k] = True
                break
    matching = maximum_matching(adjacency, len(acts), greedy)
    for u, k in enumerate(matching):
        if k >= 0:
            pairs[ref_ids[u]] = acts[k]


def ordered_pairs(references: References, actual: Calls) -> list[int]:
    """Pair the reference, in order, with a subsequence of the run (earliest match first).

    A later reference call must be paired with a call of the same block or a later one, so
    calls of one parallel group may match in any order. A reference call with no partner is
    skipped (left ``-1``) and the rest continue from where the run was.

    >>> from agent_asserts.checks.trajectory_calls import Call
    >>> from agent_asserts.checks.trajectory_reference import CallSpec
    >>> refs = References([CallSpec.build({"name": n}, "exact", i) for i, n in enumerate("ba")])
    >>> ordered_pairs(refs, Calls.of([Call("a", {}, 0), Call("b", {}, 1)]))
    [1, -1]
    >>> ordered_pairs(refs, Calls.of([Call("a", {}, 0), Call("b", {}, 0)]))
    [1, 0]
    """
    if actual.single_blocks:
        return _pairs_after_last(references, actual)
    return _Aligner(references, actual).run()


def _pairs_after_last(references: References, actual: Calls) -> list[int]:
    """:func:`ordered_pairs` when every block is one call (no parallel group in the run): a
    reference call pairs with the first compatible call after the last paired one, so no
    block, no "used" mark and no re-pairing is needed. Each name keeps a pointer to its first
    call after the last pair (moved past a call when it is paired, by binary search only when
    a pair of another name went past it), and the calls of a key are chained only for a name
    whose next call has another key. Same pairs as the general :class:`_Aligner`.

    >>> from agent_asserts.checks.trajectory_calls import Call
    >>> from agent_asserts.checks.trajectory_reference import CallSpec
    >>> refs = References([CallSpec.build({"name": "a", "arguments": {"x": x}}, "exact", i)
    ...                    for i, x in enumerate([2, 1, 2])])
    >>> run = Calls.of([Call("a", {"x": x}, j) for j, x in enumerate([1, 2, 1])])
    >>> _pairs_after_last(refs, run)
    [1, 2, -1]
    """
    pairs = [-1] * len(references)
    by_name, keys = actual.by_name, actual.keys
    pointer: dict[str, int] = {}  # per name: the first of its calls after the last pair
    chains: dict[str, tuple[dict[Any, int], list[int]]] = {}
    last = -1
    for i, (name, key) in enumerate(zip(references.names, references.keys, strict=True)):
        acts = by_name.get(name, ())
        p = pointer.get(name, 0)
        if p < len(acts) and acts[p] <= last:
            p = bisect_right(acts, last, p + 1)
        if p == len(acts):
            pointer[name] = p
            continue
        k = p
        if key is None:  # a predicate mode: the first compatible call after the last pair
            spec, argument = references.specs[i], actual.argument
            k = next((k for k in range(p, len(acts)) if spec.compatible(argument(acts[k]))), -1)
        elif key is not ANY_ARGUMENTS and keys[acts[p]] != key:
            chain = chains.get(name)
            if chain is None:
                chain = chains[name] = _chains(keys, acts)
            head, following = chain
            k = head.get(key, -1)
            while k >= 0 and acts[k] <= last:
                k = following[k]
            head[key] = k
        if k >= 0:
            pairs[i] = last = acts[k]
            p = k + 1
        pointer[name] = p
    return pairs


class _Aligner:
    def __init__(self, references: References, actual: Calls) -> None:
        self.references = references
        self.specs = references.specs
        self.actual = actual
        self.blocks = actual.blocks
        self.used = bytearray(actual.size)
        self.pairs = [-1] * len(references)
        self.by_name = actual.by_name
        self.pointer: dict[str, int] = {}
        self.chains: dict[str, tuple[dict[Any, int], list[int]]] = {}
        self.positions = actual.positions
        self.starts = actual.block_starts
        self.block = -1
        self.block_refs: list[int] = []

    def _next(self, i: int, name: str, key: Any) -> int:
        """The first unused call compatible with reference ``i`` in the current block or
        later, or -1."""
        used, blocks, block = self.used, self.blocks, self.block
        acts = self.by_name.get(name, ())
        if key is None or key is ANY_ARGUMENTS:
            p = self.pointer.get(name, 0)
            while p < len(acts) and (used[acts[p]] or blocks[acts[p]] < block):
                p += 1
            self.pointer[name] = p
            if key is not None:
                return acts[p] if p < len(acts) else -1
            spec = self.specs[i]
            for j in acts[p:]:
                if not used[j] and spec.compatible(self.actual.argument(j)):
                    return j
            return -1
        chains = self.chains.get(name)
        if chains is None:
            chains = self.chains[name] = _chains(self.actual.keys, acts)
        head, following = chains
        k = head.get(key, -1)
        while k >= 0 and (used[acts[k]] or blocks[acts[k]] < block):
            k = following[k]
        head[key] = k
        return acts[k] if k >= 0 else -1

    def _reassign(self, i: int) -> bool:
        """Fit reference ``i`` into the current block by re-pairing the block's references."""
        start, end = self.starts[self.block], self.starts[self.block + 1]
        if end - start < 2:  # a block of one call (every block, without parallel groups)
            return False
        members = list(self.positions[start:end])
        refs = [*self.block_refs, i]
        adjacency = [
            [k for k, j in enumerate(members) if self._fits(r, j)] for r in refs
        ]  # fmt: skip
        if not any(self.used[members[k]] for k in adjacency[-1]):
            return False
        matching = maximum_matching(adjacency, len(members))
        if -1 in matching:
            return False
        for r in self.block_refs:
            self.used[self.pairs[r]] = 0
        for r, k in zip(refs, matching, strict=True):
            self.pairs[r] = members[k]
            self.used[members[k]] = 1
        self.block_refs.append(i)
        return True

    def _fits(self, r: int, j: int) -> bool:
        spec = self.specs[r]
        return self.actual.name(j) == spec.name and spec.compatible(self.actual.argument(j))

    def run(self) -> list[int]:
        blocks = self.blocks
        references = self.references
        for i, (name, key) in enumerate(zip(references.names, references.keys, strict=True)):
            j = self._next(i, name, key)
            if j >= 0 and blocks[j] == self.block:
                self.block_refs.append(i)
            elif self.block >= 0 and self._reassign(i):
                continue
            elif j >= 0:
                self.block = blocks[j]
                self.block_refs = [i]
            else:
                continue
            self.pairs[i] = j
            self.used[j] = 1
        return self.pairs


__all__ = ["ordered_pairs", "unordered_pairs"]
