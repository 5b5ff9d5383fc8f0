"""Tests for similarity (character Levenshtein ratio)."""

from __future__ import annotations

import pytest

from agent_asserts.matching import similarity


def test_similarity_values() -> None:
    assert similarity("abc", "abc") == 1.0
    assert similarity("", "") == 1.0
    assert similarity("abc", "") == 0.0
    assert similarity("abc", "xyz") == 0.0
    assert similarity("kitten", "sitting") == pytest.approx(1 - 3 / 7)


def test_similarity_counts_characters_not_bytes() -> None:
    assert similarity("café", "cafe") == 0.75
    assert similarity("日本語", "日本") == pytest.approx(2 / 3)
    assert similarity("😀", "😃") == 0.0


def test_similarity_rejects_non_strings() -> None:
    with pytest.raises(TypeError, match="two strings"):
        similarity("a", 1)  # type: ignore[arg-type]
