"""The ``agent-asserts`` console script: one module per subcommand, ``main`` the entry point.

>>> from agent_asserts.cli import build_parser
>>> build_parser().prog
'agent-asserts'
"""

from __future__ import annotations

from agent_asserts.cli.main import FORMAT_CHOICES, build_parser, main

__all__ = ["FORMAT_CHOICES", "build_parser", "main"]
