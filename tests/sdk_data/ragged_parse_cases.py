"""RaggedFeature parsing cases (parse_example, parse_single_example, parse_sequence_example,
parse_single_sequence_example, every partition kind, build- and run-time errors), shared by the TensorFlow
fixture generator and the edgelite tests (recorded into fixtures/tf_ragged.json under "parse")."""
from __future__ import annotations

from .data_cases import seq_example, ser


def _records(tf):
    """Three Examples: every partition feature describes v's values in its own encoding; the third is empty."""
    return [
        ser(tf, v=("i", [3, 1, 4, 1, 5, 9]), s1=("i", [0, 2, 3, 3, 6]), s2=("i", [0, 2, 3, 4]),
            l1=("i", [2, 1, 0, 3]), st=("i", [0, 2, 3, 3]), lim=("i", [2, 3, 3, 6]), ids=("i", [0, 0, 1, 3, 3, 3]),
            f=("f", [1.5, 2.5]), b=("b", [b"x", b"yz"])),
        ser(tf, v=("i", [2, 7, 1]), s1=("i", [0, 1, 3]), s2=("i", [0, 1, 2]), l1=("i", [1, 2]), st=("i", [0, 1]),
            lim=("i", [1, 3]), ids=("i", [0, 1, 1]), f=("f", []), b=("b", [b"q"])),
        ser(tf),
    ]


def _feature(tf, name):
    rf = tf.io.RaggedFeature
    specs = {
        "plain": lambda: rf(tf.int64, value_key="v"),
        "bytes": lambda: rf(tf.string, value_key="b"),
        "splits": lambda: rf(tf.int64, value_key="v", partitions=[rf.RowSplits("s1")]),
        "lengths": lambda: rf(tf.int64, value_key="v", partitions=[rf.RowLengths("l1")]),
        "starts": lambda: rf(tf.int64, value_key="v", partitions=[rf.RowStarts("st")]),
        "limits": lambda: rf(tf.int64, value_key="v", partitions=[rf.RowLimits("lim")]),
        "rowids": lambda: rf(tf.int64, value_key="v", partitions=[rf.ValueRowIds("ids")]),
        "uniform": lambda: rf(tf.int64, value_key="v", partitions=[rf.UniformRowLength(3)]),
        "nested": lambda: rf(tf.int64, value_key="v", partitions=[rf.RowSplits("s2"), rf.RowSplits("s1")]),
        "uniform_outer": lambda: rf(tf.int64, value_key="v", partitions=[rf.UniformRowLength(2),
                                                                          rf.RowLengths("l1")]),
        "uniform_inner": lambda: rf(tf.int64, value_key="v", partitions=[rf.RowLengths("l1"),
                                                                          rf.UniformRowLength(1)]),
        "int64_splits": lambda: rf(tf.int64, value_key="v", partitions=[rf.RowLengths("l1")],
                                   row_splits_dtype=tf.int64),
        "validated": lambda: rf(tf.int64, value_key="v", partitions=[rf.RowSplits("s1")], validate=True),
        "validated_rowids": lambda: rf(tf.int64, value_key="v", partitions=[rf.ValueRowIds("ids")], validate=True),
    }
    return specs[name]()


FEATURES = ["plain", "bytes", "splits", "lengths", "starts", "limits", "rowids", "uniform", "nested",
            "uniform_outer", "uniform_inner", "int64_splits", "validated", "validated_rowids"]


def _batch(name):
    return lambda tf: tf.io.parse_example(_records(tf), {"r": _feature(tf, name)})


def _single(name, record=0):
    return lambda tf: tf.io.parse_single_example(_records(tf)[record], {"r": _feature(tf, name)})


def _mixed(tf, single=False):
    feats = {"r": _feature(tf, "splits"), "f": tf.io.RaggedFeature(tf.float32), "d": tf.io.VarLenFeature(tf.int64),
             "l1": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True),
             "v": tf.io.RaggedFeature(tf.int64)}
    records = _records(tf)
    if single:
        return tf.io.parse_single_example(records[1], feats)
    return tf.io.parse_example(records, feats)


