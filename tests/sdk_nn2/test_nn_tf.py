"""tf.nn ops of tests/sdk_nn2/nn_cases.py against TensorFlow 2.21 recordings: values, gradients of
sum(output * gy) for every float input, in float32 and float64; errors' types and messages."""
import numpy as np
import pytest

import edgelite as tf

from . import nn_cases
from .fixtures_util import FIXTURES, load_json

ARRAYS = np.load(FIXTURES / "nn_ops.npz")
ERRORS = load_json("nn_errors")


def _close(actual, expected, what):
    expected = np.asarray(expected)
    rtol = 1e-10 if expected.dtype == np.float64 else 2e-5
    scale = max(1.0, float(np.max(np.abs(expected)))) if expected.size else 1.0
    assert np.shape(actual) == expected.shape, f"{what}: shape {np.shape(actual)} != {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * scale, err_msg=what)


CASES = [(c, np.float32) for c in nn_cases.OP_CASES + nn_cases.F32_CASES] + \
    [(c, np.float64) for c in nn_cases.OP_CASES]


@pytest.mark.parametrize("case,dtype", CASES, ids=[f"{c[0]}-{np.dtype(d).name}" for c, d in CASES])
def test_op_matches_tensorflow(case, dtype):
    name, fn, specs = case
    key = f"{np.dtype(dtype).name}/{name}"
    inputs = [ARRAYS[f"{key}/in{i}"] for i in range(len(specs))]
    with tf.Graph().as_default():
        phs = [tf.placeholder(dtype, x.shape) for x in inputs]
        outs = fn(tf, *phs)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        with tf.Session() as sess:
            feed = dict(zip(phs, inputs))
            vals = sess.run(outs, feed)
            for i, v in enumerate(vals):
                want = ARRAYS[f"{key}/out{i}"]
                assert np.asarray(v).dtype == want.dtype, f"{key} out{i} dtype"
                _close(v, want, f"{key} out{i}")
            gys = [ARRAYS[f"{key}/gy{i}"] for i in range(len(outs))]
            terms = [tf.reduce_sum(o * gy) for o, gy in zip(outs, gys) if o.dtype == dtype]
            if phs and terms:
                loss = tf.add_n(terms)
                grads = [tf.convert_to_tensor(g) if g is not None else tf.zeros_like(p)
                         for g, p in zip(tf.gradients(loss, phs), phs)]
                for i, g in enumerate(sess.run(grads, feed)):
                    _close(g, ARRAYS[f"{key}/grad{i}"], f"{key} grad{i}")


@pytest.mark.parametrize("name,at_run,fn", nn_cases.ERROR_CASES, ids=[c[0] for c in nn_cases.ERROR_CASES])
def test_error_matches_tensorflow(name, at_run, fn):
    rec = ERRORS[name]
    if rec["type"] is None:  # TensorFlow accepts this input: so must edgelite
        with tf.Graph().as_default():
            result = fn(tf)
            with tf.Session() as sess:
                sess.run(result)
        return
    with tf.Graph().as_default():
        with pytest.raises(Exception) as info:
            result = fn(tf)
            with tf.Session() as sess:
                sess.run(result)
    assert type(info.value).__name__ == rec["type"]
    text = getattr(info.value, "message", str(info.value))
    # TF prints the failing NodeDef after "for"; edgelite names the node and op instead
    assert rec["message"].split(" for '")[0] in text
