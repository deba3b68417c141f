"""Graphs built the same way under TensorFlow (by the fixture generator) and under edgelite (by the tests).

Every builder takes the module to build with (`tensorflow.compat.v1` or `edgelite`) as its first argument.
"""
from __future__ import annotations

import numpy as np


def small_graph(tfm):
    """x[?,3] @ w[3,2] + b[2] -> CheckNumerics -> Identity 'z' (plus an unused branch); tfm is tf or edgelite."""
    x = tfm.placeholder(tfm.float32, [None, 3], name="x")
    w = tfm.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 4, name="w")
    b = tfm.Variable(np.array([0.5, -1.0], np.float32), name="b")
    scale = tfm.Variable(np.float32(2.0), name="scale")
    y = tfm.add(tfm.matmul(x, w), b, name="y")
    checked = tfm.check_numerics(y, "bad", name="checked")
    z = tfm.identity(checked * scale, name="z")
    tfm.identity(w, name="unused")
    return x, z


def serving_graph(tfm):
    """x[?,4] -> dense 4x3 (fixed weights) -> relu 'y' and softmax 'p': a graph to simple_save."""
    x = tfm.placeholder(tfm.float32, [None, 4], name="x")
    w = tfm.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3), name="w")
    b = tfm.Variable(np.array([0.1, 0.0, -0.1], np.float32), name="b")
    logits = tfm.add(tfm.matmul(x, w), b, name="logits")
    y = tfm.nn.relu(logits, name="y")
    p = tfm.nn.softmax(logits, name="p")
    return x, y, p


SERVING_INPUT = np.linspace(-2, 2, 8, dtype=np.float32).reshape(2, 4)


def signature_cases(tfm, x, y, p) -> dict:
    """SignatureDefs of every builder in tfm.saved_model over the serving graph's tensors, by case name."""
    sm = tfm.saved_model
    examples = tfm.placeholder(tfm.string, [None], name="examples")
    classes = tfm.placeholder(tfm.string, [None, 3], name="classes")
    scores = tfm.identity(p, name="scores")
    return {
        "predict": sm.predict_signature_def({"x": x}, {"y": y}),
        "regress": sm.regression_signature_def(examples, tfm.reduce_sum(p, 1, name="reg")),
        "classify": sm.classification_signature_def(examples, classes, scores),
        "classify_scores_only": sm.classification_signature_def(examples, None, scores),
        "built_predict": sm.build_signature_def({"x": sm.build_tensor_info(x)}, {"y": sm.build_tensor_info(y)},
                                                sm.PREDICT_METHOD_NAME),
        "built_no_method": sm.build_signature_def({"x": sm.build_tensor_info(x)}, {"y": sm.build_tensor_info(y)}),
        "built_regress_float_input": sm.build_signature_def({"inputs": sm.build_tensor_info(x)},
                                                            {"outputs": sm.build_tensor_info(y)},
                                                            sm.REGRESS_METHOD_NAME),
    }


# ---- models written by TensorFlow for the reading tests --------------------------------------------------------
class SeededVariables:
    """Creates zero-initialised variables and remembers a seeded value for each, loaded after initialisation:
    the graph then holds no weight-sized initial-value constants (SavedModel graphs stay small)."""

    def __init__(self, tfm, seed: int) -> None:
        self.tfm, self.rng, self.values = tfm, np.random.default_rng(seed), []

    def he(self, shape, fan_in, name):
        return self.add((self.rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32), name)

    def uniform(self, low, high, shape, name):
        return self.add(self.rng.uniform(low, high, shape).astype(np.float32), name)

    def add(self, value, name):
        var = self.tfm.Variable(self.tfm.zeros(value.shape, self.tfm.float32), name=name)
        self.values.append((var, value))
        return var

    def load(self, sess) -> None:
        """Assigns the remembered values in sess (after the variables were initialised)."""
        for var, value in self.values:
            var.load(value, sess)


