"""Top-k retrieval metrics over class-id labels: precision/recall at k (from scores or from top-k indices) and
mean average precision at k. Labels are dense int class ids [D1, ..., DN] or [D1, ..., DN, num_labels]; each
row's ids are a set, as in TF's dense set operations."""
from __future__ import annotations

from typing import Any, NamedTuple, Optional, Sequence

import numpy as np

from edgelite.framework import dtypes, ops, sparse_tensor
from edgelite.nn.topk_ops import top_k
from edgelite.ops import array_ops, control_flow_ops, math_ops, state_ops
from edgelite.ops import sparse_to_dense as sparse_to_dense_ops
from edgelite.ops.sparse_structure_ops import sparse_expand_dims

from .metric_utils import add_collections, broadcast_weights, check_broadcastable, metric_variable, safe_div

Collections = Optional[Sequence[str]]


def _at_k_name(name: str, k: Optional[int] = None, class_id: Optional[int] = None) -> str:
    name = f"{name}_at_{k}" if k is not None else f"{name}_at_k"
    return f"{name}_class{class_id}" if class_id is not None else name


class LabelSets(NamedTuple):
    """Label ids [..., num_labels] and, for labels given as a SparseTensor, which entries are real (the others
    are padding from densifying it, and belong to no set)."""

    ids: ops.Tensor
    valid: Optional[ops.Tensor]


def _maybe_expand_labels(labels: Any, predictions: ops.Tensor) -> LabelSets:
    """labels as LabelSets, with a trailing num_labels dim of 1 added when they have one dim fewer than
    predictions."""
    with ops.name_scope(None, "expand_labels", (labels, predictions)) as scope:
        pr = predictions.shape.ndims
        if sparse_tensor.is_sparse(labels):
            labels = sparse_tensor.as_sparse(labels)
            if pr is not None and labels.shape.ndims is not None and pr == labels.shape.ndims + 1:
                labels = sparse_expand_dims(labels, -1)
            present = sparse_tensor.SparseTensor(labels.indices, array_ops.ones_like(labels.values, dtypes.bool),
                                                 labels.dense_shape)
            return LabelSets(sparse_to_dense_ops.sparse_tensor_to_dense(labels, default_value=-1),
                             sparse_to_dense_ops.sparse_tensor_to_dense(present, default_value=False))
        labels = ops.convert_to_tensor(labels)
        lr = labels.shape.ndims
        if lr is not None and pr is not None and pr == lr + 1:
            return LabelSets(array_ops.expand_dims(labels, -1, name=scope), None)
        return LabelSets(labels, None)


def _and_valid(mask: ops.Tensor, valid: Optional[ops.Tensor]) -> ops.Tensor:
    return mask if valid is None else math_ops.logical_and(mask, valid)


def _set_members(ids: ops.Tensor, valid: Optional[ops.Tensor] = None) -> ops.Tensor:
    """bool [..., n]: True at the first real occurrence of each id in its row (the row read as a set)."""
    n = ids.shape[-1]
    earlier = ops.convert_to_tensor(np.tril(np.ones((n, n), dtype=bool), -1))
    same = math_ops.equal(array_ops.expand_dims(ids, -1), array_ops.expand_dims(ids, -2))
    if valid is not None:
        same = math_ops.logical_and(same, array_ops.expand_dims(valid, -2))
    first = math_ops.logical_not(math_ops.reduce_any(math_ops.logical_and(same, earlier), -1))
    return _and_valid(first, valid)


def _in_labels(ids: ops.Tensor, labels: LabelSets) -> ops.Tensor:
    """bool [..., k]: whether each id of a row is one of the row's labels."""
    hits = math_ops.equal(array_ops.expand_dims(ids, -1), array_ops.expand_dims(labels.ids, -2))
    if labels.valid is not None:
        hits = math_ops.logical_and(hits, array_ops.expand_dims(labels.valid, -2))
    return math_ops.reduce_any(hits, -1)


def _set_counts(labels: LabelSets, predictions_idx: ops.Tensor, class_id: Optional[int]) -> tuple:
    """(|P ∩ L|, |P \\ L|, |L \\ P|) per row as int64, where P and L are the rows' sets of predicted and label
    ids (restricted to class_id when given)."""
    predictions_idx = math_ops.cast(predictions_idx, dtypes.int64)
    labels = LabelSets(math_ops.cast(labels.ids, dtypes.int64), labels.valid)
    if class_id is not None:
        in_p = math_ops.reduce_any(math_ops.equal(predictions_idx, class_id), -1)
        in_l = math_ops.reduce_any(_and_valid(math_ops.equal(labels.ids, class_id), labels.valid), -1)
        both = math_ops.logical_and(in_p, in_l)
        only_p = math_ops.logical_and(in_p, math_ops.logical_not(in_l))
        only_l = math_ops.logical_and(in_l, math_ops.logical_not(in_p))
        return tuple(math_ops.cast(c, dtypes.int64) for c in (both, only_p, only_l))
    p_members = _set_members(predictions_idx)
    size_p = math_ops.reduce_sum(math_ops.cast(p_members, dtypes.int64), -1)
    size_l = math_ops.reduce_sum(math_ops.cast(_set_members(labels.ids, labels.valid), dtypes.int64), -1)
    in_l = _in_labels(predictions_idx, labels)
    both = math_ops.reduce_sum(math_ops.cast(math_ops.logical_and(p_members, in_l), dtypes.int64), -1)
    return both, size_p - both, size_l - both


