"""tf.edit_distance: Levenshtein distance between the sequences (last dimension) of two SparseTensors."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import ops
from edgelite.framework import tensor_util
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.sparse_tensor import SparseTensor, SparseTensorValue
from edgelite.ops import sparse_checks as checks
from edgelite.ops.sparse_structure_kernels import lex_order


def levenshtein(truth: np.ndarray, hyp: np.ndarray) -> int:
    """Edit distance with unit costs; one numpy pass per truth element (insertions via a running minimum)."""
    if truth.size == 0 or hyp.size == 0:
        return max(truth.size, hyp.size)
    cols = np.arange(hyp.size + 1)
    prev = cols.copy()
    for i, t in enumerate(truth, start=1):
        cost = (hyp != t).astype(np.int64)
        tmp = np.empty_like(prev)
        tmp[0] = i
        tmp[1:] = np.minimum(prev[1:] + 1, prev[:-1] + cost)
        prev = np.minimum.accumulate(tmp - cols) + cols
    return int(prev[-1])


def _groups(indices: np.ndarray, values: np.ndarray) -> dict:
    """Sequences keyed by their leading coordinates, entries in index order."""
    order = lex_order(indices) if indices.shape[0] else np.zeros(0, np.int64)
    out: dict = {}
    for row, v in zip(indices[order, :-1].tolist(), values[order]):
        out.setdefault(tuple(row), []).append(v)
    return {k: np.asarray(v) for k, v in out.items()}


def _validate(name: str, indices: np.ndarray, values: np.ndarray, shape: np.ndarray) -> None:
    if indices.ndim != 2:
        raise checks.invalid(f"{name}_indices should be a matrix, but got shape: {checks.fmt_index(indices.shape)}")
    if values.ndim != 1:
        raise checks.invalid(f"{name}_values should be a vector, but got shape: {checks.fmt_index(values.shape)}")
    if shape.ndim != 1:
        raise checks.invalid(f"{name}_shape should be a vector, but got shape: {checks.fmt_index(shape.shape)}")
    if values.shape[0] != indices.shape[0]:
        raise checks.invalid(f"Expected {name}_values.dim(0) == {name}_indices.dim(0).  Got {values.shape[0]} vs. "
                             f"{indices.shape[0]}")
    if shape.shape[0] != indices.shape[1]:
        raise checks.invalid(f"Expected {name}_shape.dim(0) == {name}_indices.dim(1).  Got {shape.shape[0]} vs. "
                             f"{indices.shape[1]}")


def _edit_distance_kernel(ctx: Any, h_ind: np.ndarray, h_val: np.ndarray, h_shape: np.ndarray, t_ind: np.ndarray,
                          t_val: np.ndarray, t_shape: np.ndarray) -> np.ndarray:
    _validate("hypothesis", h_ind, h_val, h_shape)
    _validate("truth", t_ind, t_val, t_shape)
    if h_shape.shape[0] != t_shape.shape[0]:
        raise checks.invalid(f"Expected truth and hypothesis to have matching ranks, but their shapes are: "
                             f"{checks.fmt_index(t_shape.shape)} and {checks.fmt_index(h_shape.shape)}")
    if t_shape.shape[0] < 2:
        raise checks.invalid(f"Input SparseTensors must have rank at least 2, but truth_shape rank is: "
                             f"{t_shape.shape[0]}")
    out = np.zeros(tuple(np.maximum(h_shape[:-1], t_shape[:-1])), np.float32)
    hyp, truth = _groups(h_ind, h_val), _groups(t_ind, t_val)
    normalize = ctx.attrs["normalize"]
    for loc in set(hyp) | set(truth):
        h, t = hyp.get(loc), truth.get(loc)
        if t is None:
            out[loc] = np.inf if normalize else h.size
        elif h is None:
            out[loc] = 1.0 if normalize else t.size
        else:
            d = levenshtein(t, h)
            out[loc] = d / t.size if normalize else d
    return out


def _edit_distance_shape(op: ops.Operation) -> list:
    hyp = tensor_util.constant_value_as_shape(op.inputs[2])
    truth = tensor_util.constant_value_as_shape(op.inputs[5])
    if hyp.ndims is None:
        return [None]
    dims = []
    for i in range(hyp.ndims - 1):
        a = hyp[i].value
        b = truth[i].value if truth.ndims is not None and i < truth.ndims else None
        dims.append(None if a is None or b is None else max(a, b))
    return [dims]


register_op("EditDistance",
            inputs=["hypothesis_indices: int64", "hypothesis_values: T", "hypothesis_shape: int64",
                    "truth_indices: int64", "truth_values: T", "truth_shape: int64"],
            outputs=["output: float32"], attrs={"normalize": True}, kernel=_edit_distance_kernel,
            shape_fn=_edit_distance_shape)
ops.NoGradient("EditDistance")


def edit_distance(hypothesis: Any, truth: Any, normalize: bool = True, name: Optional[str] = "edit_distance"
                  ) -> ops.Tensor:
    """float32 Levenshtein distance per sequence (sequences along the last dimension), divided by the truth
    length if normalize (inf for an empty truth)."""
    if not isinstance(hypothesis, (SparseTensor, SparseTensorValue)):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, (SparseTensor, SparseTensorValue)):
        raise TypeError("Truth must be a SparseTensor.")
    return ops.apply_op("EditDistance", [hypothesis.indices, hypothesis.values, hypothesis.dense_shape,
                                         truth.indices, truth.values, truth.dense_shape],
                        {"normalize": normalize}, name=name)
