"""The logic behind :mod:`agent_asserts.pytest_plugin`, imported only when a test uses it.

* :mod:`~agent_asserts.pytest_support.fixture`: the ``agent_eval`` fixture's factory;
* :mod:`~agent_asserts.pytest_support.outcome`: from case verdicts to test outcomes;
* :mod:`~agent_asserts.pytest_support.suites`: suite files collected as test items;
* :mod:`~agent_asserts.pytest_support.session`: the terminal summary and the report file.
"""
