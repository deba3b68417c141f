"""Cases shared by generate_tf_fixtures.py (under TensorFlow, by hand) and the edgelite tests: each builder
takes the `tf` module so the same code builds the value in both frameworks."""
from __future__ import annotations

import numpy as np

# Protos scripts build by hand; their wire bytes must equal TensorFlow's.
# (One device_count entry only: TensorFlow writes map entries in hash order, which varies between runs.)
PROTO_CASES = {
    "config": lambda tf: tf.ConfigProto(
        device_count={"GPU": 0}, intra_op_parallelism_threads=2, inter_op_parallelism_threads=3,
        allow_soft_placement=True, log_device_placement=True,
        gpu_options=tf.GPUOptions(allow_growth=True, per_process_gpu_memory_fraction=0.5),
        graph_options=tf.GraphOptions(optimizer_options=tf.OptimizerOptions(opt_level=tf.OptimizerOptions.L0))),
    "run_options": lambda tf: tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE, timeout_in_ms=1000),
    "summary_scalar": lambda tf: tf.Summary(value=[tf.Summary.Value(tag="acc", simple_value=0.75)]),
    "summary_histo": lambda tf: tf.Summary(value=[tf.Summary.Value(tag="w", histo=tf.HistogramProto(
        min=-1.0, max=2.0, num=3, sum=1.5, sum_squares=5.25, bucket_limit=[0.0, 2.0], bucket=[1, 2]))]),
    "summary_image": lambda tf: tf.Summary(value=[tf.Summary.Value(tag="img", image=tf.Summary.Image(
        height=2, width=3, colorspace=1, encoded_image_string=b"\x89PNG"))]),
    "summary_audio": lambda tf: tf.Summary(value=[tf.Summary.Value(tag="snd", audio=tf.Summary.Audio(
        sample_rate=8000.0, num_channels=1, length_frames=4, encoded_audio_string=b"RIFF",
        content_type="audio/wav"))]),
    "event": lambda tf: tf.Event(wall_time=1.5, step=7, summary=tf.Summary(
        value=[tf.Summary.Value(tag="loss", simple_value=0.25)])),
    "session_log": lambda tf: tf.Event(step=3, session_log=tf.SessionLog(
        status=tf.SessionLog.CHECKPOINT, checkpoint_path="ckpt", msg="saved")),
    "log_message": lambda tf: tf.Event(log_message=tf.LogMessage(level=tf.LogMessage.WARN, message="careful")),
    "node_def": lambda tf: tf.NodeDef(name="a", op="Const", input=["x", "^y"], device="/device:CPU:0"),
    "attr_value": lambda tf: tf.AttrValue(i=5),
    "graph_def": lambda tf: tf.GraphDef(node=[tf.NodeDef(name="a", op="NoOp")]),
    "tensor_proto_floats": lambda tf: tf.make_tensor_proto([1.0, 2.5, -3.0]),
    "tensor_proto_ints_2d": lambda tf: tf.make_tensor_proto([[1, 2], [3, 4]]),
    "tensor_proto_fill": lambda tf: tf.make_tensor_proto(7, shape=[2, 3]),
    "tensor_proto_f64": lambda tf: tf.make_tensor_proto(0.5, dtype=tf.float64),
    "tensor_proto_strings": lambda tf: tf.make_tensor_proto(["a", "bc"]),
    "tensor_proto_short": lambda tf: tf.make_tensor_proto([1, 2], shape=[3]),
    "tensor_proto_short_f32": lambda tf: tf.make_tensor_proto([1.0, 2.0], shape=[2, 2]),
}

SCHEDULE_STEPS = list(range(0, 201))

