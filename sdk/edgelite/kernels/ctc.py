"""numpy kernels of TensorFlow's CTC ops: the loss with its gradient (forward-backward in log space),
the greedy decoder and the prefix beam-search decoder.

Inputs are time-major [max_time, batch, num_classes] logits. The loss and its gradient for one batch
entry follow Graves et al. 2006 over the extended label sequence l' = (blank, l1, blank, ..., lL, blank).
"""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from edgelite.framework import errors


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def log_softmax(x: np.ndarray) -> np.ndarray:
    """log softmax over the last axis, in float64."""
    x = x.astype(np.float64)
    m = x.max(axis=-1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))


def _logsumexp(*terms: np.ndarray) -> np.ndarray:
    stacked = np.stack(terms)
    m = stacked.max(axis=0)
    finite = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return finite + np.log(np.exp(stacked - finite).sum(axis=0))


def check_sequence_length(seq_len: np.ndarray, max_time: int, batch: int) -> None:
    """The run-time checks of TF's CTC ops on sequence_length."""
    if seq_len.shape != (batch,):
        raise _invalid(f"len(sequence_length) != batch_size.  len(sequence_length):  {seq_len.size} batch_size: "
                       f"{batch}")
    for b, n in enumerate(seq_len):
        if n < 0:
            raise _invalid(f"seq_len({b}) < 0")
        if n > max_time:
            raise _invalid(f"sequence_length({b}) <= {max_time}")


def sparse_labels(indices: np.ndarray, values: np.ndarray, batch: int) -> List[np.ndarray]:
    """Per batch entry, its label sequence from a SparseTensor's (ordered) indices and values."""
    if indices.ndim != 2 or indices.shape[1] != 2:
        raise _invalid(f"labels_indices must be a matrix with 2 columns, got shape {list(indices.shape)}")
    for i in range(1, indices.shape[0]):
        if tuple(indices[i]) <= tuple(indices[i - 1]):
            raise _invalid(f"label SparseTensor is not valid: indices[{i}] = [{indices[i][0]},{indices[i][1]}] is "
                           "out of order. Many sparse ops require sorted indices.")
    out = []
    for b in range(batch):
        labels = values[indices[:, 0] == b].astype(np.int64)
        if (labels < 0).any():
            raise _invalid(f"All labels must be nonnegative integers, batch: {b} labels: "
                           f"{','.join(str(v) for v in labels)}")
        out.append(labels)
    return out


def collapse(labels: np.ndarray) -> np.ndarray:
    """Consecutive repeats merged into one."""
    if labels.size == 0:
        return labels
    keep = np.concatenate([[True], labels[1:] != labels[:-1]])
    return labels[keep]


def _transition_masks(ext: np.ndarray, blank: int, merge_repeated: bool) -> Tuple[np.ndarray, np.ndarray]:
    """Which states may stay in place, and which may be entered by skipping the blank before them.

    Without merging, a label state cannot repeat itself (that would emit the label twice) and a
    repeated label may follow its twin directly.
    """
    stay = np.full(ext.shape, True) if merge_repeated else ext == blank
    skip = np.zeros(ext.shape, bool)
    skip[2:] = (ext[2:] != blank) & ((ext[2:] != ext[:-2]) | (not merge_repeated))
    return stay, skip


