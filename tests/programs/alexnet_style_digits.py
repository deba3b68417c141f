"""An AlexNet-flavoured network on the 8x8 scikit-learn digits: convolutions with local response
normalisation and overlapping max pooling, as in the TF1 CIFAR-10 tutorial model, trained with momentum and
evaluated with per-class streaming metrics."""
# tolerance: {"test_accuracy": 0.01, "mean_per_class_accuracy": 0.01, "mean_iou": 0.02, "final_loss": 0.01}
import json

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

digits = load_digits()
images = (digits.images / 16.0).astype(np.float32)[..., None]
labels = digits.target.astype(np.int64)
x_train, x_test, y_train, y_test = train_test_split(images, labels, test_size=0.3, random_state=1)
rng = np.random.RandomState(3)


def variable(name, shape, stddev):
    return tf.get_variable(name, initializer=rng.normal(0, stddev, shape).astype(np.float32))


x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="images")
y = tf.placeholder(tf.int64, [None], name="labels")

with tf.variable_scope("conv1"):
    kernel = variable("weights", [3, 3, 1, 16], 0.2)
    conv1 = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, kernel, [1, 1, 1, 1], "SAME"),
                                      tf.get_variable("biases", [16], initializer=tf.zeros_initializer())))
pool1 = tf.nn.max_pool(conv1, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME", name="pool1")
norm1 = tf.nn.lrn(pool1, 4, bias=1.0, alpha=0.001 / 9.0, beta=0.75, name="norm1")

with tf.variable_scope("conv2"):
    kernel = variable("weights", [3, 3, 16, 32], 0.1)
    conv2 = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(norm1, kernel, [1, 1, 1, 1], "SAME"),
                                      tf.get_variable("biases", [32], initializer=tf.constant_initializer(0.1))))
norm2 = tf.nn.local_response_normalization(conv2, 4, bias=1.0, alpha=0.001 / 9.0, beta=0.75, name="norm2")
pool2 = tf.nn.max_pool(norm2, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME", name="pool2")

with tf.variable_scope("softmax_linear"):
    flat = tf.reshape(pool2, [-1, 2 * 2 * 32])
    weights = variable("weights", [2 * 2 * 32, 10], 0.1)
    logits = tf.nn.xw_plus_b(flat, weights, tf.get_variable("biases", [10], initializer=tf.zeros_initializer()))

cross_entropy = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
l2 = 1e-4 * tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables() if "weights" in v.name])
loss = cross_entropy + l2
train_op = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss)

predictions = tf.argmax(logits, 1)
accuracy, accuracy_update = tf.metrics.accuracy(y, predictions)
per_class, per_class_update = tf.metrics.mean_per_class_accuracy(y, predictions, 10)
iou, iou_update = tf.metrics.mean_iou(y, predictions, 10)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(250):
        idx = rng.randint(0, len(x_train), 64)
        _, loss_value = sess.run([train_op, loss], {x: x_train[idx], y: y_train[idx]})
        if step % 100 == 0:
            print("step %d, loss %.4f" % (step, loss_value))
    final_loss = sess.run(loss, {x: x_train, y: y_train})
    sess.run(tf.local_variables_initializer())
    for start in range(0, len(x_test), 100):
        batch = {x: x_test[start:start + 100], y: y_test[start:start + 100]}
        sess.run([accuracy_update, per_class_update, iou_update], batch)
    results = {"test_accuracy": float(sess.run(accuracy)), "mean_per_class_accuracy": float(sess.run(per_class)),
               "mean_iou": float(sess.run(iou)), "final_loss": float(final_loss)}

print("test accuracy %.4f, mean per-class accuracy %.4f, mean IoU %.4f" % (
    results["test_accuracy"], results["mean_per_class_accuracy"], results["mean_iou"]))
print("RESULT " + json.dumps(results))
