"""Parallel map cases (num_parallel_calls, deterministic), shared by the TensorFlow fixture generator and the
edgelite tests (recorded into fixtures/tf_more.json)."""
from __future__ import annotations

from .data_cases import _i64, _varlen, _varlen_records, ser


def _records(tf):
    return tf.data.Dataset.from_tensor_slices([ser(tf, a=("i", [1])), ser(tf, a=("i", [2])), ser(tf, a=("f", [3.0])),
                                               ser(tf, a=("i", [4]))])


DATASET_CASES = [
    ("parallel_map_order", lambda tf: tf.data.Dataset.range(20).map(lambda x: x * x, num_parallel_calls=2)),
    ("parallel_map_autotune_batch", lambda tf: tf.data.Dataset.range(10).map(
        lambda x: (x, tf.cast(x, tf.float32) / 2), num_parallel_calls=tf.data.experimental.AUTOTUNE).batch(4)),
    ("parallel_map_error_at_element", lambda tf: _records(tf).map(lambda r: tf.parse_single_example(r, _i64(tf)),
                                                                  num_parallel_calls=3)),
    ("parallel_map_sparse", lambda tf: tf.data.Dataset.from_tensor_slices(_varlen_records(tf)).map(
        lambda r: tf.parse_single_example(r, _varlen(tf)), num_parallel_calls=2).batch(2)),
    ("parallel_map_source_error", lambda tf: _records(tf).map(lambda r: tf.parse_single_example(r, _i64(tf))).map(
        lambda d: d["a"] * 2, num_parallel_calls=2)),
    ("parallel_map_nondeterministic", lambda tf: tf.data.Dataset.range(12).map(
        lambda x: x + 1, num_parallel_calls=2, deterministic=False)),
    ("err_parallel_zero", lambda tf: tf.data.Dataset.range(3).map(lambda x: x, num_parallel_calls=0)),
    ("err_parallel_negative", lambda tf: tf.data.Dataset.range(3).map(lambda x: x, num_parallel_calls=-2)),
]