SCHEDULE_CASES = {
    "exponential": lambda tf, s: tf.train.exponential_decay(0.1, s, 30, 0.96),
    "exponential_staircase": lambda tf, s: tf.train.exponential_decay(0.1, s, 30, 0.5, staircase=True),
    "inverse_time": lambda tf, s: tf.train.inverse_time_decay(0.1, s, 10, 0.5),
    "inverse_time_staircase": lambda tf, s: tf.train.inverse_time_decay(0.1, s, 10, 0.5, staircase=True),
    "natural_exp": lambda tf, s: tf.train.natural_exp_decay(0.1, s, 10, 0.3),
    "natural_exp_staircase": lambda tf, s: tf.train.natural_exp_decay(0.1, s, 10, 0.3, staircase=True),
    "piecewise_constant": lambda tf, s: tf.train.piecewise_constant(s, [50, 120], [0.1, 0.01, 0.001]),
    "polynomial_linear": lambda tf, s: tf.train.polynomial_decay(0.1, s, 150, 0.001),
    "polynomial_power2": lambda tf, s: tf.train.polynomial_decay(0.1, s, 150, 0.001, power=2.0),
    "polynomial_sqrt": lambda tf, s: tf.train.polynomial_decay(0.1, s, 150, 0.0, power=0.5),
    "polynomial_cycle": lambda tf, s: tf.train.polynomial_decay(0.1, s, 60, 0.0, power=0.5, cycle=True),
    "polynomial_cycle_linear": lambda tf, s: tf.train.polynomial_decay(0.05, s, 70, 0.005, cycle=True),
    "cosine": lambda tf, s: tf.train.cosine_decay(0.1, s, 150),
    "cosine_alpha": lambda tf, s: tf.train.cosine_decay(0.1, s, 150, alpha=0.1),
    "cosine_restarts": lambda tf, s: tf.train.cosine_decay_restarts(0.1, s, 40),
    "cosine_restarts_mul": lambda tf, s: tf.train.cosine_decay_restarts(0.1, s, 30, t_mul=1.5, m_mul=0.8,
                                                                        alpha=0.01),
    "linear_cosine": lambda tf, s: tf.train.linear_cosine_decay(0.1, s, 150),
    "linear_cosine_beta": lambda tf, s: tf.train.linear_cosine_decay(0.1, s, 150, num_periods=2.0, alpha=0.1,
                                                                     beta=0.01),
    "exponential_f64_rate": lambda tf, s: tf.train.exponential_decay(
        tf.constant(0.1, tf.float64), s, 30, 0.96),
    "polynomial_long": lambda tf, s: tf.train.polynomial_decay(1.0, s, 200, 1e-4, power=1.0),
}

# Steps given as Python ints: TensorFlow folds the whole formula with exact divisions (180 / 60 = 3 here).
CONSTANT_STEPS = [0, 14, 38, 110, 180]
CONSTANT_STEP_CASES = ["exponential", "inverse_time", "polynomial_sqrt", "polynomial_cycle", "cosine_alpha",
                       "cosine_restarts_mul", "linear_cosine_beta"]

# [frames, channels] audio: exact, rounding (+-0.5 / 32768) and clipping cases for the 16-bit WAV codec.
AUDIO = np.array([[0.0, 0.5], [-0.5, 1.0], [0.25, -1.0], [1.5, -2.0], [0.00001526, -0.0000153]], np.float32)

# (desired_channels, desired_samples) for decode_wav of AUDIO.
WAV_DECODE_CASES = [(-1, -1), (1, -1), (3, -1), (-1, 3), (-1, 7)]

# Summary ops whose serialized Summary must equal TensorFlow's.
SUMMARY_OP_CASES = {
    "tensor_summary_f32": lambda tf: tf.summary.tensor_summary("t", tf.constant([[1.5, 2.0], [3.0, 4.0]])),
    "tensor_summary_i32_scalar": lambda tf: tf.summary.tensor_summary("n", tf.constant(7), display_name="seven",
                                                                      summary_description="a count"),
    "tensor_summary_family": lambda tf: tf.summary.tensor_summary("v:0", tf.constant([1, 2], tf.int64),
                                                                  family="fam"),
    "scalar_cleaned": lambda tf: tf.summary.scalar("loss:0", tf.constant(0.5)),
    "histogram_cleaned": lambda tf: tf.summary.histogram("W1:0", tf.constant([1.0, 2.0, 2.5])),
    "audio_mono_batch": lambda tf: tf.summary.audio("snd", tf.constant(AUDIO.T), 16000, max_outputs=3),
    "audio_stereo_one": lambda tf: tf.summary.audio("snd", tf.constant(AUDIO[None]), 8000, max_outputs=1),
}


def _fed(tf, dtype, shape, value, check):
    """(check op on a placeholder, feed): the check decided at run time."""
    x = tf.placeholder(dtype, shape)
    return check(x), {x: value}


