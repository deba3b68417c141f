"""Softmax cross-entropy kernels: per-row loss plus the backprop TF's ops return alongside it."""
from __future__ import annotations

from typing import Tuple

import numpy as np

from . import native
from .activations import log_softmax
from .backend import native_for


def softmax_cross_entropy_with_logits(logits: np.ndarray, labels: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """SoftmaxCrossEntropyWithLogits over the last axis: (loss [batch...], backprop = softmax - labels)."""
    logits, labels = np.broadcast_arrays(logits, labels)
    if logits.ndim < 1:
        raise ValueError("logits and labels must have rank >= 1")
    h = native_for(logits, labels) if logits.shape[-1] > 0 else None
    if h is not None:
        return native.softmax_xent(h, logits, labels)
    logp = log_softmax(logits)
    loss = -(labels * logp).sum(axis=-1)
    return loss.astype(logits.dtype, copy=False), (np.exp(logp) - labels).astype(logits.dtype, copy=False)


def sparse_softmax_cross_entropy_with_logits(logits: np.ndarray, labels: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """SparseSoftmaxCrossEntropyWithLogits: integer class labels; out-of-range labels are an error."""
    if logits.ndim != labels.ndim + 1 or logits.shape[:-1] != labels.shape:
        raise ValueError(f"logits and labels must have the same first dimension(s), got logits shape "
                         f"{list(logits.shape)} and labels shape {list(labels.shape)}")
    classes = logits.shape[-1]
    bad = (labels < 0) | (labels >= classes)
    if bad.any():
        raise ValueError(f"Received a label value of {int(labels[bad].flat[0])} which is outside the valid "
                         f"range of [0, {classes}).  Label values: {' '.join(str(int(v)) for v in labels.flat)}")
    h = native_for(logits) if classes > 0 else None
    if h is not None:
        return native.softmax_xent(h, logits, labels, sparse=True)
    logp = log_softmax(logits)
    idx = labels.astype(np.intp)[..., None]
    loss = -np.take_along_axis(logp, idx, axis=-1)[..., 0]
    backprop = np.exp(logp)
    np.put_along_axis(backprop, idx, np.take_along_axis(backprop, idx, axis=-1) - 1, axis=-1)
    return loss.astype(logits.dtype, copy=False), backprop.astype(logits.dtype, copy=False)
