"""16-bit PCM WAV files as TensorFlow's wav_io reads and writes them (numpy, no ops)."""
from __future__ import annotations

import struct
from typing import Tuple

import numpy as np

from edgelite.framework import errors


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def encode_s16le_wav(audio: np.ndarray, sample_rate: int) -> bytes:
    """[frames, channels] floats in [-1, 1] as a RIFF/WAVE file of 16-bit samples (rounded half away from zero,
    clamped), the header TensorFlow writes."""
    frames, channels = audio.shape
    scaled = np.asarray(audio, np.float32) * np.float32(1 << 15)
    samples = np.clip(np.trunc(scaled + np.copysign(np.float32(0.5), scaled)), -32768, 32767).astype("<i2")
    data = samples.tobytes()
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 1, channels,
                         sample_rate, sample_rate * channels * 2, channels * 2, 16, b"data", len(data))
    return header + data


class _Reader:
    """Sequential little-endian reads with TensorFlow's error texts."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise _invalid("Data too short when trying to read string")  # TF's text for every short read
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def tag(self, expected: bytes) -> None:
        found = self.take(4)
        if found != expected:
            raise _invalid(f"Header mismatch: Expected {expected.decode()} but found {found.decode('latin-1')}")

    def u32(self) -> int:
        return struct.unpack("<I", self.take(4))[0]

    def u16(self) -> int:
        return struct.unpack("<H", self.take(2))[0]


def decode_s16le_wav(contents: bytes) -> Tuple[np.ndarray, int]:
    """([frames, channels] float32 in [-1, 1), sample rate) of a 16-bit PCM WAV file."""
    reader = _Reader(bytes(contents))
    reader.tag(b"RIFF")
    reader.u32()
    reader.tag(b"WAVE")
    channels = rate = None
    while True:
        chunk_id = reader.take(4)
        size = reader.u32()
        if chunk_id == b"fmt ":
            fmt = reader.u16()
            if fmt != 1:
                raise _invalid(f"Bad audio format for WAV: Expected 1 (PCM), but got{fmt}")
            channels, rate = reader.u16(), reader.u32()
            reader.u32()
            reader.u16()
            bits = reader.u16()
            if bits != 16:
                raise _invalid(f"Can only read 16-bit WAV files, but received {bits}")
            reader.take(size - 16)
        elif chunk_id == b"data":
            if channels is None:
                raise _invalid("The fmt chunk must come before the data chunk in a WAV file")
            raw = reader.take(size)
            samples = np.frombuffer(raw[: len(raw) // 2 * 2], dtype="<i2").astype(np.float32) / np.float32(1 << 15)
            return samples.reshape(-1, channels), rate
        else:
            reader.take(size)
