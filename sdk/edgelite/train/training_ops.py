"""Graph ops that apply optimizer updates to variables (TensorFlow's Apply*/SparseApply* op types).

Each kernel reads the variable and slot buffers through their references, updates private copies with the
numpy rules in `update_rules`, and writes them back, so values fetched earlier in the same run never change.
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np

from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op

from . import update_rules as ur

_FLOATS = ["float16", "bfloat16", "float32", "float64"]


def _first_input_shape(op: Any) -> list:
    return [op.inputs[0].shape]


def _kernel(n_refs: int, rule: Callable[..., None], arrange: Callable[[list, list, dict], tuple]) -> Callable:
    """Build a kernel: copy the `n_refs` referenced buffers, apply `rule`, write them back, return var's ref."""

    def kernel(ctx: Any, *args: Any) -> Any:
        refs = args[:n_refs]
        bufs = [np.array(r.read(), copy=True) for r in refs]
        rest = [np.asarray(a) for a in args[n_refs:]]
        rule(*arrange(bufs, rest, ctx.attrs))
        for r, b in zip(refs, bufs):
            r.write(b)
        return refs[0]

    return kernel


def _define(op_type: str, refs: List[str], scalars: List[str], grad_inputs: List[str], rule: Callable,
            arrange: Callable, extra_attrs: Optional[dict] = None) -> None:
    inputs = [f"{r}: Ref(T)" for r in refs] + [f"{s}: T" for s in scalars] + grad_inputs
    attrs = {"use_locking": False}
    attrs.update(extra_attrs or {})
    register_op(op_type, inputs=inputs, outputs=["out: Ref(T)"], attrs=attrs,
                kernel=_kernel(len(refs), rule, arrange), shape_fn=_first_input_shape, stateful=True,
                allowed_dtypes={"T": _FLOATS})
    # The resource-variable form (ResourceApplyAdam, ResourceSparseApplyAdam, ...): handles in, no output.
    resource_inputs = [f"{r}: resource" for r in refs] + inputs[len(refs):]
    register_op("Resource" + op_type, inputs=resource_inputs, outputs=[], attrs=dict(attrs),
                kernel=_resource_kernel(_kernel(len(refs), rule, arrange), len(refs)), shape_fn=lambda op: [],
                stateful=True)


def _resource_kernel(kernel: Callable, n_refs: int) -> Callable:
    """kernel applied to the variables behind resource handles (0-d object arrays holding executor VarRefs)."""

    def run(ctx: Any, *args: Any) -> tuple:
        refs = [a.item() if isinstance(a, np.ndarray) else a for a in args[:n_refs]]
        kernel(ctx, *refs, *args[n_refs:])
        return ()

    return run


def _idx(rest: list, at: int) -> np.ndarray:
    return np.asarray(rest[at]).astype(np.int64).reshape(-1)


# Dense ops: scalars are in the order TensorFlow's op definitions list them.
_define("ApplyGradientDescent", ["var"], ["alpha"], ["delta: T"], ur.apply_gradient_descent,
        lambda b, r, a: (b[0], r[0], r[1]))
_define("ApplyProximalGradientDescent", ["var"], ["alpha", "l1", "l2"], ["delta: T"],
        ur.apply_proximal_gradient_descent, lambda b, r, a: (b[0], r[0], r[1], r[2], r[3]))
_define("ApplyMomentum", ["var", "accum"], ["lr"], ["grad: T", "momentum: T"],
        lambda var, acc, lr, g, m, nesterov: ur.apply_momentum(var, acc, lr, g, m, nesterov),
        lambda b, r, a: (b[0], b[1], r[0], r[1], r[2], a["use_nesterov"]), extra_attrs={"use_nesterov": False})
_define("ApplyAdagrad", ["var", "accum"], ["lr"], ["grad: T"], ur.apply_adagrad,
        lambda b, r, a: (b[0], b[1], r[0], r[1], a["update_slots"]), extra_attrs={"update_slots": True})
_define("ApplyProximalAdagrad", ["var", "accum"], ["lr", "l1", "l2"], ["grad: T"], ur.apply_proximal_adagrad,
        lambda b, r, a: (b[0], b[1], r[0], r[1], r[2], r[3]))
_define("ApplyAdagradDA", ["var", "gradient_accumulator", "gradient_squared_accumulator"], [],
        ["grad: T", "lr: T", "l1: T", "l2: T", "global_step: int64"], ur.apply_adagrad_da,
        lambda b, r, a: (b[0], b[1], b[2], r[0], r[1], r[2], r[3], int(r[4])))
_define("ApplyAdadelta", ["var", "accum", "accum_update"], ["lr", "rho", "epsilon"], ["grad: T"],
        ur.apply_adadelta, lambda b, r, a: (b[0], b[1], b[2], r[0], r[1], r[2], r[3]))
_define("ApplyAdam", ["var", "m", "v"], ["beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"],
        ["grad: T"], ur.apply_adam, lambda b, r, a: (b[0], b[1], b[2], *r[:7], a["use_nesterov"]),
        extra_attrs={"use_nesterov": False})
_define("ApplyFtrl", ["var", "accum", "linear"], [], ["grad: T", "lr: T", "l1: T", "l2: T", "lr_power: T"],
        ur.apply_ftrl, lambda b, r, a: (b[0], b[1], b[2], r[0], r[1], r[2], r[3], r[4]))
