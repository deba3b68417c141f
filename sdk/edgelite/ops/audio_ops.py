"""tf.audio.encode_wav / decode_wav (EncodeWav, DecodeWav) on the 16-bit PCM codec of wav_codec."""
from __future__ import annotations

import collections
from typing import Any, Optional, Tuple

import numpy as np

from edgelite.framework import dtypes, errors, ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import wav_codec


# TensorFlow's DecodeWav result type: (audio, sample_rate) with names.
DecodeWavResult = collections.namedtuple("DecodeWav", ["audio", "sample_rate"])


def _encode_kernel(ctx: Any, audio: np.ndarray, sample_rate: np.ndarray) -> np.ndarray:
    if audio.ndim != 2:
        raise errors.InvalidArgumentError(None, None, f"audio must be 2-dimensional{list(audio.shape)}")
    out = np.empty((), dtype=object)
    out[()] = wav_codec.encode_s16le_wav(audio, int(sample_rate))
    return out


def _encode_shape(op: Any) -> list:
    rank = op.inputs[0].shape.ndims
    if rank is not None and rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {rank} for '{op.name}' (op: 'EncodeWav') with input "
                         f"shapes: {op.inputs[0].shape}, [].")
    return [[]]


register_op("EncodeWav", inputs=["audio: float", "sample_rate: int32"], outputs=["contents: string"],
            kernel=_encode_kernel, shape_fn=_encode_shape)


def _decode_kernel(ctx: Any, contents: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    raw = contents[()] if isinstance(contents, np.ndarray) else contents
    audio, rate = wav_codec.decode_s16le_wav(raw if isinstance(raw, bytes) else str(raw).encode())
    channels, samples = ctx.attrs["desired_channels"], ctx.attrs["desired_samples"]
    if channels > 0 and channels != audio.shape[1]:
        # fewer channels keep the first ones; more repeat the last one, as TensorFlow does
        index = np.minimum(np.arange(channels), audio.shape[1] - 1)
        audio = audio[:, index]
    if samples > 0 and samples != audio.shape[0]:
        audio = audio[:samples] if samples < audio.shape[0] else np.concatenate(
            [audio, np.zeros((samples - audio.shape[0], audio.shape[1]), np.float32)])
    return np.ascontiguousarray(audio, np.float32), np.int32(rate)


def _decode_shape(op: Any) -> list:
    channels, samples = op._attrs["desired_channels"], op._attrs["desired_samples"]
    return [[samples if samples > 0 else None, channels if channels > 0 else None], []]


register_op("DecodeWav", inputs=["contents: string"], outputs=["audio: float", "sample_rate: int32"],
            attrs={"desired_channels": -1, "desired_samples": -1}, kernel=_decode_kernel, shape_fn=_decode_shape)


def encode_wav(audio: Any, sample_rate: Any, name: Optional[str] = None) -> ops.Tensor:
    """A scalar string: [frames, channels] float audio as a 16-bit PCM WAV file."""
    audio = ops.convert_to_tensor(audio, dtype=dtypes.float32, name="audio")
    return ops.apply_op("EncodeWav", [audio, ops.convert_to_tensor(sample_rate, dtypes.int32)], name=name)


def decode_wav(contents: Any, desired_channels: int = -1, desired_samples: int = -1,
               name: Optional[str] = None) -> Any:
    """(audio [samples, channels] float32 in [-1, 1), sample_rate int32) of a 16-bit PCM WAV string."""
    audio, rate = ops.apply_op("DecodeWav", [contents], attrs={"desired_channels": int(desired_channels),
                                                               "desired_samples": int(desired_samples)}, name=name)
    return DecodeWavResult(audio, rate)
