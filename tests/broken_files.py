"""The broken-files harness shared by the cxas and SOP error tests.

A test module lists its broken files as ``(file name, expected problem lines)`` pairs, where
``FILE`` stands for the file's path, and takes its two tests from :func:`broken_file_tests`:
each file's :class:`~agent_asserts.loaders.LoadError` is exactly those lines, and the data
folder holds exactly the listed ``broken_*`` files (ten of them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from agent_asserts.loaders import LoadError, load

Broken = Sequence[tuple[str, list[str]]]


def broken_file_tests(
    data: Path, broken: Broken
) -> tuple[Callable[[str, list[str]], None], Callable[[], None]]:
    """The two tests of a list of broken files in ``data``: bind them to ``test_*`` names."""

    @pytest.mark.parametrize(("name", "expected"), broken, ids=[b[0] for b in broken])
    def test_broken_file_reports_every_problem(name: str, expected: list[str]) -> None:
        path = str(data / name)
        with pytest.raises(LoadError) as caught:
            load(path)
        assert str(caught.value) == "\n".join(line.replace("FILE", path) for line in expected)

    def test_there_are_ten_broken_files() -> None:
        assert len(broken) == 10
        assert sorted(p.name for p in data.glob("broken_*")) == [b[0] for b in broken]

    return test_broken_file_reports_every_problem, test_there_are_ten_broken_files
