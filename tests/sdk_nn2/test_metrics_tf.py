"""tf.metrics against TensorFlow: variable names/shapes/collections, tensor names, and value/update results over
several update batches (tests/sdk_nn2/fixtures/metrics.json)."""
import numpy as np
import pytest

import edgelite as tf

from . import metrics_cases as mc
from .fixtures_util import load_json

RECORD = load_json("metrics")


def _close(actual, expected, what):
    np.testing.assert_allclose(np.asarray(actual, np.float64), np.asarray(expected, np.float64), rtol=2e-6,
                               atol=1e-6, equal_nan=True, err_msg=what)


@pytest.mark.parametrize("name,feeds,build", mc.METRIC_CASES, ids=[c[0] for c in mc.METRIC_CASES])
def test_metric_matches_tensorflow(name, feeds, build):
    rec = RECORD["cases"][name]
    with tf.Graph().as_default():
        ph = {k: tf.placeholder(tf.as_dtype(d), s, name=k) for k, (d, s, _) in feeds.items()}
        value, update = build(tf, ph)
        assert [[v.name, v.shape.as_list(), v.dtype.base_dtype.name] for v in tf.local_variables()] == \
            rec["local_variables"]
        assert [v.name for v in tf.get_collection(tf.GraphKeys.METRIC_VARIABLES)] == rec["metric_variables"]
        assert [v.name for v in tf.global_variables()] == rec["global_variables"]
        assert (value.name, update.name) == (rec["value_name"], rec["update_name"])
        assert {c: [t.name for t in tf.get_collection(c)] for c in ("m", "u")} == rec["collections"]
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            _close(sess.run(value), rec["initial"], f"{name} initial")
            for step, want in enumerate(rec["steps"]):
                data = mc.batch_data(name, feeds, step)
                _close(sess.run(update, {ph[k]: v for k, v in data.items()}), want["update"], f"{name} update {step}")
                _close(sess.run(value), want["value"], f"{name} value {step}")


@pytest.mark.parametrize("name,build", mc.ERROR_CASES, ids=[c[0] for c in mc.ERROR_CASES])
def test_metric_errors_match_tensorflow(name, build):
    rec = RECORD["errors"][name]
    with tf.Graph().as_default():
        with pytest.raises(Exception) as info:
            update = build(tf)
            if not isinstance(update, tuple):
                with tf.Session() as sess:
                    sess.run(tf.local_variables_initializer())
                    sess.run(update)
    assert type(info.value).__name__ == rec["type"]
    text = getattr(info.value, "message", str(info.value))
    if rec["type"] == "InvalidArgumentError":
        # a failed assertion (static or at run time): the message and the condition must match; TF's text then
        # names graph tensors and the failing node
        assert text.split("x (")[0] == rec["message"].split("x (")[0]
        return
    # TF appends the tensors' reprs after "Received"; the rest of the text is compared exactly
    assert text.split(" Received")[0] == rec["message"].split(" Received")[0]


def test_names_of_several_metrics_in_scopes_match_tensorflow():
    with tf.Graph().as_default():
        local_variables, tensors = mc.build_many(tf)
    assert local_variables == RECORD["many"]["local_variables"]
    assert tensors == RECORD["many"]["tensors"]
