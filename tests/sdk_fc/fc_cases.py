"""Feature-column cases shared by the TensorFlow fixture generator and the edgelite tests.

Each case is (name, kind, features, build): features maps a key to a dense array or to a sparse triple
("sparse", indices, values, dense_shape); build(fc) returns the feature columns (fc is tf.feature_column).
kind is "input_layer", "linear_model" (units 1) or "linear_model_mean" / "linear_model_sqrtn" / "linear_model_u3"
(sparse_combiner / units). run_case builds the graph, gives every variable fixed values derived from its
name (so weights are identical on both sides without initializers), and returns the output, the variable
names/shapes and, for a failure, the error type and message.
"""
from __future__ import annotations

import zlib

import numpy as np

VOCAB_FILE_LINES = ["alpha", "beta", "gamma", "delta"]

F = np.array([[1.5], [-2.0], [0.25], [7.0]], np.float32)
F2 = np.array([[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5], [0.0, 9.0]], np.float32)
S = np.array([["beta"], ["zeta"], ["alpha"], [""]], object)
S2 = np.array([["beta", "gamma"], ["zeta", ""], ["alpha", "alpha"], ["", ""]], object)
I = np.array([[1], [3], [0], [2]], np.int64)
I2 = np.array([[1, 2], [3, -1], [0, 0], [-1, -1]], np.int64)
SP_S = ("sparse", [[0, 0], [0, 1], [1, 0], [3, 0]], np.array(["gamma", "omega", "beta", "alpha"], object), [4, 2])
SP_I = ("sparse", [[0, 0], [1, 0], [1, 1], [2, 0]], np.array([4, 0, 2, 1], np.int64), [4, 2])
W = ("sparse", [[0, 0], [1, 0], [1, 1], [2, 0]], np.array([0.5, 2.0, -1.0, 3.0], np.float32), [4, 2])
# weights beside I2's ids and S2's strings, 0 (dropped like the -1 / '' they sit beside) where those are missing
W2 = np.array([[0.5, 1.5], [2.0, 0.0], [0.25, 4.0], [0.0, 0.0]], np.float32)
W2S = np.array([[1.5, -2.0], [0.75, 0.0], [2.0, 0.5], [0.0, 0.0]], np.float32)


def _vocab(fc, key="s", **kw):
    return fc.categorical_column_with_vocabulary_list(key, ["alpha", "beta", "gamma"], **kw)


