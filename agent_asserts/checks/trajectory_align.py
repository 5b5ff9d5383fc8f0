"""Pair reference calls with actual calls: the two alignments behind ``matches_trajectory``.

Both return, for each reference call, the index of the actual call it is paired with (``-1``
for none). Calls whose reference has a hash key (the ``exact`` and ``ignore`` modes) are
paired through dictionaries, in O(n); the other modes compare candidates of the same tool name
and use maximum bipartite matching, so an early loose reference call never takes the only
partner of a later strict one.

>>> from agent_asserts.checks.trajectory_reference import CallSpec
>>> specs = [CallSpec.build({"name": "A"}, "exact", 0),
...          CallSpec.build({"name": "A", "arguments": {"x": 1}}, "superset", 1)]
>>> actual = [Call("A", {"x": 1}, 0), Call("A", {"x": 2}, 1)]
>>> unordered_pairs(specs, actual), ordered_pairs(specs, actual)
([1, 0], [0, -1])
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Sequence
from typing import Any, NamedTuple

from agent_asserts.checks.trajectory_reference import ANY_ARGUMENTS, CallSpec, actual_key
from agent_asserts.matching.bipartite import maximum_matching


class Call(NamedTuple):
    """One actual tool call: its name, arguments and block (calls of one parallel group share
    a block; every other call is a block of its own; blocks are numbered in order)."""

    name: str
    arguments: Any
    block: int


def _by_name(items: Sequence[Any]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        out[item.name].append(i)
    return out


def unordered_pairs(specs: Sequence[CallSpec], actual: Sequence[Call]) -> list[int]:
    """A maximum one-to-one pairing, ignoring order.

    >>> from agent_asserts.checks.trajectory_reference import CallSpec
    >>> unordered_pairs([CallSpec.build({"name": "b"}, "exact")], [Call("a", {}, 0)])
    [-1]
    """
    pairs = [-1] * len(specs)
    acts_by_name = _by_name(actual)
    for name, ref_ids in _by_name(specs).items():
        acts = acts_by_name.get(name, [])
        if not acts:
            continue
        if all(specs[i].key is not None for i in ref_ids):
            _pair_by_key(specs, actual, ref_ids, acts, pairs)
        else:
            _pair_by_matching(specs, actual, ref_ids, acts, pairs)
    return pairs


def _pair_by_key(
    specs: Sequence[CallSpec],
    actual: Sequence[Call],
    ref_ids: list[int],
    acts: list[int],
    pairs: list[int],
) -> None:
    keyed = [i for i in ref_ids if specs[i].key is not ANY_ARGUMENTS]
    used: set[int] = set()
    if keyed:
        buckets: dict[Any, deque[int]] = defaultdict(deque)
        for j in acts:
            buckets[actual_key(actual[j].arguments)].append(j)
        for i in keyed:
            bucket = buckets.get(specs[i].key)
            if bucket:
                pairs[i] = j = bucket.popleft()
                used.add(j)
    free = (j for j in acts if j not in used)
    for i in ref_ids:
        if specs[i].key is ANY_ARGUMENTS:
            pairs[i] = next(free, -1)


def _pair_by_matching(
    specs: Sequence[CallSpec],
    actual: Sequence[Call],
    ref_ids: list[int],
    acts: list[int],
    pairs: list[int],
) -> None:
    adjacency = [
        [k for k, j in enumerate(acts) if specs[i].compatible(actual[j].arguments)] for i in ref_ids
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


def ordered_pairs(specs: Sequence[CallSpec], actual: Sequence[Call]) -> list[int]:
    """Pair the reference, in order, with a subsequence of the run (earliest match first).

    A later reference call must be paired with a call of the same block or a later one, so
    calls of one parallel group may match in any order. A reference call with no partner is
    skipped (left ``-1``) and the rest continue from where the run was.

    >>> from agent_asserts.checks.trajectory_reference import CallSpec
    >>> specs = [CallSpec.build({"name": n}, "exact", i) for i, n in enumerate("ba")]
    >>> ordered_pairs(specs, [Call("a", {}, 0), Call("b", {}, 1)])
    [1, -1]
    >>> ordered_pairs(specs, [Call("a", {}, 0), Call("b", {}, 0)])
    [1, 0]
    """
    return _Aligner(specs, actual).run()


class _Aligner:
    def __init__(self, specs: Sequence[CallSpec], actual: Sequence[Call]) -> None:
        self.specs = specs
        self.actual = actual
        self.used = [False] * len(actual)
        self.pairs = [-1] * len(specs)
        self.positions: dict[Any, list[int]] = {}
        self.pointer: dict[Any, int] = defaultdict(int)
        self.by_name = _by_name(actual)
        self.indexed: set[str] = set()
        self.block_range: dict[int, tuple[int, int]] = {}
        for j, call in enumerate(actual):
            start = self.block_range.get(call.block, (j, j))[0]
            self.block_range[call.block] = (start, j + 1)
        self.block = -1
        self.block_refs: list[int] = []

    def _bucket(self, spec: CallSpec) -> tuple[Any, list[int]]:
        if spec.key is None or spec.key is ANY_ARGUMENTS:
            return spec.name, self.by_name.get(spec.name, [])
        bucket = (spec.name, spec.key)
        if spec.name not in self.indexed:
            self._index_keys(spec.name)
        return bucket, self.positions.get(bucket, [])

    def _index_keys(self, name: str) -> None:
        self.indexed.add(name)
        for j in self.by_name.get(name, []):
            key = (name, actual_key(self.actual[j].arguments))
            self.positions.setdefault(key, []).append(j)

    def _next(self, spec: CallSpec) -> int:
        """The first unused compatible call in the current block or later, or -1."""
        bucket, positions = self._bucket(spec)
        actual, used, block = self.actual, self.used, self.block
        p = self.pointer[bucket]
        while p < len(positions) and (used[positions[p]] or actual[positions[p]].block < block):
            p += 1
        self.pointer[bucket] = p
        if spec.key is not None:
            return positions[p] if p < len(positions) else -1
        for j in positions[p:]:
            if not used[j] and spec.compatible(actual[j].arguments):
                return j
        return -1

    def _reassign(self, i: int) -> bool:
        """Fit reference ``i`` into the current block by re-pairing the block's references."""
        start, end = self.block_range[self.block]
        members = list(range(start, end))
        if len(members) < 2:
            return False
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
            self.used[self.pairs[r]] = False
        for r, k in zip(refs, matching, strict=True):
            self.pairs[r] = members[k]
            self.used[members[k]] = True
        self.block_refs.append(i)
        return True

    def _fits(self, r: int, j: int) -> bool:
        spec = self.specs[r]
        return self.actual[j].name == spec.name and spec.compatible(self.actual[j].arguments)

    def run(self) -> list[int]:
        for i, spec in enumerate(self.specs):
            j = self._next(spec)
            if j >= 0 and self.actual[j].block == self.block:
                self.block_refs.append(i)
            elif self.block >= 0 and self._reassign(i):
                continue
            elif j >= 0:
                self.block = self.actual[j].block
                self.block_refs = [i]
            else:
                continue
            self.pairs[i] = j
            self.used[j] = True
        return self.pairs


__all__ = ["Call", "ordered_pairs", "unordered_pairs"]
