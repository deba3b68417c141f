"""RaggedTensors through tf.data (sources, map with RaggedFeature parsing, batch, unbatch), shared by the
TensorFlow fixture generator and the edgelite tests (recorded into fixtures/tf_ragged.json under "datasets")."""
from __future__ import annotations

from . import result_codec
from .ragged_parse_cases import _feature, _records, _seq_records, _seq_specs


def _rt(tf):
    return tf.RaggedTensor.from_row_splits([1, 2, 3, 4, 5], [0, 2, 2, 5])


def _rt2(tf):
    return tf.RaggedTensor.from_nested_row_lengths([1.5, 2.5, 3.5, 4.5], [[2, 0, 1], [1, 0, 3]])


def _parse_batched(tf, name):
    return tf.data.Dataset.from_tensor_slices(_records(tf)).batch(2).map(
        lambda r: tf.io.parse_example(r, {"r": _feature(tf, name), "v": _feature(tf, "plain")}))


def _parse_single_then_batch(tf):
    return tf.data.Dataset.from_tensor_slices(_records(tf)).map(
        lambda r: tf.io.parse_single_example(r, {"r": _feature(tf, "rowids"), "n": _feature(tf, "nested")})).batch(2)


def _parse_sequences(tf):
    """The ragged results of parse_single_sequence_example, batched (its dense "cv" rows differ in length)."""
    def parse(r):
        context, lists = tf.io.parse_single_sequence_example(r, *_seq_specs(tf))
        return context["c"], lists["s"], lists["sv"]
    return tf.data.Dataset.from_tensor_slices(_seq_records(tf)).map(parse).batch(2)


def _ragged_arg(tf):
    """A map function taking a ragged component and returning dense and ragged results."""
    return tf.data.Dataset.from_tensor_slices(_rt2(tf)).map(
        lambda x: {"dense": x.to_tensor(-1.0), "rows": x.row_lengths(), "same": x})


CASES = [
    ("slices", lambda tf: tf.data.Dataset.from_tensor_slices(_rt(tf))),
    ("slices_batch", lambda tf: tf.data.Dataset.from_tensor_slices(_rt(tf)).batch(2)),
    ("slices_nested_batch", lambda tf: tf.data.Dataset.from_tensor_slices(_rt2(tf)).batch(2, drop_remainder=True)),
    ("from_tensors", lambda tf: tf.data.Dataset.from_tensors((_rt(tf), tf.constant(7)))),
    ("from_tensors_unbatch", lambda tf: tf.data.Dataset.from_tensors(_rt2(tf)).unbatch()),
    ("map_batch_unbatch", lambda tf: tf.data.Dataset.range(4).map(
        lambda x: tf.RaggedTensor.from_row_lengths(tf.range(x * 2), [x, x])).batch(3).unbatch()),
    ("map_ragged_arg", _ragged_arg),
    ("parse_batched_lengths", lambda tf: _parse_batched(tf, "lengths")),
    ("parse_batched_nested", lambda tf: _parse_batched(tf, "nested")),
    ("parse_batched_uniform", lambda tf: _parse_batched(tf, "uniform")),
    ("parse_single_then_batch", _parse_single_then_batch),
    ("parse_sequences", _parse_sequences),
]


def run(tf, fn) -> dict:
    """result_codec.run_dataset plus the element_spec's text (RaggedTensorSpecs included)."""
    g = tf.Graph()
    with g.as_default():
        spec = [repr(s) for s in tf.nest.flatten(fn(tf).element_spec)]
    out = result_codec.run_dataset(tf, fn)
    out["spec"] = spec
    return out
