"""Digits through tf.data: TFRecordDataset -> map(parse_single_example) -> shuffle -> repeat -> batch ->
prefetch, read with a one-shot iterator until OutOfRangeError; softmax regression; checkpoint."""
# tolerance: {"test_accuracy": 0.03, "final_loss": 0.05, "examples_seen": 0}
import json

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

digits = load_digits()
images = (digits.data / 16.0).astype(np.float32)
x_train, x_test, y_train, y_test = train_test_split(images, digits.target, test_size=0.25, random_state=0)

with tf.io.TFRecordWriter("train.tfrecord", options=tf.io.TFRecordOptions("ZLIB")) as writer:
    for image, label in zip(x_train, y_train):
        example = tf.train.Example()
        example.features.feature["image"].float_list.value.extend(image)
        example.features.feature["label"].int64_list.value.append(label)
        writer.write(example.SerializeToString())


def parse(record):
    parsed = tf.io.parse_single_example(record, {
        "image": tf.io.FixedLenFeature([64], tf.float32),
        "label": tf.io.FixedLenFeature([], tf.int64),
    })
    return parsed["image"], parsed["label"]


num_epochs = 4
batch_size = 32
dataset = (tf.data.TFRecordDataset(["train.tfrecord"], compression_type="ZLIB")
           .map(parse, num_parallel_calls=tf.data.experimental.AUTOTUNE)
           .shuffle(buffer_size=500, seed=7)
           .repeat(num_epochs)
           .batch(batch_size)
           .prefetch(1))
iterator = tf.data.make_one_shot_iterator(dataset)
image_batch, label_batch = iterator.get_next()

rng = np.random.RandomState(3)
x = tf.placeholder_with_default(image_batch, [None, 64], name="x")
y = tf.placeholder_with_default(label_batch, [None], name="y")
w = tf.Variable(rng.normal(0, 0.05, (64, 10)).astype(np.float32), name="weights")
b = tf.Variable(tf.zeros([10]), name="biases")
logits = tf.matmul(x, w) + b
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step=global_step)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
saver = tf.train.Saver()

examples_seen = 0
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    while True:
        try:
            _, batch_labels = sess.run([train_op, label_batch])
        except tf.errors.OutOfRangeError:
            break
        examples_seen += len(batch_labels)
    print("Done training for %d epochs, %d steps." % (num_epochs, sess.run(global_step)))
    saver.save(sess, "./model.ckpt", global_step=global_step)

with tf.Session() as sess:
    saver.restore(sess, tf.train.latest_checkpoint("."))
    test_accuracy = sess.run(accuracy, {x: x_test, y: y_test})
    final_loss = sess.run(loss, {x: x_train, y: y_train})

print("test accuracy %g" % test_accuracy)
print("RESULT " + json.dumps({"test_accuracy": float(test_accuracy), "final_loss": float(final_loss),
                              "examples_seen": examples_seen}))
