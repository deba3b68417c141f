"""An image input pipeline in TF1 style: digits stored as PNG files, decoded, resized, padded, cropped and
standardised with tf.image in the graph, then a small CNN; also SSIM/PSNR of two resize methods and NMS on
boxes around the strongest activations."""
# tolerance: {"test_accuracy": 0.015, "final_loss": 0.01, "psnr_bicubic_vs_bilinear": 0.001, "ssim_bicubic_vs_bilinear": 0.00001, "nms_kept": 0}
import json

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

digits = load_digits()
pixels = np.round(digits.images * (255.0 / 16.0)).astype(np.uint8)[..., None]
labels = digits.target.astype(np.int64)
idx_train, idx_test = train_test_split(np.arange(len(labels)), test_size=0.25, random_state=0)
rng = np.random.RandomState(3)

# Store every digit as a PNG file in memory, as an input pipeline reading image files would find them.
png_in = tf.placeholder(tf.uint8, [8, 8, 1])
encode = tf.image.encode_png(png_in)
with tf.Session() as sess:
    files = [sess.run(encode, {png_in: p}) for p in pixels]

contents = tf.placeholder(tf.string, [])
decoded = tf.image.decode_png(contents, channels=1)
with tf.Session() as sess:
    images = np.stack([sess.run(decoded, {contents: f}) for f in files])
assert np.array_equal(images, pixels)

x = tf.placeholder(tf.uint8, [None, 8, 8, 1])
y_ = tf.placeholder(tf.int64, [None])
flt = tf.image.convert_image_dtype(x, tf.float32)
big = tf.image.resize_images(flt, [16, 16])
padded = tf.image.resize_image_with_crop_or_pad(big, 18, 18)
cropped = tf.image.crop_to_bounding_box(padded, 1, 1, 16, 16)
inputs = tf.image.per_image_standardization(cropped)

w1 = tf.Variable(rng.normal(0, 0.1, (3, 3, 1, 12)).astype(np.float32))
h1 = tf.nn.max_pool(tf.nn.relu(tf.nn.conv2d(inputs, w1, [1, 1, 1, 1], "SAME")), [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
w2 = tf.Variable(rng.normal(0, 0.1, (3, 3, 12, 16)).astype(np.float32))
h2 = tf.nn.max_pool(tf.nn.relu(tf.nn.conv2d(h1, w2, [1, 1, 1, 1], "SAME")), [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
w3 = tf.Variable(rng.normal(0, 0.05, (4 * 4 * 16, 10)).astype(np.float32))
logits = tf.matmul(tf.reshape(h2, [-1, 4 * 4 * 16]), w3)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y_, logits=logits))
train = tf.train.AdamOptimizer(3e-3).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y_), tf.float32))

# Image quality of two upscaling methods, and NMS over boxes centred on each test image's brightest pixels.
bicubic = tf.image.resize_images(flt, [16, 16], method=tf.image.ResizeMethod.BICUBIC)
psnr = tf.reduce_mean(tf.image.psnr(tf.clip_by_value(bicubic, 0.0, 1.0), big, max_val=1.0))
ssim = tf.reduce_mean(tf.image.ssim(tf.clip_by_value(bicubic, 0.0, 1.0), big, max_val=1.0, filter_size=5))
boxes = tf.placeholder(tf.float32, [None, 4])
scores = tf.placeholder(tf.float32, [None])
keep = tf.image.non_max_suppression(boxes, scores, 20, iou_threshold=0.3)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(150):
        batch = rng.choice(idx_train, 50)
        sess.run(train, {x: images[batch], y_: labels[batch]})
    test_accuracy, = sess.run([accuracy], {x: images[idx_test], y_: labels[idx_test]})
    final_loss = sess.run(loss, {x: images[idx_train], y_: labels[idx_train]})
    psnr_value, ssim_value = sess.run([psnr, ssim], {x: images[idx_test[:40]]})
    flat = images[idx_test[0], :, :, 0].astype(np.float32)
    ys, xs = np.unravel_index(np.argsort(-flat, axis=None, kind="stable")[:40], flat.shape)
    cand = np.stack([ys - 1.5, xs - 1.5, ys + 1.5, xs + 1.5], axis=1).astype(np.float32) / 8.0
    kept = sess.run(keep, {boxes: cand, scores: flat[ys, xs] + np.arange(40, dtype=np.float32) * -1e-3})

print("test accuracy %g" % test_accuracy)
print("RESULT " + json.dumps({"test_accuracy": float(test_accuracy), "final_loss": float(final_loss),
                              "psnr_bicubic_vs_bilinear": float(psnr_value),
                              "ssim_bicubic_vs_bilinear": float(ssim_value), "nms_kept": int(len(kept))}))
