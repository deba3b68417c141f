"""flip/rot90/transpose on images of unknown rank or sizes: TF's run-time asserts and rank dispatch
(dynamic_rank_cases.py, recorded from TensorFlow 2.21)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from . import dynamic_rank_cases

RECORDED = json.loads((Path(__file__).resolve().parent / "fixtures" / "dynamic_rank.json").read_text())["cases"]


@pytest.mark.parametrize("name,fn,value,shape,how", dynamic_rank_cases.CASES,
                         ids=[c[0] for c in dynamic_rank_cases.CASES])
def test_dynamic_rank_as_tensorflow(name, fn, value, shape, how):
    want = RECORDED[name]
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, shape)
        y = fn(tf, x)
        assert (y.shape.as_list() if y.shape.ndims is not None else None) == want["static_shape"]
        if callable(how):
            got = sess.run(y, {x: value})
            np.testing.assert_array_equal(got, how(value))
            if "values" in want:  # TF's run did not hit its branch problem this time
                np.testing.assert_array_equal(got.ravel(), np.asarray(want["values"], np.float32))
        elif "error" in want:
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                sess.run(y, {x: value})
            assert type(info.value).__name__ == want["error"]
            if how == "tf":
                assert want["message"] in str(info.value)
        else:
            got = sess.run(y, {x: value})
            assert list(got.shape) == want["shape"]
            np.testing.assert_array_equal(got.ravel(), np.asarray(want["values"], np.float32))
