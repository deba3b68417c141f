"""A softmax classifier in the style of the TF1 "zoo" tutorials: the labels are read as an [N, 1] float column,
one-hot encoded into an [N, 1, C] tensor and handed to softmax_cross_entropy_with_logits against [None, C]
logits, which TF accepts (each side is flattened to [-1, C] on its own); then a reshape-based variant."""
# tolerance: {"loss": 0.0001, "loss_reshaped": 0.0001, "accuracy": 0.006, "accuracy_reshaped": 0.006}
import json

import numpy as np
from sklearn.datasets import load_wine

import edgelite as tf

data = load_wine()
x_data = ((data.data - data.data.mean(0)) / data.data.std(0)).astype(np.float32)
y_data = data.target.reshape(-1, 1).astype(np.float32)
nb_classes = 3
rng = np.random.RandomState(4)

X = tf.placeholder("float", [None, 13])
Y = tf.placeholder("float", [None, 1])
W = tf.Variable(rng.normal(0.0, 0.1, (13, nb_classes)).astype(np.float32), name="weight")
b = tf.Variable(np.zeros(nb_classes, np.float32), name="bias")
logits = tf.matmul(X, W) + b

# the column's one-hot keeps the column axis: [N, 1, 3]
y_one_hot = tf.one_hot(tf.cast(Y, tf.int32), nb_classes)
cost = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_one_hot, logits=logits))
train = tf.train.GradientDescentOptimizer(learning_rate=0.1).minimize(cost)

# the tutorial's later fix: reshape the one-hot labels to [N, 3] first
y_flat = tf.reshape(y_one_hot, [-1, nb_classes])
cost_reshaped = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_flat, logits=logits))
prediction = tf.argmax(logits, 1)
accuracy = tf.reduce_mean(tf.cast(tf.equal(prediction, tf.argmax(y_flat, 1)), tf.float32))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(151):
        _, loss = sess.run([train, cost], feed_dict={X: x_data, Y: y_data})
        if step % 50 == 0:
            print(step, loss)
    acc = sess.run(accuracy, feed_dict={X: x_data, Y: y_data})
    sess.run(tf.global_variables_initializer())
    train_reshaped = tf.train.GradientDescentOptimizer(learning_rate=0.1).minimize(cost_reshaped)
    for step in range(151):
        _, loss_reshaped = sess.run([train_reshaped, cost_reshaped], feed_dict={X: x_data, Y: y_data})
    acc_reshaped = sess.run(accuracy, feed_dict={X: x_data, Y: y_data})

print("RESULT " + json.dumps({"loss": float(loss), "accuracy": float(acc), "loss_reshaped": float(loss_reshaped),
                              "accuracy_reshaped": float(acc_reshaped),
                              "one_hot_shape": y_one_hot.shape.as_list()}))