def ctc_loss_one(logy: np.ndarray, labels: np.ndarray, blank: int, merge_repeated: bool) -> Tuple[float, np.ndarray]:
    """-log p(labels | logits) and its gradient w.r.t. the logits, for one entry with log-softmax logy [T, C]."""
    steps, classes = logy.shape
    ext = np.full(2 * labels.size + 1, blank, np.int64)
    ext[1::2] = labels
    n = ext.size
    stay, skip = _transition_masks(ext, blank, merge_repeated)
    neg = -np.inf
    emit = logy[:, ext]
    alpha = np.full((steps, n), neg)
    alpha[0, 0] = emit[0, 0]
    if n > 1:
        alpha[0, 1] = emit[0, 1]
    for t in range(1, steps):
        prev = alpha[t - 1]
        from_prev = np.concatenate([[neg], prev[:-1]])
        from_skip = np.where(skip, np.concatenate([[neg, neg], prev[:-2]]), neg)
        alpha[t] = emit[t] + _logsumexp(np.where(stay, prev, neg), from_prev, from_skip)
    beta = np.full((steps, n), neg)
    beta[-1, -1] = emit[-1, -1]
    if n > 1:
        beta[-1, -2] = emit[-1, -2]
    skip_next = np.concatenate([skip[2:], [False, False]])
    for t in range(steps - 2, -1, -1):
        nxt = beta[t + 1]
        to_next = np.concatenate([nxt[1:], [neg]])
        to_skip = np.where(skip_next, np.concatenate([nxt[2:], [neg, neg]]), neg)
        beta[t] = emit[t] + _logsumexp(np.where(stay, nxt, neg), to_next, to_skip)
    log_p = _logsumexp(alpha[-1, -1], alpha[-1, -2] if n > 1 else neg)
    with np.errstate(invalid="ignore", over="ignore"):
        occupancy = np.exp(alpha + beta - emit - log_p)
    grad = np.exp(logy)
    for s in range(n):
        grad[:, ext[s]] -= occupancy[:, s]
    return float(-log_p), grad


def ctc_loss(inputs: np.ndarray, indices: np.ndarray, values: np.ndarray, seq_len: np.ndarray,
             preprocess_collapse_repeated: bool, ctc_merge_repeated: bool,
             ignore_longer_outputs_than_inputs: bool) -> Tuple[np.ndarray, np.ndarray]:
    """TF's CTCLoss: per-entry loss [batch] and the gradient of the loss w.r.t. inputs [T, batch, C]."""
    if inputs.ndim != 3:
        raise _invalid(f"inputs is not a 3-Tensor: {list(inputs.shape)}")
    max_time, batch, classes = inputs.shape
    seq_len = np.asarray(seq_len).astype(np.int64)
    check_sequence_length(seq_len, max_time, batch)
    all_labels = sparse_labels(np.asarray(indices), np.asarray(values), batch)
    blank = classes - 1
    loss = np.zeros(batch, np.float64)
    grad = np.zeros(inputs.shape, np.float64)
    for b in range(batch):
        labels, steps = all_labels[b], int(seq_len[b])
        if labels.size > steps:
            if ignore_longer_outputs_than_inputs:
                continue
            raise _invalid(f"Not enough time for target transition sequence (required: {labels.size}, available: "
                           f"{steps}){b}You can turn this error into a warning by using the flag "
                           "ignore_longer_outputs_than_inputs")
        if preprocess_collapse_repeated:
            labels = collapse(labels)
        if steps == 0:
            continue
        loss[b], grad[:steps, b] = ctc_loss_one(log_softmax(inputs[:steps, b]), labels, blank, ctc_merge_repeated)
    return loss.astype(inputs.dtype), grad.astype(inputs.dtype)


