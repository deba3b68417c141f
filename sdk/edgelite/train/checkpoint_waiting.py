"""Polling a directory for new checkpoints: wait_for_new_checkpoint and checkpoints_iterator (evaluation loops)."""
from __future__ import annotations

import logging
import time
from typing import Callable, Iterator, Optional

from .checkpoint_management import latest_checkpoint

_log = logging.getLogger("edgelite")


def wait_for_new_checkpoint(checkpoint_dir: str, last_checkpoint: Optional[str] = None, seconds_to_sleep: float = 1,
                            timeout: Optional[float] = None) -> Optional[str]:
    """The newest checkpoint of checkpoint_dir once it differs from last_checkpoint; None after `timeout` seconds.

    The state file is polled every seconds_to_sleep; a sleep that would end past the deadline is not taken.
    """
    _log.info("Waiting for new checkpoint at %s", checkpoint_dir)
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last_checkpoint:
            _log.info("Found new checkpoint at %s", path)
            return path
        if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir: str, min_interval_secs: float = 0, timeout: Optional[float] = None,
                         timeout_fn: Optional[Callable[[], bool]] = None) -> Iterator[str]:
    """Yields each new latest checkpoint of checkpoint_dir as it appears, at most one per min_interval_secs.

    Only the latest checkpoint is seen when control returns here, so checkpoints written in between are
    skipped. When `timeout` seconds pass without a new one: without timeout_fn the iterator stops; otherwise
    it stops if timeout_fn() is true and waits again if false. As in TensorFlow, timeout_fn is also asked
    after each yielded checkpoint.
    """
    checkpoint_path = None
    while True:
        new_path = wait_for_new_checkpoint(checkpoint_dir, checkpoint_path, timeout=timeout)
        if new_path:
            start = time.time()
            checkpoint_path = new_path
            yield checkpoint_path
            remaining = start + min_interval_secs - time.time()
            if remaining > 0:
                time.sleep(remaining)
        elif timeout_fn is None:
            _log.info("Timed-out waiting for a checkpoint (without timeout_fn).")
            return
        if timeout_fn is not None and timeout_fn():
            _log.info("Done. No new checkpoints will be generated.")
            return
