"""Only regular files are read as suites or records, at most a configurable size (issue #17)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import agent_asserts
from agent_asserts import TrialRecord
from agent_asserts._files import MAX_FILE_BYTES_ENV, _NonBlockingInput, open_input, read_bytes
from agent_asserts.loaders import cxas, mantle
from agent_asserts.loaders.collector import LoadError
from agent_asserts.loaders.source import read_source
from agent_asserts.record.errors import RecordError
from agent_asserts.record.reading import iter_records


def test_a_device_is_not_read_as_a_record() -> None:
    with pytest.raises(RecordError) as caught:
        list(iter_records("/dev/zero"))
    assert str(caught.value).endswith("\n  /dev/zero: not a regular file (a character device)")


def test_a_device_is_not_read_as_a_suite() -> None:
    with pytest.raises(LoadError) as caught:
        read_source("/dev/zero")
    assert "/dev/zero" in str(caught.value)
    assert "not a regular file (a character device)" in str(caught.value)


def test_a_dangling_symlink_is_named(tmp_path: Path) -> None:
    link = tmp_path / "gone.json"
    link.symlink_to(tmp_path / "missing.json")
    with pytest.raises(RecordError) as caught:
        list(iter_records(link))
    assert str(caught.value).endswith(
        f"\n  {link}: a dangling symbolic link (its target does not exist)"
    )
    with pytest.raises(LoadError) as load_caught:
        read_source(link)
    assert "a dangling symbolic link" in str(load_caught.value)


def test_a_record_over_the_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = tmp_path / "r.json"
    file.write_text('{"reply": "' + "x" * 200 + '"}')
    monkeypatch.setenv(MAX_FILE_BYTES_ENV, "100")
    with pytest.raises(RecordError) as caught:
        TrialRecord.load(file)
    assert "over the limit of 100 bytes" in str(caught.value)
    monkeypatch.setenv(MAX_FILE_BYTES_ENV, "0")
    assert TrialRecord.load(file).reply == "x" * 200


def test_validate_on_a_fifo_does_not_block(tmp_path: Path) -> None:
    fifo = tmp_path / "suite.yml"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "agent_asserts", "validate", str(fifo)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode != 0
    assert "not a regular file (a FIFO)" in done.stdout + done.stderr


def test_a_fifo_record_does_not_block(tmp_path: Path) -> None:
    fifo = tmp_path / "run.json"
    os.mkfifo(fifo)
    with pytest.raises(RecordError, match="a FIFO"):
        TrialRecord.load(fifo)


@pytest.mark.parametrize("read_record", [cxas.read_record, mantle.read_record])
def test_a_dialects_record_file_must_be_regular(
    read_record: Callable[[Path], object], tmp_path: Path
) -> None:
    fifo = tmp_path / "run.json"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), fifo):
        with pytest.raises(RecordError, match="not a regular file"):
            read_record(path)


# -- files that block when read (issue #25, item 7) ----------------------------------------------


def test_a_read_that_would_block_raises_the_readers_error() -> None:
    read_end, write_end = os.pipe()  # a real descriptor with nothing to read yet
    os.set_blocking(read_end, False)
    handle = io.BufferedReader(_NonBlockingInput(read_end, ValueError))
    try:
        with pytest.raises(ValueError, match=r"^not a regular file \(reading it would block\)$"):
            handle.readline()
        os.write(write_end, b'{"a": 1}\n')
        assert handle.readline() == b'{"a": 1}\n'  # what is there is read
    finally:
        handle.close()
        os.close(write_end)


def test_every_reader_opens_input_files_without_blocking(tmp_path: Path) -> None:
    file = tmp_path / "runs.json"
    file.write_text('{"reply": "a"}\n{"reply": "b"}\n')
    with open_input(file, ValueError) as handle:
        assert os.get_blocking(handle.fileno()) is False
        assert handle.readline() == b'{"reply": "a"}\n'
    assert read_bytes(file, ValueError).count(b"reply") == 2
    assert [r.reply for r in iter_records(file)] == ["a", "b"]


KMSG = Path("/proc/kmsg")  # a "regular file" whose reads wait for the next kernel message
needs_kmsg = pytest.mark.skipif(
    not os.access(KMSG, os.R_OK), reason="/proc/kmsg is readable only by root, on Linux"
)


@needs_kmsg
def test_a_file_that_blocks_is_refused_by_every_reader(tmp_path: Path) -> None:
    link = tmp_path / "kmsg.json"
    link.symlink_to(KMSG)
    message = r"kmsg(\.json)?: not a regular file \(reading it would block\)$"
    for path in (KMSG, link):
        with pytest.raises(RecordError, match=message):
            TrialRecord.load(path)
        raw = iter_records(path).raw_lines()  # the JSON Lines sniffing evaluate_many uses
        assert raw is not None
        with pytest.raises(RecordError, match=message):
            list(raw)


@needs_kmsg
def test_a_json_lines_file_that_blocks_is_refused_by_the_streaming_readers(
    tmp_path: Path,
) -> None:
    # the streaming readers (JSON Lines, evaluate_many's iter_jsonl) open through open_input
    # too: a .jsonl link to /proc/kmsg used to hang them
    from agent_asserts.batch import iter_jsonl

    link = tmp_path / "kmsg.jsonl"
    link.symlink_to(KMSG)
    message = r"kmsg\.jsonl: not a regular file \(reading it would block\)$"
    with pytest.raises(RecordError, match=message):
        list(iter_records(link))
    with pytest.raises(RecordError, match=message):
        list(iter_jsonl(link))


@needs_kmsg
def test_check_on_a_record_that_blocks_finishes(tmp_path: Path) -> None:
    (tmp_path / "suite.yml").write_text("record: /proc/kmsg\nchecks: [succeeded]\n")
    env = {**os.environ, "PYTHONPATH": str(Path(agent_asserts.__file__).parents[1])}
    done = subprocess.run(
        [sys.executable, "-m", "agent_asserts", "check", "suite.yml",
         "--allow-records-from", "/proc"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "/proc/kmsg: not a regular file (reading it would block)" in done.stderr