CASES = [
    ("numeric", "input_layer", {"f": F}, lambda fc: [fc.numeric_column("f")]),
    ("numeric_shape2", "input_layer", {"f2": F2}, lambda fc: [fc.numeric_column("f2", shape=(2,))]),
    ("numeric_rank1", "input_layer", {"f": F[:, 0]}, lambda fc: [fc.numeric_column("f")]),
    ("numeric_int_input", "input_layer", {"i": I}, lambda fc: [fc.numeric_column("i")]),
    ("numeric_normalizer", "input_layer", {"f": F},
     lambda fc: [fc.numeric_column("f", normalizer_fn=lambda x: x * 2.0 - 1.0)]),
    ("two_numeric_sorted", "input_layer", {"f": F, "f2": F2},
     lambda fc: [fc.numeric_column("f2", shape=2), fc.numeric_column("f")]),
    ("bucketized", "input_layer", {"f": F},
     lambda fc: [fc.bucketized_column(fc.numeric_column("f"), [-1.0, 0.5, 2.0])]),
    ("bucketized_shape2", "input_layer", {"f2": F2},
     lambda fc: [fc.bucketized_column(fc.numeric_column("f2", shape=2), [0.0, 2.5])]),
    ("indicator_identity", "input_layer", {"i": I},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_identity("i", 4))]),
    ("indicator_identity_multi", "input_layer", {"i2": I2},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_identity("i2", 4))]),
    ("indicator_identity_sparse", "input_layer", {"i": SP_I},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_identity("i", 5))]),
    ("indicator_identity_default", "input_layer", {"i": SP_I},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_identity("i", 3, default_value=0))]),
    ("identity_out_of_range", "input_layer", {"i": SP_I},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_identity("i", 3))]),
    ("indicator_hash", "input_layer", {"s": S2},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_hash_bucket("s", 7))]),
    ("indicator_hash_int", "input_layer", {"i2": I2},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_hash_bucket("i2", 5, dtype="int64"))]),
    ("indicator_vocab", "input_layer", {"s": S2}, lambda fc: [fc.indicator_column(_vocab(fc))]),
    ("indicator_vocab_oov", "input_layer", {"s": S2},
     lambda fc: [fc.indicator_column(_vocab(fc, num_oov_buckets=3))]),
    ("indicator_vocab_default", "input_layer", {"s": SP_S},
     lambda fc: [fc.indicator_column(_vocab(fc, default_value=1))]),
    ("indicator_vocab_int", "input_layer", {"i2": I2},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_vocabulary_list("i2", [3, 1, 0], dtype="int64"))]),
    ("indicator_vocab_file", "input_layer", {"s": S2},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_vocabulary_file("s", "VOCAB", num_oov_buckets=2))]),
    ("indicator_vocab_file_size", "input_layer", {"s": SP_S},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_vocabulary_file("s", "VOCAB", vocabulary_size=2))]),
    ("indicator_crossed", "input_layer", {"s": S2, "i2": I2},
     lambda fc: [fc.indicator_column(fc.crossed_column(["s", "i2"], 11))]),
    ("indicator_crossed_columns", "input_layer", {"s": S, "f": F},
     lambda fc: [fc.indicator_column(fc.crossed_column(
         [fc.bucketized_column(fc.numeric_column("f"), [0.0, 1.0]), _vocab(fc)], 13, hash_key=7))]),
    ("embedding_mean", "input_layer", {"s": S2},
     lambda fc: [fc.embedding_column(_vocab(fc, num_oov_buckets=1), 3)]),
    ("embedding_sum", "input_layer", {"i": SP_I},
     lambda fc: [fc.embedding_column(fc.categorical_column_with_identity("i", 5), 2, combiner="sum")]),
    ("embedding_sqrtn", "input_layer", {"i2": I2},
     lambda fc: [fc.embedding_column(fc.categorical_column_with_identity("i2", 4), 2, combiner="sqrtn")]),
    ("embedding_max_norm", "input_layer", {"i2": I2},
     lambda fc: [fc.embedding_column(fc.categorical_column_with_identity("i2", 4), 3, max_norm=0.5)]),
    ("embedding_weighted", "input_layer", {"i": SP_I, "w": W},
     lambda fc: [fc.embedding_column(fc.weighted_categorical_column(
         fc.categorical_column_with_identity("i", 5), "w"), 2, combiner="sum")]),
    # weights summed per id (the repeated id 0 in row 2 of I2 adds its two weights), rows without ids all zero
    ("indicator_weighted", "input_layer", {"i": SP_I, "w": W},
     lambda fc: [fc.indicator_column(fc.weighted_categorical_column(fc.categorical_column_with_identity("i", 5),
                                                                    "w"))]),
    ("indicator_weighted_dense", "input_layer", {"i2": I2, "w2": W2},
     lambda fc: [fc.indicator_column(fc.weighted_categorical_column(fc.categorical_column_with_identity("i2", 4),
                                                                    "w2"))]),
    ("indicator_weighted_vocab", "input_layer", {"s": S2, "w2": W2S},
     lambda fc: [fc.indicator_column(fc.weighted_categorical_column(_vocab(fc, num_oov_buckets=2), "w2"))]),
    ("indicator_weighted_with_numeric", "input_layer", {"i": SP_I, "w": W, "f": F},
     lambda fc: [fc.numeric_column("f"), fc.indicator_column(fc.weighted_categorical_column(
         fc.categorical_column_with_identity("i", 5), "w"))]),
    ("mixed_input_layer", "input_layer", {"f": F, "s": S2, "i": I},
     lambda fc: [fc.numeric_column("f"), fc.embedding_column(_vocab(fc), 2),
                 fc.indicator_column(fc.categorical_column_with_identity("i", 4)),
                 fc.bucketized_column(fc.numeric_column("f"), [0.0])]),
    ("shared_embedding", "input_layer", {"i": SP_I, "i2": I2},
     lambda fc: fc.shared_embedding_columns([fc.categorical_column_with_identity("i2", 5),
                                             fc.categorical_column_with_identity("i", 5)], 3, combiner="sqrtn")),
    ("shared_embedding_named", "input_layer", {"i": I, "i2": I2},
     lambda fc: fc.shared_embedding_columns([fc.categorical_column_with_identity("i", 4),
                                             fc.categorical_column_with_identity("i2", 4)], 2,
                                            shared_embedding_collection_name="shared")),
    ("shared_embedding_buckets_differ", "input_layer", {"i": I},
     lambda fc: fc.shared_embedding_columns([fc.categorical_column_with_identity("i", 4),
                                             fc.categorical_column_with_identity("j", 5)], 2)),
    ("categorical_in_input_layer", "input_layer", {"i": I}, lambda fc: [fc.categorical_column_with_identity("i", 4)]),
    ("bucketize_unsorted", "input_layer", {"f": F},
     lambda fc: [fc.bucketized_column(fc.numeric_column("f"), [1.0, 0.0])]),
    ("hash_bucket_zero", "input_layer", {"s": S},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_hash_bucket("s", 0))]),
    ("vocab_oov_and_default", "input_layer", {"s": S},
     lambda fc: [fc.indicator_column(_vocab(fc, num_oov_buckets=1, default_value=2))]),
    ("hash_dtype_mismatch", "input_layer", {"s": I},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_hash_bucket("s", 5))]),
    ("identity_on_strings", "input_layer", {"s": S},
     lambda fc: [fc.indicator_column(fc.categorical_column_with_identity("s", 5))]),
    ("numeric_on_sparse", "input_layer", {"i": SP_I}, lambda fc: [fc.numeric_column("i")]),
    ("missing_feature", "input_layer", {"f": F}, lambda fc: [fc.numeric_column("g")]),
    ("linear_shared_embedding", "linear_model", {"i": SP_I, "i2": I2},
     lambda fc: fc.shared_embedding_columns([fc.categorical_column_with_identity("i2", 5),
                                             fc.categorical_column_with_identity("i", 5)], 2)),
    ("sequence_indicator_refused", "input_layer", {"i2": I2},
     lambda fc: [fc.indicator_column(fc.sequence_categorical_column_with_identity("i2", 4))]),
    ("sequence_embedding_refused", "input_layer", {"s": S2},
     lambda fc: [fc.embedding_column(fc.sequence_categorical_column_with_vocabulary_list("s", ["alpha", "beta"]), 2)]),
    ("sequence_indicator_refused_linear", "linear_model", {"i2": I2},
     lambda fc: [fc.indicator_column(fc.sequence_categorical_column_with_hash_bucket("i2", 4, dtype="int64"))]),
    ("linear_sequence_categorical", "linear_model", {"i2": I2, "s": S2, "i": SP_I},
     lambda fc: [fc.sequence_categorical_column_with_identity("i2", 4),
                 fc.sequence_categorical_column_with_vocabulary_file("s", "VOCAB", num_oov_buckets=1),
                 fc.sequence_categorical_column_with_hash_bucket("i", 5, dtype="int64")]),
    ("linear_numeric", "linear_model", {"f": F, "f2": F2},
     lambda fc: [fc.numeric_column("f"), fc.numeric_column("f2", shape=2)]),
    ("linear_bucketized", "linear_model", {"f": F},
     lambda fc: [fc.bucketized_column(fc.numeric_column("f"), [-1.0, 0.5, 2.0])]),
    ("linear_categorical", "linear_model", {"s": S2, "i": SP_I},
     lambda fc: [_vocab(fc, num_oov_buckets=2), fc.categorical_column_with_identity("i", 5)]),
    ("linear_hash_crossed", "linear_model", {"s": S2, "i2": I2},
     lambda fc: [fc.categorical_column_with_hash_bucket("s", 6), fc.crossed_column(["s", "i2"], 9)]),
    ("linear_weighted", "linear_model", {"i": SP_I, "w": W},
     lambda fc: [fc.weighted_categorical_column(fc.categorical_column_with_identity("i", 5), "w")]),
    ("linear_mean", "linear_model_mean", {"s": S2, "f": F},
     lambda fc: [_vocab(fc, num_oov_buckets=1), fc.numeric_column("f")]),
    ("linear_sqrtn", "linear_model_sqrtn", {"i2": I2},
     lambda fc: [fc.categorical_column_with_identity("i2", 4)]),
    ("linear_units3", "linear_model_u3", {"f": F, "s": S2},
     lambda fc: [fc.numeric_column("f"), _vocab(fc), fc.indicator_column(_vocab(fc))]),
]