def _weighted_count(count: ops.Tensor, weights: Any) -> ops.Tensor:
    count = math_ops.cast(count, dtypes.float64)
    if weights is None:
        return count
    weights = ops.convert_to_tensor(weights)
    check_broadcastable(weights, count)
    return math_ops.multiply(count, math_ops.cast(weights, dtypes.float64))


def _streaming_count(kind: str, index: int, labels: ops.Tensor, predictions_idx: ops.Tensor, k: Optional[int],
                     class_id: Optional[int], weights: Any) -> tuple:
    """(variable, update) of the running float64 total of one set count ('true_positive', ...)."""
    plural = {"true_positive": "true_positives", "false_positive": "false_positives",
              "false_negative": "false_negatives"}[kind]
    with ops.name_scope(None, _at_k_name(kind, k, class_id), (predictions_idx, labels, weights)) as scope:
        with ops.name_scope(None, plural, (predictions_idx, labels, weights)):
            count = _weighted_count(_set_counts(labels, predictions_idx, class_id)[index], weights)
        batch_total = math_ops.cast(math_ops.reduce_sum(count), dtypes.float64)
        var = metric_variable([], dtypes.float64, name=scope)
        return var, state_ops.assign_add(var, batch_total, name="update")


def _at_top_k(kind: str, labels: Any, predictions_idx: Any, k: Optional[int], class_id: Optional[int],
              weights: Any, metrics_collections: Collections, updates_collections: Collections,
              name: Optional[str]) -> tuple:
    """precision (tp / (tp + fp)) or recall (tp / (tp + fn)) over the running set counts."""
    other, index = ("false_positive", 1) if kind == "precision" else ("false_negative", 2)
    with ops.name_scope(name, _at_k_name(kind, k, class_id), (predictions_idx, labels, weights)) as scope:
        predictions_idx = ops.convert_to_tensor(predictions_idx)
        labels = _maybe_expand_labels(labels, predictions_idx)
        top_k_idx = math_ops.cast(predictions_idx, dtypes.int64)
        tp, tp_up = _streaming_count("true_positive", 0, labels, top_k_idx, k, class_id, weights)
        miss, miss_up = _streaming_count(other, index, labels, top_k_idx, k, class_id, weights)
        value = math_ops.div(tp, math_ops.add(tp, miss), name=scope)
        update = math_ops.div(tp_up, math_ops.add(tp_up, miss_up), name="update")
        return add_collections(value, update, metrics_collections, updates_collections)


