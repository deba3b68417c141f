"""SoftmaxCrossEntropyWithLogits / SparseSoftmaxCrossEntropyWithLogits ops with gradients, and the tf.nn
cross-entropy wrappers (softmax, sparse softmax, sigmoid)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.framework.op_def_registry import FLOAT_TYPES, register_op
from edgelite.kernels import softmax_xent
from edgelite.ops import array_ops, math_ops
from edgelite.ops.shape_checks import shape_error

from .activation_ops import log_softmax, softmax


def _broadcast_dim(op: Any, a: Optional[int], b: Optional[int]) -> Optional[int]:
    """One dimension of two broadcast shapes: equal, or one of them 1 (unknown stays unknown against 1)."""
    if a == b or b == 1:
        return a
    if a == 1:
        return b
    if a is None or b is None:
        return b if a is None else a
    raise shape_error(op, f"Dimensions must be equal, but are {a} and {b}")


def _xent_shape(op: Any) -> list:
    """[batch] and the [batch, classes] backprop: logits and labels of one 2-D shape, or (as TF's kernel allows)
    two shapes that broadcast to a 2-D one, e.g. a [1, classes] side."""
    logits, labels = op.inputs[0].shape, op.inputs[1].shape
    if logits.ndims in (None, 2) and logits.is_compatible_with(labels):
        shape = logits.merge_with(labels) if logits.ndims is not None and labels.ndims is not None else (
            logits if logits.ndims is not None else labels)
        if shape.ndims is None:
            return [[None], [None, None]]
        if shape.ndims != 2:
            raise shape_error(op, f"Shape must be rank 2 but is rank {shape.ndims}")
        return [[shape.as_list()[0]], shape]
    if logits.ndims is None or labels.ndims is None:
        raise shape_error(op, "Shape must be broadcasted with rank 2, but is rank is unknown.")
    a, b = logits.as_list(), labels.as_list()
    width = max(len(a), len(b))
    a, b = [1] * (width - len(a)) + a, [1] * (width - len(b)) + b
    dims = [_broadcast_dim(op, x, y) for x, y in zip(a, b)]
    if len(dims) != 2:
        raise shape_error(op, f"Shape must be broadcasted with rank 2, but is rank {len(dims)}")
    return [[dims[0]], dims]


def _sparse_xent_shape(op: Any) -> list:
    logits, labels = op.inputs[0].shape, op.inputs[1].shape
    if logits.ndims is not None and logits.ndims != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {logits.ndims} for '{op.name}' (logits)")
    if labels.ndims is not None and labels.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {labels.ndims} for '{op.name}' (labels)")
    batch = tensor_shape.TensorShape([None]) if labels.ndims is None else labels
    if logits.ndims is not None:
        batch = batch.merge_with(logits[:1])
        return [batch, batch.concatenate(logits[1:])]
    return [batch, batch.concatenate([None])]


register_op("SoftmaxCrossEntropyWithLogits", inputs=["features: T", "labels: T"], outputs=["loss: T", "backprop: T"],
            kernel=lambda ctx, f, lb: softmax_xent.softmax_cross_entropy_with_logits(f, lb), shape_fn=_xent_shape,
            allowed_dtypes={"T": FLOAT_TYPES})
register_op("SparseSoftmaxCrossEntropyWithLogits", inputs=["features: T", "labels: Tlabels"],
            outputs=["loss: T", "backprop: T"], attrs={"Tlabels": dtypes.int64},
            kernel=lambda ctx, f, lb: softmax_xent.sparse_softmax_cross_entropy_with_logits(f, lb),
            shape_fn=_sparse_xent_shape, allowed_dtypes={"T": FLOAT_TYPES})


def _is_zero(g: Any) -> bool:
    if g is None:
        return True
    return g.op.type in ("ZerosLike", "Zeros") or (g.op.type == "Const" and not np.any(g.op.get_attr("value")))


def _broadcast_mul(vec: Any, mat: Any) -> Any:
    return array_ops.expand_dims(vec, -1) * mat


def _grad_grad_term(grad_grad: Any, logits: Any) -> Any:
    """Second-order contribution through the backprop output (softmax(logits) - labels)."""
    sm = softmax(logits)
    return (grad_grad - math_ops.reduce_sum(grad_grad * sm, -1, keepdims=True)) * sm


@ops.RegisterGradient("SoftmaxCrossEntropyWithLogits")
def _softmax_xent_grad(op: Any, grad_loss: Any, grad_grad: Any = None) -> list:
    logits = op.inputs[0]
    grad = _broadcast_mul(grad_loss, op.outputs[1])
    if not _is_zero(grad_grad):
        grad = grad + _grad_grad_term(grad_grad, logits)
    return [grad, _broadcast_mul(grad_loss, -log_softmax(logits))]


@ops.RegisterGradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_softmax_xent_grad(op: Any, grad_loss: Any, grad_grad: Any = None) -> list:
    grad = _broadcast_mul(grad_loss, op.outputs[1])
    if not _is_zero(grad_grad):
        grad = grad + _grad_grad_term(grad_grad, op.inputs[0])
    return [grad, None]


def _flatten_outer(t: Any) -> Any:
    """[d0, ..., dn-1, C] -> [prod(d0..dn-1), C], as the 2-D op requires; the static shape kept where known."""
    if t.shape.ndims == 2:
        return t
    classes = array_ops.shape(t)[-1:]
    out = array_ops.reshape(t, array_ops.concat([[-1], classes], 0))
    if t.shape.ndims is not None:
        dims = t.shape.as_list()
        outer = None if None in dims[:-1] else int(np.prod(dims[:-1], dtype=np.int64))
        out.set_shape([outer, dims[-1]])
    return out


def _cost_shape(cost: Any, logits_shape: Any) -> list:
    """The logits' shape minus the class axis, with one unknown dimension filled from the op's known batch size
    (what reshaping the [batch] cost to that shape infers)."""
    dims = logits_shape.as_list()[:-1]
    batch = cost.shape.as_list()[0] if cost.shape.ndims == 1 else None
    unknown = [i for i, d in enumerate(dims) if d is None]
    if batch is not None and len(unknown) == 1:
        known = int(np.prod([d for d in dims if d is not None], dtype=np.int64))
        if known and batch % known == 0:
            dims[unknown[0]] = batch // known
    return dims


def _move_axis_last(t: Any, axis: int) -> Any:
    """t with the class axis moved (not swapped) to the end, the other axes keeping their order as in TF;
    read at run time when the rank is unknown."""
    ndims = t.shape.ndims
    if axis == -1 or (ndims is not None and axis % ndims == ndims - 1):
        return t
    if ndims is not None:
        axis %= ndims
        return array_ops.transpose(t, [i for i in range(ndims) if i != axis] + [axis])
    rank = array_ops.rank(t)
    if axis < 0:
        axis = rank + axis
    perm = array_ops.concat([math_ops.range(axis), math_ops.range(axis + 1, rank), array_ops.reshape(axis, [1])], 0)
    return array_ops.transpose(t, perm)


def softmax_cross_entropy_with_logits_v2(labels: Any = None, logits: Any = None, axis: Any = None,
                                         name: Optional[str] = None, dim: Any = None) -> ops.Tensor:
    """Per-example -sum(labels * log_softmax(logits)); gradients flow into both labels and logits."""
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    axis = -1 if axis is None and dim is None else (axis if axis is not None else dim)
    with ops.name_scope(name, "softmax_cross_entropy_with_logits", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        # TF casts the labels to the logits' dtype (float64 one-hot labels against float32 logits are common).
        labels = math_ops.cast(ops.convert_to_tensor(labels, name="labels"), logits.dtype)
        # As in TF, labels need not share the logits' shape: each side is flattened to [-1, classes] on its own and
        # the op checks (and broadcasts) the two matrices.
        logits_t, labels_t = _move_axis_last(logits, axis), _move_axis_last(labels, axis)
        if logits_t.shape.ndims == 2 and labels_t.shape.ndims == 2:
            cost, _ = ops.apply_op("SoftmaxCrossEntropyWithLogits", [logits_t, labels_t], name=name)
            return cost
        cost, _ = ops.apply_op("SoftmaxCrossEntropyWithLogits", [_flatten_outer(logits_t), _flatten_outer(labels_t)])
        out_shape = array_ops.shape(logits_t)[:-1]
        out = array_ops.reshape(cost, out_shape, name=name)
        if logits_t.shape.ndims is not None:
            out.set_shape(_cost_shape(cost, logits_t.shape))
        return out


def softmax_cross_entropy_with_logits(labels: Any = None, logits: Any = None, dim: int = -1,
                                      name: Optional[str] = None, axis: Any = None) -> ops.Tensor:
    """The v1 op: like _v2 but labels are wrapped in stop_gradient (no gradient flows into them)."""
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    axis = axis if axis is not None else dim
    with ops.name_scope(name, "softmax_cross_entropy_with_logits_sg", [logits, labels]) as name:
        labels = array_ops.stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, axis=axis, name=name)


def sparse_softmax_cross_entropy_with_logits(labels: Any = None, logits: Any = None,
                                             name: Optional[str] = None) -> ops.Tensor:
    """Per-example cross entropy against integer class labels of rank one less than logits."""
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    with ops.name_scope(name, "SparseSoftmaxCrossEntropyWithLogits", [labels, logits]):
        labels = ops.convert_to_tensor(labels)
        logits = ops.convert_to_tensor(logits)
        if labels.dtype.is_floating or labels.dtype.is_bool:
            raise TypeError(f"labels must be int32 or int64, got {labels.dtype.name}")
        lr, gr = labels.shape.ndims, logits.shape.ndims
        if gr == 0:
            raise ValueError(f"Logits cannot be scalars - received shape {logits.shape}.")
        if lr is not None and gr is not None:
            if lr != gr - 1:
                raise ValueError(f"Rank mismatch: Rank of labels (received {lr}) should equal rank of logits minus 1 "
                                 f"(received {gr}).")
            if not labels.shape.is_compatible_with(logits.shape[:-1]):
                raise ValueError(f"Shape mismatch: The shape of labels (received {labels.shape}) should equal the "
                                 f"shape of logits except for the last dimension (received {logits.shape}).")
        if gr == 2:
            cost, _ = ops.apply_op("SparseSoftmaxCrossEntropyWithLogits", [logits, labels], name=name)
            return cost
        flat_labels = array_ops.reshape(labels, [-1])
        cost, _ = ops.apply_op("SparseSoftmaxCrossEntropyWithLogits", [_flatten_outer(logits), flat_labels])
        out = array_ops.reshape(cost, array_ops.shape(labels), name=name)
        if labels.shape.ndims is not None:
            out.set_shape(labels.shape)
        return out


def sigmoid_cross_entropy_with_logits(labels: Any = None, logits: Any = None, name: Optional[str] = None,
                                      _sentinel: Any = None) -> ops.Tensor:
    """max(x, 0) - x * z + log(1 + exp(-|x|)) for logits x and labels z: stable logistic loss."""
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    with ops.name_scope(name, "logistic_loss", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, dtype=logits.dtype, name="labels")
        if not logits.shape.is_compatible_with(labels.shape):
            raise ValueError(f"logits and labels must have the same shape ({logits.shape} vs {labels.shape})")
        zeros = array_ops.zeros_like(logits, dtype=logits.dtype)
        cond = math_ops.greater_equal(logits, zeros)
        relu_logits = array_ops.where(cond, logits, zeros)
        neg_abs_logits = array_ops.where(cond, -logits, logits)
        return math_ops.add(relu_logits - logits * labels, math_ops.log1p(math_ops.exp(neg_abs_logits)), name=name)


def weighted_cross_entropy_with_logits(labels: Any = None, logits: Any = None, pos_weight: Any = None,
                                       name: Optional[str] = None, targets: Any = None) -> ops.Tensor:
    """Logistic loss with the positive term scaled by pos_weight."""
    labels = labels if labels is not None else targets
    with ops.name_scope(name, "logistic_loss", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, dtype=logits.dtype, name="labels")
        if not logits.shape.is_compatible_with(labels.shape):
            raise ValueError(f"logits and labels must have the same shape ({logits.shape} vs {labels.shape})")
        log_weight = 1 + (pos_weight - 1) * labels
        return math_ops.add((1 - labels) * logits,
                            log_weight * (math_ops.log1p(math_ops.exp(-math_ops.abs(logits)))
                                          + math_ops.maximum(-logits, array_ops.zeros_like(logits))), name=name)
