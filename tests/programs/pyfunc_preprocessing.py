"""Digits with numpy preprocessing inside the graph (tf.py_func), input checks (tf.assert_*, tf.check_numerics),
per-class statistics with segment ops (a nearest-centroid baseline from tf.unsorted_segment_mean), a softmax
classifier whose first layer is shared through tf.make_template, and tf.Print of the loss every 50 steps."""
# tolerance: {"loss": 0.0005, "train_accuracy": 0.005, "test_accuracy": 0.005, "centroid_accuracy": 0.0, "top_class_count": 2}
import json

import numpy as np
from sklearn.datasets import load_digits

import edgelite as tf

digits = load_digits()
images = digits.images.astype(np.float32)
labels = digits.target.astype(np.int64)
order = np.random.RandomState(3).permutation(len(labels))
train_idx, test_idx = order[:1400], order[1400:]


def preprocess(batch):
    """Standardise each image and add a horizontal-gradient feature map (plain numpy, run by the graph)."""
    flat = batch.reshape(len(batch), -1)
    flat = (flat - flat.mean(axis=1, keepdims=True)) / (flat.std(axis=1, keepdims=True) + 1e-6)
    grad = np.abs(np.diff(batch, axis=2)).reshape(len(batch), -1) / 16.0
    return np.concatenate([flat, grad], axis=1).astype(np.float32)


raw = tf.placeholder(tf.float32, [None, 8, 8], name="raw")
y = tf.placeholder(tf.int64, [None], name="y")
checks = [tf.assert_non_negative(raw, message="pixels"), tf.assert_less_equal(raw, 16.0),
          tf.assert_rank(raw, 3)]
with tf.control_dependencies(checks):
    features = tf.py_func(preprocess, [raw], tf.float32, stateful=False, name="preprocess")
features.set_shape([None, 64 + 56])
features = tf.check_numerics(features, "features")

centroids = tf.unsorted_segment_mean(features, y, 10)
distances = tf.reduce_sum(tf.square(tf.expand_dims(features, 1) - tf.expand_dims(centroids, 0)), axis=2)
centroid_pred = tf.argmin(distances, axis=1)

init_rng = np.random.RandomState(5)


def hidden_layer(x):
    w = tf.get_variable("w", initializer=(init_rng.randn(120, 32) * 0.1).astype(np.float32))
    b = tf.get_variable("b", initializer=np.zeros(32, np.float32))
    return tf.nn.relu(tf.matmul(x, w) + b)


shared = tf.make_template("hidden", hidden_layer)
w_out = tf.Variable((init_rng.randn(32, 10) * 0.1).astype(np.float32), name="w_out")
logits = tf.matmul(shared(features), w_out)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
loss = tf.Print(loss, [loss], message="loss: ", first_n=4)
train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
# the template reuses its variables on a second call: the same predictions again
same_again = tf.reduce_all(tf.equal(tf.argmax(tf.matmul(shared(features), w_out), 1), tf.argmax(logits, 1)))
classes, _, counts = tf.unique_with_counts(tf.argmax(logits, 1))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    train_feed = {raw: images[train_idx], y: labels[train_idx]}
    test_feed = {raw: images[test_idx], y: labels[test_idx]}
    for step in range(200):
        batch = train_idx[(step * 100) % 1400:(step * 100) % 1400 + 100]
        _, value = sess.run([train_op, loss], {raw: images[batch], y: labels[batch]})
        if step % 50 == 0:
            print("step", step, "loss", round(float(value), 4))
    final_loss, train_acc = sess.run([loss, accuracy], train_feed)
    test_acc, reused, pred_counts = sess.run([accuracy, same_again, counts], test_feed)
    centroids_value = sess.run(centroids, train_feed)
    centroid_acc = float(np.mean(sess.run(centroid_pred, {raw: images[test_idx], y: labels[test_idx],
                                                          centroids: centroids_value}) == labels[test_idx]))
    try:
        sess.run(features, {raw: -images[:2], y: labels[:2]})
        rejected = False
    except tf.errors.InvalidArgumentError:
        rejected = True

print("RESULT " + json.dumps({"loss": float(final_loss), "train_accuracy": float(train_acc),
                              "test_accuracy": float(test_acc), "centroid_accuracy": centroid_acc,
                              "template_reused": bool(reused), "rejects_negative_pixels": rejected,
                              "top_class_count": int(pred_counts.max()),
                              "variables": sorted(v.name for v in tf.global_variables())[:4]}))
