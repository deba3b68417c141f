"""The classic TF1 linear-regression example: unknown-shape placeholders fed one scalar at a time, a summed
squared error, plain gradient descent, and TensorBoard scalars via tf.summary.scalar/merge_all/FileWriter."""
# tolerance: {"W": 0.0001, "b": 0.0005, "training_cost": 0.0001, "testing_cost": 0.0001}
import json

import numpy as np

import edgelite as tf

rng = np.random.RandomState(9)
train_X = np.linspace(0.0, 10.0, 17).astype(np.float32)
train_Y = (0.25 * train_X + 0.8 + rng.normal(0, 0.2, train_X.shape)).astype(np.float32)
test_X = np.array([6.83, 4.668, 8.9, 7.91, 5.7, 8.7, 3.1, 2.1], np.float32)
test_Y = (0.25 * test_X + 0.8).astype(np.float32)
n_samples = train_X.shape[0]

X = tf.placeholder("float")
Y = tf.placeholder("float")
W = tf.Variable(0.3, name="weight")
b = tf.Variable(-0.2, name="bias")
pred = tf.add(tf.multiply(X, W), b)
cost = tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * n_samples)
global_step = tf.Variable(0, trainable=False, name="global_step")
learning_rate = tf.train.exponential_decay(0.01, global_step, 100, 0.9)
optimizer = tf.train.GradientDescentOptimizer(learning_rate).minimize(cost, global_step=global_step)
tf.summary.scalar("cost", cost)
tf.summary.scalar("learning_rate", learning_rate)
merged = tf.summary.merge_all()

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    writer = tf.summary.FileWriter("logs", sess.graph)
    for epoch in range(40):
        for (x, y) in zip(train_X, train_Y):
            sess.run(optimizer, feed_dict={X: x, Y: y})
        if (epoch + 1) % 10 == 0:
            summary, c = sess.run([merged, cost], feed_dict={X: train_X, Y: train_Y})
            writer.add_summary(summary, epoch)
            print("Epoch:", "%04d" % (epoch + 1), "cost=", "{:.9f}".format(c))
    writer.close()
    training_cost = sess.run(cost, feed_dict={X: train_X, Y: train_Y})
    testing_cost = sess.run(tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * test_X.shape[0]),
                            feed_dict={X: test_X, Y: test_Y})
    w_value, b_value, step = sess.run([W, b, global_step])

print("RESULT " + json.dumps({"W": float(w_value), "b": float(b_value), "training_cost": float(training_cost),
                              "testing_cost": float(testing_cost), "steps": int(step)}))
