"""tf.metrics cases shared by the TensorFlow fixture generator and the edgelite tests.

A case is (name, feeds, build): `feeds` maps a feed name to (dtype name, shape, data kind); `build(tf, ph)`
gets the module and a dict of placeholders and returns (value, update_op). Every case is run over BATCHES
update batches drawn from a seeded generator, so TensorFlow and edgelite see the same numbers.
"""
from __future__ import annotations

import zlib

import numpy as np

BATCHES = 3
N = 8
CLASSES = 4
LOGITS = 5


def batch_data(case: str, feeds: dict, step: int) -> dict:
    """Deterministic data for one update batch of a case."""
    rng = np.random.default_rng(zlib.crc32(f"{case}/{step}".encode()))
    out = {}
    for key, (dtype, shape, kind) in feeds.items():
        shape = [N if d is None else d for d in shape]
        if kind == "binary":
            v = rng.integers(0, 2, size=shape)
        elif kind == "prob":
            v = rng.uniform(0.0, 1.0, size=shape)
        elif kind == "class":
            v = rng.integers(0, CLASSES, size=shape)
        elif kind == "label5":
            v = rng.integers(0, LOGITS, size=shape)
        elif kind == "label_pad":
            v = np.where(rng.random(size=shape) < 0.3, -1, rng.integers(0, LOGITS, size=shape))
        elif kind == "label8":
            v = rng.integers(0, 8, size=shape)
        elif kind == "weight":
            v = rng.choice([0.0, 0.5, 1.0, 2.0], size=shape)
        else:
            v = rng.normal(0.0, 1.0, size=shape)
        out[key] = np.asarray(v).astype(dtype)
    return out


_BIN = {"labels": ("int64", [N], "binary"), "predictions": ("float32", [N], "prob")}
_BINW = dict(_BIN, weights=("float32", [N], "weight"))
_BOOL = {"labels": ("int64", [N], "binary"), "predictions": ("int64", [N], "binary")}
_BOOLW = dict(_BOOL, weights=("float32", [N], "weight"))
_CLS = {"labels": ("int64", [N], "class"), "predictions": ("int64", [N], "class")}
_CLSW = dict(_CLS, weights=("float32", [N], "weight"))
_REG = {"labels": ("float32", [N, 3], "normal"), "predictions": ("float32", [N, 3], "normal")}
_REGW = dict(_REG, weights=("float32", [N, 1], "weight"))
_VAL = {"values": ("float32", [N, 3], "normal")}
_VALW = dict(_VAL, weights=("float32", [N, 3], "weight"))
_TOPK = {"labels": ("int64", [N], "label5"), "predictions": ("float32", [N, LOGITS], "normal")}
_TOPK2 = {"labels": ("int64", [N, 2], "label5"), "predictions": ("float32", [N, LOGITS], "normal")}
_TOPK2W = dict(_TOPK2, weights=("float32", [N], "weight"))
_SPARSE = {"labels": ("int64", [N, 3], "label_pad"), "predictions": ("float32", [N, LOGITS], "normal")}
_SPARSEW = dict(_SPARSE, weights=("float32", [N], "weight"))
_IDX = {"labels": ("int64", [N, 2], "label5"), "predictions_idx": ("int32", [N, 3], "label5")}
_THR = [0.15, 0.5, 0.85]
_DYN = {"labels": ("bool", [None], "binary"), "predictions": ("float32", [None], "prob"),
        "weights": ("float32", [None, 1], "weight")}
_WIDE = {"labels": ("int64", [N, 3], "label8"), "predictions": ("float32", [N, LOGITS], "normal")}


def _sparse(tf, labels):
    """The non-negative entries of a padded dense label matrix as a SparseTensor."""
    where = tf.where(labels >= 0)
    return tf.SparseTensor(where, tf.gather_nd(labels, where), tf.shape(labels, out_type=tf.int64))


def _unit(tf, x):
    """Rows scaled to unit length (inputs of mean_cosine_distance)."""
    return tf.nn.l2_normalize(x, 1)


