"""The pytest plugin (registered through the ``pytest11`` entry point).

It stays out of the way of sessions that do not use it: it imports nothing from the library at
start-up (every hook imports its logic from :mod:`agent_asserts.pytest_support` only when a
test actually uses agent_asserts), prints nothing, and changes no outcome. What it adds:

* the fixture ``agent_eval``: ``ctx = agent_eval(record)`` returns an ``EvalContext``; when
  the test body returns, a ``FAILED`` case fails the test with the case summary, ``SKIPPED``
  skips it, ``SCORED`` passes and is listed in the terminal summary;
* ``ctx.require()`` and ``ctx.skip()`` inside a test, and ``assert_passed()``, become a test
  failure with the summary and a pytest skip;
* the ini option ``agent_asserts_suites`` (globs, relative to the rootdir): each case of each
  matching suite file becomes a test item;
* the option ``--agent-asserts-report=PATH`` (format by extension; another extension is a
  usage error) and an ``agent_asserts`` section in the terminal summary; case verdicts and
  scores (the case's and each check's) as JUnit XML properties.

See docs/pytest.md.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from agent_asserts.pytest_support import EvalFactory

CONTEXTS = pytest.StashKey[list[tuple[Any, Any]]]()
"""The ``(EvalContext, TrialRecord)`` pairs the ``agent_eval`` fixture made for an item."""
RESULTS = pytest.StashKey[list[Any]]()
"""The finished ``CaseEntry`` objects of an item (fixture contexts, a suite item's case,
``assert_passed`` cases)."""
REPORT_ATTRIBUTE = "agent_asserts"
"""The test-report attribute carrying the cases (JSON data, so it crosses xdist)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agent_asserts")
    group.addoption(
        "--agent-asserts-report",
        dest="agent_asserts_report",
        metavar="PATH",
        default=None,
        help="write the agent_asserts cases of this session to PATH "
        "(.json, .xml, .html, .md or .txt).",
    )
    group.addoption(
        "--agent-asserts-allow-records-from",
        dest="agent_asserts_allow_records_from",
        action="append",
        default=[],
        metavar="DIR",
        help="also read a suite file's record: files in DIR (repeatable); default: only files "
        "inside the suite file's folder",
    )
    group.addoption(
        "--agent-asserts-embed-records",
        dest="agent_asserts_embed_records",
        action="store_true",
        default=False,
        help="embed each case's record data in a .json or .html --agent-asserts-report "
        "(default: not embedded, a record may hold secrets)",
    )
    group.addoption(
        "--skip-judged",
        dest="agent_asserts_skip_judged",
        action="store_true",
        default=False,
        help="run only the deterministic checks of suite files: judged checks are "
        "not_applicable ('judged check not run')",
    )
    parser.addini(
        "agent_asserts_suites",
        type="args",
        default=[],
        help="globs (relative to the rootdir) of agent_asserts suite files to collect as tests",
    )
    parser.addini(
        "agent_asserts_timeout",
        type="string",
        default="60",
        help="hard time limit in seconds of each collected suite case (0: none; default 60)",
    )


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("agent_asserts_report", None)
    if path:  # a report format the extension does not name is a usage error, before any test
        from agent_asserts.report import format_for_path

        try:
            format_for_path(path)
        except ValueError as exc:
            raise pytest.UsageError(f"--agent-asserts-report: {exc}") from None
    if config.getini("agent_asserts_suites"):  # a bad time limit is a usage error up front
        from agent_asserts.pytest_support import case_timeout

        case_timeout(config)
    config.pluginmanager.register(SessionHooks(config), "agent_asserts-session")


def _involved(item: pytest.Item, exc: BaseException | None) -> bool:
    if item.stash.get(CONTEXTS, None) or item.stash.get(RESULTS, None):
        return True
    return exc is not None and type(exc).__module__.startswith("agent_asserts.")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    error: BaseException | None = None
    try:
        result = yield
    except BaseException as exc:
        error = exc
    # Outside the except block, so an outcome raised by conclude() chains to nothing.
    if _involved(item, error):
        from agent_asserts.pytest_support import conclude

        conclude(item, error)
    if error is not None:
        raise error
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if call.when == "call" and item.stash.get(RESULTS, None):
        from agent_asserts.pytest_support import payload

        setattr(report, REPORT_ATTRIBUTE, payload(item, item.stash[RESULTS]))
    return report


@pytest.fixture
def agent_eval(request: pytest.FixtureRequest) -> EvalFactory:
    """``agent_eval(record, *, judge=None, name=None) -> EvalContext``; the test's verdict
    follows the case's (see docs/pytest.md)."""
    from agent_asserts.pytest_support import EvalFactory

    return EvalFactory(request.node)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    patterns = parent.config.getini("agent_asserts_suites")
    if not patterns:
        return None
    from agent_asserts.pytest_support import collect_suite_file

    return collect_suite_file(file_path, parent, patterns)


class SessionHooks:
    """Gathers the cases of every test report; summary and report file at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.payloads: list[Any] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        data = getattr(report, REPORT_ATTRIBUTE, None)
        if data and report.when == "call":
            self.payloads.append(data)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        path = self.config.getoption("agent_asserts_report", None)
        if path and not hasattr(self.config, "workerinput"):
            from agent_asserts.pytest_support import write_session_report

            write_session_report(self.config, self.payloads, path)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.payloads or self.config.getoption("agent_asserts_report", None):
            from agent_asserts.pytest_support import terminal_summary

            terminal_summary(terminalreporter, self.config, self.payloads)
