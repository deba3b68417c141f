"""Cutting TFRecord frames out of a byte buffer in bulk: a Python walk over the length fields only, then the
masked CRC32C of every header checked at once (computed per distinct length), and the payload CRCs from one C
crc32c call each, masked and compared at once with numpy.

A frame is: uint64 length, masked CRC32C of those 8 bytes, `length` payload bytes, masked CRC32C of the payload.
"""
from __future__ import annotations

import struct
from typing import List, Optional, Tuple

import numpy as np

from crc32c import crc32c as _crc32c

from edgelite._codec.crc import masked_crc32c

HEADER = 12
FOOTER = 4
_UNPACK_LENGTH = struct.Struct("<Q").unpack_from


_MASK_DELTA = np.uint32(0xA282EAD8)


def _mask(crc: np.ndarray) -> np.ndarray:
    """LevelDB's CRC mask, elementwise on uint32."""
    crc = crc.astype(np.uint32)
    return (((crc >> np.uint32(15)) | (crc << np.uint32(17))) + _MASK_DELTA).astype(np.uint32)


def header_crcs(lengths: np.ndarray) -> np.ndarray:
    """Masked CRC32C of each frame's 8 length bytes: computed once per distinct length (records of a file
    mostly share a few sizes) and spread back to the frames."""
    distinct, where = np.unique(lengths, return_inverse=True)
    crcs = np.fromiter((_crc32c(int(v).to_bytes(8, "little")) for v in distinct.tolist()), dtype=np.uint32,
                       count=len(distinct))
    return _mask(crcs)[where]


def _u32_at(data: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Little-endian uint32 at arbitrary byte offsets."""
    b = [data[offsets + k].astype(np.uint32) for k in range(4)]
    return b[0] | (b[1] << np.uint32(8)) | (b[2] << np.uint32(16)) | (b[3] << np.uint32(24))


def _u64_at(data: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Little-endian uint64 at arbitrary byte offsets."""
    out = np.zeros(offsets.shape, dtype=np.uint64)
    for k in range(8):
        out |= data[offsets + k].astype(np.uint64) << np.uint64(8 * k)
    return out


def _walk(buf: bytes, data: np.ndarray) -> Tuple[list, list, int]:
    """(starts, lengths) of the complete frames from the buffer's start, and where the rest begins.

    Runs of equal-length frames (fixed-size records) are found at once: the lengths at the positions they
    predict are read with numpy, and the run ends at the first position holding another length.
    """
    n = len(buf)
    starts: list = []
    lengths: list = []
    pos = 0
    while pos + HEADER <= n:
        length = _UNPACK_LENGTH(buf, pos)[0]
        frame = HEADER + length + FOOTER
        count = (n - pos) // frame
        if count == 0:
            break
        if count > 4:
            offsets = pos + frame * np.arange(count, dtype=np.int64)
            same = _u64_at(data, offsets) == np.uint64(length)
            run = count if same.all() else int(np.argmin(same))
            starts.extend(offsets[:run].tolist())
            lengths.extend([length] * run)
            pos += frame * run
            continue
        starts.append(pos)
        lengths.append(length)
        pos += frame
    return starts, lengths, pos


class Cut:
    """The frames found in a buffer: payloads in order, where parsing stopped, and why (None: need more bytes)."""

    def __init__(self, records: List[bytes], consumed: int, error: Optional[Tuple[str, int]]) -> None:
        self.records = records
        self.consumed = consumed
        self.error = error  # ("length" | "data" | "truncated", offset in the buffer) or None


def cut_frames(buf: bytes, final: bool) -> Cut:
    """Every complete frame of buf (from its start); stops at the first bad CRC or at an incomplete frame.

    With final, an incomplete frame at the end is reported as ("truncated", offset) unless only a partial
    header is left (TensorFlow treats that as the end of the file).
    """
    n = len(buf)
    data = np.frombuffer(buf, dtype=np.uint8)
    starts, lengths, partial = _walk(buf, data)
    s = np.asarray(starts, dtype=np.int64)
    good_headers = header_crcs(np.asarray(lengths, dtype=np.uint64)) == _u32_at(data, s + 8) if starts else \
        np.zeros(0, bool)
    bad_header = int(np.argmin(good_headers)) if starts and not good_headers.all() else len(starts)
    records = [buf[a + HEADER:a + HEADER + size] for a, size in zip(starts[:bad_header], lengths[:bad_header])]
    if records:
        got = _mask(np.fromiter(map(_crc32c, records), dtype=np.uint32, count=len(records)))
        ok = got == _u32_at(data, s[:bad_header] + HEADER + np.asarray(lengths[:bad_header], dtype=np.int64))
        if not ok.all():
            i = int(np.argmin(ok))
            return Cut(records[:i], starts[i], ("data", starts[i] + HEADER))
    if bad_header < len(starts):
        return Cut(records, starts[bad_header], ("length", starts[bad_header]))
    if partial + HEADER <= n:
        # The next frame's header is complete but its payload is not (yet) in the buffer.
        if masked_crc32c(buf[partial:partial + 8]) != _UNPACK_U32(buf, partial + 8)[0]:
            return Cut(records, partial, ("length", partial))
        return Cut(records, partial, ("truncated", partial) if final else None)
    return Cut(records, partial, None)


_UNPACK_U32 = struct.Struct("<I").unpack_from
