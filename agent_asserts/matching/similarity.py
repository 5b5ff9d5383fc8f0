"""Text similarity: ``1 - levenshtein(a, b) / max(len(a), len(b))`` over characters.

Lengths and edits count Unicode code points, not bytes, so ``"café"`` and ``"cafe"`` differ by
one edit out of four characters.

>>> similarity("café", "cafe")
0.75
"""

from __future__ import annotations

import unicodedata

from agent_asserts._text import edit_distance


def similarity(a: str, b: str) -> float:
    """Compare two texts: 1.0 when equal, 0.0 when nothing is shared.

    Args:
        a: One text.
        b: The other text.

    Both texts are first put in Unicode normal form NFC, so a letter written with a combining
    accent (``"e\\u0301"``) and the same precomposed letter (``"é"``) count as one character.

    Returns:
        ``1 - Levenshtein.distance(a, b) / max(len(a), len(b))``; 1.0 when both are empty.

    Raises:
        TypeError: When ``a`` or ``b`` is not a string.

    >>> similarity("kitten", "sitting"), similarity("", ""), similarity("abc", "")
    (0.5714285714285714, 1.0, 0.0)
    >>> similarity("caf\\u00e9", "cafe\\u0301")
    1.0
    """
    if not isinstance(a, str) or not isinstance(b, str):
        raise TypeError(
            f"similarity() compares two strings (got {type(a).__name__} and {type(b).__name__})"
        )
    a, b = unicodedata.normalize("NFC", a), unicodedata.normalize("NFC", b)
    longest = max(len(a), len(b))
    if longest == 0:
        return 1.0
    distance = edit_distance(a, b)
    return 1.0 - distance / longest


__all__ = ["similarity"]
