"""More tf.nest cases (attrs-style classes, composites, mapping and sequence type checks, error texts), shared
by the TensorFlow fixture generator and the edgelite test. Each case is (name, fn(tf) -> value); the recorded
result is repr(value), or the exception's type name and message."""
from __future__ import annotations

import collections

import numpy as np

P = collections.namedtuple("P", "a b")


class _Field:
    """What an attrs class lists in __attrs_attrs__: objects with a name."""

    def __init__(self, name: str) -> None:
        self.name = name


class Point:
    """A class laid out as attrs lays one out (fields z then x, in declaration order)."""

    __attrs_attrs__ = (_Field("z"), _Field("x"))

    def __init__(self, z, x) -> None:
        self.z, self.x = z, x

    def __repr__(self) -> str:
        return f"Point(z={self.z!r}, x={self.x!r})"

    def __eq__(self, other) -> bool:
        return type(other) is Point and (self.z, self.x) == (other.z, other.x)


class Other(Point):
    """Another attrs-style class with the same fields."""


def _sparse(tf):
    return tf.SparseTensor(np.array([[0, 1], [2, 0]], np.int64), np.array([5.0, 6.0], np.float32),
                           np.array([3, 2], np.int64))


def _static(values) -> list:
    """Leaves as comparable text: tensors by dtype and static shape, other values by repr."""
    out = []
    for v in values:
        shape = getattr(v, "shape", None)
        out.append(f"{v.dtype.name}{shape.as_list()}" if hasattr(shape, "as_list") else repr(v))
    return out


CASES = [
    ("attrs_flatten", lambda tf: tf.nest.flatten({"p": Point([1, 2], P(3, 4)), "a": 0})),
    ("attrs_pack", lambda tf: tf.nest.pack_sequence_as(Point(1, [2, 3]), ["z", "x0", "x1"])),
    ("attrs_map", lambda tf: tf.nest.map_structure(lambda v: v * 10, Point(1, (2, 3)))),
    ("attrs_same_ok", lambda tf: tf.nest.assert_same_structure(Point(1, [2]), Point("a", ["b"]))),
    ("attrs_same_type", lambda tf: tf.nest.assert_same_structure(Point(1, 2), Other(1, 2))),
    ("attrs_same_nocheck", lambda tf: tf.nest.assert_same_structure(Point(1, 2), Other(1, 2), check_types=False)),
    ("attrs_is_nested", lambda tf: tf.nest.is_nested(Point(1, 2))),
    ("dict_vs_ordered", lambda tf: tf.nest.assert_same_structure({"a": 1}, collections.OrderedDict(a=2))),
    ("dict_vs_defaultdict_map", lambda tf: tf.nest.map_structure(
        lambda x, y: x + y, {"a": 1, "b": 2}, collections.defaultdict(int, {"b": 20, "a": 10}))),
    ("ordered_flatten_sorted", lambda tf: tf.nest.flatten(collections.OrderedDict([("z", 1), ("a", 2)]))),
    ("ordered_pack_keeps_order", lambda tf: list(tf.nest.pack_sequence_as(
        collections.OrderedDict([("z", 1), ("a", 2)]), ["A", "Z"]).items())),
    ("namedtuple_in_list_nocheck", lambda tf: tf.nest.map_structure(
        lambda x, y: x * y, [P(1, 2)], [(3, 4)], check_types=False)),
    ("map_namedtuple_vs_tuple", lambda tf: tf.nest.map_structure(lambda x, y: x, P(1, 2), (3, 4))),
    ("map_len_mismatch", lambda tf: tf.nest.map_structure(lambda x, y: x, [1, 2], [1])),
    ("map_dict_keys", lambda tf: tf.nest.map_structure(lambda x, y: x, {"a": 1}, {"a": 1, "b": 2})),
    ("pack_too_few", lambda tf: tf.nest.pack_sequence_as({"a": 1, "b": [2, 3]}, [1, 2])),
    ("pack_dict_flat_sequence", lambda tf: tf.nest.pack_sequence_as([1, 2], {"a": 1, "b": 2})),
    ("sparse_leaf", lambda tf: _static(tf.nest.flatten({"s": _sparse(tf), "t": 1}))),
    ("sparse_expand", lambda tf: _static(tf.nest.flatten({"s": _sparse(tf), "t": 1}, expand_composites=True))),
    ("sparse_is_nested", lambda tf: [tf.nest.is_nested(_sparse(tf)), tf.nest.is_nested(tf.constant(1.0))]),
    ("sparse_value_namedtuple", lambda tf: len(tf.nest.flatten(tf.SparseTensorValue(
        np.zeros((0, 2), np.int64), np.zeros(0), np.array([2, 2]))))),
    ("sparse_same_structure", lambda tf: tf.nest.assert_same_structure(
        [_sparse(tf)], [_sparse(tf)], expand_composites=True)),
    ("sparse_pack_expand", lambda tf: _static(tf.nest.flatten(tf.nest.pack_sequence_as(
        [_sparse(tf)], [tf.constant(np.array([[1, 1], [0, 0]], np.int64)), tf.constant([7.0, 8.0]),
                        tf.constant(np.array([3, 2], np.int64))], expand_composites=True)))),
    ("sparse_map_expand", lambda tf: type(tf.nest.map_structure(
        lambda t: t, _sparse(tf), expand_composites=True)).__name__),
    ("tensor_leaf_in_list", lambda tf: _static(tf.nest.flatten([tf.constant([1, 2]), (tf.zeros([2, 3]),)]))),
]


def run(fn, tf) -> dict:
    """The recorded outcome of one case (in a fresh graph)."""
    with tf.Graph().as_default():
        try:
            return {"repr": repr(fn(tf))}
        except Exception as e:  # noqa: BLE001 - the exception type is what is recorded
            return {"error": type(e).__name__, "message": str(e)}
