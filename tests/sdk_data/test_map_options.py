"""tf.data Options steer how a map runs as in TensorFlow 2.21: threading.private_threadpool_size bounds the calls
in flight, map_parallelization runs stateless Python maps in parallel and in order (fixtures/tf_map_options.json)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import edgelite as tf
from . import map_options_cases as cases

RECORDED = json.loads((Path(__file__).resolve().parent / "fixtures" / "tf_map_options.json").read_text())


@pytest.mark.parametrize("name,build", cases.CASES, ids=[c[0] for c in cases.CASES])
def test_matches_tensorflow(name, build):
    got, want = cases.run(tf, build), dict(RECORDED[name])
    if name in cases.UNORDERED:
        got.pop("in_order")
        want.pop("in_order")
    assert got == want


def test_default_pool_is_one_thread_per_usable_cpu():
    from edgelite.data.parallel_map import pool_size
    import os
    assert pool_size(tf.data.Options()) == len(os.sched_getaffinity(0))
    opts = tf.data.Options()
    opts.threading.private_threadpool_size = 0
    assert pool_size(opts) == len(os.sched_getaffinity(0))
