"""tf.contrib constructs of TF1 scripts, as cases fn(tf, contrib) shared by the TensorFlow fixture generator and the
edgelite test. TensorFlow 2 has no tf.contrib: the generator passes TF 1.15's definitions of these names in core
terms (contrib.rnn re-exported tf.nn.rnn_cell and tf.nn.static_rnn; contrib.layers.flatten was tf.layers.flatten
under a 'Flatten' name scope); the edgelite test passes edgelite.contrib.
"""
from __future__ import annotations

import numpy as np


def _data(seed: int, *shape: int) -> np.ndarray:
    return np.random.RandomState(seed).uniform(-1.0, 1.0, shape).astype(np.float32)


def _run_with_weights(tf, fetches, feed):
    """Run after giving every trainable variable seeded values (sorted by name), so results do not depend on RNGs."""
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for seed, v in enumerate(sorted(tf.trainable_variables(), key=lambda v: v.op.name)):
            sess.run(v.assign(_data(100 + seed, *v.shape.as_list())))
        return sess.run(fetches, feed)


def contrib_static_lstm(tf, contrib):
    """The recurrent_network.py pattern: unstack [batch, time, features], BasicLSTMCell, static_rnn, last output."""
    x = tf.placeholder(tf.float32, [None, 3, 5])
    steps = tf.unstack(x, 3, 1)
    cell = contrib.rnn.BasicLSTMCell(4, forget_bias=1.0)
    outputs, state = contrib.rnn.static_rnn(cell, steps, dtype=tf.float32)
    vals = _run_with_weights(tf, [outputs[-1], state.c, state.h], {x: _data(1, 2, 3, 5)})
    return {"last": vals[0], "c": vals[1], "h": vals[2], "n_outputs": len(outputs),
            "variables": sorted(v.op.name for v in tf.trainable_variables())}


def contrib_static_rnn_sequence_length(tf, contrib):
    """The dynamic_rnn.py pattern: static_rnn with sequence_length (outputs past a length are zero, state frozen)."""
    x = tf.placeholder(tf.float32, [None, 4, 2])
    lengths = tf.placeholder(tf.int32, [None])
    cell = contrib.rnn.MultiRNNCell([contrib.rnn.GRUCell(3), contrib.rnn.BasicRNNCell(3)])
    outputs, state = contrib.rnn.static_rnn(cell, tf.unstack(x, 4, 1), dtype=tf.float32, sequence_length=lengths)
    vals = _run_with_weights(tf, [tf.stack(outputs), state[0], state[1]],
                             {x: _data(2, 3, 4, 2), lengths: [4, 1, 2]})
    return {"outputs": vals[0], "state0": vals[1], "state1": vals[2],
            "variables": sorted(v.op.name for v in tf.trainable_variables())}


def contrib_flatten(tf, contrib):
    """contrib.layers.flatten on a conv feature map with known and with unknown inner dimensions."""
    a = tf.placeholder(tf.float32, [None, 2, 3, 4])
    b = tf.placeholder(tf.float32, [None, None, 3])
    fa, fb = contrib.layers.flatten(a), contrib.layers.flatten(b, scope="flat_b")
    with tf.Session() as sess:
        va, vb = sess.run([fa, fb], {a: _data(3, 2, 2, 3, 4), b: _data(4, 2, 5, 3)})
    static = [[-1 if d is None else int(d) for d in t.shape.as_list()] for t in (fa, fb)]
    return {"a": va, "b": vb, "static": static}


def contrib_sequence_loss(tf, contrib):
    """seq2seq.sequence_loss with zero weights (padding) under each averaging / summing combination, and the
    gradient of the default (scalar) loss."""
    logits = tf.constant(_data(5, 2, 3, 4) * 3.0)
    targets = tf.constant([[0, 3, 1], [2, 2, 0]])
    weights = tf.constant([[1.0, 1.0, 0.0], [1.0, 0.5, 0.0]])
    loss = contrib.seq2seq.sequence_loss
    variants = {
        "default": loss(logits, targets, weights),
        "per_time": loss(logits, targets, weights, average_across_timesteps=False),
        "per_batch": loss(logits, targets, weights, average_across_batch=False),
        "none": loss(logits, targets, weights, average_across_timesteps=False, average_across_batch=False),
        "sum_both": loss(logits, targets, weights, average_across_timesteps=False, average_across_batch=False,
                         sum_over_timesteps=True, sum_over_batch=True),
        "sum_time": loss(logits, targets, weights, average_across_timesteps=False, average_across_batch=False,
                         sum_over_timesteps=True),
        "avg_time_sum_batch": loss(logits, targets, weights, average_across_batch=False, sum_over_batch=True),
    }
    variants["grad"] = tf.gradients(variants["default"], logits)[0]
    with tf.Session() as sess:
        return sess.run(variants)


def contrib_fully_connected(tf, contrib):
    """layers.fully_connected: relu by default, 'weights'/'biases' in fully_connected, fully_connected_1 ...;
    rank-3 inputs contract the last axis; activation_fn=None and a named scope; regularization losses."""
    x = tf.placeholder(tf.float32, [None, 3])
    seq = tf.placeholder(tf.float32, [2, 2, 3])
    h = contrib.layers.fully_connected(x, 4)
    out = contrib.layers.fully_connected(h, 2, activation_fn=None, scope="logits",
                                         weights_regularizer=lambda w: tf.reduce_sum(w * w))
    per_step = contrib.layers.fully_connected(seq, 5)
    vals = _run_with_weights(tf, [h, out, per_step, tf.add_n(tf.losses.get_regularization_losses())],
                             {x: _data(6, 4, 3), seq: _data(7, 2, 2, 3)})
    return {"h": vals[0], "out": vals[1], "per_step": vals[2], "reg": vals[3],
            "static": [[-1 if d is None else int(d) for d in t.shape.as_list()] for t in (h, out, per_step)],
            "variables": sorted(v.op.name for v in tf.trainable_variables())}


