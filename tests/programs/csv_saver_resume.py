"""A small classifier fed from a CSV through shape-less placeholders (tf.placeholder(tf.float32)), trained in two
runs that share a checkpoint directory, in the style of the TF1 'save and reuse a model' tutorials: the second run
rebuilds the graph, finds the checkpoint with get_checkpoint_state and resumes from the saved global step."""
# tolerance: {"first_run_loss": 0.001, "second_run_loss": 0.001, "accuracy": 0.02}
import json
import os

import numpy as np
from sklearn.datasets import load_iris

import edgelite as tf

iris = load_iris()
features = (iris.data - iris.data.mean(0)) / iris.data.std(0)
table = np.hstack([features, np.eye(3)[iris.target]])
np.savetxt("data.csv", table, delimiter=",", fmt="%.6f")

data = np.loadtxt("./data.csv", delimiter=",", unpack=True, dtype="float32")
x_data = np.transpose(data[0:4])
y_data = np.transpose(data[4:])
rng = np.random.RandomState(5)
init_w1 = rng.uniform(-1.0, 1.0, (4, 10)).astype(np.float32)
init_w2 = rng.uniform(-1.0, 1.0, (10, 3)).astype(np.float32)


def build_and_train(steps):
    """One run: build the graph, restore the latest checkpoint if any, train, save; returns (step, loss, acc)."""
    tf.reset_default_graph()
    global_step = tf.Variable(0, trainable=False, name="global_step")
    X = tf.placeholder(tf.float32)
    Y = tf.placeholder(tf.float32)
    W1 = tf.Variable(init_w1)
    # tensordot over the feature axis of an input whose rank is only known when fed
    L1 = tf.nn.relu(tf.tensordot(X, W1, [[1], [0]]))
    W2 = tf.Variable(init_w2)
    model = tf.matmul(L1, W2)
    cost = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=Y, logits=model))
    train_op = tf.train.AdamOptimizer(learning_rate=0.01).minimize(cost, global_step=global_step)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(model, 1), tf.argmax(Y, 1)), tf.float32))

    sess = tf.Session()
    saver = tf.train.Saver(tf.global_variables())
    ckpt = tf.train.get_checkpoint_state("./model")
    if ckpt and tf.train.checkpoint_exists(ckpt.model_checkpoint_path):
        print("restoring", os.path.basename(ckpt.model_checkpoint_path))
        saver.restore(sess, ckpt.model_checkpoint_path)
    else:
        sess.run(tf.global_variables_initializer())
    for _ in range(steps):
        sess.run(train_op, feed_dict={X: x_data, Y: y_data})
    step = sess.run(global_step)
    loss, acc = sess.run([cost, accuracy], feed_dict={X: x_data, Y: y_data})
    print("Step: %d, " % step, "Cost: %.3f" % loss)
    saver.save(sess, "./model/dnn.ckpt", global_step=global_step)
    sess.close()
    return int(step), float(loss), float(acc)


first_step, first_loss, _ = build_and_train(30)
second_step, second_loss, accuracy = build_and_train(30)
print("RESULT " + json.dumps({"first_step": first_step, "second_step": second_step, "first_run_loss": first_loss,
                              "second_run_loss": second_loss, "accuracy": accuracy}))