def _bad(feats, single=False, validate=False, partition="RowSplits", key="s", dtype="int64"):
    """Parse one record holding feats with v's values partitioned by the feature key."""
    def build(tf):
        rf = tf.io.RaggedFeature
        spec = rf(getattr(tf, dtype), value_key="v", partitions=[getattr(rf, partition)(key)], validate=validate)
        record = ser(tf, **feats)
        if single:
            return tf.io.parse_single_example(record, {"r": spec})
        return tf.io.parse_example([record, ser(tf, v=("i", [1]), s=("i", [0, 1]))], {"r": spec})
    return build


def _bad_uniform(single):
    def build(tf):
        spec = tf.io.RaggedFeature(tf.int64, value_key="v", partitions=[tf.io.RaggedFeature.UniformRowLength(4)])
        record = ser(tf, v=("i", [1, 2, 3, 4, 5, 6]))
        return tf.io.parse_single_example(record, {"r": spec}) if single else \
            tf.io.parse_example([record], {"r": spec})
    return build


def _seq_records(tf):
    return [
        seq_example(tf, {"cv": ("i", [1, 2, 3]), "cl": ("i", [2, 1])},
                    {"sv": ("f", [[0.5], [], [1.5, 2.5]]), "si": ("i", [[1, 2, 3], [4]]),
                     "sl": ("i", [[1, 2], [0, 1]])}).SerializeToString(deterministic=True),
        seq_example(tf, {"cv": ("i", [9]), "cl": ("i", [0, 1])},
                    {"sv": ("f", [[3.5, 4.5]]), "si": ("i", [[5, 6]]), "sl": ("i", [[2]])}).SerializeToString(
            deterministic=True),
    ]


def _seq_specs(tf, validate=False):
    rf = tf.io.RaggedFeature
    context = {"c": rf(tf.int64, value_key="cv", partitions=[rf.RowLengths("cl")]),
               "cv": tf.io.RaggedFeature(tf.int64)}
    seq = {"sv": rf(tf.float32), "s": rf(tf.int64, value_key="si", partitions=[rf.RowLengths("sl")],
                                         validate=validate)}
    return context, seq


def _seq_single(tf):
    # a list: a (context, feature_lists) tuple would read as a (fetch, feed_dict) pair
    return list(tf.io.parse_single_sequence_example(_seq_records(tf)[0], *_seq_specs(tf)))


def _seq_batch(tf):
    return tf.io.parse_sequence_example(_seq_records(tf), *_seq_specs(tf))


def _seq_batch_validated(tf):
    return tf.io.parse_sequence_example(_seq_records(tf), *_seq_specs(tf, validate=True))


def _seq_misaligned(tf):
    """Each record's partition list has another step count than its values list (the totals agree, so only the
    alignment check fails): validate reports the misalignment."""
    records = [seq_example(tf, {}, {"si": ("i", [[1], [2]]), "sl": ("i", [[2]])}),
               seq_example(tf, {}, {"si": ("i", [[3]]), "sl": ("i", [[1], [0]])})]
    rf = tf.io.RaggedFeature
    return tf.io.parse_sequence_example([r.SerializeToString(deterministic=True) for r in records], None, {
        "s": rf(tf.int64, value_key="si", partitions=[rf.RowLengths("sl")], validate=True)})


def _spec_error(make):
    return lambda tf: make(tf)


def _conflict(tf):
    rf = tf.io.RaggedFeature
    return tf.io.parse_example(_records(tf), {"a": rf(tf.int64, value_key="v"), "b": rf(tf.float32, value_key="v")})


def _conflict_splits(tf):
    rf = tf.io.RaggedFeature
    return tf.io.parse_example(_records(tf), {"a": rf(tf.int64, value_key="v"),
                                              "b": rf(tf.int64, value_key="v", row_splits_dtype=tf.int64)})


def _dense_and_ragged(tf):
    return tf.io.parse_example(_records(tf), {"v": tf.io.FixedLenFeature([], tf.int64),
                                              "r": tf.io.RaggedFeature(tf.int64, value_key="v")})


