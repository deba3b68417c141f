"""float64 training kernels on both paths against TensorFlow 2.21's float64 CPU kernels (recorded by
fixtures/generate_f64_tf_fixtures.py from the cases in f64_tf_cases.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from edgelite.kernels import activations, conv, normalization, pooling, softmax_xent
from edgelite.kernels.backend import using
from edgelite.train import update_rules as ur

from .diff_util import assert_close, counting_native_calls
from .f64_tf_cases import CASES
from .test_pool_optim_native import fused_calls

FIXTURES = np.load(Path(__file__).parent / "fixtures" / "tf_train_kernels_float64.npz")

pytestmark = pytest.mark.usefixtures("native_f64_selected")

_CONV = {"conv2d": (conv.conv2d, conv.conv2d_backprop_input, conv.conv2d_backprop_filter),
         "depthwise": (conv.depthwise_conv2d, conv.depthwise_conv2d_backprop_input,
                       conv.depthwise_conv2d_backprop_filter)}


def _window_results(family: str, attrs: dict, a: dict) -> dict:
    x, dy = a["x"], a["dy"]
    if family in _CONV:
        fwd, back_in, back_w = _CONV[family]
        args = (attrs["strides"], attrs["dilations"], attrs["padding"])
        return {"y": fwd(x, a["w"], *args), "dx": back_in(x.shape, a["w"], dy, *args),
                "dw": back_w(x, a["w"].shape, dy, *args)}
    args = (attrs["ksize"], attrs["strides"], attrs["padding"])
    if family == "max_pool":
        y = pooling.max_pool(x, *args)
        return {"y": y, "dx": pooling.max_pool_grad(x, y, dy, *args)}
    return {"y": pooling.avg_pool(x, *args), "dx": pooling.avg_pool_grad(x.shape, dy, *args)}


def _apply(attrs: dict, a: dict) -> dict:
    slots = {k[len("new_"):]: a[k[len("new_"):]].copy() for k in a if k.startswith("new_")}
    g, op = a["grad"], attrs["op"]
    if op == "GradientDescent":
        ur.apply_gradient_descent(slots["var"], attrs["lr"], g)
    elif op == "Momentum":
        ur.apply_momentum(slots["var"], slots["accum"], attrs["lr"], g, attrs["momentum"], attrs["nesterov"])
    elif op == "Adam":
        ur.apply_adam(slots["var"], slots["m"], slots["v"], attrs["beta1_power"], attrs["beta2_power"], attrs["lr"],
                      attrs["beta1"], attrs["beta2"], attrs["epsilon"], g, attrs["nesterov"])
    elif op == "RMSProp":
        ur.apply_rmsprop(slots["var"], slots["ms"], slots["mom"], attrs["lr"], attrs["rho"], attrs["momentum"],
                         attrs["epsilon"], g)
    elif op == "CenteredRMSProp":
        ur.apply_centered_rmsprop(slots["var"], slots["mg"], slots["ms"], slots["mom"], attrs["lr"], attrs["rho"],
                                  attrs["momentum"], attrs["epsilon"], g)
    else:
        ur.apply_adagrad(slots["var"], slots["accum"], attrs["lr"], g, attrs["update_slots"])
    return {"new_" + k: v for k, v in slots.items()}


def _results(family: str, attrs: dict, a: dict) -> dict:
    if family == "apply":
        return _apply(attrs, a)
    if family == "bias_add_grad":
        return {"db": normalization.bias_add_grad(a["dy"])}
    if family == "relu_grads":
        return {"relu": activations.relu_grad(a["dy"], a["x4"]), "relu6": activations.relu6_grad(a["dy"], a["x4"])}
    if family == "softmax_xent":
        loss, back = softmax_xent.softmax_cross_entropy_with_logits(a["logits"], a["labels"])
        sloss, sback = softmax_xent.sparse_softmax_cross_entropy_with_logits(a["logits"], a["classes"])
        return {"loss": loss, "backprop": back, "sparse_loss": sloss, "sparse_backprop": sback}
    return _window_results(family, attrs, a)


@pytest.mark.parametrize("path", ["native", "numpy"])
@pytest.mark.parametrize("name,family,attrs,shapes", CASES, ids=[c[0] for c in CASES])
def test_float64_kernels_match_tensorflow(name, family, attrs, shapes, path):
    a = {key[len(name) + 1:]: FIXTURES[key] for key in FIXTURES.files if key.startswith(name + "/")}
    with using(path), counting_native_calls() as calls, fused_calls() as fused:
        ours = _results(family, attrs, a)
    # An optimizer update asks native.optimizer_update on both paths; True means its compiled kernel ran.
    ran_native = any(fused) if family == "apply" else calls[0] > 0
    assert ran_native == (path == "native")
    for key, value in ours.items():
        assert value.dtype == np.float64, key
        assert_close(a[key], value)
