"""Adapters from foreign trace formats to :class:`~agent_asserts.record.TrialRecord`, and the
registry naming them.

One module per format (``native``, ``mantle``, ``ces``, ``openai_chat``…), each exposing
``detect(data)``, ``to_records(data, **options)``, ``to_record(data, **options)`` and
``read(path, **options)``. :func:`formats` lists the registered names, :func:`detect` names the
format of a parsed document, :func:`register_format` adds one from outside.

>>> detect({"detailed_trace": ["Agent Text: hi"]})
'ces'
"""

from agent_asserts.record.adapters._registry import (
    TraceFormat,
    detect,
    formats,
    get_format,
    matching_formats,
    records_from_data,
    register_format,
    unregister_format,
)

__all__ = [
    "TraceFormat",
    "detect",
    "formats",
    "get_format",
    "matching_formats",
    "records_from_data",
    "register_format",
    "unregister_format",
]