def _batch_norm_run(tf, out, x, training, batches, extra=()):
    """Train-mode runs on each batch (with extra fetches such as update ops), then one eval-mode run; the
    moving statistics read after each step."""
    moving = sorted((v for v in tf.global_variables() if "moving" in v.op.name), key=lambda v: v.op.name)
    results = {"variables": sorted(v.op.name for v in tf.global_variables())}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for seed, v in enumerate(sorted(tf.trainable_variables(), key=lambda v: v.op.name)):
            sess.run(v.assign(_data(200 + seed, *v.shape.as_list())))
        for step, batch in enumerate(batches):
            feed = {x: batch} if training is None else {x: batch, training: True}
            results[f"train{step}"] = sess.run([out] + list(extra), feed)[0]
            results[f"moving{step}"] = np.stack(sess.run(moving))
        feed = {x: batches[0]} if training is None else {x: batches[0], training: False}
        results["eval"] = sess.run(out, feed) if training is not None else None
    if results["eval"] is None:
        del results["eval"]
    return results


def contrib_batch_norm_fused_in_place(tf, contrib):
    """The lab-10-7 pattern: 2-D inputs, is_training a bool placeholder, updates_collections=None (moving
    statistics updated before the output is returned), scale=True, decay 0.9: TF 1.15's fused path."""
    x = tf.placeholder(tf.float32, [None, 3])
    training = tf.placeholder(tf.bool)
    out = contrib.layers.batch_norm(x, decay=0.9, scale=True, is_training=training, updates_collections=None)
    return _batch_norm_run(tf, out, x, training, [_data(8, 5, 3) * 4.0, _data(9, 5, 3) + 2.0])


def contrib_batch_norm_conv_update_ops(tf, contrib):
    """4-D inputs with the default UPDATE_OPS collection (the core layer path), run with the update ops."""
    x = tf.placeholder(tf.float32, [None, 2, 2, 3])
    training = tf.placeholder(tf.bool)
    out = contrib.layers.batch_norm(x, is_training=training, decay=0.5, scope="bn")
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    result = _batch_norm_run(tf, out, x, training, [_data(10, 4, 2, 2, 3) * 3.0, _data(11, 4, 2, 2, 3) - 1.0],
                             extra=updates)
    result["n_updates"] = len(updates)
    return result


def contrib_batch_norm_moments_collection(tf, contrib):
    """3-D inputs with updates in a collection of their own (moments + batch_normalization, biased variance)."""
    x = tf.placeholder(tf.float32, [None, 3, 2])
    out = contrib.layers.batch_norm(x, decay=0.8, center=True, scale=True, is_training=True,
                                    updates_collections="bn_updates")
    updates = tf.get_collection("bn_updates")
    result = _batch_norm_run(tf, out, x, None, [_data(12, 2, 3, 2) * 2.0, _data(13, 2, 3, 2)], extra=updates)
    result["n_updates"] = len(updates)
    return result


def contrib_conv2d_pool(tf, contrib):
    """layers.conv2d (relu and SAME by default; a strided VALID one without activation in a named scope) and
    max_pool2d / avg_pool2d over the feature map."""
    x = tf.placeholder(tf.float32, [None, 6, 6, 2])
    c = contrib.layers.conv2d(x, 3, 3)
    down = contrib.layers.conv2d(c, 2, [2, 2], stride=2, padding="VALID", activation_fn=None, scope="down")
    pooled = contrib.layers.max_pool2d(c, 2)
    averaged = contrib.layers.avg_pool2d(c, 3, stride=1, padding="SAME")
    vals = _run_with_weights(tf, [c, down, pooled, averaged], {x: _data(14, 2, 6, 6, 2)})
    return {"conv": vals[0], "down": vals[1], "max": vals[2], "avg": vals[3],
            "static": [[-1 if d is None else int(d) for d in t.shape.as_list()] for t in (c, down, pooled, averaged)],
            "variables": sorted(v.op.name for v in tf.trainable_variables())}


def contrib_legacy_sequence_loss(tf, contrib):
    """legacy_seq2seq.sequence_loss_by_example / sequence_loss over per-step lists (the PTB and char-rnn
    pattern), with a zero weight, both averaging switches, and the gradient into the logits."""
    logits = [tf.constant(_data(15 + t, 2, 4) * 2.0) for t in range(3)]
    targets = [tf.constant([1, 3]), tf.constant([0, 0]), tf.constant([2, 1])]
    weights = [tf.ones([2]), tf.constant([1.0, 0.0]), tf.constant([0.5, 1.0])]
    seq = contrib.legacy_seq2seq
    fetches = {"by_example": seq.sequence_loss_by_example(logits, targets, weights),
               "by_example_sum": seq.sequence_loss_by_example(logits, targets, weights,
                                                              average_across_timesteps=False),
               "loss": seq.sequence_loss(logits, targets, weights),
               "loss_no_batch_avg": seq.sequence_loss(logits, targets, weights, average_across_batch=False)}
    fetches["grad"] = tf.stack(tf.gradients(fetches["loss"], logits))
    with tf.Session() as sess:
        return sess.run(fetches)


CASES = [contrib_conv2d_pool, contrib_legacy_sequence_loss, contrib_batch_norm_fused_in_place, contrib_batch_norm_conv_update_ops,
         contrib_batch_norm_moments_collection, contrib_static_lstm, contrib_static_rnn_sequence_length, contrib_flatten, contrib_sequence_loss,
         contrib_fully_connected]