def _sparse_output(paths: List[List[int]]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    indices = [(b, i) for b, p in enumerate(paths) for i in range(len(p))]
    values = [v for p in paths for v in p]
    width = max((len(p) for p in paths), default=0)
    return (np.array(indices, np.int64).reshape(-1, 2), np.array(values, np.int64),
            np.array([len(paths), width], np.int64))


def greedy_decode(inputs: np.ndarray, seq_len: np.ndarray, merge_repeated: bool, blank_index: int) -> tuple:
    """TF's CTCGreedyDecoder: best class per step, blanks dropped, repeats merged; log prob = -sum(max)."""
    max_time, batch, classes = inputs.shape
    seq_len = np.asarray(seq_len).astype(np.int64)
    check_sequence_length(seq_len, max_time, batch)
    blank = blank_index + classes if blank_index < 0 else blank_index
    if not 0 <= blank < classes:
        raise _invalid(f"blank_index expected to be between {-classes} and {classes} but was {blank_index}")
    best = inputs.argmax(axis=2)
    top = inputs.max(axis=2)
    paths, log_prob = [], np.zeros((batch, 1), inputs.dtype)
    for b in range(batch):
        steps = int(seq_len[b])
        log_prob[b, 0] = -top[:steps, b].sum()
        path, prev = [], -1
        for c in best[:steps, b]:
            if c != blank and not (merge_repeated and c == prev):
                path.append(int(c))
            prev = c
        paths.append(path)
    return _sparse_output(paths) + (log_prob,)


class _Beam:
    """A prefix in the beam-search tree: log probabilities of ending in blank / in its label, at t-1 and t."""

    __slots__ = ("parent", "label", "children", "old", "new")

    def __init__(self, parent: Any, label: int) -> None:
        self.parent, self.label, self.children = parent, label, {}
        self.old = [-np.inf, -np.inf, -np.inf]  # blank, label, total
        self.new = [-np.inf, -np.inf, -np.inf]

    @property
    def active(self) -> bool:
        return self.new[2] != -np.inf

    def child(self, label: int) -> "_Beam":
        if label not in self.children:
            self.children[label] = _Beam(self, label)
        return self.children[label]

    def labels(self, merge_repeated: bool) -> List[int]:
        out, prev, node = [], None, self
        while node.parent is not None:
            if not merge_repeated or node.label != prev:
                out.append(node.label)
            prev, node = node.label, node.parent
        return out[::-1]


def _lse(a: float, b: float) -> float:
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    m = max(a, b)
    return m + float(np.log(np.exp(a - m) + np.exp(b - m)))


def _beam_step(leaves: List[_Beam], logp: np.ndarray, width: int, blank: int) -> List[_Beam]:
    """One time step of CTC prefix beam search over the beam `leaves` (at most width entries)."""
    branches = sorted(leaves, key=lambda e: -e.new[2])
    leaves = []
    for b in branches:
        b.old = list(b.new)
    for b in branches:
        if b.parent is not None:
            if b.parent.active:
                prev = b.parent.old[0] if b.label == b.parent.label else b.parent.old[2]
                b.new[1] = _lse(b.new[1], prev)
            b.new[1] += logp[b.label]
        b.new[0] = b.old[2] + logp[blank]
        b.new[2] = _lse(b.new[0], b.new[1])
        leaves.append(b)

    def candidate(total: float) -> bool:
        return total > -np.inf and (len(leaves) < width or total > min(e.new[2] for e in leaves))

    for b in branches:
        if not candidate(b.old[2]):
            continue
        for label in range(logp.shape[0] - 1):
            c = b.child(label)
            if c.active:
                continue
            prev = b.old[0] if label == b.label else b.old[2]
            c.new = [-np.inf, logp[label] + prev, logp[label] + prev]
            if candidate(c.new[2]):
                if len(leaves) == width:
                    bottom = min(leaves, key=lambda e: e.new[2])
                    bottom.new = [-np.inf, -np.inf, -np.inf]
                    leaves.remove(bottom)
                leaves.append(c)
            else:
                c.old = [-np.inf, -np.inf, -np.inf]
                c.new = [-np.inf, -np.inf, -np.inf]
    return leaves


def beam_search_decode(inputs: np.ndarray, seq_len: np.ndarray, beam_width: int, top_paths: int,
                       merge_repeated: bool) -> tuple:
    """TF's CTCBeamSearchDecoder (no language model): top_paths sparse decodings and their log probabilities."""
    max_time, batch, classes = inputs.shape
    seq_len = np.asarray(seq_len).astype(np.int64)
    check_sequence_length(seq_len, max_time, batch)
    if top_paths > beam_width:
        raise _invalid("requested more paths than the beam width.")
    logp = log_softmax(inputs)
    paths: List[List[List[int]]] = [[] for _ in range(top_paths)]
    log_prob = np.zeros((batch, top_paths), inputs.dtype)
    for b in range(batch):
        root = _Beam(None, -1)
        root.new = [0.0, -np.inf, 0.0]
        leaves = [root]
        for t in range(int(seq_len[b])):
            leaves = _beam_step(leaves, logp[t, b], beam_width, classes - 1)
        if top_paths > len(leaves):
            raise _invalid("Less leaves in the beam search than requested.")
        best = sorted(leaves, key=lambda e: -e.new[2])[:top_paths]
        for i, e in enumerate(best):
            paths[i].append(e.labels(merge_repeated))
            log_prob[b, i] = e.new[2]
    outputs = [_sparse_output(p) for p in paths]
    return tuple([o[0] for o in outputs] + [o[1] for o in outputs] + [o[2] for o in outputs] + [log_prob])
