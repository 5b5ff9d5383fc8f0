"""What a ``--record`` folder holds besides records: suite files and dangling symlinks.

A suite file kept beside the runs (``runs/suite.json``) is not a record: it is skipped, with a
note on stderr. A symlink whose target is gone is reported as a problem (exit 2), never
skipped silently.

>>> import json, pathlib, tempfile
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> _ = (tmp / "suite.json").write_text(json.dumps({"checks": ["succeeded"]}))
>>> _ = (tmp / "run.json").write_text(json.dumps({"events": []}))
>>> (tmp / "gone.json").symlink_to(tmp / "missing.json")
>>> scan = scan_records([tmp / "run.json", tmp / "suite.json"], [str(tmp)])
>>> [p.name for p in scan.records], [p.name for p in scan.suites], [p.name for p in scan.dangling]
(['run.json'], ['suite.json'], ['gone.json'])
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Final, NamedTuple

import attrs

from agent_asserts.cli.support import RECORD_SUFFIXES
from agent_asserts.results import CaseResult

SUITE_KEYS: Final = frozenset(
    {"checks", "cases", "scenario", "goals", "assertions", "evals", "tool_expectations"}
)
"""Top-level keys of a suite document (native, Mantle, cxas); a record has ``events``."""
SNIFF_LIMIT: Final = 1_000_000
"""Files larger than this (bytes) are taken for records without reading them."""


class RecordScan(NamedTuple):
    """The record files, the suite files skipped and the dangling symlinks found."""

    records: list[Path]
    suites: list[Path]
    dangling: list[Path]


def is_suite_file(path: Path, suite_paths: Iterable[str] = ()) -> bool:
    """Whether ``path`` is one of ``suite_paths`` or a JSON suite document (a mapping with a
    suite's keys and no ``events``).

    >>> is_suite_file(Path("/nonexistent.json"))
    False
    """
    try:
        if any(path.samefile(s) for s in suite_paths if Path(s).exists()):
            return True
        if path.suffix != ".json" or path.stat().st_size > SNIFF_LIMIT:
            return False
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "events" not in data and bool(SUITE_KEYS & data.keys())


def as_suite_input(case: CaseResult) -> CaseResult:
    """The failed case of an unloadable suite, marked so that reports label its source
    ``suite:`` (``metadata["input"] == "suite"``) rather than ``record:``.

    >>> as_suite_input(CaseResult("s.yml", "failed", metadata={"source": "s.yml"})).metadata
    {'source': 's.yml', 'input': 'suite'}
    """
    return attrs.evolve(case, metadata={**case.metadata, "input": "suite"})


def scan_records(
    files: list[Path], folders: Iterable[str], suite_paths: Iterable[str] = ()
) -> RecordScan:
    """Split ``files`` into records and suite files, and list the dangling symlinks of the
    ``--record`` values that are folders."""
    suites_given = list(suite_paths)
    records: list[Path] = []
    suites: list[Path] = []
    for path in files:
        (suites if is_suite_file(path, suites_given) else records).append(path)
    dangling: list[Path] = []
    for folder in folders:
        base = Path(folder)
        if base.is_dir():
            dangling.extend(
                sorted(
                    p
                    for p in base.iterdir()
                    if p.suffix in RECORD_SUFFIXES and p.is_symlink() and not p.exists()
                )
            )
    return RecordScan(records, suites, dangling)


__all__ = ["SUITE_KEYS", "RecordScan", "as_suite_input", "is_suite_file", "scan_records"]
