"""TensorFlow reads the TFRecord files and Example bytes edgelite writes (skipped where TensorFlow is absent)."""
from __future__ import annotations

import pytest

import edgelite as tf
from . import data_cases


@pytest.mark.parametrize("kind", ["", "GZIP", "ZLIB"])
def test_tensorflow_reads_edgelite_records(tmp_path, kind):
    real_tf = pytest.importorskip("tensorflow", reason="TensorFlow is not installed here; the check runs where it is")
    path = str(tmp_path / "r.tfrecord")
    records = [data_cases.ser(tf, i=("i", [n]), s=("b", [b"v%d" % n])) for n in range(10)]
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions(kind, compression_level=3)) as w:
        for r in records:
            w.write(r)
    got = list(real_tf.compat.v1.io.tf_record_iterator(path, kind))
    assert got == records
    parsed = [real_tf.train.Example.FromString(r).features.feature["i"].int64_list.value[0] for r in got]
    assert parsed == list(range(10))
