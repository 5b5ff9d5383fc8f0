"""Test-suite settings: property tests have no per-example deadline, and CI is derandomized.

CI runs on a shared 2-core machine under ``pytest -n 2``; a slow moment there must not turn a
correct property test into a ``DeadlineExceeded`` failure. The number of examples is unchanged.
Under ``CI`` (set by ``.ci/run``'s runner) Hypothesis draws the same examples on every run
(``derandomize=True``, no example database), so a CI result depends only on the commit; set
``HYPOTHESIS_PROFILE=agent_asserts`` to explore with random seeds locally.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("agent_asserts", deadline=None, print_blob=True)
settings.register_profile(
    "agent_asserts-ci", deadline=None, print_blob=True, derandomize=True, database=None
)
_default = "agent_asserts-ci" if os.environ.get("CI") else "agent_asserts"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", _default))

# The frameworks the integrations are tested with run offline here: no usage telemetry, no
# `.env` files read (DeepEval), no update or network checks. Set before any test imports them,
# and inherited by the subprocesses tests start (`deepeval test run`, `promptfoo eval`).
_OFFLINE = {
    "DEEPEVAL_TELEMETRY_OPT_OUT": "1",
    "DEEPEVAL_DISABLE_DOTENV": "1",
    "MLFLOW_DISABLE_TELEMETRY": "true",
    "PROMPTFOO_DISABLE_TELEMETRY": "1",
    "PROMPTFOO_DISABLE_UPDATE": "1",
}
for _name, _value in _OFFLINE.items():
    os.environ.setdefault(_name, _value)

# The pytest runs that tests start in subprocesses (the CLI's suite runs, `deepeval test run`)
# skip the same third-party plugins as this session (pyproject.toml's addopts says why).
_SKIPPED_PLUGINS = (
    "-p no:langsmith_plugin -p no:anyio -p no:platformdirs"
    " -p no:deepeval -p no:asyncio -p no:rerunfailures -p no:repeat"
)
if _SKIPPED_PLUGINS not in os.environ.get("PYTEST_ADDOPTS", ""):
    os.environ["PYTEST_ADDOPTS"] = f"{os.environ.get('PYTEST_ADDOPTS', '')} {_SKIPPED_PLUGINS}"


_INNER_PLUGINS = f"{_SKIPPED_PLUGINS} -p no:hypothesispytest"
"""What pytester's inner sessions skip: this session's list, and Hypothesis' plugin (no inner
test uses it; it imports all of Hypothesis, about a second per start)."""


@pytest.fixture
def pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """pytester, whose inner sessions skip :data:`_INNER_PLUGINS` too.

    pytester removes ``PYTEST_ADDOPTS`` so that an inner session does not inherit the outer
    one's options; without this every inner session, in process or in a subprocess, loaded
    every installed plugin (langsmith's and DeepEval's import their whole packages): 12-15 s
    per subprocess start on a 2-core machine instead of under a second.
    """
    monkeypatch.setenv("PYTEST_ADDOPTS", _INNER_PLUGINS)
    return pytester
