"""Record TensorFlow 2.21's answers for the tf1core tests into tf_fixtures.json.

Run by hand with the TensorFlow interpreter, from the repository root:
    /work/tfvenv/bin/python tests/tf1core/generate_tf_fixtures.py
"""
from __future__ import annotations

import json
import os
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from tf1core_cases import (  # noqa: E402
    CHECK_CASES, CONSTANT_STEP_CASES, CONSTANT_STEPS, PROTO_CASES, SCHEDULE_CASES, SCHEDULE_STEPS, SUMMARY_OP_CASES,
    AUDIO, WAV_DECODE_CASES, check_outcome,
)


def protos(tf) -> dict:
    """Wire bytes (hex) of each message the case list builds."""
    return {name: build(tf).SerializeToString().hex() for name, build in PROTO_CASES.items()}


def schedules(tf) -> dict:
    """Each learning-rate schedule's float32 value at every step of SCHEDULE_STEPS."""
    out = {}
    for name, build in SCHEDULE_CASES.items():
        graph = tf.Graph()
        with graph.as_default():
            step = tf.placeholder(tf.int64, [])
            rate = build(tf, step)
            with tf.Session() as sess:
                out[name] = [float(sess.run(rate, {step: s})) for s in SCHEDULE_STEPS]
    return out


def constant_step_schedules(tf) -> dict:
    """The schedules of CONSTANT_STEP_CASES with each step of CONSTANT_STEPS given as a Python int."""
    out = {}
    for name in CONSTANT_STEP_CASES:
        graph = tf.Graph()
        with graph.as_default():
            rates = [SCHEDULE_CASES[name](tf, step) for step in CONSTANT_STEPS]
            with tf.Session() as sess:
                out[name] = [float(v) for v in sess.run(rates)]
    return out


def summary_ops(tf) -> dict:
    """Serialized output (hex) of each summary op SUMMARY_OP_CASES builds, run in a session."""
    out = {}
    for name, build in SUMMARY_OP_CASES.items():
        graph = tf.Graph()
        with graph.as_default(), tf.Session() as sess:
            out[name] = sess.run(build(tf)).hex()
    return out


def wav(tf) -> dict:
    """encode_wav of AUDIO (hex) and decode_wav of it under each WAV_DECODE_CASES entry."""
    with tf.Graph().as_default(), tf.Session() as sess:
        data = sess.run(tf.audio.encode_wav(AUDIO, 16000))
        decoded = []
        for channels, samples in WAV_DECODE_CASES:
            audio, rate = sess.run(tf.audio.decode_wav(data, desired_channels=channels, desired_samples=samples))
            decoded.append([audio.tolist(), int(rate)])
    return {"encoded": data.hex(), "decoded": decoded}


def main() -> None:
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    record = {"tensorflow": tf.VERSION, "protos": protos(tf), "schedules": schedules(tf),
              "constant_step_schedules": constant_step_schedules(tf), "summary_ops": summary_ops(tf),
              "wav": wav(tf), "checks": {name: check_outcome(tf, build) for name, build in CHECK_CASES.items()}}
    out = Path(__file__).resolve().parent / "tf_fixtures.json"
    out.write_text(json.dumps(record, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
