"""Unit tests for a small model written with tf.test.TestCase (sessions, assertAllClose, gradient checks), run
with the unittest runner; the summary of the run is the result."""
# tolerance: {"max_gradient_error": 0.005}
import json
import unittest

import numpy as np

import edgelite as tf

GRADIENT_ERRORS = []


def dense_softmax(x, weights, biases):
    return tf.nn.softmax(tf.matmul(x, weights) + biases)


class DenseSoftmaxTest(tf.test.TestCase):

    def testRowsSumToOne(self):
        rng = np.random.RandomState(0)
        with self.cached_session() as sess:
            x = tf.constant(rng.randn(4, 3).astype(np.float32))
            probs = dense_softmax(x, tf.constant(rng.randn(3, 5).astype(np.float32)), tf.zeros([5]))
            self.assertAllClose(np.ones(4), sess.run(tf.reduce_sum(probs, axis=1)), atol=1e-6)
            self.assertAllInRange(probs, 0.0, 1.0)
            self.assertShapeEqual(np.zeros((4, 5)), probs)

    def testMatchesNumpy(self):
        x = np.array([[1.0, 2.0], [0.5, -1.0]], np.float32)
        w = np.array([[0.1, -0.2, 0.3], [0.4, 0.0, -0.1]], np.float32)
        b = np.array([0.0, 0.1, -0.1], np.float32)
        logits = x @ w + b
        expected = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        with self.session():
            self.assertAllClose(expected, self.evaluate(dense_softmax(tf.constant(x), tf.constant(w), tf.constant(b))))

    def testGradient(self):
        with self.cached_session():
            x = tf.constant(np.array([[0.3, -0.2, 0.9]], np.float64))
            weights = tf.placeholder(tf.float64, [3, 2])
            out = dense_softmax(x, weights, tf.constant([0.1, -0.1], tf.float64))
            error = tf.test.compute_gradient_error(weights, [3, 2], out, [1, 2],
                                                   x_init_value=np.linspace(-1, 1, 6).reshape(3, 2))
            GRADIENT_ERRORS.append(error)
            self.assertLess(error, 1e-4)

    def testBadShapeRaises(self):
        with self.cached_session() as sess:
            x = tf.placeholder(tf.float32, [None, 3])
            shape = tf.placeholder(tf.int32, [1])
            y = tf.reshape(tf.matmul(x, tf.ones([3, 2])), shape)
            with self.assertRaisesOpError("Input to reshape is a tensor with 4 values, but the requested shape has 5"):
                sess.run(y, {x: np.ones((2, 3), np.float32), shape: [5]})

    def testDevicesAndNear(self):
        self.assertDeviceEqual("/cpu:0", "/device:CPU:0")
        self.assertNear(0.1 + 0.2, 0.3, 1e-9)
        self.assertArrayNear([1.0, 2.0], [1.0, 2.0000001], 1e-6)


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(DenseSoftmaxTest)
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    print("RESULT " + json.dumps({
        "tests_run": result.testsRun, "failures": len(result.failures), "errors": len(result.errors),
        "skipped": len(result.skipped), "max_gradient_error": max(GRADIENT_ERRORS),
    }))
