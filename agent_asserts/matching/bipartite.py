"""Maximum bipartite matching by augmenting paths (used by ``M.unordered``).

Greedy first-fit can miss a perfect assignment: with expected ``[M.anything(), 1]`` and actual
``[1, 2]``, first-fit gives ``1`` to ``M.anything()`` and leaves nothing for ``1``. Augmenting
paths re-assign earlier choices, so a perfect matching is found whenever one exists.

>>> maximum_matching([[0, 1], [0]], 2)
[1, 0]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def maximum_matching(
    adjacency: Sequence[Sequence[int]],
    n_right: int,
    initial: Sequence[int] | None = None,
) -> list[int]:
    """Find a maximum matching in a bipartite graph.

    Each left vertex ``u`` is tried in order; a breadth-first search over alternating paths
    finds the shortest augmenting path from it (Kuhn's algorithm, iterative, so deep graphs
    need no recursion). Runs in O(V·E).

    Args:
        adjacency: For each left vertex, the right vertices it may be matched with.
        n_right: The number of right vertices.
        initial: An optional valid starting matching (right vertex per left vertex, ``-1`` for
            none), e.g. a greedy one; it is extended, never made smaller.

    Returns:
        For each left vertex, its matched right vertex, or ``-1`` when it has none.

    >>> maximum_matching([[0], [0, 1], [1, 2]], 3)
    [0, 1, 2]
    >>> maximum_matching([[0], [0]], 1)
    [0, -1]
    """
    match_left = list(initial) if initial is not None else [-1] * len(adjacency)
    match_right = [-1] * n_right
    for u, v in enumerate(match_left):
        if v >= 0:
            match_right[v] = u
    for u in range(len(adjacency)):
        if match_left[u] < 0:
            _augment(u, adjacency, match_left, match_right)
    return match_left


def _augment(
    start: int,
    adjacency: Sequence[Sequence[int]],
    match_left: list[int],
    match_right: list[int],
) -> bool:
    parent: dict[int, int] = {}  # right vertex -> the left vertex it was reached from
    seen_left = {start}
    queue = deque([start])
    free = -1
    while queue and free < 0:
        u = queue.popleft()
        for v in adjacency[u]:
            if v in parent:
                continue
            parent[v] = u
            owner = match_right[v]
            if owner < 0:
                free = v
                break
            if owner not in seen_left:
                seen_left.add(owner)
                queue.append(owner)
    if free < 0:
        return False
    v = free
    while True:
        u = parent[v]
        previous = match_left[u]
        match_left[u] = v
        match_right[v] = u
        if u == start:
            return True
        v = previous


__all__ = ["maximum_matching"]
