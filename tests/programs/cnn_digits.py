"""A small convolutional network on the 8x8 scikit-learn digits, in the style of TF1's "Deep MNIST for experts"."""
# tolerance: {"test_accuracy": 0.015, "final_loss": 0.01}
import json

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

digits = load_digits()
images = (digits.images / 16.0).astype(np.float32)[..., None]
labels = digits.target.astype(np.int64)
x_train, x_test, y_train, y_test = train_test_split(images, labels, test_size=0.25, random_state=0)

rng = np.random.RandomState(2)


def weight_variable(shape):
    return tf.Variable(rng.normal(0, 0.1, shape).astype(np.float32))


def bias_variable(shape):
    return tf.Variable(tf.constant(0.1, shape=shape))


def conv2d(x, W):
    return tf.nn.conv2d(x, W, strides=[1, 1, 1, 1], padding="SAME")


def max_pool_2x2(x):
    return tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")


x = tf.placeholder(tf.float32, [None, 8, 8, 1])
y_ = tf.placeholder(tf.int64, [None])
keep_prob = tf.placeholder(tf.float32)

W_conv1 = weight_variable([3, 3, 1, 16])
b_conv1 = bias_variable([16])
h_pool1 = max_pool_2x2(tf.nn.relu(conv2d(x, W_conv1) + b_conv1))

W_conv2 = weight_variable([3, 3, 16, 32])
b_conv2 = bias_variable([32])
h_pool2 = max_pool_2x2(tf.nn.relu(conv2d(h_pool1, W_conv2) + b_conv2))

h_flat = tf.reshape(h_pool2, [-1, 2 * 2 * 32])
W_fc1 = weight_variable([2 * 2 * 32, 64])
b_fc1 = bias_variable([64])
h_fc1 = tf.nn.relu(tf.matmul(h_flat, W_fc1) + b_fc1)
h_fc1_drop = tf.nn.dropout(h_fc1, keep_prob=keep_prob)

W_fc2 = weight_variable([64, 10])
b_fc2 = bias_variable([10])
y_conv = tf.matmul(h_fc1_drop, W_fc2) + b_fc2

cross_entropy = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y_, logits=y_conv))
train_step = tf.train.AdamOptimizer(2e-3).minimize(cross_entropy)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(y_conv, 1), y_), tf.float32))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(200):
        idx = rng.randint(0, len(x_train), 50)
        # keep_prob 1.0 keeps the run deterministic, so both frameworks follow the same trajectory
        sess.run(train_step, feed_dict={x: x_train[idx], y_: y_train[idx], keep_prob: 1.0})
        if step % 50 == 0:
            train_accuracy = sess.run(accuracy, feed_dict={x: x_train[idx], y_: y_train[idx], keep_prob: 1.0})
            print("step %d, training accuracy %g" % (step, train_accuracy))
    test_accuracy = sess.run(accuracy, feed_dict={x: x_test, y_: y_test, keep_prob: 1.0})
    final_loss = sess.run(cross_entropy, feed_dict={x: x_train, y_: y_train, keep_prob: 1.0})

print("test accuracy %g" % test_accuracy)
print("RESULT " + json.dumps({"test_accuracy": float(test_accuracy), "final_loss": float(final_loss)}))
