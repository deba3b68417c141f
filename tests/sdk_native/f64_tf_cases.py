"""float64 training-kernel cases shared by the TensorFlow fixture generator and the edgelite test.

Each case names a kernel family, its attributes and the shapes of its random inputs; `inputs` draws them the
same way on both sides (the npz stores them too, so the test reads TensorFlow's exact inputs back).
"""
from __future__ import annotations

import zlib
from typing import Dict, List, Tuple

import numpy as np

# (name, family, attributes, {input name: shape})
CASES: List[Tuple[str, str, Dict, Dict[str, Tuple[int, ...]]]] = [
    ("conv_same_s2", "conv2d", {"strides": (2, 2), "dilations": (1, 1), "padding": "SAME"},
     {"x": (2, 9, 8, 3), "w": (3, 3, 3, 5)}),
    ("conv_valid_dil2", "conv2d", {"strides": (1, 1), "dilations": (2, 2), "padding": "VALID"},
     {"x": (2, 9, 8, 4), "w": (3, 2, 4, 6)}),
    ("conv_same_s1", "conv2d", {"strides": (1, 1), "dilations": (1, 1), "padding": "SAME"},
     {"x": (3, 6, 7, 5), "w": (3, 3, 5, 9)}),
    ("conv_pointwise", "conv2d", {"strides": (1, 1), "dilations": (1, 1), "padding": "VALID"},
     {"x": (2, 5, 4, 6), "w": (1, 1, 6, 10)}),
    ("depthwise_same_s2", "depthwise", {"strides": (2, 2), "dilations": (1, 1), "padding": "SAME"},
     {"x": (2, 9, 8, 3), "w": (3, 3, 3, 2)}),
    ("depthwise_same_dil2", "depthwise", {"strides": (1, 1), "dilations": (2, 2), "padding": "SAME"},
     {"x": (2, 8, 9, 4), "w": (2, 3, 4, 1)}),
    ("max_pool_same", "max_pool", {"ksize": (3, 3), "strides": (2, 2), "padding": "SAME"}, {"x": (2, 7, 6, 3)}),
    ("max_pool_valid", "max_pool", {"ksize": (2, 2), "strides": (2, 2), "padding": "VALID"}, {"x": (3, 8, 6, 4)}),
    ("avg_pool_same", "avg_pool", {"ksize": (3, 2), "strides": (2, 1), "padding": "SAME"}, {"x": (2, 7, 6, 3)}),
    ("bias_add_grad", "bias_add_grad", {}, {"dy": (4, 3, 5, 7)}),
    ("relu_grads", "relu_grads", {}, {"x": (6, 9)}),
    ("softmax_xent", "softmax_xent", {}, {"logits": (5, 7)}),
    ("sgd", "apply", {"op": "GradientDescent", "lr": 0.1}, {"var": (4, 5)}),
    ("momentum", "apply", {"op": "Momentum", "lr": 0.05, "momentum": 0.9, "nesterov": False},
     {"var": (4, 5), "accum": (4, 5)}),
    ("momentum_nesterov", "apply", {"op": "Momentum", "lr": 0.05, "momentum": 0.9, "nesterov": True},
     {"var": (4, 5), "accum": (4, 5)}),
    ("adam", "apply", {"op": "Adam", "beta1_power": 0.9 ** 3, "beta2_power": 0.999 ** 3, "lr": 1e-3,
                       "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-7, "nesterov": False},
     {"var": (4, 5), "m": (4, 5), "v": (4, 5)}),
    ("rmsprop", "apply", {"op": "RMSProp", "lr": 0.01, "rho": 0.9, "momentum": 0.5, "epsilon": 1e-10},
     {"var": (4, 5), "ms": (4, 5), "mom": (4, 5)}),
    ("centered_rmsprop", "apply", {"op": "CenteredRMSProp", "lr": 0.01, "rho": 0.9, "momentum": 0.5,
                                   "epsilon": 1e-10}, {"var": (4, 5), "mg": (4, 5), "ms": (4, 5), "mom": (4, 5)}),
    ("adagrad", "apply", {"op": "Adagrad", "lr": 0.1, "update_slots": True}, {"var": (4, 5), "accum": (4, 5)}),
]


def inputs(name: str, shapes: Dict[str, Tuple[int, ...]]) -> Dict[str, np.ndarray]:
    """float64 inputs of a case: standard normal, slots positive (accumulators, second moments), mg small."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    out = {}
    for key, shape in shapes.items():
        if key in ("var", "x", "w", "dy", "logits"):
            out[key] = rng.standard_normal(shape)
        else:
            out[key] = rng.uniform(0.1, 2.0, shape) * (0.1 if key == "mg" else 1.0)
    return out
