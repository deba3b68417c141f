"""Seeded Dataset.shuffle / list_files orders, shared by the TensorFlow fixture generator and the edgelite tests
(recorded into fixtures/tf_more.json): edgelite draws from TensorFlow's Philox sequence, so the orders match."""
from __future__ import annotations


def _graph_and_op_seed(tf):
    tf.set_random_seed(7)
    return tf.data.Dataset.range(20).shuffle(6, seed=11)


DATASET_CASES = [
    ("shuffle_seed_4", lambda tf: tf.data.Dataset.range(12).shuffle(5, seed=4)),
    ("shuffle_seed_big_buffer", lambda tf: tf.data.Dataset.range(30).shuffle(100, seed=123456789)),
    ("shuffle_buffer_1", lambda tf: tf.data.Dataset.range(6).shuffle(1, seed=3)),
    ("shuffle_no_reshuffle_repeat", lambda tf: tf.data.Dataset.range(8).shuffle(
        4, seed=9, reshuffle_each_iteration=False).repeat(3)),
    ("shuffle_reshuffle_repeat", lambda tf: tf.data.Dataset.range(8).shuffle(4, seed=9).repeat(3)),
    ("shuffle_seed_zero", lambda tf: tf.data.Dataset.range(10).shuffle(10, seed=0)),
    ("shuffle_graph_and_op_seed", _graph_and_op_seed),
    ("shuffle_negative_seed", lambda tf: tf.data.Dataset.range(10).shuffle(3, seed=-5)),
    ("shuffle_batch_after", lambda tf: tf.data.Dataset.range(16).shuffle(7, seed=21).batch(5)),
    ("shuffle_then_take_repeat", lambda tf: tf.data.Dataset.range(9).shuffle(9, seed=2).take(4).repeat(2)),
    ("list_files_seeded", lambda tf: tf.data.Dataset.list_files("*.t*", seed=5)),
    ("err_shuffle_buffer_zero", lambda tf: tf.data.Dataset.range(3).shuffle(0, seed=1)),
]
