"""Seeded Dataset.random / experimental.RandomDataset and shuffle_and_repeat, shared by the TensorFlow fixture
generator (fixtures/generate_tf_shuffle_queues.py, into tf_shuffle_queues.json) and the edgelite tests."""
from __future__ import annotations

from .result_codec import encode


def _graph_seeded_random(tf):
    tf.set_random_seed(7)
    return tf.data.experimental.RandomDataset().take(5)


DATASET_CASES = [
    ("random_op_seed", lambda tf: tf.data.experimental.RandomDataset(5).take(6).repeat(2)),
    ("random_graph_seed", _graph_seeded_random),
    ("random_both_seeds", lambda tf: (tf.set_random_seed(4), tf.data.experimental.RandomDataset(123).take(4))[1]),
    ("random_batched", lambda tf: tf.data.experimental.RandomDataset(2**40).batch(3).take(2)),
    ("shuffle_and_repeat", lambda tf: tf.data.Dataset.range(8).apply(
        tf.data.experimental.shuffle_and_repeat(4, 3, seed=9))),
    ("shuffle_and_repeat_big_buffer", lambda tf: tf.data.Dataset.range(5).apply(
        tf.data.experimental.shuffle_and_repeat(10, 2, seed=31))),
]


def run_reinitialized(tf, build, n: int = 9, times: int = 2) -> list:
    """n elements from each of `times` initializations of one initializable iterator (TensorFlow refuses a
    one-shot iterator over a rerandomizing RandomDataset)."""
    with tf.Graph().as_default():
        it = tf.data.make_initializable_iterator(build(tf))
        nxt = it.get_next()
        out = []
        with tf.Session() as sess:
            for _ in range(times):
                sess.run(it.initializer)
                out.append([encode(sess.run(nxt)) for _ in range(n)])
    return out


REINITIALIZED_CASES = [
    ("random_rerandomized", lambda tf: tf.data.Dataset.random(seed=5, rerandomize_each_iteration=True)
     .take(3).repeat(3)),
    ("random_fixed", lambda tf: tf.data.Dataset.random(seed=5).take(3).repeat(3)),
]