CASES = (
    [(f"batch_{n}", _batch(n)) for n in FEATURES]
    + [(f"single_{n}", _single(n)) for n in FEATURES]
    + [("single_empty_record", _single("lengths", 2)), ("single_second_nested", _single("nested", 1)),
       ("batch_mixed", _mixed), ("single_mixed", lambda tf: _mixed(tf, single=True)),
       ("seq_single", _seq_single), ("seq_batch", _seq_batch), ("seq_batch_validated", _seq_batch_validated)]
    + [
        # ---- run-time errors
        ("err_kind_batch", _bad({"v": ("f", [1.0]), "s": ("i", [0, 1])})),
        ("err_kind_single", _bad({"v": ("f", [1.0]), "s": ("i", [0, 1])}, single=True)),
        ("err_partition_kind", _bad({"v": ("i", [1]), "s": ("f", [0.0, 1.0])})),
        ("err_splits_batch_validated", _bad({"v": ("i", [1, 2]), "s": ("i", [0, 3])}, validate=True)),
        ("err_splits_single_validated", _bad({"v": ("i", [1, 2]), "s": ("i", [1, 2])}, single=True,
                                             validate=True)),
        ("err_lengths_validated", _bad({"v": ("i", [1, 2]), "s": ("i", [1, 2])}, validate=True,
                                       partition="RowLengths")),
        ("err_lengths_single_validated", _bad({"v": ("i", [1, 2]), "s": ("i", [3])}, single=True, validate=True,
                                              partition="RowLengths")),
        ("err_rowids_validated", _bad({"v": ("i", [1, 2]), "s": ("i", [1, 0])}, validate=True,
                                      partition="ValueRowIds")),
        ("err_starts_single_validated", _bad({"v": ("i", [1, 2]), "s": ("i", [1])}, single=True, validate=True,
                                             partition="RowStarts")),
        ("err_limits_single_validated", _bad({"v": ("i", [1, 2]), "s": ("i", [2, 1])}, single=True,
                                             validate=True, partition="RowLimits")),
        ("err_uniform_batch", _bad_uniform(False)),
        ("err_uniform_single", _bad_uniform(True)),
        ("err_seq_misaligned", _seq_misaligned),
        ("err_not_serialized", lambda tf: tf.io.parse_example([b"\x0a\x03abc"], {"r": _feature(tf, "plain")})),
        # ---- build-time errors
        ("err_dtype", _spec_error(lambda tf: tf.io.RaggedFeature(tf.int32))),
        ("err_splits_dtype", _spec_error(lambda tf: tf.io.RaggedFeature(tf.int64, row_splits_dtype=tf.float32))),
        ("err_partitions_type", _spec_error(lambda tf: tf.io.RaggedFeature(tf.int64, partitions="s"))),
        ("err_partition_object", _spec_error(lambda tf: tf.io.RaggedFeature(tf.int64, partitions=["s"]))),
        ("err_value_key_empty", _spec_error(lambda tf: tf.io.RaggedFeature(tf.int64, value_key=""))),
        ("err_value_key_type", _spec_error(lambda tf: tf.io.RaggedFeature(tf.int64, value_key=3))),
        ("err_validate_type", _spec_error(lambda tf: tf.io.RaggedFeature(tf.int64, validate=1))),
        ("err_conflicting_type", _conflict),
        ("err_conflicting_splits", _conflict_splits),
        ("err_dense_and_ragged_key", _dense_and_ragged),
        ("err_sparse_and_ragged_key", lambda tf: tf.io.parse_example(_records(tf), {
            "l1": tf.io.VarLenFeature(tf.int64), "r": _feature(tf, "lengths")})),
    ]
)


def spec_facts(tf) -> dict:
    """The RaggedFeature namedtuple's fields, defaults and partition types as TensorFlow defines them."""
    rf = tf.io.RaggedFeature
    spec = rf(tf.float32)
    return {"fields": list(rf._fields), "dtype": spec.dtype.name, "value_key": spec.value_key,
            "partitions": list(spec.partitions), "row_splits_dtype": spec.row_splits_dtype.name,
            "validate": spec.validate,
            "partition_fields": {n: list(getattr(rf, n)._fields) for n in ("RowSplits", "RowLengths", "RowStarts",
                                                                           "RowLimits", "ValueRowIds",
                                                                           "UniformRowLength")},
            "repr": repr(rf(tf.int64, value_key="v", partitions=[rf.RowSplits("s")]))}
