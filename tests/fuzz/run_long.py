"""The fuzz properties of ``tests/fuzz``, run long: ``python tests/fuzz/run_long.py [N]``.

Each property runs ``N`` examples (default 5,000); a crash is an exception other than the
documented ones. Prints the examples run and the crash count per property, and exits non-zero
when any crashed. The last recorded run is in docs/reliability.md.
"""

from __future__ import annotations

import sys
from typing import Any

from hypothesis import HealthCheck, given, settings

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import test_fuzz_inputs as props


def run(name: str, strategy: Any, body: Any, examples: int) -> int:
    crashes: list[str] = []

    @settings(max_examples=examples, suppress_health_check=list(HealthCheck), deadline=None,
              database=None)  # fmt: skip
    @given(strategy)
    def prop(data: Any) -> None:
        try:
            body.hypothesis.inner_test(data)
        except Exception as exc:
            crashes.append(f"{type(exc).__name__}: {exc}"[:200])

    prop()
    print(f"{name}: {examples} examples, {len(crashes)} crashes")
    for crash in sorted(set(crashes))[:5]:
        print(f"  {crash}")
    return len(crashes)


def main() -> int:
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    total = run(
        "TrialRecord.from_dict",
        props.records,
        props.test_from_dict_raises_only_record_errors,
        examples,
    )
    total += run(
        "load(data)", props.documents, props.test_load_of_any_data_raises_only_load_errors, examples
    )
    total += run(
        "loads(json)",
        props.documents,
        props.test_loads_of_any_json_text_raises_only_load_errors,
        examples,
    )
    print(f"total crashes: {total}")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main())
