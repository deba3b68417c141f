"""Train, checkpoint into a directory that does not exist yet (the save creates it), keep the last two
checkpoints, then restore the latest into a fresh graph from its meta graph and evaluate it."""
# tolerance: {"accuracy_before": 0.01, "accuracy_restored": 0.01}
import json
import os

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

digits = load_digits()
x_train, x_test, y_train, y_test = train_test_split((digits.data / 16.0).astype(np.float32), digits.target,
                                                    test_size=0.25, random_state=7)
rng = np.random.RandomState(7)

with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 64], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    with tf.variable_scope("model"):
        w = tf.get_variable("w", initializer=rng.normal(0, 0.05, (64, 10)).astype(np.float32))
        b = tf.get_variable("b", [10], initializer=tf.zeros_initializer())
    logits = tf.add(tf.matmul(x, w), b, name="logits")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32), name="accuracy")
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.AdamOptimizer(0.01).minimize(loss, global_step=global_step)
    saver = tf.train.Saver(max_to_keep=2)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(4):
            for _ in range(25):
                idx = rng.randint(0, len(x_train), 32)
                sess.run(train_op, {x: x_train[idx], y: y_train[idx]})
            saver.save(sess, os.path.join("checkpoints", "model.ckpt"), global_step=global_step)
        accuracy_before = sess.run(accuracy, {x: x_test, y: y_test})

latest = tf.train.latest_checkpoint("checkpoints")
kept = sorted(name for name in os.listdir("checkpoints") if name.endswith(".index"))

with tf.Graph().as_default() as graph:
    restorer = tf.train.import_meta_graph(latest + ".meta")
    with tf.Session() as sess:
        restorer.restore(sess, latest)
        accuracy_restored = sess.run(graph.get_tensor_by_name("accuracy:0"),
                                     {graph.get_tensor_by_name("x:0"): x_test,
                                      graph.get_tensor_by_name("y:0"): y_test})
        restored_step = sess.run(tf.train.get_global_step(graph))
    reader = tf.train.NewCheckpointReader(latest)
    variables = sorted(name for name in reader.get_variable_to_shape_map() if "Adam" not in name)

print("RESULT " + json.dumps({
    "accuracy_before": float(accuracy_before), "accuracy_restored": float(accuracy_restored),
    "latest": os.path.basename(latest), "kept": kept, "restored_step": int(restored_step),
    "variables": variables,
}))
