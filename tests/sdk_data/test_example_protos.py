"""tf.train.Example and friends: bytes identical to TensorFlow's (tf_data.json) and the protobuf message API."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import edgelite as tf
from . import data_cases

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TF_DATA = json.loads((FIXTURES / "tf_data.json").read_text())


@pytest.mark.parametrize("name,fn", data_cases.PROTO_CASES, ids=[c[0] for c in data_cases.PROTO_CASES])
def test_serialization_matches_tensorflow(name, fn):
    msg = fn(tf)
    want = bytes.fromhex(TF_DATA["protos"][name])
    assert msg.SerializeToString(deterministic=True) == want
    again = type(msg).FromString(want)
    assert again == msg
    fresh = type(msg)()
    fresh.ParseFromString(want)
    assert fresh == msg


def test_single_key_serialization_is_deterministic_without_flag():
    e = data_cases.example(tf, ids=("i", [1, 2, 3]))
    assert e.SerializeToString() == e.SerializeToString(deterministic=True)


def test_message_api():
    e = tf.train.Example()
    e.features.feature["x"].int64_list.value.append(4)
    e.features.feature["x"].int64_list.value.extend([5, 6])
    assert list(e.features.feature["x"].int64_list.value) == [4, 5, 6]
    assert e.features.feature["x"].WhichOneof("kind") == "int64_list"
    assert [f.name for f, _ in e.ListFields()] == ["features"]
    assert e.HasField("features") and "x" in e.features.feature
    assert type(e).DESCRIPTOR.full_name == "tensorflow.Example"
    with pytest.raises(TypeError):
        e.features.feature["x"].int64_list.value.append("a")
    with pytest.raises(Exception, match="[Pp]arse|[Tt]runcat|[Ee]rror"):
        tf.train.Example.FromString(b"\x0a\x05abc")


def test_records_written_by_tensorflow_parse_as_examples():
    for kind in ("none", "gzip", "zlib"):
        opts = "" if kind == "none" else kind.upper()
        got = list(tf.io.tf_record_iterator(str(FIXTURES / f"records_{kind}.tfrecord"), opts))
        assert [r.hex() for r in got] == TF_DATA["records"]
        assert tf.train.Example.FromString(got[3]).features.feature["i"].int64_list.value[0] == 3
