"""The pytest plugin (registered through the ``pytest11`` entry point).

It is filled in by the integration work; until then it registers nothing, so a
pytest session that does not use agent_asserts is not affected.
"""