def precision_at_top_k(labels: Any, predictions_idx: Any, k: Optional[int] = None, class_id: Optional[int] = None,
                       weights: Any = None, metrics_collections: Collections = None,
                       updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """(precision, update_op): running fraction of the given top-k class ids that are among the labels."""
    return _at_top_k("precision", labels, predictions_idx, k, class_id, weights, metrics_collections,
                     updates_collections, name)


def recall_at_top_k(labels: Any, predictions_idx: Any, k: Optional[int] = None, class_id: Optional[int] = None,
                    weights: Any = None, metrics_collections: Collections = None,
                    updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """(recall, update_op): running fraction of the labels found among the given top-k class ids."""
    return _at_top_k("recall", labels, predictions_idx, k, class_id, weights, metrics_collections,
                     updates_collections, name)


def _top_k_indices(predictions: Any, k: int) -> ops.Tensor:
    return top_k(predictions, k)[1]


def precision_at_k(labels: Any, predictions: Any, k: int, class_id: Optional[int] = None, weights: Any = None,
                   metrics_collections: Collections = None, updates_collections: Collections = None,
                   name: Optional[str] = None) -> tuple:
    """(precision, update_op): precision_at_top_k of the k highest-scoring classes of predictions."""
    with ops.name_scope(name, _at_k_name("precision", k, class_id), (predictions, labels, weights)) as scope:
        return precision_at_top_k(labels, _top_k_indices(predictions, k), k, class_id, weights,
                                  metrics_collections, updates_collections, scope)


def recall_at_k(labels: Any, predictions: Any, k: int, class_id: Optional[int] = None, weights: Any = None,
                metrics_collections: Collections = None, updates_collections: Collections = None,
                name: Optional[str] = None) -> tuple:
    """(recall, update_op): recall_at_top_k of the k highest-scoring classes of predictions."""
    with ops.name_scope(name, _at_k_name("recall", k, class_id), (predictions, labels, weights)) as scope:
        return recall_at_top_k(labels, _top_k_indices(predictions, k), k, class_id, weights,
                               metrics_collections, updates_collections, scope)


def sparse_precision_at_k(labels: Any, predictions: Any, k: int, class_id: Optional[int] = None,
                          weights: Any = None, metrics_collections: Collections = None,
                          updates_collections: Collections = None, name: Optional[str] = None) -> tuple:
    """The older name of precision_at_k."""
    return precision_at_k(labels, predictions, k, class_id, weights, metrics_collections, updates_collections, name)


def _clean_out_of_range(labels: LabelSets, num_classes: Any) -> LabelSets:
    """labels with ids >= num_classes (never retrievable) replaced by -1."""
    ids = labels.ids
    num_classes = math_ops.cast(num_classes, ids.dtype)
    ids = control_flow_ops.cond(
        math_ops.greater_equal(math_ops.reduce_max(ids), num_classes),
        lambda: array_ops.where_v2(math_ops.greater_equal(ids, num_classes), -1 * array_ops.ones_like(ids), ids),
        lambda: ids)
    return LabelSets(ids, labels.valid)


def _average_precision_per_row(labels: LabelSets, predictions_idx: ops.Tensor) -> ops.Tensor:
    """float64 [D1..DN]: sum over ranks i of precision@i at relevant ranks, over min(#valid labels, k)."""
    with ops.name_scope(None, "average_precision", (predictions_idx, labels)) as scope:
        predictions_idx = math_ops.cast(predictions_idx, dtypes.int64, name="predictions_idx")
        if predictions_idx.shape.ndims == 0:
            raise ValueError("The rank of predictions_idx must be at least 1.")
        k = predictions_idx.shape[-1]
        if k is None:
            raise ValueError("The last dimension of predictions_idx must be set.")
        k = int(k)
        labels = LabelSets(math_ops.cast(labels.ids, dtypes.int64), labels.valid)
        relevant = math_ops.cast(_in_labels(predictions_idx, labels), dtypes.float64, name="relevant_per_k")
        tp_per_k = math_ops.cumsum(relevant, axis=-1, name="tp_per_k")
        retrieved_per_k = math_ops.cumsum(array_ops.ones_like(relevant), axis=-1, name="retrieved_per_k")
        precision_per_k = math_ops.div(tp_per_k, retrieved_per_k, name="precision_per_k")
        precision_sum = math_ops.reduce_sum(math_ops.multiply(precision_per_k, relevant), axis=(-1,),
                                            name="precision_sum")
        # dense labels count their non-negative ids; sparse ones the distinct stored ids (TF's set_size)
        counted = math_ops.greater_equal(labels.ids, 0) if labels.valid is None else \
            _set_members(labels.ids, labels.valid)
        valid = math_ops.reduce_sum(math_ops.cast(counted, dtypes.int64), -1)
        num_relevant = math_ops.cast(math_ops.minimum(valid, k, name="num_relevant"), dtypes.float64)
        return math_ops.div(precision_sum, num_relevant, name=scope)


def average_precision_at_k(labels: Any, predictions: Any, k: int, weights: Any = None,
                           metrics_collections: Collections = None, updates_collections: Collections = None,
                           name: Optional[str] = None) -> tuple:
    """(mean_average_precision, update_op): running (weighted) mean over rows of average precision at k."""
    if k < 1:
        raise ValueError(f"Invalid k={k}. `k` should be >= 1.")
    with ops.name_scope(name, _at_k_name("average_precision", k), (predictions, labels, weights)) as scope:
        predictions = ops.convert_to_tensor(predictions)
        predictions_idx = _top_k_indices(predictions, k)
        labels = _clean_out_of_range(_maybe_expand_labels(labels, predictions_idx),
                                     array_ops.shape(predictions)[-1])
        ap = _average_precision_per_row(labels, predictions_idx)
        if weights is not None:
            weights = broadcast_weights(math_ops.cast(weights, dtypes.float64), ap)
            ap = math_ops.multiply(ap, weights)
        with ops.name_scope(None, "max", (ap,)) as max_scope:
            max_var = metric_variable([], dtypes.float64, name=max_scope)
            batch_max = math_ops.cast(array_ops.size(ap, name="batch_max"), dtypes.float64) if weights is None \
                else math_ops.reduce_sum(weights, name="batch_max")
            max_update = state_ops.assign_add(max_var, batch_max, name="update")
        with ops.name_scope(None, "total", (ap,)) as total_scope:
            total_var = metric_variable([], dtypes.float64, name=total_scope)
            total_update = state_ops.assign_add(total_var, math_ops.reduce_sum(ap, name="batch_total"),
                                                name="update")
        value = safe_div(total_var, max_var, name="mean")
        update = safe_div(total_update, max_update, name=scope)
        return add_collections(value, update, metrics_collections, updates_collections)


def sparse_average_precision_at_k(labels: Any, predictions: Any, k: int, weights: Any = None,
                                  metrics_collections: Collections = None, updates_collections: Collections = None,
                                  name: Optional[str] = None) -> tuple:
    """The older name of average_precision_at_k."""
    return average_precision_at_k(labels, predictions, k, weights, metrics_collections, updates_collections, name)
