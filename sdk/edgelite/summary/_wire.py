"""A minimal protocol-buffer wire codec, enough for TensorBoard's Event and Summary messages.

Messages declare their fields once (number, kind, repeated, oneof); encoding follows proto3 rules:
plain scalars equal to their default are omitted, oneof members and sub-messages are written whenever set,
repeated doubles are packed. Decoding accepts packed or unpacked repeated scalars and skips unknown fields.
"""
from __future__ import annotations

import struct
from typing import Any, Dict, List, Optional, Tuple

from edgelite._codec.wire import (FIXED32, FIXED64, LENGTH, VARINT, decode_varint, encode_varint, iter_fields,
                                  to_signed)
from edgelite._codec.wire import WireError as DecodeError
from edgelite._codec.wire import encode_key as _key

_SCALAR_WIRE = {
    "double": FIXED64, "float": FIXED32, "int32": VARINT, "int64": VARINT, "uint32": VARINT,
    "uint64": VARINT, "bool": VARINT, "enum": VARINT, "string": LENGTH, "bytes": LENGTH,
}
_DEFAULTS = {"double": 0.0, "float": 0.0, "int32": 0, "int64": 0, "uint32": 0, "uint64": 0,
             "bool": False, "enum": 0, "string": "", "bytes": b""}


def _encode_scalar(kind: str, value: Any) -> bytes:
    if kind == "double":
        return struct.pack("<d", float(value))
    if kind == "float":
        return struct.pack("<f", float(value))
    if kind in ("int32", "int64", "uint32", "uint64", "enum"):
        return encode_varint(int(value))
    if kind == "bool":
        return encode_varint(1 if value else 0)
    if kind in ("string", "bytes"):
        raw = value.encode("utf-8") if isinstance(value, str) else bytes(value)
        return encode_varint(len(raw)) + raw
    raise TypeError(f"unknown scalar kind {kind!r}")


def _varint_value(kind: str, raw: int) -> Any:
    if kind == "bool":
        return bool(raw)
    if kind in ("int32", "enum"):
        return to_signed(raw, 32)
    if kind == "int64":
        return to_signed(raw, 64)
    return raw


def _decode_scalar(kind: str, wire: int, data: bytes, pos: int) -> Tuple[Any, int]:
    if wire == FIXED64:
        if pos + 8 > len(data):
            raise DecodeError("truncated fixed64")
        raw = data[pos:pos + 8]
        return (struct.unpack("<d", raw)[0] if kind == "double" else struct.unpack("<q", raw)[0]), pos + 8
    if wire == FIXED32:
        if pos + 4 > len(data):
            raise DecodeError("truncated fixed32")
        raw = data[pos:pos + 4]
        return (struct.unpack("<f", raw)[0] if kind == "float" else struct.unpack("<i", raw)[0]), pos + 4
    if wire == VARINT:
        raw, pos = decode_varint(data, pos)
        return _varint_value(kind, raw), pos
    raise DecodeError(f"wire type {wire} does not fit a {kind} field")


class Field:
    """One declared field: number, kind (scalar name or a Message class), repeated, oneof group."""

    __slots__ = ("name", "number", "kind", "repeated", "oneof", "packed", "is_map")

    def __init__(self, name: str, number: int, kind: Any, repeated: bool = False,
                 oneof: Optional[str] = None, packed: bool = False, is_map: bool = False) -> None:
        self.name, self.number, self.kind = name, number, kind
        self.repeated, self.oneof, self.packed = repeated, oneof, packed
        # A map<K, V> field: `kind` is its (key = 1, value = 2) entry message; held as a dict.
        self.is_map = is_map

    @property
    def is_message(self) -> bool:
        return isinstance(self.kind, type) and issubclass(self.kind, Message)


class Repeated(list):
    """A repeated field: a list that can also `add(**fields)` a new sub-message, as protobuf's does."""

    def __init__(self, kind: Any, items: Any = (), owner: Optional["Message"] = None) -> None:
        super().__init__(items)
        self._kind = kind
        self._owner = owner

    def _touch(self) -> None:
        owner = getattr(self, "_owner", None)
        if owner is not None:
            owner._touched()

    def append(self, item: Any) -> None:
        """Append item (the owning message now counts as set, as in protobuf)."""
        super().append(item)
        self._touch()

    def extend(self, items: Any) -> None:
        """Append every item."""
        super().extend(items)
        self._touch()

    def insert(self, index: Any, item: Any) -> None:
        """Insert item before index."""
        super().insert(index, item)
        self._touch()

    def __setitem__(self, index: Any, item: Any) -> None:
        super().__setitem__(index, item)
        self._touch()

    def __iadd__(self, items: Any) -> "Repeated":
        self.extend(items)
        return self

    def add(self, **kwargs: Any) -> "Message":
        """Append and return a new sub-message built from keyword fields."""
        if not (isinstance(self._kind, type) and issubclass(self._kind, Message)):
            raise AttributeError("add() is only available on repeated message fields")
        item = self._kind(**kwargs)
        self.append(item)
        return item


