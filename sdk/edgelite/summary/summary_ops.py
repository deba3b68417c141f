"""Summary graph ops (TensorFlow's ScalarSummary, HistogramSummary, ImageSummary, TensorSummaryV2, MergeSummary).

Each op outputs a scalar string tensor holding a serialized Summary proto; the wrappers add it to the
SUMMARIES collection so merge_all() can gather it, and use the op's name scope as the tag, as TensorFlow does.
"""
from __future__ import annotations

import contextlib
import re
from typing import Any, Iterator, List, Optional, Tuple

import numpy as np

from edgelite.framework import dtypes, errors, ops
from edgelite.framework.op_def_registry import register_op
from edgelite import tf_logging

from . import values as sv
from .protos import SummaryDescription, SummaryMetadata, TensorProto


def _scalar_out(op: Any) -> list:
    return [[]]


def _as_bytes_scalar(summary: Any) -> np.ndarray:
    out = np.empty((), dtype=object)
    out[()] = summary.SerializeToString()
    return out


def _text(value: Any) -> str:
    item = np.asarray(value).reshape(-1)[0] if np.asarray(value).size else b""
    return item.decode("utf-8") if isinstance(item, bytes) else str(item)


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _scalar_kernel(ctx: Any, tags: np.ndarray, values: np.ndarray) -> np.ndarray:
    tags, values = np.asarray(tags), np.asarray(values)
    if tags.shape != values.shape:
        raise _invalid(f"tags and values are not the same shape: {list(tags.shape)} != {list(values.shape)}")
    merged = sv.Summary()
    for tag, value in zip(tags.reshape(-1), values.reshape(-1)):
        merged.value.extend(sv.scalar_summary(tag.decode("utf-8") if isinstance(tag, bytes) else str(tag),
                                              value).value)
    return _as_bytes_scalar(merged)


def _histogram_kernel(ctx: Any, tag: np.ndarray, values: np.ndarray) -> np.ndarray:
    name = _text(tag)
    try:
        return _as_bytes_scalar(sv.histogram_summary(name, values))
    except ValueError as exc:
        raise _invalid(str(exc)) from None


def _image_kernel(ctx: Any, tag: np.ndarray, tensor: np.ndarray) -> np.ndarray:
    try:
        summary = sv.image_summary(_text(tag), tensor, int(ctx.attrs["max_images"]),
                                   list(np.asarray(ctx.attrs["bad_color"]).reshape(-1)))
    except ValueError as exc:
        raise _invalid(str(exc)) from None
    return _as_bytes_scalar(summary)


def _tensor_summary_kernel(ctx: Any, tag: np.ndarray, tensor: np.ndarray, metadata: np.ndarray) -> np.ndarray:
    arr = np.asarray(tensor)
    if arr.dtype == object or arr.dtype.kind in "SU":
        summary = sv.text_summary(_text(tag), tensor)
    else:
        # TensorFlow stores the value as raw tensor_content (AsProtoTensorContent), whatever its size.
        from edgelite.framework.graph_def import shape_proto

        proto = TensorProto(dtype=dtypes.as_dtype(arr.dtype).as_datatype_enum, tensor_shape=shape_proto(arr.shape),
                            tensor_content=arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes())
        summary = sv.Summary(value=[sv.Summary.Value(tag=_text(tag), tensor=proto)])
    raw_meta = np.asarray(metadata).reshape(-1)[0]
    summary.value[0].metadata = SummaryMetadata.FromString(raw_meta if isinstance(raw_meta, bytes) else b"")
    return _as_bytes_scalar(summary)


def _merge_kernel(ctx: Any, inputs: List[np.ndarray]) -> np.ndarray:
    parts = []
    for arr in inputs:
        parts.extend(np.asarray(arr).reshape(-1))
    try:
        return _as_bytes_scalar(sv.merge_summaries(parts))
    except ValueError as exc:
        raise _invalid(str(exc)) from None


