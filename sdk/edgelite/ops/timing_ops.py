"""tf.timestamp: the wall-clock time in seconds (float64) when the op runs."""
from __future__ import annotations

import time
from typing import Any, Optional

import numpy as np

from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op

register_op("Timestamp", inputs=[], outputs=["ts: float64"], kernel=lambda ctx: np.float64(time.time()),
            shape_fn=lambda op: [[]], stateful=True)


def timestamp(name: Optional[str] = None) -> Any:
    """A float64 scalar: seconds since the Unix epoch, read each time the op runs."""
    return ops.apply_op("Timestamp", [], name=name)