class _Map(dict):
    """A map<K, V> field as protobuf's map containers: a dict whose missing keys read as a new default value,
    which stays in the map (protobuf adds it too), with MergeFrom and get_or_create."""

    def __init__(self, entry: Any, items: Any = (), owner: Optional["Message"] = None) -> None:
        super().__init__()
        self._entry = entry
        self._owner = owner
        self.update(items)

    def __reduce__(self) -> Any:
        return (_Map, (self._entry, dict(self), self._owner))

    def _touch(self) -> None:
        if self._owner is not None:
            self._owner._touched()

    def _value_field(self) -> "Field":
        return self._entry.FIELDS[1]

    def __missing__(self, key: Any) -> Any:
        kind = self._value_field().kind
        value = kind() if self._value_field().is_message else _DEFAULTS[kind]
        dict.__setitem__(self, self._checked_key(key), value)
        self._touch()
        return value

    def _checked_key(self, key: Any) -> Any:
        key_kind = self._entry.FIELDS[0].kind
        expected: Any = str if key_kind == "string" else (bytes if key_kind == "bytes" else int)
        if key_kind == "string" and isinstance(key, bytes):
            return key.decode("utf-8")
        if not isinstance(key, expected) or isinstance(key, bool) and expected is int:
            raise TypeError(f"bad argument type for built-in operation: map key {key!r} is not {key_kind}")
        return key

    def _coerce(self, value: Any) -> Any:
        field = self._value_field()
        if field.is_message:
            if isinstance(value, dict):
                return field.kind(**value)
            if not isinstance(value, field.kind):
                raise TypeError(f"map value {value!r} is not a {field.kind.__name__}")
        return value

    def __setitem__(self, key: Any, value: Any) -> None:
        # Protobuf refuses direct assignment of message values; edgelite accepts it (no TF script relies on the
        # refusal) so internal builders can place a finished message.
        dict.__setitem__(self, self._checked_key(key), self._coerce(value))
        self._touch()

    def update(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        """Set each key/value pair (dict values become messages), as protobuf's map update does."""
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key: Any, default: Any = None) -> Any:  # type: ignore[override]
        """The value at key, first setting it to default when missing."""
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, self._checked_key(key))

    def get_or_create(self, key: Any) -> Any:
        """The value at key, adding an empty one when missing."""
        return self[key]

    def GetEntryClass(self) -> type:  # noqa: N802 - protobuf's spelling
        """The (key, value) entry message class of this map."""
        return self._entry

    def MergeFrom(self, other: Any) -> None:  # noqa: N802 - protobuf's spelling
        """Copy every entry of other in, replacing the value of keys present in both (protobuf's map merge)."""
        for key, value in dict(other).items():
            self[key] = type(value).FromString(value.SerializeToString()) if isinstance(value, Message) else value


def _encode_map(field: Field, entries: Dict[Any, Any]) -> bytes:
    """A map field as protobuf writes it: entries sorted by key, key and value always present."""
    key_field, value_field = field.kind.FIELDS
    out = bytearray()
    for key in sorted(entries):
        value = entries[key]
        if value_field.is_message:
            sub = value.SerializeToString()
            value_bytes = _key(2, LENGTH) + encode_varint(len(sub)) + sub
        else:
            value_bytes = _key(2, _SCALAR_WIRE[value_field.kind]) + _encode_scalar(value_field.kind, value)
        body = _key(1, _SCALAR_WIRE[key_field.kind]) + _encode_scalar(key_field.kind, key) + value_bytes
        out += _key(field.number, LENGTH) + encode_varint(len(body)) + body
    return bytes(out)


