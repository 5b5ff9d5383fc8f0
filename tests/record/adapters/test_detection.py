"""Detection against every format's fixtures: each file is detected as its own format (the
folder's name) and as no other, whatever the file is called."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from adapter_checks import FIXTURES, load_json

from agent_asserts.record.adapters import detect, formats, matching_formats

FILES = sorted(p for p in FIXTURES.glob("*/*.json"))


def test_there_are_fixtures_for_the_message_formats() -> None:
    assert {p.parent.name for p in FILES} >= {"openai-chat"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_fixture_matches_its_format_only(path: Path) -> None:
    expected = path.parent.name
    assert expected in formats()
    data = load_json(path)
    assert matching_formats(data) == (expected,)
    assert detect(data, source="renamed.json") == expected


LINE_FILES = sorted(p for p in FIXTURES.glob("*/*.jsonl"))


@pytest.mark.parametrize("path", LINE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_json_lines_fixture_matches_its_format_only(path: Path) -> None:
    """A JSON Lines file is detected by its first line, and as a whole list of lines."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert matching_formats(lines[0]) == (path.parent.name,)
    assert matching_formats(lines) == (path.parent.name,)
