"""Deterministic serialization: map fields written in key order, as protobuf's deterministic mode does.

TensorFlow writes GraphDefs and SavedModels with `SerializeToString(deterministic=True)` and prints text
format with map keys sorted; edgelite keeps some maps (collection_def) as repeated `*Entry`
messages, so sorting those entries gives the same bytes.
"""
from __future__ import annotations

from typing import Any

from edgelite.summary._wire import Message


def _is_map_entry(kind: Any) -> bool:
    if not (isinstance(kind, type) and issubclass(kind, Message) and kind.__name__.endswith("Entry")):
        return False
    return [(f.name, f.number) for f in kind.FIELDS] == [("key", 1), ("value", 2)]


def sort_maps(msg: Message) -> Message:
    """Sorts every map field of msg (recursively, in place) by key; returns msg."""
    for field in msg.FIELDS:
        if not field.is_message:
            continue
        raw = object.__getattribute__(msg, field.name)
        if raw is None:
            continue
        if field.is_map:
            # Declared map fields are dicts, which the codec already writes in key order.
            for value in raw.values():
                if isinstance(value, Message):
                    sort_maps(value)
            continue
        items = raw if field.repeated else [raw]
        for item in items:
            sort_maps(item)
        if field.repeated and _is_map_entry(field.kind):
            raw.sort(key=lambda entry: entry.key)
    return msg


def deterministic_copy(msg: Message) -> Message:
    """A copy of msg (any wire-codec message) with every map in key order."""
    return sort_maps(type(msg).FromString(msg.SerializeToString()))
