"""Reader state as TensorFlow's ReaderBaseState proto (work_started, work_finished, num_records_produced,
current_work): ReaderSerializeStateV2/ReaderRestoreStateV2. As in TensorFlow, only the readers whose work
items are single records (WholeFileReader, IdentityReader) can save and restore it."""
from __future__ import annotations

import numpy as np

from edgelite._codec import wire
from edgelite.framework import errors

SERIALIZABLE = {"WholeFileReaderV2": "WholeFileReader", "IdentityReaderV2": "IdentityReader"}
_FIELDS = ("work_started", "work_finished", "num_records_produced", "current_work")


def encode_state(started: int, finished: int, produced: int, work: bytes) -> bytes:
    """The proto3 bytes (zero and empty fields left out)."""
    out = b""
    for number, value in enumerate((started, finished, produced), 1):
        if value:
            out += wire.encode_key(number, wire.VARINT) + wire.encode_varint(value)
    if work:
        out += wire.encode_key(4, wire.LENGTH) + wire.encode_varint(len(work)) + work
    return out


def _c_escape(data: bytes) -> str:
    """absl::CEscape: printable ASCII as is, the usual backslash escapes, other bytes as three octal digits."""
    named = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x5C: "\\\\", 0x27: "\\'", 0x22: '\\"'}
    return "".join(named.get(b) or (chr(b) if 0x20 <= b < 0x7F else f"\\{b:03o}") for b in data)


def _debug_text(fields: dict) -> str:
    """The proto's debug text as TensorFlow 2.21's protobuf prints it."""
    body = "".join(f"{name}: {fields[name]}\n" for name in _FIELDS[:3] if fields[name])
    if fields["current_work"]:
        body += f'current_work: "{_c_escape(fields["current_work"])}"\n'
    return "goo.gle/debugproto  \n" + body


def decode_state(state: bytes, reader: str) -> dict:
    """The fields of a serialized state; InvalidArgumentError with TensorFlow's texts if it is not one."""
    fields: dict = {"work_started": 0, "work_finished": 0, "num_records_produced": 0, "current_work": b""}
    try:
        for number, kind, value in wire.iter_fields(state):
            if 1 <= number <= 3 and kind == wire.VARINT:
                fields[_FIELDS[number - 1]] = wire.to_signed(value)
            elif number == 4 and kind == wire.LENGTH:
                fields["current_work"] = value
    except wire.WireError:
        raise errors.InvalidArgumentError(None, None, f"Could not parse state for {reader}: "
                                                      f"{_c_escape(state)}") from None
    if min(fields["work_started"], fields["work_finished"], fields["num_records_produced"]) < 0:
        raise errors.InvalidArgumentError(None, None, f"Unexpected negative value when restoring in {reader}: "
                                                      f"{_debug_text(fields)}")
    if fields["work_started"] > fields["work_finished"]:
        raise errors.InvalidArgumentError(None, None, "Inconsistent work started vs. finished when restoring in "
                                                      f"{reader}: {_debug_text(fields)}")
    return fields


def as_state_bytes(value: np.ndarray) -> bytes:
    """The bytes of a scalar string tensor value."""
    item = np.asarray(value).item()
    return item.encode("latin-1") if isinstance(item, str) else bytes(item)
