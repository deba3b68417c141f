"""Digits through a TF1 queue pipeline: TFRecord file -> string_input_producer -> TFRecordReader ->
parse_single_example -> shuffle_batch (queue runners, Coordinator) -> softmax regression -> checkpoint."""
# tolerance: {"test_accuracy": 0.03, "final_loss": 0.05, "examples_seen": 0}
import json

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

digits = load_digits()
images = (digits.data / 16.0).astype(np.float32)
x_train, x_test, y_train, y_test = train_test_split(images, digits.target, test_size=0.25, random_state=0)

options = tf.python_io.TFRecordOptions(tf.python_io.TFRecordCompressionType.GZIP)
with tf.python_io.TFRecordWriter("train.tfrecord.gz", options=options) as writer:
    for image, label in zip(x_train, y_train):
        example = tf.train.Example(features=tf.train.Features(feature={
            "image": tf.train.Feature(float_list=tf.train.FloatList(value=image)),
            "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
        }))
        writer.write(example.SerializeToString())

num_epochs = 4
batch_size = 32
filename_queue = tf.train.string_input_producer(["train.tfrecord.gz"], num_epochs=num_epochs, shuffle=False)
reader = tf.TFRecordReader(options=options)
_, serialized = reader.read(filename_queue)
features = tf.parse_single_example(serialized, {
    "image": tf.FixedLenFeature([64], tf.float32),
    "label": tf.FixedLenFeature([], tf.int64),
})
image_batch, label_batch = tf.train.shuffle_batch(
    [features["image"], features["label"]], batch_size=batch_size, capacity=600, min_after_dequeue=400, seed=7,
    allow_smaller_final_batch=True)

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
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    try:
        while not coord.should_stop():
            _, batch_labels = sess.run([train_op, label_batch])
            examples_seen += len(batch_labels)
    except tf.errors.OutOfRangeError:
        print("Done training for %d epochs, %d steps." % (num_epochs, sess.run(global_step)))
    finally:
        coord.request_stop()
    coord.join(threads)
    saver.save(sess, "./model.ckpt", global_step=global_step)

with tf.Session() as sess:
    saver.restore(sess, tf.train.latest_checkpoint("."))
    test_accuracy = sess.run(accuracy, {x: x_test, y: y_test})
    final_loss = sess.run(loss, {x: x_train, y: y_train})

print("test accuracy %g" % test_accuracy)
print("RESULT " + json.dumps({"test_accuracy": float(test_accuracy), "final_loss": float(final_loss),
                              "examples_seen": examples_seen}))
