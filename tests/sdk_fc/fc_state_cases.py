"""Feature-column variable state, shared by the TensorFlow fixture generator and the edgelite test: which
collections hold the column variables, what cols_to_vars reports, trainable=False, and an embedding table
loaded from a checkpoint with ckpt_to_load_from. Each case is (name, fn(tf, directory) -> JSON-able value)."""
from __future__ import annotations

import os

import numpy as np

IDS = np.array([[0, 2], [1, -1], [3, 3]], np.int64)
TABLE = np.arange(12, dtype=np.float32).reshape(4, 3) / 4.0


def _names(variables) -> list:
    return sorted(v.op.name for v in variables)


def _collections(tf):
    fc = tf.feature_column
    feats = {"i": tf.constant(IDS), "f": tf.constant([[1.0], [2.0], [3.0]])}
    col = fc.categorical_column_with_identity("i", 4)
    fc.input_layer(feats, [fc.embedding_column(col, 2), fc.numeric_column("f")], weight_collections=["mine"])
    fc.linear_model(feats, [col, fc.numeric_column("f")])
    fc.input_layer(feats, [fc.embedding_column(col, 2, trainable=False)])
    return {key: _names(tf.get_collection(key)) for key in
            ("variables", "trainable_variables", "model_variables", "mine")}


def _cols_to_vars(tf):
    fc = tf.feature_column
    feats = {"i": tf.constant(IDS), "f": tf.constant([[1.0], [2.0], [3.0]])}
    linear = {}
    fc.linear_model(feats, [fc.categorical_column_with_identity("i", 4), fc.numeric_column("f")],
                    cols_to_vars=linear)
    dense = {}
    fc.input_layer(feats, [fc.embedding_column(fc.categorical_column_with_identity("i", 4), 2)], cols_to_vars=dense)
    named = lambda d: sorted([k if isinstance(k, str) else k.name, _names(v)] for k, v in d.items())  # noqa: E731
    return {"linear": named(linear), "input_layer": named(dense)}


def _ckpt(tf, directory):
    path = os.path.join(directory, "table.ckpt")
    with tf.Graph().as_default():
        saved = tf.get_variable("emb/table", initializer=TABLE)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver([saved]).save(sess, path)
    fc = tf.feature_column
    column = fc.embedding_column(fc.categorical_column_with_identity("i", 4), 3, combiner="sum",
                                 ckpt_to_load_from=path, tensor_name_in_ckpt="emb/table")
    out = fc.input_layer({"i": tf.constant(IDS)}, [column])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return np.asarray(sess.run(out)).tolist()


CASES = [
    ("collections", lambda tf, d: _collections(tf)),
    ("cols_to_vars", lambda tf, d: _cols_to_vars(tf)),
    ("ckpt_to_load_from", _ckpt),
]


def run(fn, tf, directory: str):
    """One case's result in a fresh graph (or the error type and message)."""
    with tf.Graph().as_default():
        try:
            return {"value": fn(tf, directory)}
        except Exception as e:  # noqa: BLE001 - the error is the recorded result
            return {"error": type(e).__name__, "message": str(e).split("\n")[0]}
