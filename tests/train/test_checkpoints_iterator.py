"""checkpoints_iterator / wait_for_new_checkpoint against TensorFlow's documented rules, on a simulated clock."""
from __future__ import annotations

import pytest

from edgelite import train
from edgelite.train import checkpoint_waiting


class FakeClock:
    """time() and sleep() for the polling loop; `events` maps a time to a checkpoint step written then."""

    def __init__(self, directory, events):
        self.now = 1000.0
        self.directory = directory
        self.events = dict(events)
        self.sleeps = []

    def time(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds
        for at in sorted(t for t in self.events if t <= self.now):
            write_checkpoint(self.directory, self.events.pop(at))


def write_checkpoint(directory, step):
    prefix = str(directory / f"model.ckpt-{step}")
    (directory / f"model.ckpt-{step}.index").write_bytes(b"")
    train.update_checkpoint_state(str(directory), prefix)
    return prefix


@pytest.fixture()
def clock(monkeypatch, tmp_path):
    c = FakeClock(tmp_path, {})
    monkeypatch.setattr(checkpoint_waiting, "time", c)
    return c


def test_wait_returns_the_latest_or_none_after_timeout(clock, tmp_path):
    assert checkpoint_waiting.wait_for_new_checkpoint(str(tmp_path), timeout=3.5) is None
    # one-second polls; a sleep that would end past the deadline is not taken: 3 sleeps for 3.5 s
    assert clock.sleeps == [1, 1, 1]
    first = write_checkpoint(tmp_path, 1)
    assert checkpoint_waiting.wait_for_new_checkpoint(str(tmp_path)) == first
    assert checkpoint_waiting.wait_for_new_checkpoint(str(tmp_path), first, timeout=0) is None
    clock.events = {clock.now + 2: 2}
    assert checkpoint_waiting.wait_for_new_checkpoint(str(tmp_path), first) == str(tmp_path / "model.ckpt-2")


def test_iterator_yields_new_checkpoints_and_stops_on_timeout_without_fn(clock, tmp_path):
    write_checkpoint(tmp_path, 1)
    clock.events = {clock.now + 2: 2, clock.now + 4: 3}
    got = list(train.checkpoints_iterator(str(tmp_path), timeout=5))
    assert [p.rsplit("-", 1)[1] for p in got] == ["1", "2", "3"]


def test_iterator_skips_checkpoints_written_while_the_caller_works(clock, tmp_path):
    write_checkpoint(tmp_path, 1)
    it = train.checkpoints_iterator(str(tmp_path), timeout=2)
    assert next(it).endswith("-1")
    write_checkpoint(tmp_path, 2)
    write_checkpoint(tmp_path, 3)  # only the latest is seen when control returns
    assert next(it).endswith("-3")
    assert list(it) == []


def test_min_interval_spaces_the_yields(clock, tmp_path):
    write_checkpoint(tmp_path, 1)
    it = train.checkpoints_iterator(str(tmp_path), min_interval_secs=10, timeout=1)
    next(it)
    clock.now += 3  # the caller works 3 s
    write_checkpoint(tmp_path, 2)
    start = clock.now
    next(it)
    assert clock.now - start == pytest.approx(7)  # waits out the rest of the 10 s interval


def test_timeout_fn_false_resumes_waiting_and_true_stops(clock, tmp_path):
    calls = []

    def timeout_fn():
        calls.append(clock.now)
        if len(calls) == 1:
            write_checkpoint(tmp_path, 5)
        return len(calls) >= 3

    got = list(train.checkpoints_iterator(str(tmp_path), timeout=2, timeout_fn=timeout_fn))
    # timeout -> fn false (a checkpoint appears) -> yield, fn asked again (false) -> timeout -> fn true -> stop
    assert [p.rsplit("-", 1)[1] for p in got] == ["5"]
    assert len(calls) == 3