register_op("ScalarSummary", inputs=["tags: string", "values: T"], outputs=["summary: string"],
            kernel=_scalar_kernel, shape_fn=_scalar_out)
register_op("HistogramSummary", inputs=["tag: string", "values: T"], outputs=["summary: string"],
            kernel=_histogram_kernel, shape_fn=_scalar_out)
register_op("ImageSummary", inputs=["tag: string", "tensor: T"], outputs=["summary: string"],
            attrs={"max_images": 3, "bad_color": np.array([255, 0, 0, 255], np.uint8)},
            kernel=_image_kernel, shape_fn=_scalar_out)
def _audio_kernel(ctx: Any, tag: np.ndarray, tensor: np.ndarray, sample_rate: np.ndarray) -> np.ndarray:
    from edgelite.ops.wav_codec import encode_s16le_wav

    rate = float(sample_rate)
    if rate <= 0:
        raise _invalid(f"sample_rate must be > 0, got {rate}")
    if tensor.ndim not in (2, 3):
        raise _invalid(f"Tensor must be 3-D or 2-D, got: {list(tensor.shape)}")
    clips = tensor if tensor.ndim == 3 else tensor[:, :, None]
    max_outputs = int(ctx.attrs["max_outputs"])
    base = _text(tag)
    summary = sv.Summary()
    for i in range(min(clips.shape[0], max_outputs)):
        value = summary.value.add(tag=f"{base}/audio/{i}" if max_outputs > 1 else f"{base}/audio")
        value.audio = sv.Summary.Audio(
            sample_rate=rate, num_channels=clips.shape[2], length_frames=clips.shape[1],
            encoded_audio_string=encode_s16le_wav(clips[i], int(rate)), content_type="audio/wav")
    return _as_bytes_scalar(summary)


register_op("AudioSummaryV2", inputs=["tag: string", "tensor: float", "sample_rate: float"],
            outputs=["summary: string"], attrs={"max_outputs": 3}, kernel=_audio_kernel, shape_fn=_scalar_out)
register_op("TensorSummaryV2", inputs=["tag: string", "tensor: T", "serialized_summary_metadata: string"],
            outputs=["summary: string"], kernel=_tensor_summary_kernel, shape_fn=_scalar_out)
register_op("MergeSummary", inputs=["inputs: N * string"], outputs=["summary: string"],
            kernel=_merge_kernel, shape_fn=_scalar_out)


def _collect(op: Any, collections: Optional[List[str]]) -> None:
    for key in (collections if collections is not None else [ops.GraphKeys.SUMMARIES]):
        ops.add_to_collection(key, op)


_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w.]")


def clean_tag(name: Optional[str]) -> Optional[str]:
    """The summary name with characters a node name cannot hold replaced by '_' and leading '/' dropped.

    TensorFlow accepts names such as a variable's "W1:0" this way (logging the change) rather than failing.
    """
    if name is None:
        return None
    new_name = _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")
    if new_name != name:
        tf_logging.info("Summary name %s is illegal; using %s instead." % (name, new_name))
    return new_name


@contextlib.contextmanager
def _tag_scope(name: str, family: Optional[str]) -> Iterator[Tuple[str, str]]:
    """(tag, scope) of a summary op, as TensorFlow v1 makes them: the op lives in the name scope `family/name`,
    and its tag is that scope's name, prefixed once more with the family so TensorBoard groups it."""
    name, family = clean_tag(name), clean_tag(family)
    scope_name = f"{family}/{name}" if family else name
    with ops.name_scope(scope_name) as scope:
        tag = scope.rstrip("/")
        yield (f"{family}/{tag}" if family else tag), scope


def scalar(name: str, tensor: Any, collections: Optional[List[str]] = None, family: Optional[str] = None) -> Any:
    """A summary holding one scalar value, tagged with the op's scope name."""
    with _tag_scope(name, family) as (tag, scope):
        out = ops.apply_op("ScalarSummary", [tag, tensor], name=scope)
    _collect(out, collections)
    return out


