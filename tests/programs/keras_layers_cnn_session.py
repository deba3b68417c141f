"""A small CNN on the 8x8 digits built from tf.keras.layers inside ordinary TF1 graph code: placeholders,
a tf.train optimizer and a tf.Session training loop, as TF 1.13-era tutorials mixed Keras layers into graphs."""
# tolerance: {"test_accuracy": 0.02, "final_loss": 0.02, "first_loss": 0.001}
import json

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

digits = load_digits()
images = (digits.images / 16.0).astype(np.float32)[..., None]
x_train, x_test, y_train, y_test = train_test_split(images, digits.target, test_size=0.25, random_state=0)
rng = np.random.RandomState(7)


def init(*shape):
    """He-style normal weights from the seeded numpy generator, so every run starts the same."""
    return tf.constant_initializer(rng.normal(0, np.sqrt(2.0 / np.prod(shape[:-1])), shape).astype(np.float32))


x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="images")
y = tf.placeholder(tf.int64, [None], name="labels")

net = tf.keras.layers.Conv2D(16, 3, padding="same", activation="relu", kernel_initializer=init(3, 3, 1, 16))(x)
net = tf.keras.layers.MaxPooling2D(2)(net)
net = tf.keras.layers.Conv2D(32, 3, activation="relu", kernel_initializer=init(3, 3, 16, 32))(net)
pooled = tf.keras.layers.GlobalAveragePooling2D()(net)
flat = tf.keras.layers.Flatten()(net)
features = tf.keras.layers.concatenate([pooled, flat])
logits = tf.keras.layers.Dense(10, kernel_initializer=init(32 + 128, 10), name="logits")(features)

loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_op = tf.train.AdamOptimizer(0.005).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
print([v.name for v in tf.trainable_variables()])

losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(250):
        idx = rng.randint(0, len(x_train), 64)
        _, value = sess.run([train_op, loss], {x: x_train[idx], y: y_train[idx]})
        losses.append(value)
        if step % 50 == 0:
            print("step %d loss %.4f" % (step, value))
    test_accuracy = sess.run(accuracy, {x: x_test, y: y_test})
    final_loss = sess.run(loss, {x: x_train, y: y_train})

print("RESULT " + json.dumps({
    "test_accuracy": float(test_accuracy), "final_loss": float(final_loss), "first_loss": float(losses[0]),
    "variables": [v.name for v in tf.trainable_variables()], "logits": logits.name,
}))