METRIC_CASES = [
    ("accuracy", _CLS, lambda tf, p: tf.metrics.accuracy(p["labels"], p["predictions"])),
    ("accuracy_w", _CLSW, lambda tf, p: tf.metrics.accuracy(p["labels"], p["predictions"], p["weights"])),
    ("mean", _VAL, lambda tf, p: tf.metrics.mean(p["values"])),
    ("mean_w", _VALW, lambda tf, p: tf.metrics.mean(p["values"], p["weights"])),
    ("mean_tensor", _VAL, lambda tf, p: tf.metrics.mean_tensor(p["values"])),
    ("mean_tensor_w", _VALW, lambda tf, p: tf.metrics.mean_tensor(p["values"], p["weights"])),
    ("mean_absolute_error", _REGW,
     lambda tf, p: tf.metrics.mean_absolute_error(p["labels"], p["predictions"], p["weights"])),
    ("mean_squared_error", _REG, lambda tf, p: tf.metrics.mean_squared_error(p["labels"], p["predictions"])),
    ("root_mean_squared_error", _REGW,
     lambda tf, p: tf.metrics.root_mean_squared_error(p["labels"], p["predictions"], p["weights"])),
    ("mean_relative_error", _REG,
     lambda tf, p: tf.metrics.mean_relative_error(p["labels"], p["predictions"], tf.abs(p["labels"]) + 0.5)),
    ("mean_cosine_distance", _REGW,
     lambda tf, p: tf.metrics.mean_cosine_distance(_unit(tf, p["labels"]), _unit(tf, p["predictions"]), 1,
                                                   weights=p["weights"])),
    ("percentage_below", _VALW, lambda tf, p: tf.metrics.percentage_below(p["values"], 0.3, p["weights"])),
    ("true_positives", _BOOL, lambda tf, p: tf.metrics.true_positives(p["labels"], p["predictions"])),
    ("false_positives", _BOOLW,
     lambda tf, p: tf.metrics.false_positives(p["labels"], p["predictions"], p["weights"])),
    ("true_negatives", _BOOLW, lambda tf, p: tf.metrics.true_negatives(p["labels"], p["predictions"], p["weights"])),
    ("false_negatives", _BOOL, lambda tf, p: tf.metrics.false_negatives(p["labels"], p["predictions"])),
    ("precision", _BOOL, lambda tf, p: tf.metrics.precision(p["labels"], p["predictions"])),
    ("precision_w", _BOOLW, lambda tf, p: tf.metrics.precision(p["labels"], p["predictions"], p["weights"])),
    ("recall", _BOOLW, lambda tf, p: tf.metrics.recall(p["labels"], p["predictions"], p["weights"])),
    ("true_positives_at_thresholds", _BIN,
     lambda tf, p: tf.metrics.true_positives_at_thresholds(p["labels"], p["predictions"], _THR)),
    ("false_positives_at_thresholds", _BINW,
     lambda tf, p: tf.metrics.false_positives_at_thresholds(p["labels"], p["predictions"], _THR, p["weights"])),
    ("true_negatives_at_thresholds", _BIN,
     lambda tf, p: tf.metrics.true_negatives_at_thresholds(p["labels"], p["predictions"], _THR)),
    ("false_negatives_at_thresholds", _BINW,
     lambda tf, p: tf.metrics.false_negatives_at_thresholds(p["labels"], p["predictions"], _THR, p["weights"])),
    ("precision_at_thresholds", _BINW,
     lambda tf, p: tf.metrics.precision_at_thresholds(p["labels"], p["predictions"], _THR, p["weights"])),
    ("recall_at_thresholds", _BIN,
     lambda tf, p: tf.metrics.recall_at_thresholds(p["labels"], p["predictions"], _THR)),
    ("auc", _BIN, lambda tf, p: tf.metrics.auc(p["labels"], p["predictions"])),
    ("auc_w", _BINW, lambda tf, p: tf.metrics.auc(p["labels"], p["predictions"], p["weights"], num_thresholds=7)),
    ("auc_pr", _BIN, lambda tf, p: tf.metrics.auc(p["labels"], p["predictions"], curve="PR", num_thresholds=50)),
    ("auc_pr_careful", _BINW,
     lambda tf, p: tf.metrics.auc(p["labels"], p["predictions"], p["weights"], curve="PR",
                                  summation_method="careful_interpolation")),
    ("auc_minoring", _BIN,
     lambda tf, p: tf.metrics.auc(p["labels"], p["predictions"], num_thresholds=20, summation_method="minoring")),
    ("auc_majoring", _BIN,
     lambda tf, p: tf.metrics.auc(p["labels"], p["predictions"], curve="PR", summation_method="majoring")),
    ("auc_thresholds", _BIN,
     lambda tf, p: tf.metrics.auc(p["labels"], p["predictions"], thresholds=[0.7, 0.2, 0.5])),
    ("sensitivity_at_specificity", _BIN,
     lambda tf, p: tf.metrics.sensitivity_at_specificity(p["labels"], p["predictions"], 0.6)),
    ("specificity_at_sensitivity", _BINW,
     lambda tf, p: tf.metrics.specificity_at_sensitivity(p["labels"], p["predictions"], 0.4, p["weights"],
                                                         num_thresholds=30)),
    ("mean_iou", _CLS, lambda tf, p: tf.metrics.mean_iou(p["labels"], p["predictions"], CLASSES)),
    ("mean_iou_w", _CLSW, lambda tf, p: tf.metrics.mean_iou(p["labels"], p["predictions"], CLASSES, p["weights"])),
    ("mean_per_class_accuracy", _CLSW,
     lambda tf, p: tf.metrics.mean_per_class_accuracy(p["labels"], p["predictions"], CLASSES, p["weights"])),
    ("recall_at_k", _TOPK, lambda tf, p: tf.metrics.recall_at_k(p["labels"], p["predictions"], 2)),
    ("recall_at_k_class", _TOPK2,
     lambda tf, p: tf.metrics.recall_at_k(p["labels"], p["predictions"], 2, class_id=3)),
    ("precision_at_k", _TOPK2W, lambda tf, p: tf.metrics.precision_at_k(p["labels"], p["predictions"], 3,
                                                                        weights=p["weights"])),
    ("sparse_precision_at_k", _TOPK, lambda tf, p: tf.metrics.sparse_precision_at_k(p["labels"], p["predictions"],
                                                                                      1, class_id=2)),
    ("precision_at_top_k", _IDX, lambda tf, p: tf.metrics.precision_at_top_k(p["labels"], p["predictions_idx"])),
    ("recall_at_top_k", _IDX, lambda tf, p: tf.metrics.recall_at_top_k(p["labels"], p["predictions_idx"], k=3)),
    ("average_precision_at_k", _TOPK2,
     lambda tf, p: tf.metrics.average_precision_at_k(p["labels"], p["predictions"], 3)),
    ("sparse_average_precision_at_k", _TOPK2W,
     lambda tf, p: tf.metrics.sparse_average_precision_at_k(p["labels"], p["predictions"], 2, p["weights"])),
    ("auc_unknown_batch", _DYN, lambda tf, p: tf.metrics.auc(p["labels"], p["predictions"], p["weights"])),
    ("precision_at_thresholds_unknown_batch", _DYN,
     lambda tf, p: tf.metrics.precision_at_thresholds(p["labels"], p["predictions"], _THR, p["weights"])),
    ("average_precision_out_of_range_labels", _WIDE,
     lambda tf, p: tf.metrics.average_precision_at_k(p["labels"], p["predictions"], 4)),
    ("recall_at_k_out_of_range_labels", _WIDE, lambda tf, p: tf.metrics.recall_at_k(p["labels"], p["predictions"], 2)),
    ("recall_at_k_sparse", _SPARSE, lambda tf, p: tf.metrics.recall_at_k(_sparse(tf, p["labels"]), p["predictions"],
                                                                         2)),
    ("precision_at_k_sparse", _SPARSEW, lambda tf, p: tf.metrics.precision_at_k(
        _sparse(tf, p["labels"]), p["predictions"], 3, weights=p["weights"])),
    ("precision_at_k_sparse_class", _SPARSE, lambda tf, p: tf.metrics.sparse_precision_at_k(
        _sparse(tf, p["labels"]), p["predictions"], 2, class_id=1)),
    ("average_precision_at_k_sparse", _SPARSE, lambda tf, p: tf.metrics.average_precision_at_k(
        _sparse(tf, p["labels"]), p["predictions"], 3)),
    ("recall_at_top_k_sparse", _SPARSE, lambda tf, p: tf.metrics.recall_at_top_k(
        _sparse(tf, p["labels"]), tf.nn.top_k(p["predictions"], 2)[1])),
    ("named_collections", _BOOL,
     lambda tf, p: tf.metrics.recall(p["labels"], p["predictions"], metrics_collections=["m"],
                                     updates_collections=["u"], name="my_recall")),
]

