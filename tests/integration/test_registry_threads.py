"""The first use of the format registry from many threads at once: every thread sees every
built-in format (a thread that asked while another was loading them saw an empty registry and
failed with ``unknown trace format 'native'``)."""

from __future__ import annotations

import subprocess
import sys

CHILD = """
import threading
from agent_asserts.record import TrialRecord

barrier = threading.Barrier(8)
errors = []

def load():
    barrier.wait()
    try:
        TrialRecord.from_trace({"events": [], "steps": 1}, "native")
    except Exception as exc:
        errors.append(repr(exc))

threads = [threading.Thread(target=load) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(errors)
"""


def test_threads_loading_the_registry_at_once_all_see_the_formats() -> None:
    for _ in range(3):  # a fresh interpreter each time: the registry loads on first use
        out = subprocess.run(
            [sys.executable, "-c", CHILD], capture_output=True, text=True, check=True
        ).stdout
        assert out.strip() == "[]"