# tf.assert_* cases: each builds (op, feed) or raises while building; TF's error type and text are recorded.
CHECK_CASES = {
    "equal_static_fail": lambda tf: (tf.assert_equal(tf.constant([1, 2]), tf.constant([1, 3])), {}),
    "equal_run_fail": lambda tf: _fed(tf, tf.int32, [None], [1, 2],
                                      lambda x: tf.assert_equal(x, [1, 3], message="msg")),
    "equal_run_ok": lambda tf: _fed(tf, tf.int32, [None], [1, 3], lambda x: tf.assert_equal(x, [1, 3])),
    "less_run_fail": lambda tf: _fed(tf, tf.float32, [None], [1.0, 5.0], lambda x: tf.assert_less(x, [2.0, 3.0])),
    "greater_equal_static_fail": lambda tf: (tf.assert_greater_equal(tf.constant(1.0), tf.constant(2.0)), {}),
    "none_equal_run_fail": lambda tf: _fed(tf, tf.int32, [2], [4, 5], lambda x: tf.assert_none_equal(x, [1, 5])),
    "positive_run_fail": lambda tf: _fed(tf, tf.int32, [None], [1, -5, 3],
                                         lambda x: tf.assert_positive(x, summarize=2)),
    "negative_run_fail": lambda tf: _fed(tf, tf.float32, [None], [-1.0, 0.0],
                                         lambda x: tf.assert_negative(x, message="neg")),
    "non_negative_static_fail": lambda tf: (tf.assert_non_negative(tf.constant([-1])), {}),
    "non_positive_run_ok": lambda tf: _fed(tf, tf.int64, [None], [0, -2], lambda x: tf.assert_non_positive(x)),
    "near_run_fail": lambda tf: _fed(tf, tf.float64, [2], [1.0, 2.0],
                                     lambda x: tf.assert_near(x, [1.0, 2.1], rtol=0.01, atol=0.01)),
    "rank_static_fail": lambda tf: (tf.assert_rank(tf.constant([1, 2]), 2), {}),
    "rank_run_fail": lambda tf: _fed(tf, tf.float32, None, [1.0], lambda x: tf.assert_rank(x, 2, message="mm")),
    "rank_at_least_static_fail": lambda tf: (tf.assert_rank_at_least(tf.constant(1.0), 1, message="m"), {}),
    "rank_at_least_run_fail": lambda tf: _fed(tf, tf.int32, None, 3, lambda x: tf.assert_rank_at_least(x, 1)),
    "rank_in_static_fail": lambda tf: (tf.assert_rank_in(tf.constant([[1]]), [0, 1]), {}),
    "rank_in_run_ok": lambda tf: _fed(tf, tf.int32, None, [[1]], lambda x: tf.assert_rank_in(x, [0, 2])),
    "type_fail": lambda tf: (tf.assert_type(tf.constant([1, 2]), tf.float32, message="typed"), {}),
    "integer_fail": lambda tf: (tf.assert_integer(tf.constant([1.0])), {}),
    "scalar_fail": lambda tf: (tf.assert_scalar(tf.constant([1.0, 2.0])), {}),
    "same_float_dtype_fail": lambda tf: (tf.assert_same_float_dtype([tf.constant(1.0), tf.constant(1, tf.float64)]),
                                         {}),
    "same_float_dtype_int": lambda tf: (tf.assert_same_float_dtype(dtype=tf.int32), {}),
    "proper_iterable_fail": lambda tf: (tf.assert_proper_iterable("abc"), {}),
}


def check_outcome(tf, build) -> list:
    """[stage, error type, text] of a CHECK_CASES entry under `tf`: stage 'build', 'run' or 'ok'; for a run-time
    failure the text is the kernel's 'assertion failed' line (TensorFlow adds node context around it)."""
    with tf.Graph().as_default():
        try:
            op, feed = build(tf)
        except Exception as e:  # the error type is what is recorded
            return ["build", type(e).__name__, str(e)]
        if op is None or not hasattr(op, "graph"):
            return ["ok", "", repr(op)]
        with tf.Session() as sess:
            try:
                sess.run(op, feed)
            except tf.errors.OpError as e:
                line = next(ln for ln in e.message.splitlines() if ln.startswith("assertion failed"))
                return ["run", type(e).__name__, line]
    return ["ok", "", ""]