def digits_cnn(tfm, x, seeded):
    """8x8x1 digits -> conv3x3(8)+relu -> maxpool -> conv3x3(16)+relu -> flatten -> dense(10) logits."""
    w1, b1 = seeded.he([3, 3, 1, 8], 9, "conv1/w"), seeded.add(np.zeros(8, np.float32), "conv1/b")
    h = tfm.nn.relu(tfm.nn.bias_add(tfm.nn.conv2d(x, w1, [1, 1, 1, 1], "SAME"), b1), name="conv1/relu")
    h = tfm.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", name="pool1")
    w2, b2 = seeded.he([3, 3, 8, 16], 72, "conv2/w"), seeded.add(np.zeros(16, np.float32), "conv2/b")
    h = tfm.nn.relu(tfm.nn.bias_add(tfm.nn.conv2d(h, w2, [1, 1, 1, 1], "SAME"), b2), name="conv2/relu")
    h = tfm.reshape(h, [-1, 4 * 4 * 16], name="flatten")
    w3, b3 = seeded.he([256, 10], 256, "fc/w"), seeded.add(np.zeros(10, np.float32), "fc/b")
    return tfm.add(tfm.matmul(h, w3), b3, name="logits")


def _bn_relu6(tfm, seeded, h, channels, name):
    """Inference batch norm (FusedBatchNormV3 with seeded statistics) and relu6."""
    gamma = seeded.uniform(0.5, 1.5, channels, name + "/gamma")
    beta = seeded.uniform(-0.2, 0.2, channels, name + "/beta")
    mean = seeded.uniform(-0.2, 0.2, channels, name + "/moving_mean")
    var = seeded.uniform(0.5, 2.0, channels, name + "/moving_variance")
    h, _, _ = tfm.nn.fused_batch_norm(h, gamma, beta, mean, var, epsilon=0.001, is_training=False,
                                      name=name + "/bn")
    return tfm.nn.relu6(h, name=name + "/relu6")


MOBILENET_BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + \
    [(1024, 2), (1024, 1)]
MOBILENET_SIZE = 96


def mobilenet_v1(tfm, x, seeded, alpha=0.25, classes=10):
    """MobileNet v1 (width alpha): conv3x3/2, 13 depthwise-separable blocks, global average pool, 1x1 conv
    logits squeezed to [N, classes]; batch norms in inference form."""
    channels = int(32 * alpha)
    w = seeded.he([3, 3, 3, channels], 27, "conv0/w")
    h = _bn_relu6(tfm, seeded, tfm.nn.conv2d(x, w, [1, 2, 2, 1], "SAME"), channels, "conv0")
    for i, (depth, stride) in enumerate(MOBILENET_BLOCKS, start=1):
        dw = seeded.he([3, 3, channels, 1], 9, f"block{i}/dw")
        h = tfm.nn.depthwise_conv2d(h, dw, [1, stride, stride, 1], "SAME")
        h = _bn_relu6(tfm, seeded, h, channels, f"block{i}/dw")
        out = int(depth * alpha)
        pw = seeded.he([1, 1, channels, out], channels, f"block{i}/pw")
        h = _bn_relu6(tfm, seeded, tfm.nn.conv2d(h, pw, [1, 1, 1, 1], "SAME"), out, f"block{i}/pw")
        channels = out
    h = tfm.reduce_mean(h, [1, 2], keepdims=True, name="avg_pool")
    wl, bl = seeded.he([1, 1, channels, classes], channels, "logits/w"), \
        seeded.uniform(-0.1, 0.1, classes, "logits/b")
    h = tfm.nn.bias_add(tfm.nn.conv2d(h, wl, [1, 1, 1, 1], "SAME"), bl)
    return tfm.squeeze(h, [1, 2], name="logits")


def mobilenet_inputs():
    """(two test images, eight calibration images) in [-1, 1], from a seeded generator."""
    rng = np.random.default_rng(3)
    size = MOBILENET_SIZE
    return (rng.uniform(-1, 1, (2, size, size, 3)).astype(np.float32),
            rng.uniform(-1, 1, (8, size, size, 3)).astype(np.float32))


CONVERTER_MODES = ("float", "int8", "int8_float_io")


def configure_mode(tfm, converter, mode: str, calibration) -> None:
    """Sets converter (TF's or edgelite's TFLiteConverter) up for float, full-integer with int8 I/O, or
    full-integer with float I/O, calibrated on one-image batches of calibration."""
    if mode == "float":
        return
    converter.optimizations = [tfm.lite.Optimize.DEFAULT]
    converter.representative_dataset = lambda: ([calibration[i:i + 1]] for i in range(len(calibration)))
    converter.target_spec.supported_ops = [tfm.lite.OpsSet.TFLITE_BUILTINS_INT8]
    if mode == "int8":
        converter.inference_input_type = tfm.int8
        converter.inference_output_type = tfm.int8


