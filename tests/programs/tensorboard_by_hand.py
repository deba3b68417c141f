"""Logistic regression on the scikit-learn digits with TensorBoard scalars and histograms written by hand
(tf.Summary / Summary.Value / HistogramProto + FileWriter), then read back with tf.train.summary_iterator."""
# tolerance: {"test_accuracy": 0.01, "last_logged_loss": 0.001, "last_logged_accuracy": 0.01}
import json
import os

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

digits = load_digits()
x_train, x_test, y_train, y_test = train_test_split((digits.data / 16.0).astype(np.float32), digits.target,
                                                    test_size=0.3, random_state=3)
rng = np.random.RandomState(3)

x = tf.placeholder(tf.float32, [None, 64], name="x")
y = tf.placeholder(tf.int64, [None], name="y")
W = tf.Variable(tf.zeros([64, 10]), name="W")
b = tf.Variable(tf.zeros([10]), name="b")
logits = tf.matmul(x, W) + b
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)


def histogram_proto(values, bins=10):
    counts, edges = np.histogram(values, bins=bins)
    return tf.HistogramProto(min=float(values.min()), max=float(values.max()), num=float(values.size),
                             sum=float(values.sum()), sum_squares=float((values ** 2).sum()),
                             bucket_limit=[float(e) for e in edges[1:]], bucket=[float(c) for c in counts])


logdir = os.path.join("logs", "run1")
writer = tf.summary.FileWriter(logdir)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    writer.add_graph(sess.graph)
    for step in range(1, 151):
        idx = rng.randint(0, len(x_train), 64)
        _, loss_value = sess.run([train_op, loss], {x: x_train[idx], y: y_train[idx]})
        if step % 10 == 0:
            acc_value = sess.run(accuracy, {x: x_test, y: y_test})
            summary = tf.Summary(value=[tf.Summary.Value(tag="train/loss", simple_value=loss_value),
                                        tf.Summary.Value(tag="test/accuracy", simple_value=acc_value)])
            writer.add_summary(summary, step)
            weights = sess.run(W)
            writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="W", histo=histogram_proto(weights))]), step)
    writer.add_session_log(tf.SessionLog(status=tf.SessionLog.STOP), 150)
    test_accuracy = sess.run(accuracy, {x: x_test, y: y_test})
writer.close()

scalars, histograms, stops, graphs = {}, 0, 0, 0
for name in sorted(os.listdir(logdir)):
    for event in tf.train.summary_iterator(os.path.join(logdir, name)):
        if event.HasField("graph_def"):
            graphs += 1
        if event.HasField("session_log") and event.session_log.status == tf.SessionLog.STOP:
            stops += 1
        for value in event.summary.value:
            if value.HasField("histo"):
                histograms += 1
            elif value.HasField("simple_value"):
                scalars.setdefault(value.tag, []).append((event.step, value.simple_value))

print("RESULT " + json.dumps({
    "test_accuracy": float(test_accuracy),
    "scalar_events": {tag: len(points) for tag, points in sorted(scalars.items())},
    "last_logged_loss": scalars["train/loss"][-1][1],
    "last_logged_accuracy": scalars["test/accuracy"][-1][1],
    "histogram_events": histograms, "stop_events": stops, "graph_events": graphs,
}))
