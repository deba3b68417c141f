"""Images read from a class-per-subfolder directory tree through TF1 queues, in the style of the 'build an image
dataset' examples: os.walk collects the file names, slice_input_producer hands out one (path, label) at a time,
read_file + decode_png + resize_images prepare it and tf.train.batch assembles batches for a small network."""
# tolerance: {"final_loss": 0.002, "accuracy": 0.02}
import json
import os

import numpy as np
from PIL import Image
from sklearn.datasets import load_digits

import edgelite as tf

# Write three classes of digit images as PNG files, one folder per class.
digits = load_digits()
DATASET_PATH = "dataset"
for cls in (0, 1, 2):
    os.makedirs(os.path.join(DATASET_PATH, "class%d" % cls), exist_ok=True)
for i, (img, label) in enumerate(zip(digits.images, digits.target)):
    if label < 3 and i < 600:
        pixels = (img * 255.0 / 16.0).astype(np.uint8)
        Image.fromarray(pixels).save(os.path.join(DATASET_PATH, "class%d" % label, "img%04d.png" % i))

IMG_SIZE = 12
N_CLASSES = 3
batch_size = 16


def read_images(dataset_path, batch_size):
    imagepaths, labels = [], []
    classes = sorted(os.walk(dataset_path).__next__()[1])
    for label, c in enumerate(classes):
        c_dir = os.path.join(dataset_path, c)
        for sample in sorted(os.walk(c_dir).__next__()[2]):
            if sample.endswith(".png"):
                imagepaths.append(os.path.join(c_dir, sample))
                labels.append(label)
    n_files = len(labels)
    imagepaths = tf.convert_to_tensor(imagepaths, dtype=tf.string)
    labels = tf.convert_to_tensor(labels, dtype=tf.int32)
    image, label = tf.train.slice_input_producer([imagepaths, labels], shuffle=False)
    image = tf.read_file(image)
    image = tf.image.decode_png(image, channels=1)
    image = tf.image.resize_images(image, [IMG_SIZE, IMG_SIZE])
    image = image * 1.0 / 127.5 - 1.0
    X, Y = tf.train.batch([image, label], batch_size=batch_size, capacity=batch_size * 8, num_threads=1)
    return X, Y, n_files


X, Y, n_files = read_images(DATASET_PATH, batch_size)
rng = np.random.RandomState(11)
conv_init = tf.constant_initializer(rng.normal(0, 0.2, (3, 3, 1, 8)).astype(np.float32))
dense_init = tf.constant_initializer(rng.normal(0, 0.05, (5 * 5 * 8, N_CLASSES)).astype(np.float32))
net = tf.layers.conv2d(X, 8, 3, activation=tf.nn.relu, kernel_initializer=conv_init)
net = tf.layers.max_pooling2d(net, 2, 2)
logits = tf.layers.dense(tf.layers.flatten(net), N_CLASSES, kernel_initializer=dense_init)
loss_op = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits, labels=Y))
train_op = tf.train.AdamOptimizer(learning_rate=0.01).minimize(loss_op)
correct = tf.reduce_sum(tf.cast(tf.equal(tf.argmax(logits, 1), tf.cast(Y, tf.int64)), tf.float32))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    steps_per_epoch = n_files // batch_size
    for step in range(1, 4 * steps_per_epoch + 1):
        _, loss = sess.run([train_op, loss_op])
        if step % 10 == 0:
            print("Step %d, Minibatch Loss= %.4f" % (step, loss))
    hits = sum(sess.run(correct) for _ in range(steps_per_epoch))
    coord.request_stop()
    coord.join(threads)

print("RESULT " + json.dumps({"final_loss": float(loss), "accuracy": float(hits / (steps_per_epoch * batch_size)),
                              "files": n_files}))
