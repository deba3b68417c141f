"""A two-layer perceptron on the 8x8 scikit-learn digits, in the style of the classic TF1 MNIST tutorial."""
# tolerance: {"test_accuracy": 0.01, "final_loss": 0.005}
import json

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

digits = load_digits()
images = (digits.data / 16.0).astype(np.float32)
labels = np.eye(10, dtype=np.float32)[digits.target]
x_train, x_test, y_train, y_test = train_test_split(images, labels, test_size=0.25, random_state=0)

rng = np.random.RandomState(1)
n_hidden = 64

x = tf.placeholder(tf.float32, [None, 64], name="x")
y_ = tf.placeholder(tf.float32, [None, 10], name="y_")

with tf.name_scope("hidden"):
    w1 = tf.Variable(rng.normal(0, 0.1, (64, n_hidden)).astype(np.float32), name="weights")
    b1 = tf.Variable(tf.zeros([n_hidden]), name="biases")
    hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
with tf.name_scope("softmax_linear"):
    w2 = tf.Variable(rng.normal(0, 0.1, (n_hidden, 10)).astype(np.float32), name="weights")
    b2 = tf.Variable(tf.zeros([10]), name="biases")
    logits = tf.matmul(hidden, w2) + b2

cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=logits))
train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)
correct_prediction = tf.equal(tf.argmax(logits, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))

batch_size = 100
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(600):
        idx = rng.randint(0, len(x_train), batch_size)
        _, loss = sess.run([train_step, cross_entropy], feed_dict={x: x_train[idx], y_: y_train[idx]})
        if step % 100 == 0:
            print("step %d, training loss %g" % (step, loss))
    test_accuracy = sess.run(accuracy, feed_dict={x: x_test, y_: y_test})
    final_loss = sess.run(cross_entropy, feed_dict={x: x_train, y_: y_train})

print("test accuracy %g" % test_accuracy)
print("RESULT " + json.dumps({"test_accuracy": float(test_accuracy), "final_loss": float(final_loss)}))
