"""The small model the MetaGraphDef tests export and import (the one generate_tf_meta_graph.py builds in TF)."""
from __future__ import annotations

import numpy as np

import edgelite as tf
from edgelite import train


def build(rng: np.random.Generator) -> dict:
    """y = relu(x W1 + b1) W2 + b2, mean-squared loss, gradient descent with a global step, user collections."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    t = tf.placeholder(tf.float32, [None, 2], name="t")
    w1 = tf.Variable(rng.standard_normal((3, 4)).astype(np.float32), name="w1")
    b1 = tf.Variable(np.zeros(4, np.float32), name="b1")
    w2 = tf.Variable(rng.standard_normal((4, 2)).astype(np.float32), name="w2")
    b2 = tf.Variable(np.array([0.5, -0.5], np.float32), name="b2")
    frozen = tf.Variable(np.float32(3.0), name="frozen", trainable=False)
    step = train.get_or_create_global_step()
    h = tf.nn.relu(tf.matmul(x, w1) + b1, name="h")
    y = tf.add(tf.matmul(h, w2), b2 * frozen / 3.0, name="y")
    loss = tf.reduce_mean(tf.square(y - t), name="loss")
    train_op = train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step, name="train")
    tf.add_to_collection("train_op", train_op)
    tf.add_to_collection("outputs", y)
    tf.add_to_collection("outputs", loss)
    tf.add_to_collection("labels", "first")
    tf.add_to_collection("labels", "second")
    tf.add_to_collection("sizes", 3)
    tf.add_to_collection("sizes", 7)
    tf.add_to_collection("rates", 0.25)
    return {"x": x, "t": t, "y": y, "loss": loss, "train": train_op, "step": step}
