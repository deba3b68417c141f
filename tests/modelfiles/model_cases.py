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