def build_many(tf):
    """Several metrics in one graph, repeated and inside variable and name scopes: (local variable names,
    value/update tensor names), which TF uniquifies per scope."""
    labels = tf.placeholder(tf.int64, [4])
    preds = tf.placeholder(tf.int64, [4])
    scores = tf.placeholder(tf.float32, [4])
    pairs = [tf.metrics.accuracy(labels, preds), tf.metrics.accuracy(labels, preds)]
    with tf.variable_scope("eval"):
        pairs += [tf.metrics.recall_at_k(labels, tf.one_hot(preds, 5), 2), tf.metrics.auc(labels, scores),
                  tf.metrics.average_precision_at_k(labels, tf.one_hot(preds, 5), 2)]
    with tf.name_scope("ns"):
        pairs += [tf.metrics.precision(labels, preds), tf.metrics.mean_iou(labels, preds, 5)]
    return [v.name for v in tf.local_variables()], [t.name for pair in pairs for t in pair]


# (name, build(tf) raising at graph construction, or returning an update op that fails when run)
ERROR_CASES = [
    ("auc_predictions_above_one", lambda tf: tf.metrics.auc(tf.constant([1, 0, 1]), tf.constant([0.2, 1.5, 0.3]))[1]),
    ("auc_predictions_above_one_at_run", lambda tf: tf.metrics.auc(
        tf.constant([1, 0, 1]), tf.placeholder_with_default([0.2, 1.5, 0.3], [3]))[1]),
    ("precision_at_thresholds_negative_at_run", lambda tf: tf.metrics.precision_at_thresholds(
        tf.constant([1, 0]), tf.placeholder_with_default([-0.2, 0.5], [2]), [0.5])[1]),
    ("mean_iou_label_out_of_range_at_run", lambda tf: tf.metrics.mean_iou(
        tf.placeholder_with_default([0, 4], [2]), tf.constant([1, 1]), 3)[1]),
    ("auc_bad_curve", lambda tf: tf.metrics.auc([1, 0], [0.2, 0.7], curve="XY")),
    ("auc_bad_summation",
     lambda tf: tf.metrics.auc(tf.constant([1, 0]), tf.constant([0.2, 0.7]), summation_method="median")),
    ("sensitivity_out_of_range", lambda tf: tf.metrics.sensitivity_at_specificity([1, 0], [0.2, 0.7], 1.5)),
    ("specificity_out_of_range",
     lambda tf: tf.metrics.specificity_at_sensitivity(tf.constant([1, 0]), tf.constant([0.2, 0.7]), -0.1)),
    ("average_precision_bad_k", lambda tf: tf.metrics.average_precision_at_k([[1], [0]], [[0.1, 0.9], [0.3, 0.2]],
                                                                             0)),
    ("weights_not_broadcastable",
     lambda tf: tf.metrics.mean(tf.zeros([4, 3]), tf.ones([4, 2]))),
    ("accuracy_shape_mismatch", lambda tf: tf.metrics.accuracy(tf.zeros([4, 3]), tf.zeros([4, 2]))),
]
