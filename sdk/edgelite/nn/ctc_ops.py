"""tf.nn CTC: ctc_loss (TF1, SparseTensor labels), ctc_loss_v2 (dense or sparse labels), the greedy and
beam-search decoders (SparseTensor outputs), collapse_repeated and ctc_unique_labels."""
from __future__ import annotations

from typing import Any, Optional

from edgelite.framework import dtypes, ops, tensor_shape
from edgelite.framework.op_def_registry import register_op
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.kernels import ctc as kernels
from edgelite.ops import array_ops, functional_ops, math_ops, unique_ops

_FLOATS = {"T": [dtypes.float32, dtypes.float64]}


def _ctc_loss_shape(op: ops.Operation) -> list:
    x = op.inputs[0].shape.with_rank(3)
    op.inputs[1].shape.with_rank(2)
    op.inputs[2].shape.with_rank(1)
    lengths = op.inputs[3].shape.with_rank(1)
    batch = x.dims[1].merge_with(lengths.dims[0])
    return [tensor_shape.TensorShape([batch]), x]


register_op("CTCLoss", inputs=["inputs: T", "labels_indices: int64", "labels_values: int32",
                               "sequence_length: int32"],
            outputs=["loss: T", "gradient: T"],
            attrs={"preprocess_collapse_repeated": False, "ctc_merge_repeated": True,
                   "ignore_longer_outputs_than_inputs": False, "T": dtypes.float32},
            kernel=lambda ctx, x, idx, vals, lens: kernels.ctc_loss(
                x, idx, vals, lens, ctx.attrs["preprocess_collapse_repeated"], ctx.attrs["ctc_merge_repeated"],
                ctx.attrs["ignore_longer_outputs_than_inputs"]),
            shape_fn=_ctc_loss_shape, allowed_dtypes=_FLOATS)


@ops.RegisterGradient("CTCLoss")
def _ctc_loss_grad(op: ops.Operation, grad_loss: Any, _: Any) -> list:
    fused = array_ops.prevent_gradient(
        op.outputs[1], message="Currently there is no way to take the second  derivative of ctc_loss due to the "
                               "fused implementation's interaction  with tf.gradients()")
    return [array_ops.expand_dims(array_ops.expand_dims(grad_loss, 0), 2) * fused, None, None, None]


def _decoder_shape(op: ops.Operation) -> list:
    x = op.inputs[0].shape.with_rank(3)
    batch = x.dims[1].merge_with(op.inputs[1].shape.with_rank(1).dims[0])
    paths = op.get_attr("top_paths") if "top_paths" in op.attrs else 1
    return ([[None, 2]] * paths + [[None]] * paths + [[2]] * paths + [[batch.value, paths]])


register_op("CTCGreedyDecoder", inputs=["inputs: T", "sequence_length: int32"],
            outputs=["decoded_indices: int64", "decoded_values: int64", "decoded_shape: int64",
                     "log_probability: T"],
            attrs={"merge_repeated": False, "blank_index": -1, "T": dtypes.float32},
            kernel=lambda ctx, x, lens: kernels.greedy_decode(x, lens, ctx.attrs["merge_repeated"],
                                                              ctx.attrs["blank_index"]),
            shape_fn=_decoder_shape, allowed_dtypes=_FLOATS)
ops.NoGradient("CTCGreedyDecoder")

register_op("CTCBeamSearchDecoder", inputs=["inputs: T", "sequence_length: int32"],
            outputs=["decoded_indices: top_paths * int64", "decoded_values: top_paths * int64",
                     "decoded_shape: top_paths * int64", "log_probability: T"],
            attrs={"merge_repeated": True, "T": dtypes.float32},
            kernel=lambda ctx, x, lens: kernels.beam_search_decode(
                x, lens, ctx.attrs["beam_width"], ctx.attrs["top_paths"], ctx.attrs["merge_repeated"]),
            shape_fn=_decoder_shape, allowed_dtypes=_FLOATS)
