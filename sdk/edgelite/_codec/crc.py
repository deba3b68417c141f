"""Masked CRC32C, the checksum of TFRecord framing and of the checkpoint table and bundle formats."""
from __future__ import annotations

from typing import Union

import crc32c as _crc32c

_MASK_DELTA = 0xA282EAD8
_U32 = 0xFFFFFFFF


def crc32c(data: Union[bytes, bytearray, memoryview], value: int = 0) -> int:
    """CRC32C of `data`, continuing from `value` (the C implementation from the crc32c package)."""
    return _crc32c.crc32c(data, value)


def mask_crc(crc: int) -> int:
    """LevelDB's CRC mask: stored CRCs are rotated and offset so CRCs of CRC-bearing data stay strong."""
    return ((((crc >> 15) | (crc << 17)) & _U32) + _MASK_DELTA) & _U32


def unmask_crc(masked: int) -> int:
    """Inverse of mask_crc."""
    rot = (masked - _MASK_DELTA) & _U32
    return ((rot >> 17) | (rot << 15)) & _U32


def masked_crc32c(data: Union[bytes, bytearray, memoryview]) -> int:
    """The masked CRC32C of `data`, as stored after a TFRecord's length and payload."""
    # mask_crc written out: TFRecord reading calls this twice per record, and the two extra calls showed.
    crc = _crc32c.crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & _U32) + _MASK_DELTA) & _U32