_define("ApplyFtrlV2", ["var", "accum", "linear"], [],
        ["grad: T", "lr: T", "l1: T", "l2: T", "l2_shrinkage: T", "lr_power: T"],
        ur.apply_ftrl, lambda b, r, a: (b[0], b[1], b[2], r[0], r[1], r[2], r[3], r[5], r[4]))
_define("ApplyRMSProp", ["var", "ms", "mom"], ["lr", "rho", "momentum", "epsilon"], ["grad: T"],
        ur.apply_rmsprop, lambda b, r, a: (b[0], b[1], b[2], *r[:5]))
_define("ApplyCenteredRMSProp", ["var", "mg", "ms", "mom"], ["lr", "rho", "momentum", "epsilon"], ["grad: T"],
        ur.apply_centered_rmsprop, lambda b, r, a: (b[0], b[1], b[2], b[3], *r[:5]))

# Sparse ops take unique row indices (the optimizer sums duplicates first).
_define("SparseApplyGradientDescent", ["var"], ["alpha"], ["grad: T", "indices: Tindices"],
        ur.sparse_apply_gradient_descent, lambda b, r, a: (b[0], r[0], _idx(r, 2), r[1]))
_define("SparseApplyProximalGradientDescent", ["var"], ["alpha", "l1", "l2"], ["grad: T", "indices: Tindices"],
        ur.sparse_apply_proximal_gradient_descent, lambda b, r, a: (b[0], r[0], r[1], r[2], _idx(r, 4), r[3]))
_define("SparseApplyMomentum", ["var", "accum"], ["lr"], ["grad: T", "indices: Tindices", "momentum: T"],
        lambda var, acc, lr, idx, g, m, nest: ur.sparse_apply_momentum(var, acc, lr, idx, g, m, nest),
        lambda b, r, a: (b[0], b[1], r[0], _idx(r, 2), r[1], r[3], a["use_nesterov"]),
        extra_attrs={"use_nesterov": False})
_define("SparseApplyAdagrad", ["var", "accum"], ["lr"], ["grad: T", "indices: Tindices"], ur.sparse_apply_adagrad,
        lambda b, r, a: (b[0], b[1], r[0], _idx(r, 2), r[1], a["update_slots"]),
        extra_attrs={"update_slots": True})
_define("SparseApplyProximalAdagrad", ["var", "accum"], ["lr", "l1", "l2"], ["grad: T", "indices: Tindices"],
        ur.sparse_apply_proximal_adagrad, lambda b, r, a: (b[0], b[1], r[0], r[1], r[2], _idx(r, 4), r[3]))
_define("SparseApplyAdagradDA", ["var", "gradient_accumulator", "gradient_squared_accumulator"], [],
        ["grad: T", "indices: Tindices", "lr: T", "l1: T", "l2: T", "global_step: int64"],
        ur.sparse_apply_adagrad_da, lambda b, r, a: (b[0], b[1], b[2], _idx(r, 1), r[0], r[2], r[3], r[4], int(r[5])))
_define("SparseApplyAdadelta", ["var", "accum", "accum_update"], ["lr", "rho", "epsilon"],
        ["grad: T", "indices: Tindices"], ur.sparse_apply_adadelta,
        lambda b, r, a: (b[0], b[1], b[2], r[0], r[1], r[2], _idx(r, 4), r[3]))
_define("SparseApplyAdam", ["var", "m", "v"], ["beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"],
        ["grad: T", "indices: Tindices"], ur.sparse_apply_adam,
        lambda b, r, a: (b[0], b[1], b[2], *r[:6], _idx(r, 7), r[6]))
_define("SparseApplyFtrl", ["var", "accum", "linear"], [],
        ["grad: T", "indices: Tindices", "lr: T", "l1: T", "l2: T", "lr_power: T"], ur.sparse_apply_ftrl,
        lambda b, r, a: (b[0], b[1], b[2], _idx(r, 1), r[0], r[2], r[3], r[4], r[5]))
_define("SparseApplyFtrlV2", ["var", "accum", "linear"], [],
        ["grad: T", "indices: Tindices", "lr: T", "l1: T", "l2: T", "l2_shrinkage: T", "lr_power: T"],
        ur.sparse_apply_ftrl,
        lambda b, r, a: (b[0], b[1], b[2], _idx(r, 1), r[0], r[2], r[3], r[4], r[6], r[5]))
_define("SparseApplyRMSProp", ["var", "ms", "mom"], ["lr", "rho", "momentum", "epsilon"],
        ["grad: T", "indices: Tindices"], ur.sparse_apply_rmsprop,
        lambda b, r, a: (b[0], b[1], b[2], *r[:4], _idx(r, 5), r[4]))
_define("SparseApplyCenteredRMSProp", ["var", "mg", "ms", "mom"], ["lr", "rho", "momentum", "epsilon"],
        ["grad: T", "indices: Tindices"], ur.sparse_apply_centered_rmsprop,
        lambda b, r, a: (b[0], b[1], b[2], b[3], *r[:4], _idx(r, 5), r[4]))


def apply(op_type: str, inputs: list, attrs: Optional[dict] = None, name: Optional[str] = None) -> Any:
    """Create one of the training ops above in the default graph."""
    return ops.apply_op(op_type, inputs, attrs=attrs, name=name)
