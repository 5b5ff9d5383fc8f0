"""Adapters from foreign trace formats to :class:`~agent_asserts.record.TrialRecord`.

One module per format (``mantle``, ``ces``…), each exposing ``to_record(data, **options)`` and
``read(path, **options)``.
"""