def histogram(name: str, values: Any, collections: Optional[List[str]] = None,
              family: Optional[str] = None) -> Any:
    """A histogram of `values` (InvalidArgumentError at run time if any value is not finite)."""
    with _tag_scope(name, family) as (tag, scope):
        out = ops.apply_op("HistogramSummary", [tag, values], name=scope)
    _collect(out, collections)
    return out


def image(name: str, tensor: Any, max_outputs: int = 3, collections: Optional[List[str]] = None,
          family: Optional[str] = None) -> Any:
    """Up to max_outputs PNG images from a 4-D [batch, height, width, 1|3|4] tensor."""
    with _tag_scope(name, family) as (tag, scope):
        out = ops.apply_op("ImageSummary", [tag, tensor], attrs={"max_images": int(max_outputs)},
                           name=scope)
    _collect(out, collections)
    return out


def text(name: str, tensor: Any, collections: Optional[List[str]] = None) -> Any:
    """A string tensor for TensorBoard's text plugin; ValueError unless the tensor is of type string."""
    t = ops.convert_to_tensor(tensor)
    if t.dtype.base_dtype.name != "string":
        raise ValueError(f"Expected tensor {t.name} to have dtype string, got {t.dtype}")
    metadata = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="text")).SerializeToString()
    with ops.name_scope(clean_tag(name)) as scope:
        out = ops.apply_op("TensorSummaryV2", [scope.rstrip("/"), t, metadata], name=scope)
    _collect(out, collections)
    return out


def audio(name: str, tensor: Any, sample_rate: Any, max_outputs: int = 3, collections: Optional[List[str]] = None,
          family: Optional[str] = None) -> Any:
    """Up to max_outputs WAV clips from a [batch, frames] or [batch, frames, channels] float tensor in [-1, 1]."""
    with _tag_scope(name, family) as (tag, scope):
        rate = ops.convert_to_tensor(sample_rate, dtype=dtypes.float32, name="sample_rate")
        out = ops.apply_op("AudioSummaryV2", [tag, tensor, rate], attrs={"max_outputs": int(max_outputs)},
                           name=scope)
    _collect(out, collections)
    return out


def tensor_summary(name: str, tensor: Any, summary_description: Optional[str] = None,
                   collections: Optional[List[str]] = None, summary_metadata: Optional[SummaryMetadata] = None,
                   family: Optional[str] = None, display_name: Optional[str] = None) -> Any:
    """A summary holding the whole tensor (TensorSummaryV2), with optional plugin metadata."""
    metadata = SummaryMetadata() if summary_metadata is None else SummaryMetadata.FromString(
        summary_metadata.SerializeToString())
    if summary_description is not None:
        metadata.summary_description = summary_description
    if display_name is not None:
        metadata.display_name = display_name
    with _tag_scope(name, family) as (tag, scope):
        out = ops.apply_op("TensorSummaryV2", [tag, tensor, metadata.SerializeToString()],
                           name=scope)
    _collect(out, collections)
    return out


def merge(inputs: List[Any], collections: Optional[List[str]] = None, name: Optional[str] = None) -> Any:
    """One Summary combining serialized summaries; InvalidArgumentError at run time on a repeated tag."""
    inputs = list(inputs)
    # TensorFlow names the op inside a 'Merge' scope (Merge/MergeSummary, or name/name when named).
    with ops.name_scope(name, "Merge", inputs):
        out = ops.apply_op("MergeSummary", [inputs], name=name)
    if collections:
        for key in collections:
            ops.add_to_collection(key, out)
    return out


def merge_all(key: str = ops.GraphKeys.SUMMARIES, scope: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Merge every summary in collection `key` (optionally filtered by scope); None when there are none."""
    summaries = ops.get_collection(key, scope=scope)
    if not summaries:
        return None
    return merge(summaries, name=name)
