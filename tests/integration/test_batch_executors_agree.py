"""Same answer everywhere: the whole check catalogue gives byte-identical reports serially, on a
thread pool, on a process pool and on Dask.

Every registered check kind (the representatives of ``tests/checks/test_check_data.py``, plus
the two that hold a callable and a ``matches_trajectory`` whose reference calls have no
``arguments:``) is one case of a suite, evaluated over a few records that make some pass and
some fail. On a process pool and on Dask the suite and the records are pickled; any value
compared by identity that does not survive pickling (issue 25: ``ANY_ARGUMENTS`` was a tuple,
so a reference call without arguments never matched there) makes the reports differ.
"""

from __future__ import annotations

import importlib.util
import json
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from agent_asserts import TrialRecord, evaluate_many
from agent_asserts.checks.events import EventsSatisfy
from agent_asserts.checks.expectations import RecordField, Satisfies
from agent_asserts.checks.trajectory_match import MatchesTrajectory
from agent_asserts.judges import callable_judge
from agent_asserts.loaders.suite import Case, CheckEntry, Suite
from agent_asserts.testing import DEMO_RECORD

_SPEC = importlib.util.spec_from_file_location(
    "check_catalogue", Path(__file__).parents[1] / "checks" / "test_check_data.py"
)
assert _SPEC is not None and _SPEC.loader is not None
_CATALOGUE = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_CATALOGUE)


def polite(prompt: str) -> float:
    """The judge: a score from the prompt text alone (deterministic, picklable)."""
    return 0.9 if "A1049" in prompt else 0.2


def two_or_more(events: Any) -> bool:
    return len(events) >= 2


def catalogue_suite() -> Suite:
    checks = [
        *_CATALOGUE.REPRESENTATIVES,
        EventsSatisfy(two_or_more),
        Satisfies(RecordField("reply"), str.isupper),
        MatchesTrajectory([{"name": "refunds_lookup"}, {"name": "refunds_issue"}]),
        MatchesTrajectory(["lookup", "issue"], order="in_order"),
    ]
    cases = [
        Case(f"{i:02d}-{check.method}", entries=(CheckEntry(check),))
        for i, check in enumerate(checks)
    ]
    return Suite("catalogue", cases)


def catalogue_records() -> list[Any]:
    other = json.loads(json.dumps(DEMO_RECORD))
    other["events"] = other["events"][:2]
    other["status"] = "failed"
    built = (
        TrialRecord.builder()
        .user("refund A1")
        .tool("lookup", {"id": "A1"}, result={"ok": True})
        .tool("search", {"q": "x"}, group_id="g")
        .tool("lookup", {"id": "A2"}, group_id="g")
        .tool("issue", {"amount": 5})
        .agent("Refund issued")
        .build()
    )
    return [DEMO_RECORD, other, built, TrialRecord.builder().build()]


def report(executor: Executor | None) -> str:
    batch = evaluate_many(
        catalogue_records(), catalogue_suite(), executor=executor, judge=callable_judge(polite)
    )
    return json.dumps(batch.to_dict(), sort_keys=True)


@pytest.fixture(scope="module")
def serial() -> str:
    return report(None)


def test_the_catalogue_covers_every_check_kind_and_both_outcomes(serial: str) -> None:
    from agent_asserts.checks import all_checks

    suite = catalogue_suite()
    methods = {case.entries[0].check.method for case in suite.cases}
    ours = {m for m, c in all_checks().items() if c.__module__.startswith("agent_asserts.")}
    assert ours <= methods
    statuses = {r["status"] for case in json.loads(serial)["cases"] for r in case["results"]}
    assert {"pass", "fail"} <= statuses
    # the demo run matches the reference calls without arguments (the one issue 25 reported)
    without_arguments = suite.cases[-2].name
    first = next(c for c in json.loads(serial)["cases"] if c["name"] == without_arguments)
    assert first["verdict"] == "passed"


def test_a_thread_pool_gives_the_same_report(serial: str) -> None:
    with ThreadPoolExecutor(2) as pool:
        assert report(pool) == serial


def test_a_process_pool_gives_the_same_report(serial: str) -> None:
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        assert report(pool) == serial


def test_dask_gives_the_same_report(serial: str) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:  # fmt: skip
        assert report(client.get_executor()) == serial
