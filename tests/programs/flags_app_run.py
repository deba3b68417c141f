"""Command-line flags and tf.app.run, as TF1 example scripts are laid out: hyperparameters are flags, main(argv)
trains a softmax classifier on the scikit-learn digits and reports the flags it saw."""
# tolerance: {"test_accuracy": 0.01, "final_loss": 0.002}
import json
import sys

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

flags = tf.app.flags
flags.DEFINE_float("learning_rate", 0.1, "Initial learning rate.")
flags.DEFINE_integer("max_steps", 100, "Number of steps to run the trainer.")
flags.DEFINE_integer("batch_size", 32, "Batch size.")
flags.DEFINE_boolean("use_decay", False, "Whether to decay the learning rate exponentially.")
flags.DEFINE_string("optimizer", "sgd", "sgd or momentum.")
FLAGS = flags.FLAGS


def main(argv):
    tf.logging.set_verbosity(tf.logging.INFO)
    digits = load_digits()
    x_train, x_test, y_train, y_test = train_test_split((digits.data / 16.0).astype(np.float32), digits.target,
                                                        test_size=0.25, random_state=5)
    rng = np.random.RandomState(5)
    x = tf.placeholder(tf.float32, [None, 64])
    y = tf.placeholder(tf.int32, [None])
    logits = tf.layers.dense(x, 10, kernel_initializer=tf.constant_initializer(
        rng.normal(0, 0.05, (64, 10)).astype(np.float32)))
    loss = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
    global_step = tf.train.get_or_create_global_step()
    learning_rate = FLAGS.learning_rate
    if FLAGS.use_decay:
        learning_rate = tf.train.exponential_decay(FLAGS.learning_rate, global_step, 50, 0.5, staircase=True)
    if FLAGS.optimizer == "momentum":
        optimizer = tf.train.MomentumOptimizer(learning_rate, 0.9)
    else:
        optimizer = tf.train.GradientDescentOptimizer(learning_rate)
    train_op = optimizer.minimize(loss, global_step=global_step)
    correct = tf.nn.in_top_k(logits, y, 1)
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(FLAGS.max_steps):
            idx = rng.randint(0, len(x_train), FLAGS.batch_size)
            _, step = sess.run([train_op, global_step], {x: x_train[idx], y: y_train[idx]})
            tf.logging.log_every_n(tf.logging.INFO, "step %d", 50, step)
        test_accuracy, final_loss = sess.run([accuracy, loss], {x: x_test, y: y_test})
    print("RESULT " + json.dumps({
        "test_accuracy": float(test_accuracy), "final_loss": float(final_loss), "global_step": int(step),
        "flags": {"learning_rate": FLAGS.learning_rate, "max_steps": FLAGS.max_steps,
                  "use_decay": FLAGS.use_decay, "optimizer": FLAGS.optimizer},
        "unparsed_args": argv[1:],
    }))


if __name__ == "__main__":
    tf.app.run(main=main, argv=[sys.argv[0], "--learning_rate=0.5", "--max_steps=150", "--use_decay",
                                "--optimizer=momentum", "extra_positional"])