# ---- Keras models saved by tf-keras as .h5 --------------------------------------------------------------------
def keras_cnn(keras):
    """A functional Keras CNN on 8x8x1 digits with every common layer kind: padding, conv, batch norm,
    pooling, depthwise and separable conv, an Add and a Concatenate branch, flatten, dropout, dense."""
    L = keras.layers
    inp = L.Input((8, 8, 1), name="image")
    h = L.ZeroPadding2D(1)(inp)
    h = L.Conv2D(8, 3, activation="relu", name="conv")(h)
    h = L.BatchNormalization(name="bn")(h)
    h = L.MaxPooling2D(2)(h)
    d = L.DepthwiseConv2D(3, padding="same", name="dw")(h)
    d = L.ReLU(max_value=6.0)(d)
    s = L.SeparableConv2D(8, 3, padding="same", activation="relu", name="sep")(h)
    h = L.Add()([d, s])
    c = L.Conv2D(4, 1, activation="sigmoid", name="branch")(h)
    h = L.Concatenate()([h, c])
    h = L.AveragePooling2D(2)(h)
    h = L.Flatten()(h)
    h = L.Dense(16, activation="tanh", name="fc")(h)
    h = L.Dropout(0.25)(h)
    out = L.Dense(10, activation="softmax", name="probs")(h)
    return keras.Model(inp, out)


def keras_conv1d(keras):
    """A Sequential Keras model over 16-step, 4-channel sequences: Conv1D, pooling, reshape, dense."""
    L = keras.layers
    return keras.Sequential([
        L.InputLayer((16, 4), name="series"),
        L.ZeroPadding1D(1),
        L.Conv1D(6, 3, activation="relu", name="conv1d"),
        L.MaxPooling1D(2),
        L.GlobalAveragePooling1D(),
        L.Reshape((3, 2)),
        L.Flatten(),
        L.Dense(3, name="out"),
        L.Activation("softmax"),
    ])


def keras_lstm(keras):
    """A Sequential Keras sequence classifier: LSTM(5) over 6 steps of 3 features, then a softmax Dense."""
    L = keras.layers
    return keras.Sequential([L.InputLayer((6, 3), name="steps"), L.LSTM(5, name="lstm"),
                             L.Dense(4, activation="softmax", name="out")])


def keras_lstm_inputs():
    """[8, 6, 3] sequences from a seeded generator (also the calibration set)."""
    return np.random.default_rng(8).uniform(-1, 1, (8, 6, 3)).astype(np.float32)


def keras_inputs():
    """(cnn inputs [16,8,8,1], conv1d inputs [16,16,4]) from a seeded generator (also the calibration sets)."""
    rng = np.random.default_rng(5)
    return (rng.uniform(0, 1, (16, 8, 8, 1)).astype(np.float32),
            rng.standard_normal((16, 16, 4)).astype(np.float32))


# ---- resource variables -------------------------------------------------------------------------------------
RESOURCE_INPUT = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
RESOURCE_LABELS = np.array([0, 2, 1], np.int64)


def resource_mlp(tfm):
    """x[?,4] -> dense 8 relu -> dense 3 softmax 'probs', weights in resource variables (get_variable with
    use_resource=True, seeded initializers), and an Adam 'train' op; returns (x, labels, probs, loss)."""
    x = tfm.placeholder(tfm.float32, [None, 4], name="x")
    labels = tfm.placeholder(tfm.int64, [None], name="labels")
    rng = np.random.default_rng(9)
    w1 = tfm.get_variable("w1", initializer=rng.standard_normal((4, 8)).astype(np.float32), use_resource=True)
    b1 = tfm.get_variable("b1", initializer=np.zeros(8, np.float32), use_resource=True)
    w2 = tfm.get_variable("w2", initializer=rng.standard_normal((8, 3)).astype(np.float32), use_resource=True)
    logits = tfm.matmul(tfm.nn.relu(tfm.matmul(x, w1) + b1), w2)
    probs = tfm.nn.softmax(logits, name="probs")
    loss = tfm.reduce_mean(tfm.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits),
                           name="loss")
    tfm.train.AdamOptimizer(0.05).minimize(loss, name="train")
    return x, labels, probs, loss