class Message:
    """Base class of declared messages: keyword construction, equality, serialize and parse."""

    FIELDS: Tuple[Field, ...] = ()

    def __init__(self, **kwargs: Any) -> None:
        by_name = self._by_name()
        # (parent, field name) while this message is a parent's unset sub-message read through attribute access.
        object.__setattr__(self, "_owner", None)
        object.__setattr__(self, "_lazy", set())
        self._clear()
        for name, value in kwargs.items():
            if name not in by_name:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field.')
            setattr(self, name, value)

    @classmethod
    def _by_name(cls) -> Dict[str, Field]:
        cache = cls.__dict__.get("_BY_NAME")
        if cache is None:
            cache = {f.name: f for f in cls.FIELDS}
            cls._BY_NAME = cache
        return cache

    @classmethod
    def _by_number(cls) -> Dict[int, Field]:
        cache = cls.__dict__.get("_BY_NUMBER")
        if cache is None:
            cache = {f.number: f for f in cls.FIELDS}
            cls._BY_NUMBER = cache
        return cache

    def _clear(self) -> None:
        for field in self.FIELDS:
            empty = (_Map(field.kind, owner=self) if field.is_map
                     else (Repeated(field.kind, owner=self) if field.repeated else None))
            object.__setattr__(self, field.name, empty)
        object.__getattribute__(self, "_lazy").clear()

    def _is_set(self, field: Field) -> bool:
        raw = object.__getattribute__(self, field.name)
        if raw is None:
            return False
        if field.name in object.__getattribute__(self, "_lazy"):
            return bool(raw.SerializeToString())
        return True

    def __setattr__(self, name: str, value: Any) -> None:
        field = self._by_name().get(name)
        if field is None:
            raise AttributeError(f'{type(self).__name__} has no field "{name}"')
        object.__getattribute__(self, "_lazy").discard(name)
        given = value is not None
        if field.is_map:
            # Protobuf copies the values given to a map field, so later edits of the source do not show through.
            source = value or {}
            value = _Map(field.kind, owner=self)
            value.MergeFrom(dict(source))
        elif field.repeated:
            value = Repeated(field.kind, value if value is not None else (), owner=self)
        elif given and field.oneof:
            self._clear_oneof_others(field)
        object.__setattr__(self, name, value)
        if given:
            self._touched()

    def _clear_oneof_others(self, field: Field) -> None:
        for other in self.FIELDS:
            if other.oneof == field.oneof and other.name != field.name:
                object.__setattr__(self, other.name, None)
                object.__getattribute__(self, "_lazy").discard(other.name)

    def _touched(self) -> None:
        """This message was written to: as in protobuf, a sub-message read from an unset field now counts as set
        in its parent (and up the chain), replacing any other member of its oneof."""
        # __dict__ look-ups: copy and pickle rebuild containers before the message's own state is back.
        owner = self.__dict__.get("_owner")
        if owner is None:
            return
        parent, name = owner
        lazy = parent.__dict__.get("_lazy")
        if lazy is None or name not in lazy or parent.__dict__.get(name) is not self:
            return
        lazy.discard(name)
        field = parent._by_name()[name]
        if field.oneof:
            parent._clear_oneof_others(field)
        parent._touched()

    def SetInParent(self) -> None:  # noqa: N802 - protobuf's spelling
        """Mark this (possibly empty) sub-message as set in its parent."""
        self._touched()

    def __getattribute__(self, name: str) -> Any:
        value = object.__getattribute__(self, name)
        if value is None and not name.startswith("_"):
            field = type(self)._by_name().get(name)
            if field is not None:
                if field.is_message:
                    # Like protobuf, reading an unset sub-message gives one that sticks once it is filled in.
                    sub = field.kind()
                    object.__setattr__(sub, "_owner", (self, name))
                    object.__setattr__(self, name, sub)
                    object.__getattribute__(self, "_lazy").add(name)
                    return sub
                return _DEFAULTS[field.kind]
        return value

    def _check_same_class(self, other: Any, method: str) -> None:
        if not isinstance(other, type(self)):
            raise TypeError(f"Parameter to {method}() must be instance of same class: expected "
                            f"{type(self)} got {type(other)}.")

    def CopyFrom(self, other: "Message") -> None:  # noqa: N802 - protobuf's spelling
        """Replace this message's contents with a copy of other's."""
        self._check_same_class(other, "CopyFrom")
        if other is not self:
            self.ParseFromString(other.SerializeToString())

    def MergeFrom(self, other: "Message") -> None:  # noqa: N802 - protobuf's spelling
        """Merge other in: set singular fields overwrite, repeated fields append, sub-messages merge."""
        self._check_same_class(other, "MergeFrom")
        self.MergeFromString(other.SerializeToString())

    def Clear(self) -> None:  # noqa: N802 - protobuf's spelling
        """Reset every field to its default."""
        self._clear()

    def ClearField(self, name: str) -> None:  # noqa: N802 - protobuf's spelling
        """Reset one field (or every member of a oneof group) to its default."""
        fields = [f for f in self.FIELDS if f.name == name or f.oneof == name]
        if not fields:
            raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field.')
        for field in fields:
            setattr(self, field.name, None)

    def HasField(self, name: str) -> bool:  # noqa: N802 - protobuf's spelling
        """True when a singular field (or oneof group) was set."""
        for field in self.FIELDS:
            if field.oneof == name and self._is_set(field):
                return True
        field = self._by_name().get(name)
        return field is not None and not field.repeated and self._is_set(field)

    def WhichOneof(self, group: str) -> Optional[str]:  # noqa: N802 - protobuf's spelling
        """Name of the member of oneof `group` that is set, or None."""
        for field in self.FIELDS:
            if field.oneof == group and self._is_set(field):
                return field.name
        return None

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.SerializeToString() == other.SerializeToString()  # type: ignore[union-attr]

    def __repr__(self) -> str:
        parts = []
        for field in self.FIELDS:
            raw = object.__getattribute__(self, field.name)
            if (field.repeated and not raw) or (not field.repeated and not self._is_set(field)):
                continue
            parts.append(f"{field.name}={raw!r}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def __str__(self) -> str:
        """Protocol-buffer text format, as str() of a protobuf message gives."""
        from edgelite.framework.text_format import message_to_string  # the printer builds on this codec
        return message_to_string(self)

    def SerializeToString(self, deterministic: Optional[bool] = None) -> bytes:  # noqa: N802 - protobuf's spelling
        """The message in protocol-buffer wire format; map entries always come in key order, which is
        protobuf's deterministic output, so `deterministic` changes nothing."""
        out = bytearray()
        for field in self.FIELDS:
            raw = object.__getattribute__(self, field.name)
            if raw is None or (not field.repeated and not self._is_set(field)):
                continue
            if field.is_map:
                out += _encode_map(field, raw)
            elif field.repeated:
                if not raw:
                    continue
                if field.is_message:
                    for item in raw:
                        body = item.SerializeToString()
                        out += _key(field.number, LENGTH) + encode_varint(len(body)) + body
                elif field.packed:
                    body = b"".join(_encode_scalar(field.kind, v) for v in raw)
                    out += _key(field.number, LENGTH) + encode_varint(len(body)) + body
                else:
                    for item in raw:
                        out += _key(field.number, _SCALAR_WIRE[field.kind]) + _encode_scalar(field.kind, item)
            elif field.is_message:
                body = raw.SerializeToString()
                out += _key(field.number, LENGTH) + encode_varint(len(body)) + body
            else:
                if field.oneof is None and raw == _DEFAULTS[field.kind]:
                    continue
                out += _key(field.number, _SCALAR_WIRE[field.kind]) + _encode_scalar(field.kind, raw)
        return bytes(out)

    def ByteSize(self) -> int:  # noqa: N802 - protobuf's spelling
        """Length of the serialized message."""
        return len(self.SerializeToString())

    @classmethod
    def FromString(cls, data: bytes) -> "Message":  # noqa: N802 - protobuf's spelling
        """Parse wire-format bytes into a new message."""
        msg = cls()
        msg.MergeFromString(data)
        return msg

    def ParseFromString(self, data: bytes) -> None:  # noqa: N802 - protobuf's spelling
        """Replace this message's contents with the parsed bytes."""
        self._clear()
        self.MergeFromString(data)

    def MergeFromString(self, data: bytes) -> None:  # noqa: N802 - protobuf's spelling
        """Merge parsed bytes into this message (last singular value wins, repeated values append)."""
        if hasattr(data, "dtype") and getattr(data, "shape", None) == ():
            data = data.item()  # a scalar string fetched from a session
        data = bytes(data)
        for number, wire, value in iter_fields(data):
            field = self._by_number().get(number)
            if field is None:
                continue
            if field.is_message:
                if wire != LENGTH:
                    raise DecodeError(f"field {field.name} expects a length-delimited message")
                sub = field.kind.FromString(value)
                if field.is_map:
                    object.__getattribute__(self, field.name)[sub.key] = sub.value
                elif field.repeated:
                    object.__getattribute__(self, field.name).append(sub)
                elif object.__getattribute__(self, field.name) is not None and not (
                        field.oneof and not self._is_set(field)):
                    # A message seen again merges into the one already read, as protobuf's parser does.
                    object.__getattribute__(self, field.name).MergeFromString(value)
                    object.__getattribute__(self, "_lazy").discard(field.name)
                else:
                    setattr(self, field.name, sub)
                continue
            if field.repeated and wire == LENGTH and field.kind not in ("string", "bytes"):
                pos, items = 0, object.__getattribute__(self, field.name)
                while pos < len(value):
                    item, pos = _decode_scalar(field.kind, _SCALAR_WIRE[field.kind], value, pos)
                    items.append(item)
                continue
            if wire == LENGTH:
                item: Any = value.decode("utf-8") if field.kind == "string" else value
                if field.kind not in ("string", "bytes"):
                    raise DecodeError(f"field {field.name} cannot be length-delimited")
            elif wire == VARINT:
                item = _varint_value(field.kind, value)
            else:
                item, _ = _decode_scalar(field.kind, wire, value, 0)
            if field.repeated:
                object.__getattribute__(self, field.name).append(item)
            else:
                setattr(self, field.name, item)
        self._touched()  # merging, even nothing, sets a sub-message in its parent (protobuf's MergeFrom)


def declare(cls: type, fields: List[Field]) -> None:
    """Attach the field list to a message class (lets messages refer to classes defined later)."""
    cls.FIELDS = tuple(fields)