ops.NoGradient("CTCBeamSearchDecoder")


def ctc_loss(labels: Any, inputs: Any = None, sequence_length: Any = None, preprocess_collapse_repeated: bool = False,
             ctc_merge_repeated: bool = True, ignore_longer_outputs_than_inputs: bool = False,
             time_major: bool = True, logits: Any = None) -> ops.Tensor:
    """Per-entry negative log probability of the labels (a SparseTensor) under CTC; blank is the last class."""
    if not isinstance(labels, SparseTensor):
        raise TypeError(f"Expected argument `labels` to be a SparseTensor. Received labels={labels} of type: "
                        f"{type(labels).__name__}")
    if inputs is not None and logits is not None:
        raise ValueError("Cannot specify both 'logits' and 'inputs'")
    inputs = ops.convert_to_tensor(inputs if inputs is not None else logits, name="logits")
    if not time_major:
        inputs = array_ops.transpose(inputs, [1, 0, 2])
    loss, _ = ops.apply_op("CTCLoss", [inputs, labels.indices, labels.values, sequence_length],
                           {"preprocess_collapse_repeated": bool(preprocess_collapse_repeated),
                            "ctc_merge_repeated": bool(ctc_merge_repeated),
                            "ignore_longer_outputs_than_inputs": bool(ignore_longer_outputs_than_inputs)})
    return loss


def _num_classes(logits: ops.Tensor) -> Any:
    n = logits.shape.with_rank(3).dims[2].value
    return n if n is not None else array_ops.shape(logits)[2]


def _blank_last(logits: ops.Tensor, values: ops.Tensor, blank_index: int) -> tuple:
    """Move class blank_index to the end (CTCLoss's blank) and renumber the labels above it."""
    logits = array_ops.concat([logits[:, :, :blank_index], logits[:, :, blank_index + 1:],
                               logits[:, :, blank_index:blank_index + 1]], axis=2)
    values = array_ops.where(values < blank_index, values, values - 1)
    return logits, values


def ctc_loss_v2(labels: Any, logits: Any, label_length: Any, logit_length: Any, logits_time_major: bool = True,
                unique: Any = None, blank_index: Optional[int] = None, name: Optional[str] = None) -> ops.Tensor:
    """CTC loss with dense [batch, max_label_len] labels and lengths (blank 0 by default) or sparse labels."""
    if isinstance(labels, SparseTensor):
        if blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when labels is a SparseTensor.")
        logits = ops.convert_to_tensor(logits, name="logits")
        classes = _num_classes(logits if logits_time_major else array_ops.transpose(logits, [1, 0, 2]))
        if blank_index < 0:
            blank_index += classes
        if blank_index != classes - 1:
            logits, values = _blank_last(logits, labels.values, blank_index)
            labels = SparseTensor(labels.indices, values, labels.dense_shape)
        return ctc_loss(labels=labels, inputs=logits, sequence_length=logit_length, time_major=logits_time_major)
    with ops.name_scope(name, "ctc_loss_dense", [logits, labels, label_length, logit_length]):
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        label_length = ops.convert_to_tensor(label_length, name="label_length")
        logit_length = ops.convert_to_tensor(logit_length, name="logit_length")
        if not logits_time_major:
            logits = array_ops.transpose(logits, [1, 0, 2])
        classes = _num_classes(logits)
        blank_index = 0 if blank_index is None else blank_index
        if blank_index < 0:
            blank_index += classes
        mask = array_ops.sequence_mask(label_length, maxlen=array_ops.shape(labels)[1])
        indices = array_ops.where(mask)
        values = math_ops.cast(array_ops.gather_nd(labels, indices), dtypes.int32)
        if blank_index != classes - 1:
            logits, values = _blank_last(logits, values, blank_index)
        loss, _ = ops.apply_op("CTCLoss", [logits, indices, values, math_ops.cast(logit_length, dtypes.int32)],
                               {"ignore_longer_outputs_than_inputs": False})
        return loss


