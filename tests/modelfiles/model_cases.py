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
