"""tf.compat.v1.train.warm_start: which variables are initialized from the checkpoint, renames, errors."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf
from edgelite import train
from edgelite.ops import variable_scope as vs


def _checkpoint(tmp_path):
    """A checkpoint with dense/kernel, dense/bias, old/emb and a non-trainable counter; returns (path, values)."""
    rng = np.random.default_rng(4)
    values = {"dense/kernel": rng.standard_normal((3, 2)).astype(np.float32),
              "dense/bias": rng.standard_normal(2).astype(np.float32),
              "old/emb": rng.standard_normal((4, 2)).astype(np.float32),
              "counter": np.int64(41)}
    with tf.Graph().as_default():
        for name, value in values.items():
            vs.get_variable(name, initializer=value, trainable=name != "counter")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            path = train.Saver().save(sess, str(tmp_path / "warm"), write_meta_graph=False)
    return path, values


def _fresh_model():
    return {"dense/kernel": vs.get_variable("dense/kernel", shape=[3, 2], initializer=tf.zeros_initializer()),
            "dense/bias": vs.get_variable("dense/bias", shape=[2], initializer=tf.zeros_initializer()),
            "new/emb": vs.get_variable("new/emb", shape=[4, 2], initializer=tf.zeros_initializer()),
            "counter": vs.get_variable("counter", shape=[], dtype=tf.int64, initializer=tf.zeros_initializer(),
                                       trainable=False)}


def _initialized(model):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {k: sess.run(v) for k, v in model.items()}


def test_regex_selects_trainable_variables_only(tmp_path):
    path, values = _checkpoint(tmp_path)
    with tf.Graph().as_default():
        model = _fresh_model()
        train.warm_start(path, vars_to_warm_start="dense/.*")
        got = _initialized(model)
    np.testing.assert_array_equal(got["dense/kernel"], values["dense/kernel"])
    np.testing.assert_array_equal(got["dense/bias"], values["dense/bias"])
    assert not got["new/emb"].any() and got["counter"] == 0


def test_list_of_scopes_uses_global_variables_and_renames(tmp_path):
    path, values = _checkpoint(tmp_path)
    with tf.Graph().as_default():
        model = _fresh_model()
        train.warm_start(str(tmp_path), vars_to_warm_start=["counter", "new/"],
                         var_name_to_prev_var_name={"new/emb": "old/emb"})
        got = _initialized(model)
    assert got["counter"] == 41
    np.testing.assert_array_equal(got["new/emb"], values["old/emb"])
    assert not got["dense/kernel"].any()


def test_list_of_variables(tmp_path):
    path, values = _checkpoint(tmp_path)
    with tf.Graph().as_default():
        model = _fresh_model()
        train.warm_start(path, vars_to_warm_start=[model["dense/bias"]])
        got = _initialized(model)
    np.testing.assert_array_equal(got["dense/bias"], values["dense/bias"])
    assert not got["dense/kernel"].any()


def test_none_warm_starts_nothing(tmp_path):
    path, _ = _checkpoint(tmp_path)
    with tf.Graph().as_default():
        model = _fresh_model()
        train.warm_start(path, vars_to_warm_start=None)
        got = _initialized(model)
    assert not any(np.any(v) for v in got.values())


def test_errors(tmp_path):
    path, _ = _checkpoint(tmp_path)
    with tf.Graph().as_default():
        model = _fresh_model()
        with pytest.raises(ValueError, match="var_name_to_prev_var_name that were not used: {'nope'}"):
            train.warm_start(path, "dense/.*", var_name_to_prev_var_name={"nope": "dense/bias"})
        with pytest.raises(ValueError, match="must be all `Variable` or all `str`"):
            train.warm_start(path, vars_to_warm_start=["dense/", model["counter"]])
        with pytest.raises(ValueError, match="must be a `list` or `str`"):
            train.warm_start(path, vars_to_warm_start=3)
        with pytest.raises(ValueError, match="var_name_to_vocab_info is not supported"):
            train.warm_start(path, var_name_to_vocab_info={"new/emb": object()})
        with pytest.raises(ValueError, match="Tensor new/emb is not found"):
            train.warm_start(path, vars_to_warm_start="new/")
