"""SparseTensor cases through tf.data (sources, batch, unbatch) and the queue batchers, shared by the TensorFlow
fixture generator and the edgelite tests (recorded into fixtures/tf_more.json)."""
from __future__ import annotations

from .data_cases import _varlen, _varlen_records


def _sp(tf):
    return tf.SparseTensor([[0, 1], [1, 0], [2, 2]], [1, 2, 3], [3, 4])


def _sp_gaps(tf):
    """Sorted, with rows 1 and 2 empty."""
    return tf.SparseTensor([[0, 0], [0, 2], [3, 0], [3, 1]], [1.5, 2.5, 3.5, 4.5], [4, 3])


def _sp_unsorted(tf):
    """Rows out of order and row 1 empty."""
    return tf.SparseTensor([[3, 1], [0, 2], [0, 0], [3, 0]], [1.5, 2.5, 3.5, 4.5], [4, 3])


DATASET_CASES = [
    ("sparse_slices", lambda tf: tf.data.Dataset.from_tensor_slices(_sp(tf))),
    ("sparse_slices_unsorted_zip", lambda tf: tf.data.Dataset.from_tensor_slices((_sp_unsorted(tf), tf.range(4)))),
    ("sparse_from_tensors", lambda tf: tf.data.Dataset.from_tensors({"s": _sp(tf), "d": [1.0, 2.0]})),
    ("sparse_batch_unbatch", lambda tf: tf.data.Dataset.from_tensor_slices(_sp(tf)).batch(2).unbatch()),
    ("sparse_unbatch_from_tensors", lambda tf: tf.data.Dataset.from_tensors(_sp_gaps(tf)).unbatch()),
    ("err_sparse_unbatch_unsorted", lambda tf: tf.data.Dataset.from_tensors(_sp_unsorted(tf)).unbatch()),
    ("sparse_parse_unbatch", lambda tf: tf.data.Dataset.from_tensor_slices(_varlen_records(tf)).batch(2).map(
        lambda r: tf.parse_example(r, _varlen(tf))).unbatch()),
    ("sparse_slices_map_batch", lambda tf: tf.data.Dataset.from_tensor_slices(
        {"s": _sp_gaps(tf), "k": tf.range(4)}).map(lambda e: (e["s"], e["k"] * 2)).repeat(2).batch(3)),
]


def _padded_sparse(tf):
    return tf.data.Dataset.from_tensor_slices(_sp(tf)).padded_batch(2)


def _slices_scalar_sparse(tf):
    return tf.data.Dataset.from_tensor_slices(tf.SparseTensor(tf.zeros([0, 0], tf.int64), tf.zeros([0]),
                                                              tf.zeros([0], tf.int64)))


def _unbatch_leading(tf):
    return tf.data.Dataset.from_tensors((tf.constant([1, 2]), tf.constant([1, 2, 3]))).unbatch()


BUILD_ERROR_CASES = [
    ("err_padded_batch_sparse", _padded_sparse),
    ("err_slices_sparse_rank0", _slices_scalar_sparse),
    ("err_slices_scalar", lambda tf: tf.data.Dataset.from_tensor_slices(tf.constant(1))),
    ("err_unbatch_scalar", lambda tf: tf.data.Dataset.range(3).unbatch()),
    ("err_unbatch_leading_dims", _unbatch_leading),
]


def _counted_sparse(tf, x):
    """A SparseTensor [x + 1] holding 0 .. x-1 at positions 0 .. x-1 (int32 x from a producer)."""
    n = tf.cast(x, tf.int64)
    return tf.SparseTensor(tf.reshape(tf.range(n), [-1, 1]), tf.range(x), tf.reshape(n + 1, [1]))


def _producer(tf, n=5):
    return tf.train.range_input_producer(n, num_epochs=1, shuffle=False).dequeue()


def _sparse_batch(tf):
    x = _producer(tf)
    return tf.train.batch([_counted_sparse(tf, x), x], 2, allow_smaller_final_batch=True)


def _sparse_batch_many(tf):
    x = _producer(tf, 3)
    n = tf.cast(x, tf.int64)
    sp = tf.SparseTensor([[0, 0], [1, 1]], tf.stack([n, n * 10]), tf.stack([tf.constant(2, tf.int64), n + 2]))
    return tf.train.batch([sp], 3, enqueue_many=True, allow_smaller_final_batch=True)


def _sparse_batch_join(tf):
    x = _producer(tf)
    return tf.train.batch_join([[_counted_sparse(tf, x), x]], 2, allow_smaller_final_batch=True)


def _sparse_maybe_batch(tf):
    x = _producer(tf, 7)
    return tf.train.maybe_batch({"s": _counted_sparse(tf, x), "x": x}, tf.equal(x % 2, 1), 2,
                                allow_smaller_final_batch=True)


def _sparse_dynamic_pad(tf):
    x = _producer(tf)
    return tf.train.batch([_counted_sparse(tf, x), tf.fill(tf.reshape(x, [1]), x)], 2, dynamic_pad=True,
                          allow_smaller_final_batch=True)


def _sparse_parsed(tf):
    r = tf.TFRecordReader()
    _, v = r.read(tf.train.string_input_producer(["records_none.tfrecord"], num_epochs=1, shuffle=False))
    f = tf.parse_single_example(v, {"s": tf.VarLenFeature(tf.string), "i": tf.VarLenFeature(tf.int64)})
    return tf.train.batch(f, 10, allow_smaller_final_batch=True)


def _sparse_many_keep(tf):
    x = _producer(tf, 4)
    n = tf.cast(x, tf.int64)
    sp = tf.SparseTensor([[0, 0], [1, 0], [2, 1]], tf.stack([n, n + 1, n + 2]), [3, 2])
    return tf.train.maybe_batch([sp, tf.stack([x, x, x])], tf.constant([True, False, True]), 4, enqueue_many=True,
                                allow_smaller_final_batch=True)


PIPELINE_CASES = [
    ("sparse_batch", _sparse_batch),
    ("sparse_batch_many", _sparse_batch_many),
    ("sparse_batch_join", _sparse_batch_join),
    ("sparse_maybe_batch", _sparse_maybe_batch),
    ("sparse_dynamic_pad", _sparse_dynamic_pad),
    ("sparse_parsed_batch", _sparse_parsed),
    ("sparse_many_keep", _sparse_many_keep),
]