def ctc_greedy_decoder(inputs: Any, sequence_length: Any, merge_repeated: bool = True,
                       blank_index: Optional[int] = None) -> tuple:
    """([SparseTensor of best paths], log_probabilities [batch, 1]): the most likely class at every step."""
    attrs = {"merge_repeated": bool(merge_repeated)}
    if blank_index is not None:
        attrs["blank_index"] = int(blank_index)
    ix, val, shape, log_prob = ops.apply_op("CTCGreedyDecoder", [inputs, sequence_length], attrs)
    return [SparseTensor(ix, val, shape)], log_prob


def ctc_beam_search_decoder(inputs: Any, sequence_length: Any, beam_width: int = 100, top_paths: int = 1,
                            merge_repeated: bool = True) -> tuple:
    """([top_paths SparseTensors], log_probabilities [batch, top_paths]): CTC prefix beam search."""
    outs = ops.apply_op("CTCBeamSearchDecoder", [inputs, sequence_length],
                        {"beam_width": int(beam_width), "top_paths": int(top_paths),
                         "merge_repeated": bool(merge_repeated)})
    n = int(top_paths)
    return [SparseTensor(outs[i], outs[n + i], outs[2 * n + i]) for i in range(n)], outs[3 * n]


def ctc_beam_search_decoder_v2(inputs: Any, sequence_length: Any, beam_width: int = 100,
                               top_paths: int = 1) -> tuple:
    """ctc_beam_search_decoder without merging repeated labels (TF2's tf.nn.ctc_beam_search_decoder)."""
    return ctc_beam_search_decoder(inputs, sequence_length, beam_width=beam_width, top_paths=top_paths,
                                   merge_repeated=False)


def collapse_repeated(labels: Any, seq_length: Any, name: Optional[str] = None) -> tuple:
    """(labels with consecutive repeats merged, padded with zeros; the new lengths)."""
    with ops.name_scope(name, "collapse_repeated_labels", [labels, seq_length]):
        labels = ops.convert_to_tensor(labels, name="labels")
        seq_length = ops.convert_to_tensor(seq_length, name="seq_length")
        keep = array_ops.concat([array_ops.ones_like(labels[:, :1], dtypes.bool),
                                 math_ops.not_equal(labels[:, 1:], labels[:, :-1])], axis=1)
        maxlen = array_ops.shape(labels)[1]
        keep = math_ops.logical_and(keep, array_ops.sequence_mask(seq_length, maxlen=maxlen))
        new_len = math_ops.reduce_sum(math_ops.cast(keep, dtypes.int32), axis=1)
        new_maxlen = math_ops.reduce_max(new_len)
        slots = array_ops.reshape(array_ops.sequence_mask(new_len, maxlen=new_maxlen), [-1])
        positions = math_ops.range(array_ops.shape(slots)[0])
        flat = array_ops.scatter_nd(
            indices=array_ops.expand_dims(array_ops.boolean_mask(positions, slots), axis=1),
            updates=array_ops.boolean_mask(array_ops.reshape(labels, [-1]), array_ops.reshape(keep, [-1])),
            shape=array_ops.shape(slots))
        batch = array_ops.shape(labels)[0]
        return array_ops.reshape(flat, [batch, new_maxlen]), math_ops.cast(new_len, seq_length.dtype)


def ctc_unique_labels(labels: Any, name: Optional[str] = None) -> tuple:
    """Per row, its unique labels in order of appearance (zero padded, int64) and each label's index in them."""
    with ops.name_scope(name, "ctc_unique_labels", [labels]):
        labels = ops.convert_to_tensor(labels, name="labels")

        def _unique(row: Any) -> list:
            y, idx = unique_ops.unique(row)
            y = array_ops.pad(y, [[0, array_ops.shape(idx)[0] - array_ops.shape(y)[0]]])
            return [math_ops.cast(y, dtypes.int64), idx]

        return functional_ops.map_fn(_unique, labels, dtype=[dtypes.int64, dtypes.int32])
