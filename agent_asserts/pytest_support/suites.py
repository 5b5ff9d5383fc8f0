"""Suite files as test items (opt-in with the ini option ``agent_asserts_suites``).

Each case of each suite file matching one of the globs (relative to the rootdir, ``**``
allowed) becomes one test item named after the case; the case runs on the record its file
names (``record:``). A file that does not load becomes one failing item, ``load_error``, whose
failure text is the :class:`~agent_asserts.loaders.LoadError` with every problem and its
position; the session goes on. That item, and a case whose record cannot be read, count as
``FAILED`` cases (with the error) in the terminal summary and the report file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from agent_asserts.batch import load_error_text, unloadable_cases
from agent_asserts.loaders import load
from agent_asserts.pytest_plugin import RESULTS
from agent_asserts.pytest_support.outcome import CaseEntry

if TYPE_CHECKING:
    from agent_asserts.loaders import Case

_MATCHED = pytest.StashKey[frozenset[Path]]()


def matched_files(config: pytest.Config, patterns: Sequence[str]) -> frozenset[Path]:
    """Every file the globs match under the rootdir (computed once per session)."""
    found = config.stash.get(_MATCHED, None)
    if found is None:
        root = config.rootpath
        found = frozenset(
            p.resolve() for pattern in patterns for p in root.glob(pattern) if p.is_file()
        )
        config.stash[_MATCHED] = found
    return found


def collect_suite_file(
    file_path: Path, parent: pytest.Collector, patterns: Sequence[str]
) -> SuiteFile | None:
    """The collector of ``file_path`` when one of the globs matches it, else None."""
    if file_path.suffix == ".py" or file_path.resolve() not in matched_files(
        parent.config, patterns
    ):
        return None
    suite_file: SuiteFile = SuiteFile.from_parent(parent, path=file_path)
    return suite_file


class SuiteFile(pytest.File):
    """A suite file: one :class:`SuiteItem` per case, or one :class:`LoadErrorItem`."""

    def collect(self) -> Iterator[pytest.Item]:
        try:
            suite = load(self.path)
        except Exception as exc:  # a broken file is one failing item, never a crash
            message = load_error_text("the suite", self.path.name, exc)
            yield LoadErrorItem.from_parent(self, name="load_error", message=message)
            return
        seen: dict[str, int] = {}
        for case in suite.cases:
            seen[case.name] = seen.get(case.name, 0) + 1
            name = case.name if seen[case.name] == 1 else f"{case.name}[{seen[case.name]}]"
            yield SuiteItem.from_parent(self, name=name, case=case)


def case_timeout(config: pytest.Config) -> float | None:
    """The ``agent_asserts_timeout`` ini option: seconds, ``0`` for no limit.

    Raises:
        pytest.UsageError: It is not a number of seconds >= 0.
    """
    text = str(config.getini("agent_asserts_timeout")).strip()
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise pytest.UsageError(
            f"agent_asserts_timeout: must be a number of seconds >= 0 (got {text!r})"
        )
    return value or None


class SuiteItem(pytest.Item):
    """One case of a suite file, run on the record its file names."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        source = None if self.case.record_path is None else str(self.case.record_path)
        try:
            record = self.case.load_record()
        except Exception as exc:
            error = load_error_text("the record", source, exc)
        else:
            skip = bool(self.config.getoption("agent_asserts_skip_judged", False))
            timeout = case_timeout(self.config)
            result = self.case.evaluate(record, timeout=timeout, skip_judged=skip)
            self.stash.setdefault(RESULTS, []).append(CaseEntry(result, record))
            return
        # Outside the except block: the failure is shown once, not chained to the error.
        fail_unloadable(self, error, source)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, self.name


class LoadErrorItem(pytest.Item):
    """The one failing item of a suite file that could not be loaded."""

    def __init__(self, *, message: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = message

    def runtest(self) -> None:
        fail_unloadable(self, self.message, self.parent.nodeid if self.parent else None)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, self.name


def fail_unloadable(item: pytest.Item, error: str, source: str | None) -> None:
    """Fail ``item`` with ``error``, recording it as a ``FAILED`` case named after the item
    (built as ``evaluate_many`` builds the cases of unloadable records), so the terminal
    summary and the report file count it like any other case."""
    item.stash.setdefault(RESULTS, []).extend(
        CaseEntry(case) for case in unloadable_cases(error, [item.name], source)
    )
    pytest.fail(error, pytrace=False)


__all__ = [
    "LoadErrorItem",
    "SuiteFile",
    "SuiteItem",
    "collect_suite_file",
    "fail_unloadable",
    "matched_files",
]
