"""A Session keeps freed step buffers in the heap: reallocating one costs no new page faults."""
from __future__ import annotations

import subprocess
import sys

import pytest
from support.child_env import child_env

_FAULTS = """
import resource, numpy as np, edgelite as tf
tf.Session()
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
def step():
    # Ten 4 MiB buffers alive at once, then all freed: a step's activations and gradients in small.
    bufs = [np.ones(1 << 20, np.float32) for _ in range(10)]
    del bufs
step()
before = faults()
for _ in range(5):
    step()
print(faults() - before)
"""


def _faults(keep: str) -> int:
    out = subprocess.run([sys.executable, "-c", _FAULTS], env=child_env({"EDGELITE_KEEP_FREED_MEMORY": keep}),
                         capture_output=True, text=True, check=True, timeout=120)
    return int(out.stdout.split()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the policy sets glibc's mallopt")
def test_freed_buffers_are_reused_without_page_faults():
    kept, returned = _faults("1"), _faults("0")
    # Without the policy glibc gives the freed 40 MiB back and faults it in again each step (5 * 10240 pages).
    assert returned > 5000
    assert kept < 200