SPEC_CASES = [
    ("spec_numeric", lambda fc: [fc.numeric_column("f", shape=(2,), default_value=(1.0, 2.0))]),
    ("spec_mixed", lambda fc: [fc.numeric_column("f"), _vocab(fc), fc.categorical_column_with_identity("i", 4),
                               fc.embedding_column(fc.categorical_column_with_hash_bucket("h", 10), 3),
                               fc.crossed_column(["a", fc.categorical_column_with_identity("b", 3)], 5)]),
    ("spec_sequence", lambda fc: [fc.sequence_categorical_column_with_identity("i", 4),
                                  fc.sequence_categorical_column_with_vocabulary_list("v", ["a", "b"]),
                                  fc.sequence_categorical_column_with_hash_bucket("h", 3, dtype="int32")]),
    ("spec_weighted", lambda fc: [fc.weighted_categorical_column(fc.categorical_column_with_identity("i", 5), "w"),
                                  fc.bucketized_column(fc.numeric_column("n", dtype="int64"), [1, 2])]),
]


def var_value(name: str, shape: list) -> np.ndarray:
    """A fixed value for a variable, derived from its name only."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)


def make_features(tf, features: dict) -> dict:
    """Constant feature tensors (SparseTensors for sparse triples)."""
    out = {}
    for key, value in features.items():
        if isinstance(value, tuple):
            _, idx, vals, shape = value
            out[key] = tf.SparseTensor(np.array(idx, np.int64), tf.constant(vals), np.array(shape, np.int64))
        else:
            out[key] = tf.constant(value)
    return out


def run_case(tf, case: tuple, vocab_path: str) -> dict:
    """Build and run one case under tf (tensorflow.compat.v1 or edgelite)."""
    name, kind, features, build = case
    fc = tf.feature_column
    graph = tf.Graph()
    with graph.as_default():
        try:
            columns = build(_ColumnsModule(tf, vocab_path))
            feats = make_features(tf, features)
            if kind == "input_layer":
                out = fc.input_layer(feats, columns)
            else:
                combiner = {"linear_model_mean": "mean", "linear_model_sqrtn": "sqrtn"}.get(kind, "sum")
                units = 3 if kind == "linear_model_u3" else 1
                out = fc.linear_model(feats, columns, units=units, sparse_combiner=combiner)
            variables = sorted(tf.global_variables(), key=lambda v: v.op.name)
            record = {"static_shape": out.shape.as_list(),
                      "variables": [[v.op.name, v.shape.as_list()] for v in variables]}
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                if hasattr(tf, "tables_initializer"):
                    sess.run(tf.tables_initializer())
                for v in variables:
                    v.load(var_value(v.op.name, v.shape.as_list()), sess)
                record["output"] = np.asarray(sess.run(out)).tolist()
        except Exception as err:  # noqa: BLE001 - the error itself is the recorded result
            return {"error": type(err).__name__, "message": str(err).split("\n")[0]}
    return record


class _ColumnsModule:
    """tf.feature_column with "VOCAB" as vocabulary_file replaced by the written vocabulary path and dtype
    names turned into the module's dtypes."""

    def __init__(self, tf, path: str) -> None:
        self._tf, self._path = tf, path

    def __getattr__(self, name: str):
        attr = getattr(self._tf.feature_column, name)

        def call(*args, **kw):
            if isinstance(kw.get("dtype"), str):
                kw["dtype"] = self._tf.as_dtype(kw["dtype"])
            if "vocabulary_file" in name:
                args = (args[0], self._path) + args[2:]
            return attr(*args, **kw)
        return call


def run_spec_case(tf, case: tuple) -> dict:
    """make_parse_example_spec of a column list, as sorted (key, kind, details) rows."""
    name, build = case
    spec = tf.feature_column.make_parse_example_spec(build(_ColumnsModule(tf, "")))
    rows = []
    for key in sorted(spec):
        item = spec[key]
        kind = type(item).__name__
        details = {"dtype": item.dtype.name}
        if kind == "FixedLenFeature":
            details["shape"] = list(item.shape)
            details["default_value"] = None if item.default_value is None else np.asarray(
                item.default_value).tolist()
        rows.append([key, kind, details])
    return {"spec": rows}
