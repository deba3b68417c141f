"""A logistic-regression classifier on the scikit-learn breast-cancer data, evaluated in batches with the
streaming tf.metrics (accuracy, precision, recall, AUC) as TF1 Estimator-era evaluation loops did."""
# tolerance: {"accuracy": 0.002, "precision": 0.002, "recall": 0.002, "auc": 0.001, "pr_auc": 0.001, "mean_loss": 5e-4}
import json

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import edgelite as tf

data = load_breast_cancer()
x_train, x_test, y_train, y_test = train_test_split(data.data, data.target, test_size=0.3, random_state=0)
scaler = StandardScaler().fit(x_train)
x_train = scaler.transform(x_train).astype(np.float32)
x_test = scaler.transform(x_test).astype(np.float32)
y_train = y_train.astype(np.int64)
y_test = y_test.astype(np.int64)
n_features = x_train.shape[1]

features = tf.placeholder(tf.float32, [None, n_features], name="features")
labels = tf.placeholder(tf.int64, [None], name="labels")

with tf.variable_scope("logistic"):
    w = tf.get_variable("w", [n_features, 1], initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    logits = tf.squeeze(tf.matmul(features, w) + b, [1])
probabilities = tf.sigmoid(logits)
predicted = tf.cast(probabilities > 0.5, tf.int64)
loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.cast(labels, tf.float32), logits=logits))
train_op = tf.train.AdamOptimizer(0.01).minimize(loss)

with tf.name_scope("eval"):
    metrics = {
        "accuracy": tf.metrics.accuracy(labels, predicted),
        "precision": tf.metrics.precision(labels, predicted),
        "recall": tf.metrics.recall(labels, predicted),
        "auc": tf.metrics.auc(labels, probabilities, num_thresholds=100),
        "pr_auc": tf.metrics.auc(labels, probabilities, curve="PR", summation_method="careful_interpolation"),
        "mean_loss": tf.metrics.mean(tf.nn.sigmoid_cross_entropy_with_logits(
            labels=tf.cast(labels, tf.float32), logits=logits)),
    }
update_ops = tf.group(*[update for _, update in metrics.values()])
print("metric variables:", [v.name for v in tf.local_variables()][:6], "...")

rng = np.random.RandomState(0)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(30):
        order = rng.permutation(len(x_train))
        for start in range(0, len(order), 32):
            idx = order[start:start + 32]
            sess.run(train_op, {features: x_train[idx], labels: y_train[idx]})
        if epoch % 10 == 9:
            print("epoch %d, training loss %g" % (epoch + 1, sess.run(loss, {features: x_train, labels: y_train})))

    # one evaluation pass over the test set in batches of 25, from freshly zeroed metric variables
    sess.run(tf.local_variables_initializer())
    for start in range(0, len(x_test), 25):
        sess.run(update_ops, {features: x_test[start:start + 25], labels: y_test[start:start + 25]})
    results = {name: float(sess.run(value)) for name, (value, _) in metrics.items()}

for name, value in sorted(results.items()):
    print("%s: %g" % (name, value))
print("RESULT " + json.dumps(results))
