"""Hand-built protos (tf.Summary, Event, ConfigProto, GraphDef ...) serialize to TensorFlow's exact bytes, and
Session honours ConfigProto's CPU settings."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf
from edgelite import errors

from . import tf1core_cases

FIXTURES = json.loads((Path(__file__).resolve().parent / "tf_fixtures.json").read_text())


@pytest.mark.parametrize("name", sorted(tf1core_cases.PROTO_CASES))
def test_proto_bytes_match_tensorflow(name):
    message = tf1core_cases.PROTO_CASES[name](tf)
    data = message.SerializeToString()
    assert data.hex() == FIXTURES["protos"][name]
    assert type(message).FromString(data) == message


def test_config_device_count_is_a_map():
    config = tf.ConfigProto(device_count={"GPU": 0})
    config.device_count["CPU"] = 2
    parsed = tf.ConfigProto.FromString(config.SerializeToString())
    assert parsed.device_count == {"CPU": 2, "GPU": 0}


def test_summary_written_by_hand_reads_back_in_tensorboard(tmp_path):
    event_accumulator = pytest.importorskip(
        "tensorboard.backend.event_processing.event_accumulator", reason="tensorboard is not installed")
    writer = tf.summary.FileWriter(str(tmp_path))
    for step, acc in enumerate([0.5, 0.75, 0.875]):
        writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="acc", simple_value=acc)]), step)
    writer.close()
    acc = event_accumulator.EventAccumulator(str(tmp_path))
    acc.Reload()
    assert [(e.step, e.value) for e in acc.Scalars("acc")] == [(0, 0.5), (1, 0.75), (2, 0.875)]


def test_op_on_gpu_fails_without_soft_placement():
    with tf.Graph().as_default():
        with tf.device("/gpu:0"):
            b = tf.add(tf.constant(1.0), 1.0, name="b")
        with tf.Session() as sess, pytest.raises(errors.InvalidArgumentError,
                                                 match="Cannot assign a device for operation .* was explicitly assigned to /device:GPU:0"):
            sess.run(b)
        with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
            assert sess.run(b) == 2.0


def test_log_device_placement_lists_each_op(capfd):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, name="x")
        y = tf.multiply(x, 2.0, name="y")
        config = tf.ConfigProto(log_device_placement=True, intra_op_parallelism_threads=1,
                                inter_op_parallelism_threads=1)
        with tf.Session(config=config) as sess:
            assert sess.run(y, {x: 3.0}) == 6.0
    err = capfd.readouterr().err
    assert "y: (Mul): /job:localhost/replica:0/task:0/device:CPU:0" in err


def test_intra_op_threads_limit_blas_during_run():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    seen = []

    def probe(x):
        seen.append(max((p["num_threads"] for p in threadpoolctl.threadpool_info()), default=1))
        return x

    with tf.Graph().as_default():
        a = tf.constant(np.ones((4, 4), np.float32))
        m = tf.matmul(a, a)
        with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=1)) as sess:
            from edgelite.client import placement
            with placement.intra_op_threads(sess._config):
                probe(None)
            assert sess.run(m)[0, 0] == 4.0
    assert seen == [1]


@pytest.mark.parametrize("name", sorted(tf1core_cases.SUMMARY_OP_CASES))
def test_summary_op_output_matches_tensorflow(name):
    with tf.Graph().as_default(), tf.Session() as sess:
        data = sess.run(tf1core_cases.SUMMARY_OP_CASES[name](tf))
    assert tf.Summary.FromString(data) == tf.Summary.FromString(bytes.fromhex(FIXTURES["summary_ops"][name]))
    assert data.hex() == FIXTURES["summary_ops"][name]


def test_make_ndarray_reads_tensorflow_tensor_protos():
    from edgelite.summary.protos import TensorProto

    for name in ("tensor_proto_floats", "tensor_proto_ints_2d", "tensor_proto_fill", "tensor_proto_f64",
                 "tensor_proto_strings"):
        theirs = tf.make_ndarray(TensorProto.FromString(bytes.fromhex(FIXTURES["protos"][name])))
        ours = tf.make_ndarray(tf1core_cases.PROTO_CASES[name](tf))
        assert theirs.dtype == ours.dtype and theirs.shape == ours.shape
        np.testing.assert_array_equal(theirs, ours)
    np.testing.assert_array_equal(tf.make_ndarray(tf.make_tensor_proto(7, shape=[2, 3])), np.full((2, 3), 7))
    with pytest.raises(TypeError, match="Expected a TensorProto"):
        tf.make_ndarray(np.zeros(2))


def test_wav_encode_and_decode_match_tensorflow():
    recorded = FIXTURES["wav"]
    with tf.Graph().as_default(), tf.Session() as sess:
        data = sess.run(tf.audio.encode_wav(tf1core_cases.AUDIO, 16000))
        assert data.hex() == recorded["encoded"]
        for (channels, samples), want in zip(tf1core_cases.WAV_DECODE_CASES, recorded["decoded"]):
            result = tf.audio.decode_wav(data, desired_channels=channels, desired_samples=samples)
            audio, rate = sess.run(result)
            assert [audio.tolist(), int(rate)] == want
            assert result.audio.shape.as_list() == [samples if samples > 0 else None,
                                                    channels if channels > 0 else None]
        for bad, text in [(b"RIFF", "Data too short when trying to read string"),
                          (b"hello world, not a wav file", "Header mismatch: Expected RIFF but found hell")]:
            with pytest.raises(errors.InvalidArgumentError, match=text):
                sess.run(tf.audio.decode_wav(bad))
        with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
            tf.audio.encode_wav(np.zeros(3, np.float32), 100)
